/**
 * The beta distribution function and its inverse, needed by the Monte Carlo standard error of
 * a quantile (Vehtari et al. 2021, sec. 4.3, which takes the 16% and 84% points of
 * Beta(ESS p + 1, ESS (1-p) + 1)).
 *
 * I_x(a, b) by the continued fraction of Abramowitz & Stegun 26.5.8 evaluated with the
 * modified Lentz method, on the side x < (a+1)/(a+b+2) where it converges fast and through
 * I_x(a,b) = 1 - I_{1-x}(b,a) on the other; log Gamma from src/math.
 */
import { logGamma, normalQuantile } from "../math/index.js";
import { DiagnosticsInputError } from "./errors.js";

function continuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let f = d;
  for (let k = 1; k <= 100000; k++) {
    // even step: d_{2k} = k (b - k) x / ((a + 2k - 1)(a + 2k))
    let num = (k * (b - k) * x) / ((a + 2 * k - 1) * (a + 2 * k));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    f *= d * c;
    // odd step: d_{2k+1} = -(a + k)(a + b + k) x / ((a + 2k)(a + 2k + 1))
    num = (-(a + k) * (a + b + k) * x) / ((a + 2 * k) * (a + 2 * k + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) return f;
  }
  return f;
}

/** The regularised incomplete beta function I_x(a, b), the Beta(a, b) distribution function. */
export function betaCdf(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new DiagnosticsInputError("bad-argument", `betaCdf: shapes must be positive, got a = ${a}, b = ${b}`);
  if (Number.isNaN(x)) return NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * continuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * continuedFraction(1 - x, b, a)) / b;
}

/**
 * The Beta(a, b) quantile: the x with I_x(a, b) = p, by Newton's method on I_x - p kept inside
 * a shrinking bracket (bisection when a Newton step leaves it).
 */
export function betaQuantile(p: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new DiagnosticsInputError("bad-argument", `betaQuantile: shapes must be positive, got a = ${a}, b = ${b}`);
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return 0;
  if (p === 1) return 1;
  const logB = logGamma(a) + logGamma(b) - logGamma(a + b);
  // Start from the normal approximation with the beta's mean and variance.
  const mu = a / (a + b);
  const sd = Math.sqrt((a * b) / ((a + b) ** 2 * (a + b + 1)));
  let lo = 0, hi = 1;
  let x = Math.min(Math.max(mu + sd * normalQuantile(p), 1e-12), 1 - 1e-12);
  for (let iter = 0; iter < 200; iter++) {
    const f = betaCdf(x, a, b) - p;
    if (f === 0) return x;
    if (f < 0) lo = x;
    else hi = x;
    const density = Math.exp((a - 1) * Math.log(x) + (b - 1) * Math.log1p(-x) - logB);
    let next = x - f / density;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (Math.abs(next - x) <= 1e-15 * Math.max(x, 1e-300) || hi - lo <= 1e-16) return next;
    x = next;
  }
  return x;
}
