/**
 * The probit likelihood for binary labels y in {-1, +1}: log p(y | f) = log Phi(y f)
 * (note Section 4), with its first, second and third derivatives in f (note Section 4.4).
 *
 * With z = y f and r = N(z)/Phi(z) (the inverse Mills ratio):
 *   d/df   log Phi(y f) = y r
 *   d2/df2 log Phi(y f) = -r (z + r)                              (so Lambda_nn = beta r (z + r))
 *   d3/df3 log Phi(y f) = y [ r (z^2 - 1) + 3 z r^2 + 2 r^3 ]      (= -dg_n / beta, note Alg. 3 line 9)
 *
 * For z -> -inf, r ~ -z and the bracketed sums cancel catastrophically (at z = -40 the three
 * terms of d3 are ~1e5 and their sum ~3e-5). Below z = -2 we therefore use Laplace's continued
 * fraction for the Mills ratio Phi(-u)/N(u) = 1/(u + t_1), u = -z, whose tails
 *   t_k = k / (u + t_{k+1}),  k = 1, 2, 3, ...
 * give every quantity without cancellation:
 *   r = u + t_1,   z + r = t_1,   r (z + r) = (u + t_1) t_1,
 *   d3 = y r t_1^2 t_2 (t_3 - t_2).
 * (Derivation: r' = -r d with d = z + r = t_1, so r'' = r (d^2 + r d - 1); using
 * u t_1 = 1 - t_1 t_2 and 2 t_1 - t_2 = t_1 t_2 (t_3 - t_2), d^2 + r d - 1 = t_1^2 t_2 (t_3 - t_2).)
 * The backward recurrence from depth 200 (u < 3) or 80 (u >= 3) is exact to rounding for
 * u >= 2 (checked against 60-digit values in the tests); above z = -2 the direct forms lose
 * at most about 200 ulp (d3 at z = -2). This replaces the note's Algorithm 4 asymptotic regime
 * (lines 6-8, -z - 1/z + 2/z^3 below z = -15), which is only the leading terms of the same
 * expansion and would leave a jump at the switch.
 */
import { logPhi, millsRatiosInPlace, normalCdf, normalLogPdf, normalPdfCdfRatio, normalPdfsInPlace } from "../math/normal.js";
import type { RandomSource } from "../random/types.js";
import { LikelihoodDataError, type Likelihood } from "./types.js";

/** Below this z = y f the continued-fraction form is used. */
const CF_SWITCH = -2;
/** `gradient` takes one logarithm per PRODUCT_MASK + 1 points (a power of two). */
const PRODUCT_MASK = 15;

/** Scratch for the three derivatives of log Phi at one z (avoids allocating per point). */
export interface ProbitDerivatives {
  /** d/dz log Phi(z) = N(z)/Phi(z). */
  d1: number;
  /** d2/dz2 log Phi(z) = -r (z + r). */
  d2: number;
  /** d3/dz3 log Phi(z). */
  d3: number;
}

/** Fills the first three derivatives of log Phi(z) in z, stably for all z (see the module comment). */
export function logPhiDerivatives(z: number, out: ProbitDerivatives): ProbitDerivatives {
  if (z < CF_SWITCH) {
    const u = -z;
    let t = 0;
    let t2 = 0;
    let t3 = 0;
    for (let k = u < 3 ? 200 : 80; k >= 1; k--) {
      t = k / (u + t);
      if (k === 3) t3 = t;
      else if (k === 2) t2 = t;
    }
    const t1 = t;
    const r = u + t1;
    out.d1 = r;
    out.d2 = -r * t1;
    out.d3 = r * t1 * t1 * t2 * (t3 - t2);
    return out;
  }
  const r = normalPdfCdfRatio(z);
  out.d1 = r;
  out.d2 = -r * (z + r);
  out.d3 = r * (z * z - 1) + 3 * z * r * r + 2 * r * r * r;
  return out;
}

let densities = new Float64Array(0);
/**
 * The two arrays the probit terms at z_i = y_i f_i are taken from, each filled by one loop over
 * the points (normalPdfsInPlace and millsRatiosInPlace say why loops, not calls per point): the
 * Mills ratio R(|z_i|) in `mills`, which the caller then overwrites, and N(z_i) where z_i > 0 (the
 * only points whose terms need it; 0 elsewhere) in the returned scratch array, reused across calls.
 */
function millsRatiosAndDensities(y: Float64Array, f: Float64Array, mills: Float64Array): Float64Array {
  const n = f.length;
  if (densities.length < n) densities = new Float64Array(n);
  const d = densities;
  for (let i = 0; i < n; i++) {
    const z = y[i] * f[i];
    mills[i] = Math.abs(z);
    d[i] = z > 0 ? z : Infinity; // phi(Infinity) = 0 at the cost of one comparison
  }
  millsRatiosInPlace(mills, n);
  normalPdfsInPlace(d, n);
  return d;
}

