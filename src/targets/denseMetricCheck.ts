/**
 * Finite-difference checks of a dense-metric model (targets/denseMetric.ts) at one point, which
 * every such model passes in its tests: dL/dx against central differences of L, each dG/dx_k
 * against central differences of G, G against symmetry and positive definiteness (a Cholesky
 * factorisation), and, for models whose metric is minus the Hessian of L (a canonical-link
 * Fisher metric plus a Gaussian prior), G against central differences of the gradient.
 */
import { cholesky } from "../linalg/cholesky.js";
import type { DenseMetricModel } from "./denseMetric.js";

export interface DenseMetricCheck {
  /** Largest |analytic - finite difference| / (1 + |finite difference|) over the gradient's entries. */
  gradient: number;
  /** The same over the entries of every dG/dx_k. */
  metricDerivatives: number;
  /** Largest |G_ij - G_ji| / (1 + |G_ij|). */
  asymmetry: number;
  /** The same error of G against minus the finite-difference Hessian (NaN unless asked for). */
  negativeHessian: number;
}

function relativeError(a: number, b: number): number {
  return Math.abs(a - b) / (1 + Math.abs(b));
}

/** Checks `model` at x with step h (default 1e-5); throws if G is not positive definite. */
export function checkDenseMetricModel(model: DenseMetricModel, x: Float64Array, options: { h?: number; metricIsNegativeHessian?: boolean } = {}): DenseMetricCheck {
  const h = options.h ?? 1e-5;
  const d = model.dim;
  const parts = model.denseMetric(x, true);
  const g = parts.metric;
  cholesky(g);
  const out: DenseMetricCheck = { gradient: 0, metricDerivatives: 0, asymmetry: 0, negativeHessian: options.metricIsNegativeHessian ? 0 : NaN };
  for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) out.asymmetry = Math.max(out.asymmetry, relativeError(g.get(i, j), g.get(j, i)));
  const gradPlus = new Float64Array(d);
  const gradMinus = new Float64Array(d);
  for (let k = 0; k < d; k++) {
    const xp = Float64Array.from(x);
    const xm = Float64Array.from(x);
    xp[k] += h;
    xm[k] -= h;
    const fd = (model.logDensityAndGradient(xp, gradPlus) - model.logDensityAndGradient(xm, gradMinus)) / (2 * h);
    out.gradient = Math.max(out.gradient, relativeError(parts.gradient[k], fd));
    const gp = model.denseMetric(xp, false).metric.data;
    const gm = model.denseMetric(xm, false).metric.data;
    const dg = parts.metricDerivatives![k].data;
    for (let e = 0; e < dg.length; e++) out.metricDerivatives = Math.max(out.metricDerivatives, relativeError(dg[e], (gp[e] - gm[e]) / (2 * h)));
    if (options.metricIsNegativeHessian) {
      // column k of the Hessian: d(dL/dx)/dx_k
      for (let i = 0; i < d; i++) out.negativeHessian = Math.max(out.negativeHessian, relativeError(g.get(i, k), -(gradPlus[i] - gradMinus[i]) / (2 * h)));
    }
  }
  return out;
}
