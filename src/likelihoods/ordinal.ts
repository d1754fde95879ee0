/**
 * Ordinal regression with a GP prior (ORD), Appendix B.4 of the comparison paper: thresholds
 * b_0 = -inf < b_1 < ... < b_{r-1} < b_r = +inf, latent noise delta ~ N(0, sigma^2), and
 *
 *   p(y_i = k | f_i) = Phi(z_k) - Phi(z_{k-1}),  z_s = (b_s - f_i) / sigma,
 *
 * where y_i = k in {1, ..., r} is the 1-based index of the interval (b_{k-1}, b_k] that
 * f_i + delta falls in (B.4's convention).
 *
 * Derivatives. With a = z_{k-1}, b = z_k, N the standard normal density and dz/df = -1/sigma:
 *   p'   = (N(a) - N(b)) / sigma
 *   p''  = (a N(a) - b N(b)) / sigma^2
 *   p''' = ((a^2 - 1) N(a) - (b^2 - 1) N(b)) / sigma^3
 * so with rho_a = N(a)/p, rho_b = N(b)/p (0 at an infinite end) and
 *   m1 = rho_a - rho_b,  m2 = a rho_a - b rho_b,  m3 = (a^2 - 1) rho_a - (b^2 - 1) rho_b:
 *   d log p / df = m1 / sigma                           (B.4's gradient)
 *   d2           = (m2 - m1^2) / sigma^2
 *   d3           = (m3 - 3 m1 m2 + 2 m1^3) / sigma^3
 * B.4's printed Hessian has the first term as (z_s N(z_s) - z_{s-1} N(z_{s-1})) / (sigma^2 p),
 * the opposite sign to m2 above (the text is PDF-extracted); m2 is the derivative of B.4's own
 * gradient, it reduces to the probit's -r (u + r) for r = 2, and the finite-difference tests
 * confirm it.
 *
 * Expected Fisher information (B.4's R_ii = -sum_s p_s E-Hessian): since sum_s p_s'' = 0,
 *   R_ii = sum_s (p_s')^2 / p_s = sum_s p_s m1_s^2 / sigma^2,
 * a sum of non-negative terms, each formed as exp(log p_s) m1_s^2 so nothing is subtracted.
 *
 * Stability. log p is never formed as log(Phi(b) - Phi(a)) with both near 1, nor as 1 - tiny:
 * for an interval above the mode (a >= 0) it is log Phi(-a) + log(1 - Phi(-b)/Phi(-a)), below
 * it (b <= 0) log Phi(b) + log(1 - Phi(a)/Phi(b)), and the log-ratio of the two tail
 * probabilities is written through Mills' ratio R as -(b - a)(b + a)/2 + log(R(b)/R(a)), so a
 * narrow interval far in a tail keeps its digits. Only an interval that straddles the mode
 * subtracts (p = 1 - Phi(a) - Phi(-b)), with relative error about 1e-16 / p, negligible unless
 * the interval is far narrower than sigma. The derivatives lose relative accuracy of about
 * 1e-16 z^2 (d2) and 1e-16 z^6 (d3) at |z| large, from the cancellation inherent in these
 * cumulant-like expressions: 4e-13 and 2e-7 relative at |z| = 40.
 */
import { millsRatio, logPhi, normalCdf, normalLogPdf } from "../math/index.js";
import type { PointwiseLikelihood } from "./pointwise.js";
import { LikelihoodOptionError } from "./options.js";
import { assertLengths } from "./shape.js";
import { LikelihoodDataError } from "./types.js";

const NAME = "ordinal";

/** log(1 - exp(x)) for x < 0 (Maechler's split at -log 2). */
function log1mExp(x: number): number {
  return x > -Math.LN2 ? Math.log(-Math.expm1(x)) : Math.log1p(-Math.exp(x));
}

/**
 * log(Phi(b) - Phi(a)) for a < b (either may be infinite), given w = b - a computed from the
 * thresholds directly (not by subtracting a from b).
 */
export function logNormalIntervalProbability(a: number, b: number, w: number): number {
  if (a === -Infinity) return logPhi(b);
  if (b === Infinity) return logPhi(-a);
  if (a >= 0) {
    // log Phi(-b) - log Phi(-a) = -(b^2 - a^2)/2 + log(R(b) / R(a))
    const x = -0.5 * w * (a + b) + Math.log(millsRatio(b) / millsRatio(a));
    return logPhi(-a) + log1mExp(x);
  }
  if (b <= 0) {
    // log Phi(a) - log Phi(b) = (b^2 - a^2)/2 + log(R(-a) / R(-b))
    const x = 0.5 * w * (a + b) + Math.log(millsRatio(-a) / millsRatio(-b));
    return logPhi(b) + log1mExp(x);
  }
  return Math.log1p(-(normalCdf(a) + normalCdf(-b)));
}

export interface OrdinalOptions {
  /** The finite thresholds b_1 < ... < b_{r-1}; r = thresholds.length + 1 categories (at least 2). */
  thresholds: ArrayLike<number>;
  /** sigma_delta > 0, the sd of the latent noise (default 1). */
  noiseSd?: number;
}

