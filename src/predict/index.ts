export { conditionalAtTheta, type ConditionalAtTheta, type LatentMarginals } from "./latentConditional.js";
export { ordinalClassProbabilities, probitPositiveProbability, quadraturePredictive, PREDICTIVE_QUADRATURE_POINTS } from "./observation.js";
export { predict, COUNT_INTERVAL_DRAWS, type MarginalsByDraw, type Prediction, type PredictionScores, type PredictiveModel } from "./predict.js";
export { areaUnderRoc, binaryErrorRate, brierScore, classErrorRate, meanLogPredictiveDensity } from "./scores.js";
export { jitterAt, predictFromApproximation, predictFromDraws, type JitterSpec, type LatentDraws, type LogTheta, type SiteApproximation } from "./sources.js";
