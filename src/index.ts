/** gpmcmc: fully Bayesian inference in latent Gaussian process models by MCMC. */
export { VERSION } from "./version.js";
export * from "./linalg/index.js";
export * from "./random/index.js";
export type { Target, LocalGeometry, LocalMetric, InverseMetric } from "./targets/types.js";
export * from "./samplers/index.js";
export * from "./gp/index.js";
export * from "./likelihoods/index.js";
export { annealedLatentTarget, AnnealedLatentTarget, AnnealedLatentGeometry, LatentMetric } from "./targets/annealedLatent.js";
export type { AnnealedLatentOptions, GaussianApproximation, LogDensityParts } from "./targets/annealedLatent.js";
export { NoteGeometry } from "./targets/noteMetric.js";
export { IndefiniteMetricError, StaleGeometryError, TargetOptionError } from "./targets/errors.js";
export * from "./io/index.js";
export * from "./diagnostics/index.js";
export * from "./approx/index.js";
export * from "./report/index.js";
export * from "./parallel/index.js";
export * from "./run/index.js";
