export type { CovarianceFunction } from "./types.js";
export { KernelParameterError } from "./types.js";
export { seKernel } from "./squaredExponential.js";
export type { SquaredExponentialOptions } from "./squaredExponential.js";
