/**
 * Symmetric positive-definite tridiagonal matrices in O(n): G with diagonal d (length n) and
 * off-diagonal e (length n - 1, e_i = G_{i+1,i} = G_{i,i+1}) factorised as G = L L' with L lower
 * bidiagonal (diagonal l, sub-diagonal m):
 *
 *   l_0 = sqrt(d_0),   m_i = e_i / l_i,   l_{i+1} = sqrt(d_{i+1} - m_i^2)
 *
 * (Golub & Van Loan, Section 4.3.6). Solves, products with L and L', and log|G| = 2 sum log l_i
 * are single sweeps. This is the structure of the AR(1) precision C^-1 and of the stochastic
 * volatility metric G = I/2 + C^-1 (Girolami & Calderhead 2011, Section 8.2): every operation an
 * x-step needs is O(T), where a dense factorisation would be O(T^3).
 */
import { DimensionError, NotPositiveDefiniteError } from "./errors.js";

/** out <- G v for G = tridiag(e, d, e). */
export function tridiagonalMatvec(d: Float64Array, e: Float64Array, v: Float64Array, out: Float64Array): void {
  const n = d.length;
  if (n === 0) return;
  if (n === 1) {
    out[0] = d[0] * v[0];
    return;
  }
  out[0] = d[0] * v[0] + e[0] * v[1];
  for (let i = 1; i < n - 1; i++) out[i] = e[i - 1] * v[i - 1] + d[i] * v[i] + e[i] * v[i + 1];
  out[n - 1] = e[n - 2] * v[n - 2] + d[n - 1] * v[n - 1];
}

/** The Cholesky factor L of a symmetric positive-definite tridiagonal G (module comment). */
export class TridiagonalCholesky {
  /** Diagonal of L. */
  readonly l: Float64Array;
  /** Sub-diagonal of L (L_{i+1,i}). */
  readonly m: Float64Array;
  /** 1 / l_i: the solves' recurrences multiply instead of dividing (a division's latency is several multiplications'). */
  private readonly inverseL: Float64Array;

  /** Factorises tridiag(e, d, e); throws NotPositiveDefiniteError at the first non-positive pivot. */
  constructor(d: Float64Array, e: Float64Array, what = "tridiagonal matrix") {
    const n = d.length;
    if (e.length !== Math.max(n - 1, 0)) throw new DimensionError(`${what}: off-diagonal has length ${e.length}, expected ${Math.max(n - 1, 0)}`);
    this.l = new Float64Array(n);
    this.m = new Float64Array(Math.max(n - 1, 0));
    this.inverseL = new Float64Array(n);
    let pivot = d[0];
    for (let i = 0; i < n; i++) {
      if (!(pivot > 0) || !Number.isFinite(pivot)) throw new NotPositiveDefiniteError(i, pivot, what);
      const li = Math.sqrt(pivot);
      this.l[i] = li;
      this.inverseL[i] = 1 / li;
      if (i < n - 1) {
        const mi = e[i] / li;
        this.m[i] = mi;
        pivot = d[i + 1] - mi * mi;
      }
    }
  }

  get size(): number {
    return this.l.length;
  }

  /** log|G| = 2 sum_i log l_i. */
  logDet(): number {
    let s = 0;
    for (let i = 0; i < this.l.length; i++) s += Math.log(this.l[i]);
    return 2 * s;
  }

  /** b <- L^-1 b (forward substitution). */
  solveLowerInPlace(b: Float64Array): void {
    const { inverseL: r, m } = this;
    const n = r.length;
    if (n === 0) return;
    let prev = b[0] * r[0];
    b[0] = prev;
    for (let i = 1; i < n; i++) b[i] = prev = (b[i] - m[i - 1] * prev) * r[i];
  }

  /** b <- L'^-1 b (back substitution). */
  solveUpperInPlace(b: Float64Array): void {
    const { inverseL: r, m } = this;
    const n = r.length;
    if (n === 0) return;
    let next = b[n - 1] * r[n - 1];
    b[n - 1] = next;
    for (let i = n - 2; i >= 0; i--) b[i] = next = (b[i] - m[i] * next) * r[i];
  }

  /** b <- G^-1 b. */
  solveInPlace(b: Float64Array): void {
    this.solveLowerInPlace(b);
    this.solveUpperInPlace(b);
  }

  /** out <- L z (so that z ~ N(0, I) gives L z ~ N(0, G)); out may be z. */
  multiplyLowerInto(z: Float64Array, out: Float64Array): void {
    const { l, m } = this;
    for (let i = l.length - 1; i >= 1; i--) out[i] = l[i] * z[i] + m[i - 1] * z[i - 1];
    if (l.length > 0) out[0] = l[0] * z[0];
  }
}