function checkProbitResponses(y: Float64Array): void {
  for (let i = 0; i < y.length; i++) {
    const v = y[i];
    if (v !== 1 && v !== -1) throw new LikelihoodDataError("probit", i, v, "-1 or +1");
  }
}

/** The probit likelihood p(y | f) = Phi(y f), y in {-1, +1}. */
/** p(y = +1) = E[Phi(f)] = Phi(m / sqrt(1 + v)) under f ~ N(m, v) (Rasmussen & Williams eq. 3.82): the predictive in closed form. */
export function probitClassProbability(mean: number, variance: number): number {
  return normalCdf(mean / Math.sqrt(1 + variance));
}

export const probit: Likelihood = {
  name: "probit",

  logLikelihood(y: Float64Array, f: Float64Array): number {
    let s = 0;
    for (let i = 0; i < f.length; i++) s += logPhi(y[i] * f[i]);
    return s;
  },

  // log Phi(z) and d log Phi(z) / dz = N(z)/Phi(z) from one Mills ratio R per point, as logPhi
  // and normalPdfCdfRatio compute them (z <= 0: Phi(z) = N(z) R(-z); z > 0: Phi(z) = 1 - N(z) R(z)),
  // without the continued fraction of logPhiDerivatives, whose depth only d2 and d3 need.
  // The logarithms of R(-z) (z <= 0) and of 1 - N(z) R(z) (z > 0) are taken of products of
  // PRODUCT_MASK + 1 factors, not one a point: a logarithm cost as much as the rest of a point's work
  // here. The factors lie in [1e-16, 1.26] (smaller R, beyond |z| = 1e16, have their own
  // logarithm), so a block's product neither overflows nor underflows, and its logarithm is off
  // by at most the block's rounding, a few units of 1e-16 absolute: the sum of the points' terms
  // is off by as much anyway (log1p's advantage over log(1 - q) at small q is below that too).
  gradient(y: Float64Array, f: Float64Array, d1: Float64Array): number {
    const n = f.length;
    const pdf = millsRatiosAndDensities(y, f, d1); // d1[i] = R(|z|) until overwritten
    let s = 0;
    let product = 1;
    for (let i = 0; i < n; i++) {
      const yi = y[i];
      const z = yi * f[i];
      const r = d1[i];
      if (z <= 0) {
        s += normalLogPdf(z);
        if (r >= 1e-16) product *= r;
        else s += Math.log(r);
        d1[i] = yi / r;
      } else {
        const q = pdf[i] * r;
        product *= 1 - q;
        d1[i] = (yi * pdf[i]) / (1 - q);
      }
      if ((i & PRODUCT_MASK) === PRODUCT_MASK) {
        s += Math.log(product);
        product = 1;
      }
    }
    return s + Math.log(product);
  },

  // d1 of `gradient` without its logarithms: N(z)/Phi(z) = 1/R(-z) for z <= 0, N(z)/(1 - N(z) R(z)) above.
  score(y: Float64Array, f: Float64Array, d1: Float64Array): void {
    const n = f.length;
    const pdf = millsRatiosAndDensities(y, f, d1);
    for (let i = 0; i < n; i++) {
      const yi = y[i];
      if (yi * f[i] <= 0) d1[i] = yi / d1[i];
      else d1[i] = (yi * pdf[i]) / (1 - pdf[i] * d1[i]);
    }
  },

  derivatives(y: Float64Array, f: Float64Array, d1: Float64Array, d2: Float64Array, d3?: Float64Array): number {
    const t: ProbitDerivatives = { d1: 0, d2: 0, d3: 0 };
    let s = 0;
    for (let i = 0; i < f.length; i++) {
      const yi = y[i];
      const z = yi * f[i];
      s += logPhi(z);
      logPhiDerivatives(z, t);
      // Chain rule in f = z / y with y^2 = 1: odd derivatives pick up a factor y.
      d1[i] = yi * t.d1;
      d2[i] = t.d2;
      if (d3) d3[i] = yi * t.d3;
    }
    return s;
  },

  /**
   * E_y[-d2 log p(y | f)/df2] = N(f)^2 / (Phi(f) Phi(-f)), written as the product of the two
   * ratios N(f)/Phi(|f|) and N(f)/Phi(-|f|) so that neither N(f)^2 nor Phi(-|f|) is formed
   * (both underflow for |f| > ~27); the result underflows gracefully to 0 near |f| = 38.
   */
  fisherInformation(f: Float64Array, out: Float64Array): Float64Array {
    for (let i = 0; i < f.length; i++) {
      const a = Math.abs(f[i]);
      out[i] = normalPdfCdfRatio(a) * normalPdfCdfRatio(-a);
    }
    return out;
  },

  /** y = sign(f + e), e ~ N(0, 1): P(y = +1) = Phi(f). */
  sample(f: Float64Array, rng: RandomSource, out: Float64Array): Float64Array {
    for (let i = 0; i < f.length; i++) out[i] = f[i] + rng.normal() > 0 ? 1 : -1;
    return out;
  },

  checkResponses: checkProbitResponses,
};
