/**
 * The Woodbury step with B = I + S C S, for C symmetric positive definite and S = diag(s), s >= 0
 * (Rasmussen & Williams 2006, Section 3.4.3 and Algorithms 3.2 and 3.5; note Algorithm 3
 * lines 14-18, 21-24 and 25-28):
 *
 *   (C^-1 + S^2)^-1 = C - C S B^-1 S C = C - V'V,   B = L L',   V = L^-1 S C,
 *   log|C^-1 + S^2| = log|C^-1| + log|B|,           log|B| = 2 sum log L_nn.
 *
 * S is the square root of a diagonal precision added to C^-1: the site precisions of EP, W of
 * Laplace, Lambda(x) (+ (1 - beta) tau) of the note's metric, the expected Fisher information of
 * SMMALA's. B has eigenvalues >= 1 however small the s_n, which is why this form is used rather
 * than inverting C^-1 + S^2 directly; C^-1 is never formed.
 *
 * Matrices are column-major n x n Float64Arrays; only the lower triangles of C, B and L are read.
 */
import { backendFor, cholesky, type Cholesky } from "../linalg/cholesky.js";
import { opCounts } from "../linalg/counters.js";
import { Matrix } from "../linalg/matrix.js";
import { crossprod, scaleRows } from "../linalg/products.js";

/** b <- the lower triangle of B = I + S C S = I + C o (s s') (the strict upper triangle is not written). */
export function fillIdentityPlusScaled(c: Float64Array, s: ArrayLike<number>, n: number, b: Float64Array): void {
  for (let j = 0; j < n; j++) {
    const sj = s[j];
    const cj = j * n;
    for (let i = j; i < n; i++) b[i + cj] = s[i] * c[i + cj] * sj;
    b[j + cj] += 1;
  }
}

/**
 * b <- L, the lower Cholesky factor of B = I + S C S (n^3/3 flops). Returns log|B| = 2 sum log L_nn,
 * or NaN when the factorisation fails or is not finite: B's eigenvalues are >= 1, so only overflow
 * (huge s) or non-finite input can do that, and the callers treat it as a non-finite point rather
 * than as an error.
 */
export function factorIdentityPlusScaled(c: Float64Array, s: ArrayLike<number>, n: number, b: Float64Array): number {
  fillIdentityPlusScaled(c, s, n, b);
  opCounts.cholesky++;
  opCounts.flops += (n * n * n) / 3;
  if (backendFor(n).potrf("L", n, b, n) !== 0) return NaN;
  let logDet = 0;
  for (let i = 0; i < n; i++) logDet += Math.log(b[i + i * n]);
  return Number.isFinite(logDet) ? 2 * logDet : NaN;
}

/**
 * chol(I + S C S) as a `Cholesky` (a new matrix), throwing `NotPositiveDefiniteError` named `what`
 * when it fails (for callers to whom a failure is an error, not a rejected point). With `into`,
 * the factor is written there (and the returned `Cholesky` holds it) instead of a new matrix.
 */
export function choleskyIdentityPlusScaled(C: Matrix, s: ArrayLike<number>, what: string, options: { skipFiniteCheck?: boolean; into?: Matrix } = {}): Cholesky {
  const n = C.rows;
  const b = options.into ?? new Matrix(n, n); // `into`: an n x n matrix to factorise in (iterations reuse one)
  fillIdentityPlusScaled(C.data, s, n, b.data);
  return cholesky(b, { inPlace: true, what, skipFiniteCheck: options.skipFiniteCheck });
}

/**
 * out <- (C^-1 + S^2)^-1 v = C v - C S B^-1 S C v, given L = chol(B) in `factor` (two symv and
 * two trsv, 6 n^2 flops). `u` and `t` are n-vector workspaces; `out` may be `v`.
 */
