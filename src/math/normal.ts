/**
 * The standard normal distribution: density, distribution function and its logarithm, the
 * ratio N(z)/Phi(z), and the quantile, to within a few units in the last place for all z
 * (test/math/normal.test.ts measures the errors against 50-digit values).
 *
 * Everything goes through the Mills ratio R(x) = Phi(-x) / phi(x), which has no cancellation
 * for any x: Phi(z) = phi(z) R(-z), 1 - Phi(z) = phi(z) R(z), N(z)/Phi(z) = 1 / R(-z).
 * R is evaluated
 *  - for -1 <= x <= 8 from a table of R at the nodes x_j = -1 + j/8 (50-digit values from
 *    scripts/generateMillsRatioNodes.py) and 12 terms of its Taylor series about the nearest
 *    node, |h| <= 1/16; the Taylor coefficients follow from R' = x R - 1 and are computed once,
 *    at load. The first omitted term is below 1.2e-18 relative.
 *  - for x > 8 by Laplace's continued fraction R(x) = 1/(x+ 1/(x+ 2/(x+ 3/(x+ ...)))),
 *    evaluated backwards with 15 terms at x = 8 down to 6 beyond x = 30 (truncation error
 *    below 1.2e-17, checked at 50 digits by the same script). The backward evaluation adds
 *    positive terms only, so it is accurate to about an ulp.
 * The continued fraction is exact in the far tail, so unlike the asymptotic series the note's
 * Algorithm 4 switches to below z = -15 (d log Phi/dz ~ -z - 1/z + 2/z^3), there is no
 * separate asymptotic regime and nothing to join at z = -15. The joins that do exist (between
 * neighbouring Taylor nodes, at x = 8, and between the formulas for z below and above 0 or 1)
 * are continuous to within rounding: test/math/normal.test.ts checks each against the local
 * Taylor expansion.
 *
 * Cost: bench/normal.ts (npm run bench -- normal) times these functions against the first
 * implementation (central series to |z| = 2, forward Lentz continued fraction beyond it, which
 * took 106 iterations at |z| = 2, 35 at |z| = 4 and 15 at |z| = 8, two divisions each). Three
 * runs on the shared 2-core development machine (node 20, load average 7-8, so absolute times
 * are inflated), previous / new time per call: z uniform on [-6, 6]: logPhi 3.5-5x,
 * normalPdfCdfRatio 4.4-11x, normalCdf 4.4-4.9x faster; on 2 <= |z| <= 4, 5-20x; on |z| <= 2
 * and z < -8 (where the old central series and short continued fraction were already cheap)
 * 1.0-2.8x. New: 25-110 ns per call under that load; the work is 12 multiply-adds plus one
 * exp, log or log1p (or up to 15 divisions beyond |z| = 8).
 */
import { MILLS_NODE_FIRST, MILLS_NODE_SPACING, MILLS_NODE_VALUES } from "./millsRatioNodes.js";

export const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/** Standard normal density. */
export function normalPdf(z: number): number {
  // exp(-z^2/2) with the rounding error of z*z put back: a relative error d in z^2 costs
  // z^2 d / 2 in the result, 250 ulp at |z| = 37 if ignored. The error e of p = fl(z*z) is
  // exact by Dekker's product (Veltkamp's split of z), and exp(-(p + e)/2) = exp(-p/2)(1 - e/2)
  // to within e^2.
  if (!(Math.abs(z) < 40)) return Number.isNaN(z) ? NaN : 0; // phi(40) = 1.5e-348 underflows
  const p = z * z;
  const c = 134217729 * z; // 2^27 + 1
  const hi = c - (c - z);
  const lo = z - hi;
  const e = hi * hi - p + 2 * hi * lo + lo * lo;
  return INV_SQRT_2PI * Math.exp(-0.5 * p) * (1 - 0.5 * e);
}

/**
 * zs[i] <- phi(zs[i]) for i < count: the probit likelihood's densities from one loop, where the
 * small normalPdf is inlined, rather than a call per point from the likelihood's larger loop,
 * whose inlining budget runs out before it (then the returned number is boxed: millsRatiosInPlace).
 */
