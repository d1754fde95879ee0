// Goodness-of-fit tests and distribution functions for the random-number tests. Each function
// here is itself checked against mpmath/scipy values in stats.test.ts.
import { normalCdf, logPhi, regularizedGammaQ } from "../../src/math/index.js";

/**
 * Kolmogorov's limiting distribution, P(sqrt(n) D_n > lambda) = 2 sum_k (-1)^(k-1) exp(-2 k^2 lambda^2),
 * by that series for lambda >= 1.18 and by the Jacobi theta form
 * 1 - sqrt(2 pi)/lambda sum_k exp(-(2k-1)^2 pi^2 / (8 lambda^2)) below, where it converges fast.
 */
export function kolmogorovSurvival(lambda: number): number {
  if (lambda <= 0) return 1;
  if (lambda < 1.18) {
    let s = 0;
    for (let k = 1; k < 20; k++) s += Math.exp(-((2 * k - 1) ** 2) * Math.PI * Math.PI / (8 * lambda * lambda));
    return 1 - (Math.sqrt(2 * Math.PI) / lambda) * s;
  }
  let s = 0;
  for (let k = 1; k < 100; k++) {
    const term = Math.exp(-2 * k * k * lambda * lambda);
    s += k % 2 === 1 ? term : -term;
    if (term < 1e-18) break;
  }
  return Math.max(0, Math.min(1, 2 * s));
}

export interface KsResult {
  n: number;
  d: number;
  /** p-value with Stephens' (1970) finite-n correction lambda = (sqrt n + 0.12 + 0.11/sqrt n) D. */
  p: number;
}

/** One-sample Kolmogorov-Smirnov test of the sample against the continuous distribution function cdf. */
export function ksTest(sample: Float64Array, cdf: (x: number) => number): KsResult {
  const x = Float64Array.from(sample).sort();
  const n = x.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(x[i]);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  }
  const rn = Math.sqrt(n);
  return { n, d, p: kolmogorovSurvival((rn + 0.12 + 0.11 / rn) * d) };
}

/** n draws of a generator into a Float64Array. */
export function drawMany(n: number, draw: () => number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = draw();
  return out;
}

export interface ChiSquareResult {
  statistic: number;
  df: number;
  p: number;
}

/** Pearson's chi-square test of counts against cell probabilities (df = cells - 1). */
export function chiSquareTest(counts: ArrayLike<number>, probabilities: ArrayLike<number>): ChiSquareResult {
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i];
  let statistic = 0;
  for (let i = 0; i < counts.length; i++) {
    const expected = total * probabilities[i];
    statistic += (counts[i] - expected) ** 2 / expected;
  }
  const df = counts.length - 1;
  return { statistic, df, p: regularizedGammaQ(df / 2, statistic / 2) };
}

/**
 * Student-t distribution function for integer nu, by the finite sums of Abramowitz & Stegun
 * 26.7.3 (odd nu) and 26.7.4 (even nu) in theta = atan(t / sqrt(nu)): F = (1 + A(t | nu)) / 2.
 * Absolute accuracy ~1e-16, which is what a KS test needs.
 */
export function studentTCdf(t: number, nu: number): number {
  if (!Number.isInteger(nu) || nu < 1) throw new Error(`integer nu >= 1 only, got ${nu}`);
  const theta = Math.atan(t / Math.sqrt(nu));
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  const c2 = c * c;
  let a: number;
  if (nu % 2 === 1) {
    let sum = 0;
    if (nu > 1) {
      let term = c;
      sum = term;
      for (let j = 1; j <= (nu - 3) / 2; j++) {
        term *= (c2 * (2 * j)) / (2 * j + 1);
        sum += term;
      }
    }
    a = (2 / Math.PI) * (theta + s * sum);
  } else {
    let term = 1;
    let sum = 1;
    for (let j = 1; j <= (nu - 2) / 2; j++) {
      term *= (c2 * (2 * j - 1)) / (2 * j);
      sum += term;
    }
    a = s * sum;
  }
  return 0.5 * (1 + a);
}

/**
 * Distribution function of the standard normal truncated to [lower, upper], formed where it
 * has no cancellation: from the upper tail when the interval lies above 0, from the lower tail
 * otherwise, with tail ratios taken on the log scale (for intervals far out, like [5, 6]).
 */
export function truncatedNormalCdf(lower: number, upper: number): (x: number) => number {
  if (lower >= 0) {
    // F(x) = (Q(l) - Q(x)) / (Q(l) - Q(u)), Q(x) = Phi(-x)
    const logQl = logPhi(-lower);
    const denom = -Math.expm1(logPhi(-upper) - logQl);
    return (x) => (x <= lower ? 0 : x >= upper ? 1 : -Math.expm1(logPhi(-x) - logQl) / denom);
  }
  if (upper <= 0) {
    // F(x) = (Phi(x) - Phi(l)) / (Phi(u) - Phi(l))
    const logPu = logPhi(upper);
    const logPl = logPhi(lower);
    const denom = -Math.expm1(logPl - logPu);
    return (x) => (x <= lower ? 0 : x >= upper ? 1 : (Math.exp(logPhi(x) - logPu) - Math.exp(logPl - logPu)) / denom);
  }
  const pl = normalCdf(lower);
  const mass = normalCdf(upper) - pl;
  return (x) => (x <= lower ? 0 : x >= upper ? 1 : (normalCdf(x) - pl) / mass);
}
