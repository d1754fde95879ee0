/**
 * The predictive distribution of a response at a test input whose latent value is normal,
 * f_* ~ N(m, v) (comparison paper, eq. 3: p(y_* | f_*) integrated over f_*):
 *
 * - probit:  p(y = +1) = Phi(m / sqrt(1 + v))  (closed form; Rasmussen & Williams eq. 3.82)
 * - ordinal: p(y = k) = Phi((b_k - m) / s) - Phi((b_{k-1} - m) / s), s = sqrt(sigma^2 + v), since
 *   f_* + delta ~ N(m, sigma^2 + v): the ordinal likelihood at f = m with noise sd s
 * - logistic, Poisson, volatility: Gauss-Hermite quadrature of p(y | f) over N(m, v).
 *
 * The quadrature path works for any likelihood that reports log p(y_i | f_i) point by point; the
 * closed forms are checked against it in the tests.
 */
import { gaussHermite } from "../math/gaussHermite.js";
import { ordinalLikelihood } from "../likelihoods/ordinal.js";
import { probitClassProbability } from "../likelihoods/probit.js";
import type { PointwiseLikelihood } from "../likelihoods/pointwise.js";
import type { LatentMarginals } from "./latentConditional.js";

/** Gauss-Hermite points for the predictive integrals. */
export const PREDICTIVE_QUADRATURE_POINTS = 64;

/**
 * p(y_j | f_j ~ N(m_j, v_j)) for each test point j, by quadrature: `likelihood` must be built for
 * the test points (e.g. with their exposures).
 */
export function quadraturePredictive(likelihood: PointwiseLikelihood, y: Float64Array, marginals: LatentMarginals, out = new Float64Array(y.length)): Float64Array {
  const { nodes, weights } = gaussHermite(PREDICTIVE_QUADRATURE_POINTS);
  const m = y.length;
  const f = new Float64Array(m);
  const ll = new Float64Array(m);
  out.fill(0);
  for (let k = 0; k < nodes.length; k++) {
    for (let j = 0; j < m; j++) f[j] = marginals.mean[j]! + Math.sqrt(marginals.variance[j]!) * nodes[k]!;
    likelihood.logLikelihoodPoints(y, f, ll);
    for (let j = 0; j < m; j++) out[j] += weights[k]! * Math.exp(ll[j]!);
  }
  return out;
}

/** Probit: p(y_j = +1) for each test point, Phi(m / sqrt(1 + v)). */
export function probitPositiveProbability(marginals: LatentMarginals, out = new Float64Array(marginals.mean.length)): Float64Array {
  for (let j = 0; j < out.length; j++) out[j] = probitClassProbability(marginals.mean[j]!, marginals.variance[j]!);
  return out;
}

/**
 * Ordinal: the class probabilities, row j holding p(y_j = 1..r) at out[j r .. j r + r - 1].
 */
export function ordinalClassProbabilities(thresholds: ArrayLike<number>, noiseSd: number, marginals: LatentMarginals, out?: Float64Array): Float64Array {
  const r = thresholds.length + 1;
  const m = marginals.mean.length;
  const result = out ?? new Float64Array(m * r);
  const logp = new Float64Array(r);
  for (let j = 0; j < m; j++) {
    const widened = ordinalLikelihood({ thresholds, noiseSd: Math.sqrt(noiseSd * noiseSd + marginals.variance[j]!) });
    widened.categoryLogProbabilities(marginals.mean[j]!, logp);
    for (let k = 0; k < r; k++) result[j * r + k] = Math.exp(logp[k]!);
  }
  return result;
}
