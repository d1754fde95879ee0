export type { Likelihood } from "./types.js";
export { LikelihoodDataError } from "./types.js";
export type { PointwiseLikelihood } from "./pointwise.js";
export { LikelihoodOptionError, type LikelihoodOptions } from "./options.js";
export { probit, logPhiDerivatives, type ProbitDerivatives } from "./probit.js";
export { logisticLikelihood } from "./logistic.js";
export { poissonLikelihood, poissonLogPmf, samplePoisson, type PoissonOptions } from "./poisson.js";
export { volatilityLikelihood } from "./volatility.js";
export { logNormalIntervalProbability, ordinalLikelihood, type OrdinalOptions } from "./ordinal.js";
export {
  builtinLikelihoods,
  likelihoodByName,
  likelihoods,
  LikelihoodRegistry,
  type LikelihoodEntry,
  type LikelihoodFactory,
  type LikelihoodOptionName,
} from "./registry.js";