export function normalPdfsInPlace(zs: Float64Array, count: number): void {
  for (let i = 0; i < count; i++) zs[i] = normalPdf(zs[i]);
}

/** log of the standard normal density. */
export function normalLogPdf(z: number): number {
  return -0.5 * z * z - LOG_SQRT_2PI;
}

// Taylor coefficients of R about each node, TAYLOR_TERMS per node. From R' = x R - 1:
// c_1 = x0 c_0 - 1 and (k + 1) c_(k+1) = x0 c_k + c_(k-1). The recurrence is stable here: a
// perturbation of any coefficient adds a multiple of R itself or of exp(x^2/2) (the solutions
// of the differentiated equation R'' = (x R)'), both of size R within 1/16 of the node.
const TAYLOR_TERMS = 12;
const NODE_COUNT = MILLS_NODE_VALUES.length;
const NODE_LAST = MILLS_NODE_FIRST + (NODE_COUNT - 1) * MILLS_NODE_SPACING;
const INV_SPACING = 1 / MILLS_NODE_SPACING;
const TAYLOR = new Float64Array(NODE_COUNT * TAYLOR_TERMS);
for (let j = 0; j < NODE_COUNT; j++) {
  const x0 = MILLS_NODE_FIRST + j * MILLS_NODE_SPACING;
  const o = j * TAYLOR_TERMS;
  TAYLOR[o] = MILLS_NODE_VALUES[j];
  TAYLOR[o + 1] = x0 * TAYLOR[o] - 1;
  for (let k = 1; k < TAYLOR_TERMS - 1; k++) TAYLOR[o + k + 1] = (x0 * TAYLOR[o + k] + TAYLOR[o + k - 1]) / (k + 1);
}

/**
 * xs[i] <- R(xs[i]) for i < count, each xs[i] >= MILLS_NODE_FIRST: from the nearest node's Taylor
 * series up to NODE_LAST + 1/16, by the continued fraction above. One loop over an array, not a
 * number in and a number out per point: the optimising compiler boxes numbers passed to and
 * returned from a function it has not inlined, and a per-point function inlined into the probit
 * likelihood's loop ran out of its inlining budget (then one call and one allocation per point,
 * about a tenth of a laplace-nuts chain's time in calls and a tenth in the collector). Inside the
 * loop each branch stores its own result: merged into one value, the result of the rarely taken
 * (so not inlined) continued fraction would be boxed, and with it the other.
 */
export function millsRatiosInPlace(xs: Float64Array, count: number): void {
  for (let i = 0; i < count; i++) {
    const x = xs[i];
    if (!(x <= NODE_LAST)) {
      xs[i] = millsContinuedFraction(x); // also NaN, for NaN
      continue;
    }
    const j = Math.round((x - MILLS_NODE_FIRST) * INV_SPACING);
    const h = x - (MILLS_NODE_FIRST + j * MILLS_NODE_SPACING); // exact
    const o = j * TAYLOR_TERMS;
    // Horner, unrolled (TAYLOR_TERMS = 12; as a loop it takes twice as long)
    let s = TAYLOR[o + 11];
    s = s * h + TAYLOR[o + 10];
    s = s * h + TAYLOR[o + 9];
    s = s * h + TAYLOR[o + 8];
    s = s * h + TAYLOR[o + 7];
    s = s * h + TAYLOR[o + 6];
    s = s * h + TAYLOR[o + 5];
    s = s * h + TAYLOR[o + 4];
    s = s * h + TAYLOR[o + 3];
    s = s * h + TAYLOR[o + 2];
    s = s * h + TAYLOR[o + 1];
    xs[i] = s * h + TAYLOR[o];
  }
}

/** R(x) for x >= 8 by the continued fraction, evaluated backwards from a fixed depth. */
function millsContinuedFraction(x: number): number {
  const n = x < 10 ? 15 : x < 14 ? 12 : x < 20 ? 10 : x < 30 ? 8 : 6;
  let t = x;
  for (let k = n; k >= 1; k--) t = x + k / t;
  return 1 / t;
}

