/** gpmcmc: fully Bayesian inference in latent Gaussian process models by MCMC. */
export { VERSION } from "./version.js";
export * from "./linalg/index.js";
export type { RandomSource } from "./random/types.js";
export type { Target, LocalGeometry, InverseMetric } from "./targets/types.js";
export type { Kernel, SamplerState, StepInfo, Tunable } from "./samplers/types.js";
export * from "./approx/index.js";
