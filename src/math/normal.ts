/**
 * The standard normal distribution: density, distribution function on the log scale, the
 * ratio N(z)/Phi(z), and the quantile, accurate to about 1e-15 relative for all z.
 *
 * Phi(z) is computed as 1/2 + phi(z) S(z) with the everywhere-convergent series
 * S(z) = sum_k z^(2k+1) / (1*3*...*(2k+1)) on |z| <= 2 (cancellation costs at most about one
 * digit there), and through Laplace's continued fraction for the Mills ratio
 * R(x) = Phi(-x)/phi(x) = 1/(x + 1/(x + 2/(x + 3/(x + ...)))) for x = |z| > 2. The continued
 * fraction is exact in the far tail too, so unlike the asymptotic series the note's
 * Algorithm 4 switches to below z = -15 (d log Phi/dz ~ -z - 1/z + 2/z^3), there are no two
 * regimes to join and no jump: the series is what the continued fraction tends to as z -> -inf.
 */

export const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/** Standard normal density. */
export function normalPdf(z: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * z * z);
}

/** log of the standard normal density. */
export function normalLogPdf(z: number): number {
  return -0.5 * z * z - LOG_SQRT_2PI;
}

/** S(z) = (Phi(z) - 1/2) / phi(z) by its power series; for |z| <= 2. */
function centralSeries(z: number): number {
  const z2 = z * z;
  let term = z;
  let sum = z;
  for (let k = 1; k < 100; k++) {
    term *= z2 / (2 * k + 1);
    sum += term;
    if (Math.abs(term) <= 1e-17 * Math.abs(sum)) break;
  }
  return sum;
}

/**
 * Mills ratio R(x) = Phi(-x) / phi(x) for x > 0 (used for x > 2), by the modified Lentz
 * evaluation of Laplace's continued fraction R(x) = 1/(x+ 1/(x+ 2/(x+ 3/(x+ ...)))).
 */
export function millsRatio(x: number): number {
  if (x <= 2) {
    // Small x: from the central series (the continued fraction converges slowly here).
    return (0.5 - normalPdf(x) * centralSeries(x)) / normalPdf(x);
  }
  const tiny = 1e-300;
  // f = b0 + a1/(b1 + a2/(b2 + ...)) with b0 = x, a_k = k, b_k = x; R = 1/f.
  let f = x;
  let c = f;
  let d = 0;
  for (let k = 1; k < 5000; k++) {
    d = x + k * d;
    if (d === 0) d = tiny;
    c = x + k / c;
    if (c === 0) c = tiny;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return 1 / f;
}

/** Standard normal distribution function Phi(z). */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return NaN;
  if (z < -2) return normalPdf(z) * millsRatio(-z);
  if (z > 2) return 1 - normalPdf(z) * millsRatio(z);
  return 0.5 + normalPdf(z) * centralSeries(z);
}

/** log Phi(z), accurate for all z (including z = -40, where Phi underflows nowhere on this scale). */
export function logPhi(z: number): number {
  if (Number.isNaN(z)) return NaN;
  if (z < -2) return normalLogPdf(z) + Math.log(millsRatio(-z));
  if (z > 2) {
    if (z > 40) return 0; // Phi(-z) < 1e-300: log1p(-tiny) is 0 in float64
    return Math.log1p(-normalPdf(z) * millsRatio(z));
  }
  return Math.log(0.5 + normalPdf(z) * centralSeries(z));
}

/**
 * The ratio N(z)/Phi(z) (the inverse Mills ratio; d log Phi / dz), computed stably for very
 * negative z, where both N(z) and Phi(z) underflow.
 */
export function normalPdfCdfRatio(z: number): number {
  if (Number.isNaN(z)) return NaN;
  if (z < -2) return 1 / millsRatio(-z);
  return normalPdf(z) / normalCdf(z);
}

/**
 * Standard normal quantile Phi^-1(p): a starting point from Abramowitz & Stegun 26.2.23
 * (error < 4.5e-4), then Halley steps on log Phi(x) = log p, which converge to full precision.
 */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p > 0.5) return -normalQuantile(1 - p);
  const t = Math.sqrt(-2 * Math.log(p));
  let x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
  const logp = Math.log(p);
  for (let i = 0; i < 8; i++) {
    // g(x) = log Phi(x) - log p; g' = r, g'' = -r (x + r), with r = N(x)/Phi(x).
    const g = logPhi(x) - logp;
    const r = normalPdfCdfRatio(x);
    const g2 = -r * (x + r);
    const step = g / (r - (g * g2) / (2 * r));
    x -= step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(x))) break;
  }
  return x;
}
