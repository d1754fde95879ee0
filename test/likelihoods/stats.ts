/** Goodness-of-fit and Monte Carlo helpers for the likelihood tests. */
import { logGamma } from "../../src/math/index.js";

/**
 * Regularised upper incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a): the power series of P for
 * x < a + 1, Legendre's continued fraction (modified Lentz) for Q otherwise (Numerical Recipes 6.2).
 */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const logPrefactor = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 10000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < 1e-17 * Math.abs(sum)) break;
    }
    return 1 - sum * Math.exp(logPrefactor);
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let n = 1; n < 10000; n++) {
    const an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(logPrefactor) * h;
}

/** Upper tail probability of the chi-square distribution with df degrees of freedom. */
export function chiSquareSurvival(statistic: number, df: number): number {
  return gammaQ(df / 2, statistic / 2);
}

export interface ChiSquareResult {
  statistic: number;
  df: number;
  pValue: number;
  bins: number;
}

/**
 * Pearson's chi-square test of counts against probabilities (same order; the probabilities
 * should sum to 1). Adjacent bins are pooled until each expected count is at least minExpected,
 * a leftover tail being merged into the last pooled bin.
 */
export function chiSquareTest(counts: ArrayLike<number>, probabilities: ArrayLike<number>, minExpected = 5): ChiSquareResult {
  let total = 0;
  for (let j = 0; j < counts.length; j++) total += counts[j];
  const obs: number[] = [];
  const exp: number[] = [];
  let o = 0, e = 0;
  for (let j = 0; j < counts.length; j++) {
    o += counts[j];
    e += probabilities[j] * total;
    if (e >= minExpected) {
      obs.push(o);
      exp.push(e);
      o = 0;
      e = 0;
    }
  }
  if (obs.length === 0) throw new Error("chiSquareTest: fewer than minExpected draws expected in total");
  obs[obs.length - 1] += o;
  exp[exp.length - 1] += e;
  let statistic = 0;
  for (let j = 0; j < obs.length; j++) statistic += ((obs[j] - exp[j]) * (obs[j] - exp[j])) / exp[j];
  const df = obs.length - 1;
  return { statistic, df, pValue: df > 0 ? chiSquareSurvival(statistic, df) : 1, bins: obs.length };
}

/** Mean and standard error of the mean. */
export function meanAndStandardError(x: ArrayLike<number>): { mean: number; se: number } {
  const n = x.length;
  let m = 0;
  for (let i = 0; i < n; i++) m += x[i];
  m /= n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (x[i] - m) * (x[i] - m);
  return { mean: m, se: Math.sqrt(v / (n - 1) / n) };
}
