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
 * for any a_i). Each sweep starts from e = X beta: s, q and the log-likelihood are computed afresh
 * there (`startingPoint`, one fastExp per case), so rounding does not build up beyond the D moves
 * of a sweep, and the densities of a sweep depend on its starting point alone (a chain resumed
 * from a checkpoint computes the same bits). The N-vectors live in a workspace made once per
 * model (`coordinateWorkspace`): the moves of one call are valid until the next call.
 *
 * Where some |e_i| exceeds 700 (s_i or q_i would underflow), at the sweep's start or after a move,
 * the moves fall back to the direct computation from e + a (`direct`, the log-likelihood of the
 * shifted predictor).
 */
import { fastExp, logMixtureSum } from "../math/fastExp.js";
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

/** Cases per log of a log-likelihood (here and in logisticRegression.ts): a product of 512 factors in [1, 2] cannot overflow. */
export const LOG_BLOCK = 512;

/** The N- and D-vectors of a model's moves, reused from call to call. */
export interface CoordinateWorkspace {
  readonly b: Float64Array;
  /** The current linear predictor e (its start: X beta). */
  readonly e: Float64Array;
  readonly s: Float64Array;
  readonly q: Float64Array;
  /** exp(a_i) of the last proposal, for `set`. */
  readonly ratio: Float64Array;
  /** The fallback's moved predictor. */
  readonly shifted: Float64Array;
}

export function coordinateWorkspace(n: number, d: number): CoordinateWorkspace {
  const v = () => new Float64Array(n);
  return { b: new Float64Array(d), e: v(), s: v(), q: v(), ratio: v(), shifted: v() };
}

/**
 * sum_i [y_i e_i - log(1 + exp(e_i))] at e, with s_i and q_i = 1 - s_i into `s` and `q` (each to a
 * few ulp relative, however small): with z = exp(-|e_i|) (fastExp), log(1 + exp(e_i)) =
 * max(e_i, 0) + log(1 + z), one log per LOG_BLOCK cases of the product of the 1 + z.
 */
export function startingPoint(y: Float64Array, e: Float64Array, n: number, s: Float64Array, q: Float64Array): number {
  let l = 0;
  for (let from = 0; from < n; from += LOG_BLOCK) {
    const to = Math.min(n, from + LOG_BLOCK);
    let product = 1;
    for (let i = from; i < to; i++) {
      const ei = e[i]!;
      const z = fastExp(-Math.abs(ei));
      const w = 1 / (1 + z);
      product *= 1 + z;
      l += y[i]! * ei - (ei > 0 ? ei : 0);
      if (ei >= 0) {
        s[i] = w;
        q[i] = z * w;
      } else {
        s[i] = z * w;
        q[i] = w;
      }
    }
    l -= Math.log(product);
  }
  return l;
}

/**
 * The moves from `beta`, whose linear predictor the workspace's `e` holds, with log-likelihood
 * `logLikelihood` and s_i, 1 - s_i in its `s`, `q` (startingPoint); `direct` is the fallback's
 * log-likelihood of a whole linear predictor.
 */
export function logisticCoordinateDensity(
  data: LogisticCoordinateData,
  work: CoordinateWorkspace,
  beta: Float64Array,
  logLikelihood: number,
  direct: (e: Float64Array) => number,
): CoordinateDensity {
  const { x, n, d, xty, alpha } = data;
  const { b, e, s, q, ratio, shifted } = work;
  b.set(beta);
  let squares = 0;
  for (let k = 0; k < d; k++) squares += b[k]! * b[k]!;
  let stable = true;
  for (let i = 0; i < n; i++) if (!(Math.abs(e[i]!) <= LARGEST_PREDICTOR)) stable = false;
  let likelihood = logLikelihood;
  let lastK = -1;
  let lastValue = NaN;
  let lastLikelihood = NaN;

  function likelihoodWith(k: number, delta: number): number {
    const c = k * n;
    if (!stable) {
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
      } else e.set(shifted);
      likelihood = lastLikelihood;
      squares += value * value - b[k]! * b[k]!;
      b[k] = value;
      lastK = -1;
    },
  };
}
