/**
 * A Gaussian mixture fitted by expectation-maximisation to points (the burn-in draws of theta),
 * the shape of the pm scheme's independence proposal after burn-in (./pseudoMarginal.ts): a
 * posterior of theta that is skewed or has a second mode is proposed by several components
 * where one t centred at the draws' mean proposes it poorly.
 *
 * Deterministic: the K components start from the points split in K groups of equal size along
 * the direction of their largest variance, so the fit is a function of the points. K is chosen
 * among 1..maxComponents by BIC with the points counted as `effectiveCount` (chain draws are
 * autocorrelated: counted as independent, BIC would split one mode into many components).
 */
import { cholesky, type Cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";

export interface GaussianComponent {
  weight: number;
  centre: Float64Array;
  /** The factor of the covariance. */
  shape: Cholesky;
}

export interface MixtureFit {
  components: GaussianComponent[];
  logLikelihood: number;
  bic: number;
}

const MAX_EM_ITERATIONS = 500;
const EM_TOLERANCE = 1e-9;

/** The covariance of the points weighted by `w` about `mean`, plus `ridge` on the diagonal. */
function weightedCovariance(points: readonly Float64Array[], w: ArrayLike<number>, mean: Float64Array, ridge: Float64Array): Matrix {
  const m = mean.length;
  const c = new Matrix(m, m);
  let total = 0;
  points.forEach((x, p) => {
    const wp = w[p]!;
    if (wp === 0) return;
    total += wp;
    for (let j = 0; j < m; j++) {
      const dj = x[j]! - mean[j]!;
      for (let i = j; i < m; i++) c.data[i + j * m] += wp * (x[i]! - mean[i]!) * dj;
    }
  });
  for (let j = 0; j < m; j++) for (let i = j; i < m; i++) {
    const v = c.data[i + j * m]! / total;
    c.data[i + j * m] = v;
    c.data[j + i * m] = v;
  }
  for (let i = 0; i < m; i++) c.data[i + i * m] += ridge[i]!;
  return c;
}

function weightedMean(points: readonly Float64Array[], w: ArrayLike<number>, m: number): Float64Array {
  const mean = new Float64Array(m);
  let total = 0;
  points.forEach((x, p) => {
    total += w[p]!;
    for (let i = 0; i < m; i++) mean[i] += w[p]! * x[i]!;
  });
  return mean.map((v) => v / total);
}

/** log N(x; centre, shape shape') */
export function logGaussian(c: Pick<GaussianComponent, "centre" | "shape">, x: ArrayLike<number>): number {
  const m = c.centre.length;
  const r = Float64Array.from(c.centre, (v, i) => x[i]! - v);
  c.shape.solveLowerInPlace(r);
  let q = 0;
  for (const v of r) q += v * v;
  return -0.5 * q - 0.5 * c.shape.logDet() - 0.5 * m * Math.log(2 * Math.PI);
}

/** The direction of largest variance of a covariance (power iteration from a fixed start). */
function leadingDirection(c: Matrix): Float64Array {
  const m = c.rows;
  let v = new Float64Array(m).fill(1 / Math.sqrt(m));
  for (let it = 0; it < 100; it++) {
    const next = new Float64Array(m);
    for (let j = 0; j < m; j++) for (let i = 0; i < m; i++) next[i] += c.data[i + j * m]! * v[j]!;
    const norm = Math.hypot(...next);
    if (!(norm > 0)) return v;
    v = next.map((x) => x / norm);
  }
  return v;
}

/** EM from K groups along the leading direction; undefined where a component collapses. */
function fitK(points: readonly Float64Array[], K: number, ridge: Float64Array): MixtureFit | undefined {
  const count = points.length, m = points[0]!.length;
  const ones = new Float64Array(count).fill(1);
  const mean = weightedMean(points, ones, m);
  const dir = leadingDirection(weightedCovariance(points, ones, mean, ridge));
  const order = points.map((x, p) => ({ p, s: x.reduce((a, v, i) => a + (v - mean[i]!) * dir[i]!, 0) })).sort((a, b) => a.s - b.s || a.p - b.p);
  // responsibilities, point p of component k at r[k * count + p]
  let r = new Float64Array(K * count);
  order.forEach(({ p }, rank) => { r[Math.min(K - 1, Math.floor((rank * K) / count)) * count + p] = 1; });
  let components: GaussianComponent[] = [];
  let previous = -Infinity;
  let logLikelihood = -Infinity;
  for (let it = 0; it < MAX_EM_ITERATIONS; it++) {
    components = [];
    for (let k = 0; k < K; k++) {
      const w = r.subarray(k * count, (k + 1) * count);
      let total = 0;
      for (const v of w) total += v;
      if (total < m + 1) return undefined;
      const centre = weightedMean(points, w, m);
      try {
        components.push({ weight: total / count, centre, shape: cholesky(weightedCovariance(points, w, centre, ridge), { what: "a mixture component's covariance" }) });
      } catch {
        return undefined;
      }
    }
    const next = new Float64Array(K * count);
    logLikelihood = 0;
    const terms = new Float64Array(K);
    for (let p = 0; p < count; p++) {
      let max = -Infinity;
      for (let k = 0; k < K; k++) {
        terms[k] = Math.log(components[k]!.weight) + logGaussian(components[k]!, points[p]!);
        if (terms[k]! > max) max = terms[k]!;
      }
      let s = 0;
      for (let k = 0; k < K; k++) s += Math.exp(terms[k]! - max);
      logLikelihood += max + Math.log(s);
      for (let k = 0; k < K; k++) next[k * count + p] = Math.exp(terms[k]! - max) / s;
    }
    r = next;
    if (Math.abs(logLikelihood - previous) <= EM_TOLERANCE * count) break;
    previous = logLikelihood;
  }
  return { components, logLikelihood, bic: 0 };
}

/**
 * The mixture of at most `maxComponents` Gaussians with the least BIC, the log-likelihood scaled
 * to `effectiveCount` points; `ridge` (per coordinate) is added to every covariance.
 */
export function fitGaussianMixture(points: readonly Float64Array[], maxComponents: number, effectiveCount: number, ridge: Float64Array): MixtureFit {
  const m = points[0]!.length;
  const count = points.length;
  let best: MixtureFit | undefined;
  for (let K = 1; K <= maxComponents; K++) {
    const fit = fitK(points, K, ridge);
    if (!fit) continue;
    const parameters = K - 1 + K * m + (K * m * (m + 1)) / 2;
    fit.bic = (-2 * fit.logLikelihood * effectiveCount) / count + parameters * Math.log(effectiveCount);
    if (!best || fit.bic < best.bic) best = fit;
  }
  if (!best) throw new RangeError("no Gaussian mixture could be fitted to the draws");
  return best;
}