const TAYLOR_SCRATCH = new Float64Array(1);
/** R(x) for x >= MILLS_NODE_FIRST (= -1), the domain every caller below stays in. */
function millsUpper(x: number): number {
  if (!(x <= NODE_LAST)) return millsContinuedFraction(x);
  TAYLOR_SCRATCH[0] = x;
  millsRatiosInPlace(TAYLOR_SCRATCH, 1);
  return TAYLOR_SCRATCH[0];
}

/**
 * Mills ratio R(x) = Phi(-x) / phi(x) = (1 - Phi(x)) / phi(x), for any x (it overflows to
 * Infinity below x = -38.5, where it exceeds 1.8e308).
 */
export function millsRatio(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x >= MILLS_NODE_FIRST) return millsUpper(x);
  // Phi(-x)/phi(x) = (1 - Phi(x))/phi(x) = 1/phi(x) - R(-x), with -x > 1: no cancellation
  // (R(-x) < 1 < 1/phi(x)).
  return 1 / normalPdf(x) - millsUpper(-x);
}

/** Standard normal distribution function Phi(z). */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return NaN;
  if (z <= 0) return normalPdf(z) * millsUpper(-z);
  return 1 - normalPdf(z) * millsUpper(z);
}

/** log Phi(z), accurate for all z (at z = -40 too, where Phi(z) itself underflows). */
export function logPhi(z: number): number {
  if (Number.isNaN(z)) return NaN;
  // log Phi = log phi(z) + log R(-z): both terms are computed to an ulp or two and, for
  // z <= 0, add up without more than a factor 1.6 of cancellation (at z = 0).
  if (z <= 0) return z === -Infinity ? -Infinity : normalLogPdf(z) + Math.log(millsUpper(-z));
  // log(1 - Q) with Q = phi(z) R(z): the relative error of log Phi is that of Q.
  return Math.log1p(-normalPdf(z) * millsUpper(z));
}

/**
 * The ratio N(z)/Phi(z) (the inverse Mills ratio; d log Phi / dz), computed stably for very
 * negative z, where both N(z) and Phi(z) underflow.
 */
export function normalPdfCdfRatio(z: number): number {
  if (Number.isNaN(z)) return NaN;
  if (z <= 1) return z === -Infinity ? Infinity : 1 / millsUpper(-z);
  return normalPdf(z) / (1 - normalPdf(z) * millsUpper(z));
}

/** S(z) = (Phi(z) - 1/2) / phi(z) = sum_k z^(2k+1) / (1*3*...*(2k+1)); used for |z| < 1.5. */
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
 * Standard normal quantile Phi^-1(p), to a few ulp for all p in (0, 1). A starting point from
 * Abramowitz & Stegun 26.2.23 (error < 4.5e-4), then Halley steps:
 *  - for |p - 1/2| <= 0.425, on Phi(x) - 1/2 = phi(x) S(x) = p - 1/2 (the subtraction is exact
 *    there), so that x keeps its relative accuracy as p -> 1/2 and x -> 0;
 *  - in the tails, on log Phi(x) = log min(p, 1 - p) (1 - p is exact for p >= 1/2).
 */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (q === 0) return 0;
  const r = q < 0 ? p : 1 - p; // the smaller tail, exact
  const t = Math.sqrt(-2 * Math.log(r));
  let x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
  if (Math.abs(q) <= 0.425) {
    if (q > 0) x = -x;
    for (let i = 0; i < 10; i++) {
      // g(x) = phi(x) S(x) - q; g' = phi(x), g'' = -x phi(x)
      const phi = normalPdf(x);
      const g = phi * centralSeries(x) - q;
      const step = g / (phi + 0.5 * g * x);
      x -= step;
      if (Math.abs(step) <= 1e-16 * Math.abs(x)) break;
    }
    return x;
  }
  const logr = Math.log(r);
  for (let i = 0; i < 10; i++) {
    // g(x) = log Phi(x) - log r; g' = m, g'' = -m (x + m), with m = N(x)/Phi(x).
    const g = logPhi(x) - logr;
    const m = normalPdfCdfRatio(x);
    const step = g / (m + 0.5 * g * (x + m));
    x -= step;
    if (Math.abs(step) <= 1e-16 * Math.abs(x)) break;
  }
  return q < 0 ? x : -x;
}
