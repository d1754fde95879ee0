/**
 * Riemannian manifold Lagrangian Monte Carlo (lagrangianKernel.ts) on a dense-metric target
 * whose model offers G + c dG[a] (DenseMetricModel.metricAlong; logistic regression's
 * X' diag(lambda + c omega o (X a)) X + I / alpha, its Fisher metric being the Hessian of minus the
 * log-likelihood plus the prior's, so dG_ij/dx_k is symmetric in all three indices). A half step
 * is one Cholesky solve with G + e/4 dG[a], the Jacobian one more factor of G - e/4 dG[v']; G v'
 * and G(x') v' are products with the geometry's dense G. Per leapfrog step: two weighted
 * cross-products X' W X for each half step and the geometry at the new position (G and the traces
 * of the metric derivatives), O(N D^2); no fixed points.
 */
import { cholesky, type Cholesky } from "../../linalg/cholesky.js";
import type { Matrix } from "../../linalg/matrix.js";
import { symmetricMatvecInto } from "../../linalg/products.js";
import type { DenseLocalGeometry, DenseMetricTarget } from "../../targets/denseMetric.js";
import { LagrangianFailure, lagrangianKernel, type LagrangianKernel, type LagrangianOptions } from "./lagrangianKernel.js";
import { isNumericalFailure } from "./metropolis.js";

/** chol(a), or a failed trajectory where a is not positive definite. */
function factorOrFail(a: Matrix): Cholesky {
  try {
    return cholesky(a, { what: "G + e/4 dG[v]", inPlace: true });
  } catch (e) {
    if (isNumericalFailure(e)) throw new LagrangianFailure("numerical-error");
    throw e;
  }
}

export function lagrangianDense(target: DenseMetricTarget, options: LagrangianOptions): LagrangianKernel<DenseLocalGeometry> {
  const model = target.model;
  const along = model.metricAlong?.bind(model);
  if (!along) throw new Error("rmhmc: the lagrangian integrator needs the model's metricAlong (G + c dG[a]); this model does not offer it");
  const n = target.dim;
  const y = new Float64Array(n);
  return lagrangianKernel<DenseLocalGeometry>({
    dim: n,
    geometry: (x) => target.geometry(x),
    logDet: (geo) => geo.logDetMetric,
    halfStep(geo, eps, v, p, gradPhi) {
      const q = 0.25 * eps;
      const plus = factorOrFail(along(geo.position, v, q));
      for (let i = 0; i < n; i++) y[i] = p[i] - 0.5 * eps * gradPhi[i];
      plus.solveInPlace(y);
      v.set(y);
      symmetricMatvecInto(geo.metric, v, p);
      const minus = factorOrFail(along(geo.position, v, -q));
      return minus.logDet() - plus.logDet();
    },
    transport: (_from, to, v, p) => symmetricMatvecInto(to.metric, v, p),
    metricTimes: (geo, v, out) => symmetricMatvecInto(geo.metric, v, out),
  }, options);
}
