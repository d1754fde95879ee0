/**
 * The paper's Euclidean grid covariance (Girolami & Calderhead 2011, eq. 31),
 * Sigma_{(i,j),(i',j')} = sigma^2 exp(-sqrt((i-i')^2 + (j-j')^2) / (n beta)), by circulant embedding
 * (Dietrich & Newsam 1997; Wood & Chan 1994). Sigma is block-Toeplitz with Toeplitz blocks; the
 * n x n grid sits in the corner of an M x M torus (M a power of two, M >= 2n) whose covariance
 *
 *   C_{(a,b),(a',b')} = c(|a - a'|_M, |b - b'|_M),  c(d1, d2) = sigma^2 exp(-sqrt(d1^2 + d2^2) / (n beta)),
 *   |d|_M = min(d mod M, M - d mod M),
 *
 * is block-circulant with circulant blocks: C = F^-1 diag(lambda) F with lambda the 2-D DFT of the
 * base c (real, since c is even in both directions). Two cells of the grid are at most n - 1 <= M/2
 * apart along each axis, so |d|_M = |d| there and R C R' = Sigma exactly (R: the restriction to the
 * grid). If every lambda_k >= 0, C^1/2 = F^-1 diag(sqrt(lambda)) F is real symmetric and
 *
 *   x = mu + R C^1/2 nu,  nu ~ N(0, I_{M^2})   gives   x ~ N(mu, Sigma)   exactly.
 *
 * The exponential covariance is completely monotone in the distance, and its minimal embedding is
 * non-negative in practice (Dietrich & Newsam); the constructor checks it, doubles M while some
 * lambda_k < -1e-10 max(lambda) (up to 8n), sets the remaining rounding-level negatives to zero and
 * otherwise stops with a RangeError. Every product with C^1/2, C or a function of C costs one
 * forward and one inverse real 2-D FFT of M^2 points (math/fft.ts's RealEvenFilter2d: lambda is
 * even, so real stays real): O(N log N) for N = n^2 cells.
 *
 * Cells are stored at i + n j (row i, column j, 0-based), torus points at a + M b; the grid is the
 * corner a < n, b < n.
 */
import { fft2d, nextPowerOfTwo, RealEvenFilter2d } from "../../math/fft.js";
import { checkGridSettings } from "./gridCovariance.js";

/** Negative eigenvalues above this fraction of the largest are rounding; below it, M is doubled. */
const NEGATIVE_TOLERANCE = 1e-10;

export class CirculantGrid {
  readonly side: number;
  /** N = n^2 cells. */
  readonly size: number;
  /** The torus side M. */
  readonly torus: number;
  /** M^2 points of the torus. */
  readonly torusSize: number;
  readonly sigma2: number;
  readonly beta: number;
  /** Eigenvalues lambda_k of C in the 2-D DFT's order (k = k1 + M k2). */
  readonly eigenvalues: Float64Array;
  private readonly rootEigenvalues: Float64Array;
  private readonly re: Float64Array;
  private readonly filter2d: RealEvenFilter2d;

  /** `torus`: a given M (a power of two) instead of the smallest that works; for tests. */
  constructor(side: number, sigma2: number, beta: number, options: { torus?: number } = {}) {
    checkGridSettings(side, sigma2, beta);
    this.side = side;
    this.size = side * side;
    this.sigma2 = sigma2;
    this.beta = beta;
    let m = options.torus ?? nextPowerOfTwo(2 * side);
    let lambda = embeddingEigenvalues(m, sigma2, side * beta);
    if (options.torus === undefined) {
      while (minRatio(lambda) < -NEGATIVE_TOLERANCE && m < 8 * side) {
        m *= 2;
        lambda = embeddingEigenvalues(m, sigma2, side * beta);
      }
      const r = minRatio(lambda);
      if (r < -NEGATIVE_TOLERANCE) throw new RangeError(`the circulant embedding of the ${side} x ${side} grid's covariance (beta ${beta}) has a negative eigenvalue (${r.toExponential(2)} of the largest) on tori up to ${m} x ${m}`);
    }
    for (let k = 0; k < lambda.length; k++) if (lambda[k] < 0) lambda[k] = 0;
    this.torus = m;
    this.torusSize = m * m;
    this.eigenvalues = lambda;
    this.rootEigenvalues = lambda.map(Math.sqrt);
    this.re = new Float64Array(this.torusSize);
    this.filter2d = new RealEvenFilter2d(m);
  }

  /** out <- f(C) v on the torus for f given on the eigenvalues as weights w_k = f(lambda_k) (out may alias v). */
  applySpectral(w: Float64Array, v: Float64Array, out: Float64Array): void {
    this.filter2d.apply(w, v, out);
  }

  /** out (N) <- R C^1/2 nu (nu: M^2): the field less mu. */
  rootToGrid(nu: Float64Array, out: Float64Array): void {
    this.filter2d.apply(this.rootEigenvalues, nu, this.re, this.torus, this.side);
    this.restrict(this.re, out);
  }

  /** out (M^2) <- C^1/2 R' g (g: N): the adjoint of rootToGrid. */
  rootFromGrid(g: Float64Array, out: Float64Array): void {
    this.embed(g, this.re);
    this.filter2d.apply(this.rootEigenvalues, this.re, out, this.side);
  }

  /** out (N) <- R v (v: M^2). */
  restrict(v: Float64Array, out: Float64Array): void {
    const n = this.side;
    const m = this.torus;
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) out[i + n * j] = v[i + m * j];
  }

  /** out (M^2) <- R' g: g on the grid's corner, zero elsewhere. */
  embed(g: Float64Array, out: Float64Array): void {
    const n = this.side;
    const m = this.torus;
    out.fill(0);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) out[i + m * j] = g[i + n * j];
  }
}

/** lambda = the 2-D DFT of the torus base c(|a|_M, |b|_M), c = sigma^2 exp(-d / l). */
export function embeddingEigenvalues(m: number, sigma2: number, lengthscale: number): Float64Array {
  return evenTorusSpectrum(m, (d) => sigma2 * Math.exp(-d / lengthscale));
}

/**
 * The eigenvalues of the M x M block-circulant matrix whose base is c(d) at the torus distance
 * d = sqrt(|a|_M^2 + |b|_M^2) from the origin: the 2-D DFT of the base, real because it is even.
 */
export function evenTorusSpectrum(m: number, base: (distance: number) => number): Float64Array {
  const re = new Float64Array(m * m);
  const im = new Float64Array(m * m);
  for (let b = 0; b < m; b++) {
    const db = Math.min(b, m - b);
    for (let a = 0; a < m; a++) {
      const da = Math.min(a, m - a);
      re[a + m * b] = base(Math.sqrt(da * da + db * db));
    }
  }
  fft2d(re, im, m, m);
  return re;
}

/** The smallest eigenvalue over the largest. */
export function minRatio(lambda: Float64Array): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of lambda) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return lo / hi;
}
