export type { EpSites, TiltedMoments } from "./sites.js";
export { gaussianSites, probitSites } from "./sites.js";
export type { EpOptions, EpResult } from "./ep.js";
export { epApproximation, expectationPropagation } from "./ep.js";
export type { EpCorrection, EpCorrectionOptions } from "./epCorrection.js";
export { epCorrectedLogZ } from "./epCorrection.js";
export type { LaplaceOptions, LaplaceResult } from "./laplace.js";
export { laplace, laplaceCovariance, NotLogConcaveError } from "./laplace.js";
