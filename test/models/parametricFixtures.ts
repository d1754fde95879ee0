/**
 * Dense-metric targets with independently known moments, for the parametric samplers' tests:
 * a 2-D Gaussian with a constant non-identity metric (its precision), a banana-shaped density with
 * a position-dependent metric, and a small logistic regression. Moments of the 2-D targets come
 * from quadrature on a fine grid (independent of the samplers and of the model's gradient).
 */
import { Matrix } from "../../src/linalg/matrix.js";
import { logisticRegression, type LogisticRegressionModel } from "../../src/models/logisticRegression.js";
import { Rng } from "../../src/random/rng.js";
import type { DenseMetricModel, DenseMetricParts } from "../../src/targets/denseMetric.js";
import { quadratureMoments2d } from "../samplers/fixtures.js";

/** A 2-D model from its log density with gradient, its metric and the metric's derivatives. */
function model2(grad: (x: Float64Array, g: Float64Array) => number, metric: (x: Float64Array) => Matrix, derivatives: (x: Float64Array) => Matrix[]): DenseMetricModel {
  return {
    dim: 2,
    logDensity: (x) => grad(x, new Float64Array(2)),
    logDensityAndGradient: grad,
    denseMetric(x, withDerivatives): DenseMetricParts {
      const gradient = new Float64Array(2);
      const logDensity = grad(x, gradient);
      return { logDensity, gradient, metric: metric(x), metricDerivatives: withDerivatives ? derivatives(x) : undefined };
    },
  };
}

export const GAUSS_MEAN = [1, -2];
export const GAUSS_COV = [[1, 0.8], [0.8, 2]];

/** N(GAUSS_MEAN, GAUSS_COV) with G = the precision (constant), dG = 0. */
export function gaussianModel(): DenseMetricModel {
  const [[a, b], [, c]] = GAUSS_COV;
  const det = a * c - b * b;
  const p = [c / det, -b / det, a / det]; // p00, p01, p11
  const grad = (x: Float64Array, g: Float64Array): number => {
    const u = x[0] - GAUSS_MEAN[0];
    const v = x[1] - GAUSS_MEAN[1];
    g[0] = -(p[0] * u + p[1] * v);
    g[1] = -(p[1] * u + p[2] * v);
    return -0.5 * (p[0] * u * u + 2 * p[1] * u * v + p[2] * v * v);
  };
  return model2(grad, () => Matrix.fromRows([[p[0], p[1]], [p[1], p[2]]]), () => [new Matrix(2, 2), new Matrix(2, 2)]);
}

/** Precision of the banana's observation, its mean, and the prior precision. */
const BANANA = { precision: 4, ybar: 1, prior: 1 };

/**
 * The banana of the Riemann manifold Langevin literature: ybar ~ N(t1 + t2^2, 1/precision),
 * t ~ N(0, I/prior). Metric: the Fisher information plus the prior's,
 * G = precision J'J + prior I with J = [1, 2 t2], so dG/dt1 = 0, dG/dt2 = precision [[0, 2], [2, 8 t2]].
 */
export function bananaModel(): DenseMetricModel {
  const { precision, ybar, prior } = BANANA;
  const grad = (x: Float64Array, g: Float64Array): number => {
    const r = ybar - x[0] - x[1] * x[1];
    g[0] = precision * r - prior * x[0];
    g[1] = precision * r * 2 * x[1] - prior * x[1];
    return -0.5 * precision * r * r - 0.5 * prior * (x[0] * x[0] + x[1] * x[1]);
  };
  return model2(
    grad,
    (x) => Matrix.fromRows([[precision + prior, 2 * precision * x[1]], [2 * precision * x[1], 4 * precision * x[1] * x[1] + prior]]),
    (x) => [new Matrix(2, 2), Matrix.fromRows([[0, 2 * precision], [2 * precision, 8 * precision * x[1]]])],
  );
}

/** Logistic regression with an intercept and one covariate, 30 cases drawn once from a fixed seed, prior variance 4. */
export function smallLogistic(): LogisticRegressionModel {
  const rng = new Rng(20111);
  const n = 30;
  const x = new Matrix(n, 2);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x.set(i, 0, 1);
    x.set(i, 1, rng.normal());
    const eta = 0.5 + 1.5 * x.get(i, 1);
    y[i] = rng.uniform() < 1 / (1 + Math.exp(-eta)) ? 1 : 0;
  }
  return logisticRegression(x, y, { priorVariance: 4 });
}

/** The model with dG/dx_k negated (a negative control for samplers that use dG). */
export function negatedDerivatives(model: DenseMetricModel): DenseMetricModel {
  return {
    ...model,
    denseMetric(x, derivatives) {
      const parts = model.denseMetric(x, derivatives);
      const metricDerivatives = parts.metricDerivatives?.map((m) => new Matrix(m.rows, m.cols, m.data.map((v) => -v)));
      return { ...parts, metricDerivatives };
    },
  };
}

export interface Moments {
  mean: number[];
  cov: number[][];
}

/** Mean and covariance of exp(L) on [lo, hi]^2 by the midpoint rule (test/samplers/fixtures.ts). */
export function quadratureMoments(model: DenseMetricModel, lo: number, hi: number, points = 800): Moments {
  return quadratureMoments2d((x) => model.logDensity(x), lo, hi, points);
}

/** A logistic regression with 4 coefficients (intercept + 3 covariates) on 50 cases. */
export function mediumLogistic() {
  const rng = new Rng(7);
  const n = 50;
  const x = new Matrix(n, 4);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x.set(i, 0, 1);
    for (let k = 1; k < 4; k++) x.set(i, k, rng.normal() * k);
    y[i] = rng.uniform() < 0.4 ? 1 : 0;
  }
  return logisticRegression(x, y);
}
