/**
 * Bayesian logistic regression's run (Girolami & Calderhead 2011, Section 7.1) as the model
 * registry declares it: the data (labels 0/1 or -1/+1 and input columns, read as 0/1), its options'
 * defaults (prior variance alpha = 100, no polynomial terms), the target (the design with its
 * intercept and powers, the posterior with the Fisher metric), and the parametric samplers with
 * this model's presets (samplers/parametricRegistry.ts), from beta = 0.
 */
import { oneClassWarning, readDataset, type Dataset } from "../io/dataset.js";
import { denseMetricTarget, type DenseMetricTarget } from "../targets/denseMetric.js";
import { regressionDesign, type RegressionDesign } from "./design.js";
import { DEFAULT_PRIOR_VARIANCE, logisticRegression, type LogisticRegressionModel } from "./logisticRegression.js";
import { parametricModelSampler, withDefaults, type ModelRun, type ParametricModelSamplerOptions } from "./modelRun.js";

/** The model's options (`--prior-variance`, `--polynomial-degree`). */
export interface LogisticRegressionRunOptions {
  /** The prior variance alpha of every coefficient. */
  priorVariance: number;
  /** The powers x^2..x^p of each input column are added for p > 1. */
  polynomialDegree: number;
}

/** The posterior of a data set, with its design and what its data are warned of. */
export interface LogisticRegressionTarget {
  readonly model: LogisticRegressionModel;
  readonly target: DenseMetricTarget;
  readonly design: RegressionDesign;
  /** Where chains start: beta = 0. */
  readonly init: Float64Array;
  /** Data the model still takes but a user should hear of (a constant column, labels of one class), each naming the file. */
  readonly warnings: string[];
}

export const LOGISTIC_REGRESSION_DEFAULTS: Readonly<LogisticRegressionRunOptions> = { priorVariance: DEFAULT_PRIOR_VARIANCE, polynomialDegree: 1 };

export const logisticRegressionRun: ModelRun<Dataset, LogisticRegressionRunOptions, LogisticRegressionTarget, ParametricModelSamplerOptions> = {
  defaults: LOGISTIC_REGRESSION_DEFAULTS,
  readData: (path) => readDataset(path, { labels: "binary", binaryCoding: "zeroOne" }),
  buildTarget(data, options) {
    const { priorVariance, polynomialDegree } = withDefaults(LOGISTIC_REGRESSION_DEFAULTS, options);
    const design = regressionDesign(data.X, data.inputNames, polynomialDegree);
    const oneClass = oneClassWarning(data, "logistic");
    const warnings = [...design.warnings.map((w) => `${data.path}: ${w}`), ...(oneClass ? [oneClass] : [])];
    const model = logisticRegression(design.matrix, data.y, { priorVariance });
    return { model, target: denseMetricTarget(model), design, init: new Float64Array(model.dim), warnings };
  },
  // the model's presets (PARAMETRIC_PRESETS["logistic-regression"]) over the samplers' defaults
  sampler: (target, name, options) => parametricModelSampler(target.target, target.init, "logistic-regression", name, options, true),
};
