export { DEFAULT_RELATIVE_JITTER, hyperDimension, hyperLogPrior, kernelAt, type HyperSpace, type KernelAt } from "./covariance.js";
export { thetaGivenF, type ThetaEvaluation, type ThetaGivenF } from "./thetaGivenF.js";
export { thetaGivenNu, type ThetaGivenNu } from "./thetaGivenNu.js";
export { gibbsSignalVariance, NotConjugateError } from "./signalVarianceGibbs.js";
