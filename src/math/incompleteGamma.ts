/**
 * The regularised incomplete gamma functions P(a, x) = gamma(a, x) / Gamma(a) (the Gamma(a, 1)
 * distribution function) and Q(a, x) = 1 - P(a, x) (the chi-square upper tail is
 * Q(k/2, x/2)).
 *
 * Each is computed where it has no cancellation: for x < a + 1 the series
 * P = x^a e^-x / Gamma(a + 1) * sum_n x^n / ((a + 1) ... (a + n)), otherwise Legendre's continued
 * fraction for Q (modified Lentz evaluation), Numerical Recipes 6.2; the other function is
 * 1 minus it. The prefactor x^a e^-x / Gamma(a) is formed on the log scale, so the relative
 * error is about (|a log x| + x) * 1e-16, 5e-14 for a and x near 50, plus the absolute error
 * of logGamma (up to ~5e-15 near a = 1 and 2), which shows where P or Q is small and formed as
 * 1 minus the other (test/random/stats.test.ts checks against mpmath). Fine for distribution
 * functions and p-values; not tuned for a >> 1000.
 */
import { logGamma } from "./logGamma.js";

const MAX_TERMS = 100000;

function checkArguments(a: number, x: number): boolean {
  return a > 0 && a < Infinity && x >= 0;
}

/** log of the prefactor x^a e^-x / Gamma(a). */
function logPrefactor(a: number, x: number): number {
  return a * Math.log(x) - x - logGamma(a);
}

/** P(a, x) by its series (for x < a + 1). */
function seriesP(a: number, x: number): number {
  // sum_n x^n / ((a + 1) ... (a + n)) times x^a e^-x / Gamma(a + 1): Gamma(a + 1) rather than
  // a Gamma(a) keeps log Gamma away from its pole at 0, where its absolute error is largest.
  let term = 1;
  let sum = 1;
  for (let n = 1; n < MAX_TERMS; n++) {
    term *= x / (a + n);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum * Math.exp(a * Math.log(x) - x - logGamma(a + 1));
}

/** Q(a, x) by its continued fraction (for x >= a + 1). */
function continuedFractionQ(a: number, x: number): number {
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_TERMS; i++) {
    const an = -i * (i - a);
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
  return Math.exp(logPrefactor(a, x)) * h;
}

/** Regularised lower incomplete gamma function P(a, x), for a > 0 and x >= 0 (NaN otherwise). */
export function regularizedGammaP(a: number, x: number): number {
  if (!checkArguments(a, x)) return NaN;
  if (x === 0) return 0;
  if (x === Infinity) return 1;
  return x < a + 1 ? seriesP(a, x) : 1 - continuedFractionQ(a, x);
}

/** Regularised upper incomplete gamma function Q(a, x) = 1 - P(a, x), for a > 0 and x >= 0. */
export function regularizedGammaQ(a: number, x: number): number {
  if (!checkArguments(a, x)) return NaN;
  if (x === 0) return 1;
  if (x === Infinity) return 0;
  return x < a + 1 ? 1 - seriesP(a, x) : continuedFractionQ(a, x);
}
