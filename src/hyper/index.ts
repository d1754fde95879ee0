export { DEFAULT_RELATIVE_JITTER, hyperDimension, hyperLogPrior, kernelAt, type HyperSpace, type KernelAt } from "./covariance.js";
export { thetaGivenF, type ThetaEvaluation, type ThetaGivenF } from "./thetaGivenF.js";
export { thetaGivenNu, type ThetaGivenNu } from "./thetaGivenNu.js";
export { gibbsSignalVariance, NotConjugateError } from "./signalVarianceGibbs.js";
export { jointChain, isSchemeName, SCHEME_NAMES, type IterationInfo, type JointChain, type SchemeName, type SchemeOptions } from "./schemes.js";
export { THETA_SAMPLER_NAMES, isThetaSamplerName, thetaKernel, type ThetaSamplerName } from "./thetaSamplers.js";
export { thetaTarget, denseLocalMetric, type ThetaDensity } from "./thetaTargets.js";
export { jointKernel, hyperSpace, hyperVariableNames, DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR, type HyperModelSpec, type HyperSamplerSpec, type JointKernel } from "./jointKernel.js";