export function applyWoodburyInverse(
  c: Float64Array, s: ArrayLike<number>, factor: Float64Array, n: number,
  v: Float64Array, out: Float64Array, u: Float64Array, t: Float64Array,
): void {
  const be = backendFor(n);
  be.symv("L", n, 1, c, n, v, 0, u); // u = C v
  for (let i = 0; i < n; i++) t[i] = s[i] * u[i];
  be.trsv("L", "N", "N", n, factor, n, t);
  be.trsv("L", "T", "N", n, factor, n, t); // t = B^-1 S C v
  for (let i = 0; i < n; i++) t[i] *= s[i];
  be.symv("L", n, -1, c, n, t, 1, u); // u = C v - C S B^-1 S C v
  out.set(u);
}

/** V <- L^-1 S C, the note's "L \ (K * s)" (Algorithm 3 line 15; one trsm, n^3 flops). */
export function solveScaledRows(c: Float64Array, s: ArrayLike<number>, factor: Float64Array, n: number, V: Float64Array): void {
  for (let j = 0; j < n; j++) {
    const cj = j * n;
    for (let i = 0; i < n; i++) V[i + cj] = s[i] * c[i + cj];
  }
  opCounts.triangularSolveMatrix++;
  opCounts.flops += n * n * n;
  backendFor(n).trsm("L", "L", "N", "N", n, n, 1, factor, n, V, n);
}

/** diag((C^-1 + S^2)^-1)_j = C_jj - |V e_j|^2, V = L^-1 S C (n^3 flops; V is an n x n workspace). */
export function woodburyInverseDiagonal(c: Float64Array, s: ArrayLike<number>, factor: Float64Array, n: number, V: Float64Array, out: Float64Array): void {
  solveScaledRows(c, s, factor, n, V);
  for (let j = 0; j < n; j++) {
    const cj = j * n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += V[i + cj] * V[i + cj];
    out[j] = c[j + cj] - ss;
  }
}

/** The dense (C^-1 + S^2)^-1 = C - V'V (Algorithm 3 line 17; trsm + syrk, 2 n^3 flops; a new matrix). */
export function woodburyInverseMatrix(C: Matrix, s: ArrayLike<number>, factor: Float64Array): Matrix {
  const n = C.rows;
  const V = scaleRows(C, s); // S C
  opCounts.triangularSolveMatrix++;
  opCounts.flops += n * n * n;
  backendFor(n).trsm("L", "L", "N", "N", n, n, 1, factor, n, V.data, n); // V = L^-1 S C
  return woodburyInverseFromSolved(C, V.data);
}

/** The dense (C^-1 + S^2)^-1 = C - V'V given V = L^-1 S C (as `solveScaledRows` leaves it; one syrk, n^3 flops; a new matrix). */
export function woodburyInverseFromSolved(C: Matrix, V: Float64Array): Matrix {
  const n = C.rows;
  const out = crossprod(new Matrix(n, n, V)); // V'V, overwritten with C - V'V
  const o = out.data;
  const cd = C.data;
  for (let i = 0; i < n * n; i++) o[i] = cd[i] - o[i];
  return out;
}

/** Everything the dense Woodbury step gives: chol(B), (C^-1 + S^2)^-1 and log|B|. */
export interface DenseWoodbury {
  readonly cholesky: Cholesky;
  readonly inverse: Matrix;
  readonly logDetB: number;
}

/**
 * The dense step: L = chol(I + S C S), (C^-1 + S^2)^-1 = C - V'V and log|B| (n^3/3 + 2 n^3 flops,
 * allocating). Throws `NotPositiveDefiniteError` named `what` if B cannot be factorised.
 */
export function woodbury(C: Matrix, s: ArrayLike<number>, what = "I + S C S", options: { skipFiniteCheck?: boolean } = {}): DenseWoodbury {
  const ch = choleskyIdentityPlusScaled(C, s, what, options);
  return { cholesky: ch, inverse: woodburyInverseMatrix(C, s, ch.factor.data), logDetB: ch.logDet() };
}
