/**
 * One-coefficient moves of a logistic regression (Target.coordinateDensity, for component-wise
 * Metropolis). Moving beta_k by delta moves each linear predictor e_i by a_i = delta x_ik, and
 * with s_i = 1 / (1 + exp(-e_i)) and q_i = 1 - s_i
 *
 *   log(1 + exp(e_i + a_i)) - log(1 + exp(e_i)) = log r_i,   r_i = q_i + s_i exp(a_i),
 *
 * so the log-likelihood changes by delta (X'y)_k - sum_i log r_i: one exp per case and one log per
 * block of cases (logMixtureSum, fastExp.ts). An accepted move updates s_i <- s_i exp(a_i) / r_i and
 * q_i <- q_i / r_i, which keeps both to a few ulp relative even where one is tiny (r_i >= q_i > 0
 * for any a_i). Each sweep starts from e = X beta: s and q are computed afresh there, so rounding
 * does not build up beyond the D moves of a sweep, and the densities of a sweep depend on its
 * starting point alone (a chain resumed from a checkpoint computes the same bits).
 *
 * Where some |e_i| exceeds 700 (s_i or q_i would underflow), at the sweep's start or after a move,
 * the moves fall back to the direct computation from e + a (`direct`, the log-likelihood of the
 * shifted predictor).
 */
import { logMixtureSum } from "../math/fastExp.js";
import type { CoordinateDensity } from "../targets/types.js";

/** The largest |e_i| at which s and q are kept. */
const LARGEST_PREDICTOR = 700;

export interface LogisticCoordinateData {
  /** The N x D design, column-major. */
  readonly x: Float64Array;
  readonly n: number;
  readonly d: number;
  /** X'y. */
  readonly xty: Float64Array;
  /** The prior variance alpha. */
  readonly alpha: number;
}

/**
 * The moves from `beta`, whose linear predictor is `eta` (read, not kept), log-likelihood
 * `logLikelihood` and probabilities s_i and 1 - s_i `sq` (taken over); `direct` is the fallback's
 * log-likelihood of a whole linear predictor.
 */
export function logisticCoordinateDensity(
  data: LogisticCoordinateData,
  beta: Float64Array,
  eta: Float64Array,
  logLikelihood: number,
  sq: { s: Float64Array; q: Float64Array },
  direct: (e: Float64Array) => number,
): CoordinateDensity {
  const { x, n, d, xty, alpha } = data;
  const b = beta.slice();
  let squares = 0;
  for (let k = 0; k < d; k++) squares += b[k]! * b[k]!;
  const { s, q } = sq;
  const ratio = new Float64Array(n); // exp(a_i) of the last proposal, for `set`
  const e = eta.slice(); // kept for the fallback
  let shifted: Float64Array | undefined; // the fallback's moved predictor, made when first needed
  let stable = true;
  for (let i = 0; i < n; i++) if (!(Math.abs(e[i]!) <= LARGEST_PREDICTOR)) stable = false;
  let likelihood = logLikelihood;
  let lastK = -1;
  let lastValue = NaN;
  let lastLikelihood = NaN;

  function likelihoodWith(k: number, delta: number): number {
    const c = k * n;
    if (!stable) {
      shifted ??= new Float64Array(n);
      for (let i = 0; i < n; i++) shifted[i] = e[i]! + delta * x[c + i]!;
      return direct(shifted);
    }
    return likelihood + delta * xty[k]! - logMixtureSum(delta, x, c, s, q, ratio, n);
  }

  return {
    logDensityWith(k, value) {
      const l = likelihoodWith(k, value - b[k]!);
      lastK = k;
      lastValue = value;
      lastLikelihood = l;
      return l - (squares - b[k]! * b[k]! + value * value) / (2 * alpha);
    },
    set(k, value) {
      if (k !== lastK || value !== lastValue) this.logDensityWith(k, value);
      const delta = value - b[k]!;
      if (stable) {
        const c = k * n;
        for (let i = 0; i < n; i++) {
          const t = ratio[i]!;
          const r = q[i]! + s[i]! * t;
          s[i] = (s[i]! * t) / r;
          q[i] = q[i]! / r;
          const ei = e[i]! + delta * x[c + i]!;
          e[i] = ei;
          if (!(Math.abs(ei) <= LARGEST_PREDICTOR)) stable = false;
        }
      } else e.set(shifted!);
      likelihood = lastLikelihood;
      squares += value * value - b[k]! * b[k]!;
      b[k] = value;
      lastK = -1;
    },
  };
}
