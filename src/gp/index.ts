export type { CovarianceFunction } from "./types.js";
export { KernelParameterError } from "./types.js";
export { seKernel } from "./squaredExponential.js";
export type { SquaredExponentialOptions } from "./squaredExponential.js";
export { parsePriorSpec, positivePrior, PriorSpecError } from "./hyperpriors.js";
export type { LogScaleDensity, PositivePrior, PositivePriorSpec } from "./hyperpriors.js";