/** The ordinal probit likelihood with responses y in {1, ..., r} (1-based interval index). */
export function ordinalLikelihood(options: OrdinalOptions): PointwiseLikelihood & {
  readonly categories: number;
  readonly thresholds: Float64Array;
  readonly noiseSd: number;
  /** log p(y = k | f) for k = 1..r, written to out[k - 1]. */
  categoryLogProbabilities(f: number, out: Float64Array): Float64Array;
} {
  const given = options.thresholds;
  if (given === undefined || given.length < 1) throw new LikelihoodOptionError("thresholds", "ordinal needs at least one threshold (r >= 2 categories)");
  const thr = Float64Array.from(given);
  for (let j = 0; j < thr.length; j++) {
    if (!Number.isFinite(thr[j])) throw new LikelihoodOptionError("thresholds", `threshold ${j + 1} is ${thr[j]}, expected a finite number`);
    if (j > 0 && !(thr[j] > thr[j - 1])) throw new LikelihoodOptionError("thresholds", `thresholds must increase strictly, but b_${j} = ${thr[j - 1]} and b_${j + 1} = ${thr[j]}`);
  }
  const sigma = options.noiseSd ?? 1;
  if (!(sigma > 0) || !Number.isFinite(sigma)) throw new LikelihoodOptionError("noiseSd", `must be a positive finite number, got ${sigma}`);
  const r = thr.length + 1;
  // bound(s) = b_s for s = 0..r with b_0 = -inf, b_r = +inf.
  const bound = (s: number): number => (s === 0 ? -Infinity : s === r ? Infinity : thr[s - 1]);
  // Interval widths in z units, (b_k - b_{k-1}) / sigma (infinite at the ends).
  const width = new Float64Array(r + 1);
  for (let k = 1; k <= r; k++) width[k] = (bound(k) - bound(k - 1)) / sigma;

  // Per-point results of `terms`.
  let logp = 0, m1 = 0, m2 = 0, m3 = 0;
  /** Fills logp, m1, m2 (and m3 when `third`) for category k at latent f. */
  const terms = (k: number, f: number, third: boolean): void => {
    const a = (bound(k - 1) - f) / sigma;
    const b = (bound(k) - f) / sigma;
    logp = logNormalIntervalProbability(a, b, width[k]);
    // An infinite end contributes nothing (N(+-inf) = 0 beats any power of z).
    const aFinite = k > 1, bFinite = k < r;
    const ra = aFinite ? Math.exp(normalLogPdf(a) - logp) : 0;
    const rb = bFinite ? Math.exp(normalLogPdf(b) - logp) : 0;
    const ara = aFinite ? a * ra : 0;
    const brb = bFinite ? b * rb : 0;
    m1 = ra - rb;
    m2 = ara - brb;
    if (third) m3 = (aFinite ? a * ara - ra : 0) - (bFinite ? b * brb - rb : 0);
  };
  const category = (yi: number): number => {
    if (!(yi >= 1 && yi <= r && Number.isInteger(yi))) throw new RangeError(`${NAME} likelihood: response ${yi} is not a category in 1..${r}`);
    return yi;
  };

  return {
    name: NAME,
    categories: r,
    thresholds: thr,
    noiseSd: sigma,

    categoryLogProbabilities(f, out) {
      if (out.length !== r) throw new RangeError(`${NAME} likelihood categoryLogProbabilities: out has length ${out.length}, expected ${r}`);
      for (let k = 1; k <= r; k++) {
        const a = (bound(k - 1) - f) / sigma;
        const b = (bound(k) - f) / sigma;
        out[k - 1] = logNormalIntervalProbability(a, b, width[k]);
      }
      return out;
    },

    logLikelihood(y, f) {
      assertLengths(NAME, "logLikelihood", { y, f });
      let sum = 0;
      for (let i = 0; i < f.length; i++) {
        const k = category(y[i]);
        sum += logNormalIntervalProbability((bound(k - 1) - f[i]) / sigma, (bound(k) - f[i]) / sigma, width[k]);
      }
      return sum;
    },

    logLikelihoodPoints(y, f, out) {
      assertLengths(NAME, "logLikelihoodPoints", { y, f, out });
      for (let i = 0; i < f.length; i++) {
        const k = category(y[i]);
        out[i] = logNormalIntervalProbability((bound(k - 1) - f[i]) / sigma, (bound(k) - f[i]) / sigma, width[k]);
      }
      return out;
    },

    derivatives(y, f, d1, d2, d3) {
      assertLengths(NAME, "derivatives", { y, f, d1, d2, d3 });
      let sum = 0;
      const third = d3 !== undefined;
      for (let i = 0; i < f.length; i++) {
        terms(category(y[i]), f[i], third);
        sum += logp;
        d1[i] = m1 / sigma;
        d2[i] = (m2 - m1 * m1) / (sigma * sigma);
        if (d3) d3[i] = (m3 - 3 * m1 * m2 + 2 * m1 * m1 * m1) / (sigma * sigma * sigma);
      }
      return sum;
    },

    fisherInformation(f, out) {
      assertLengths(NAME, "fisherInformation", { f, out });
      for (let i = 0; i < f.length; i++) {
        let s = 0;
        for (let k = 1; k <= r; k++) {
          terms(k, f[i], false);
          if (logp > -Infinity) s += Math.exp(logp) * m1 * m1;
        }
        out[i] = s / (sigma * sigma);
      }
      return out;
    },

    sample(f, rng, out) {
      assertLengths(NAME, "sample", { f, out });
      for (let i = 0; i < f.length; i++) {
        const x = f[i] + sigma * rng.normal();
        // y = 1 + #{j : b_j < x}, i.e. b_{y-1} < x <= b_y, by bisection.
        let lo = 0, hi = thr.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (thr[mid] < x) lo = mid + 1;
          else hi = mid;
        }
        out[i] = lo + 1;
      }
      return out;
    },

    checkResponses(y) {
      for (let i = 0; i < y.length; i++) {
        const v = y[i];
        if (!Number.isInteger(v) || v < 1 || v > r) throw new LikelihoodDataError(NAME, i, v, `an integer category in 1..${r} (1-based interval index)`);
      }
    },
  };
}
