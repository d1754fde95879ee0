/**
 * diag((C^-1 + S^2)^-1) and V = L^-1 S C of the Woodbury step (woodbury.ts) from L = chol(B) and its
 * inverse L^-1 (n^3/3 flops) instead of the triangular solve for V (n^3 flops). Since
 * B - I = S C S,
 *
 *   V S = L^-1 S C S = L^-1 (B - I) = L' - L^-1,   so   V e_j = (L' e_j - L^-1 e_j) / s_j  (s_j > 0).
 *
 * L' e_j (row j of L) lives on rows i <= j and L^-1 e_j (column j of L^-1) on rows i >= j, so the
 * two never cancel except in the diagonal entry, L_jj - 1/L_jj = (L_jj - 1)(L_jj + 1) / L_jj:
 *
 *   |V e_j|^2 = ( sum_{i<j} L_ji^2 + ((L_jj - 1)(L_jj + 1) / L_jj)^2 + sum_{i>j} (L^-1)_ij^2 ) / s_j^2.
 *
 * Off the diagonal, L_ji and (L^-1)_ij carry the factor s_j themselves (B_ij = s_i C_ij s_j + [i = j]
 * and both factorisations preserve it), so dividing by s_j^2 loses nothing; the diagonal entry's
 * absolute error (about eps, from 1 + s_j^2 c) enters |V e_j|^2 only as about eps * C_jj. The
 * diagonal C_jj - |V e_j|^2 therefore cancels exactly as in `woodburyInverseDiagonal` (relative
 * error about eps C_jj / Sigma_jj), unlike (1 - (B^-1)_jj) / s_j^2, which subtracts two numbers
 * near 1 and loses everything where s_j^2 Sigma_jj is small. Columns with s_j below
 * `SOLVE_BELOW` (s_j = 0: a site with tau~ = 0) get V e_j by a triangular solve (n^2 flops a
 * column, all such columns in one trsm), where the division would underflow or divide by zero.
 *
 * Matrices are column-major n x n Float64Arrays; only lower triangles of C, L and L^-1 are read
 * (and written: the strict upper triangle of L^-1 is never touched).
 *
 * The O(n^2) work around the two LAPACK calls is done in as few passes over n x n arrays as the
 * data flow allows, since at n in the thousands each pass is bound by memory traffic, not flops
 * (`woodburyFromInverseFactor`): C's lower triangle is read once to fill B and form C v, and once
 * more for the final symv; L's once, to copy it (lower triangle only), sum the squares of its
 * rows and solve L t = S C v by columns; L^-1's once, to sum the squares of its columns and
 * solve L' u = t by dot products with them.
 */
import { backendFor, cholesky, type Cholesky } from "../linalg/cholesky.js";
import type { Matrix } from "../linalg/matrix.js";
import { invertLowerTriangularInPlace } from "../linalg/triangular.js";

/** Below this s_j, column j of V is solved for (the squares of s_i s_j could underflow). */
export const SOLVE_BELOW = 1e-60;

/**
 * inverse <- L^-1 from the factor L (n^3/3 flops): L's lower triangle copied and inverted in place.
 * The copy pass also leaves rowSquares_j = sum_{i<j} L_ji^2 (what `woodburyInverseDiagonalFromInverse`
 * needs of L) and, when `y` is given, y <- L^-1 y (forward substitution by columns, which reads
 * L in the copy's order).
 */
export function invertFactor(factor: Float64Array, n: number, inverse: Float64Array, rowSquares: Float64Array, y?: Float64Array): void {
  rowSquares.fill(0, 0, n);
  const z = y ?? rowSquares.subarray(0, 0); // (without y, t0 = t1 = 0 below and z is never indexed)
  // columns j and j + 1 together: the 2 x 2 diagonal block first, then rows i >= j + 2, which
  // halves the read-modify-writes of rowSquares_i and y_i (the passes are bound by them, not flops)
  let j = 0;
  for (; j + 1 < n; j += 2) {
    const c0 = j * n;
    const c1 = c0 + n;
    const l00 = factor[j + c0];
    const l10 = factor[j + 1 + c0];
    const l11 = factor[j + 1 + c1];
    inverse[j + c0] = l00;
    inverse[j + 1 + c0] = l10;
    inverse[j + 1 + c1] = l11;
    rowSquares[j + 1] += l10 * l10;
    let t0 = 0;
    let t1 = 0;
    if (y) {
      t0 = y[j] /= l00;
      t1 = y[j + 1] = (y[j + 1] - l10 * t0) / l11;
    }
    for (let i = j + 2; i < n; i++) {
      const a = factor[i + c0];
      const b = factor[i + c1];
      inverse[i + c0] = a;
      inverse[i + c1] = b;
      rowSquares[i] += a * a + b * b;
      if (y) z[i] -= a * t0 + b * t1;
    }
  }
  if (j < n) {
    inverse[j + j * n] = factor[j + j * n];
    if (y) y[j] /= factor[j + j * n];
  }
  invertLowerTriangularInPlace(n, inverse, n);
}

/** The columns `cols` of V = L^-1 S C (n x cols.length, column-major), by one triangular solve (n^2 flops a column). */
function solvedColumns(c: Float64Array, s: ArrayLike<number>, factor: Float64Array, n: number, cols: number[]): Float64Array {
  const m = cols.length;
  const x = new Float64Array(n * m);
  for (let q = 0; q < m; q++) {
    const j = cols[q];
    for (let i = 0; i < n; i++) x[i + q * n] = s[i] * (i >= j ? c[i + j * n] : c[j + i * n]); // C e_j from the lower triangle
  }
  if (m > 0) backendFor(n).trsm("L", "L", "N", "N", n, m, 1, factor, n, x, n);
  return x;
}

/** The j with s_j < SOLVE_BELOW (or not a number). */
function columnsToSolve(s: ArrayLike<number>, n: number): number[] {
  const cols: number[] = [];
  for (let j = 0; j < n; j++) if (!(s[j] >= SOLVE_BELOW)) cols.push(j);
  return cols;
}

/** (L_jj - 1/L_jj)^2, without subtracting two numbers near 1. */
function squaredDiagonalTerm(l: number): number {
  const d = ((l - 1) * (l + 1)) / l;
  return d * d;
}

/**
 * out_j <- diag((C^-1 + S^2)^-1)_j = C_jj - |V e_j|^2 from L (`factor`), L^-1 (`inverse`) and the
 * row sums of squares of L, as `invertFactor` leaves them, in O(n^2) flops plus n^2 for each
 * s_j < SOLVE_BELOW; when `y` is given, also y <- L'^-1 y = L^-T y ((L^-T y)_j is column j of
 * L^-1 dotted with y, read in the same pass). Returns the number of columns solved for.
 */
export function woodburyInverseDiagonalFromInverse(
  c: Float64Array, s: ArrayLike<number>, factor: Float64Array, inverse: Float64Array, rowSquares: Float64Array, n: number,
  out: Float64Array, y?: Float64Array,
): number {
  // columns j and j + 1 of L^-1 together (four independent sums); y_i for i >= j is not yet
  // overwritten when column j's dot product is formed (j ascends)
  const z = y ?? rowSquares.subarray(0, 0); // (without y, z is never indexed)
  let j = 0;
  for (; j + 1 < n; j += 2) {
    const c0 = j * n;
    const c1 = c0 + n;
    const m10 = inverse[j + 1 + c0];
    let ss0 = rowSquares[j] + m10 * m10;
    let ss1 = rowSquares[j + 1];
    let dot0 = 0;
    let dot1 = 0;
    if (y) {
      dot0 = inverse[j + c0] * y[j] + m10 * y[j + 1];
      dot1 = inverse[j + 1 + c1] * y[j + 1];
    }
    for (let i = j + 2; i < n; i++) {
      const a = inverse[i + c0];
      const b = inverse[i + c1];
      ss0 += a * a;
      ss1 += b * b;
      if (y) {
        dot0 += a * z[i];
        dot1 += b * z[i];
      }
    }
    if (y) {
      y[j] = dot0;
      y[j + 1] = dot1;
    }
    out[j] = c[j + c0] - (ss0 + squaredDiagonalTerm(factor[j + c0])) / (s[j] * s[j]);
    out[j + 1] = c[j + 1 + c1] - (ss1 + squaredDiagonalTerm(factor[j + 1 + c1])) / (s[j + 1] * s[j + 1]);
  }
  if (j < n) {
    const cj = j * n;
    if (y) y[j] *= inverse[j + cj];
    out[j] = c[j + cj] - (rowSquares[j] + squaredDiagonalTerm(factor[j + cj])) / (s[j] * s[j]);
  }
  const cols = columnsToSolve(s, n);
  const x = solvedColumns(c, s, factor, n, cols);
  for (let q = 0; q < cols.length; q++) {
    let ss = 0;
    for (let i = q * n; i < (q + 1) * n; i++) ss += x[i] * x[i];
    out[cols[q]] = c[cols[q] * (n + 1)] - ss;
  }
  return cols.length;
}

/**
 * b <- the lower triangle of B = I + S C S and cv <- C v, in one pass over C's lower triangle
 * (column j gives (C v)_i += C_ij v_j for i > j, and (C v)_j its dot product with v).
 */
export function fillIdentityPlusScaledTimes(c: Float64Array, s: ArrayLike<number>, v: Float64Array, n: number, b: Float64Array, cv: Float64Array): void {
  cv.fill(0, 0, n);
  // columns j and j + 1 together: the 2 x 2 diagonal block, then rows i >= j + 2
  let j = 0;
  for (; j + 1 < n; j += 2) {
    const s0 = s[j];
    const s1 = s[j + 1];
    const v0 = v[j];
    const v1 = v[j + 1];
    const c0 = j * n;
    const c1 = c0 + n;
    const c00 = c[j + c0];
    const c10 = c[j + 1 + c0];
    const c11 = c[j + 1 + c1];
    b[j + c0] = s0 * c00 * s0 + 1;
    b[j + 1 + c0] = s1 * c10 * s0;
    b[j + 1 + c1] = s1 * c11 * s1 + 1;
    let d0 = c00 * v0 + c10 * v1;
    let d1 = c10 * v0 + c11 * v1;
    for (let i = j + 2; i < n; i++) {
      const x0 = c[i + c0];
      const x1 = c[i + c1];
      const si = s[i];
      const vi = v[i];
      b[i + c0] = si * x0 * s0;
      b[i + c1] = si * x1 * s1;
      cv[i] += x0 * v0 + x1 * v1;
      d0 += x0 * vi;
      d1 += x1 * vi;
    }
    cv[j] += d0;
    cv[j + 1] += d1;
  }
  if (j < n) {
    const sj = s[j];
    const cjj = c[j + j * n];
    b[j + j * n] = sj * cjj * sj + 1;
    cv[j] += cjj * v[j];
  }
}

/** Workspaces of `woodburyFromInverseFactor`: B (n x n, factorised in place: `cholesky` zeroes its strict upper triangle), L^-1 (only its lower triangle is written), three n-vectors. */
export interface InverseFactorWork {
  b: Matrix;
  inverse: Float64Array;
  rowSquares: Float64Array;
  cv: Float64Array;
  y: Float64Array;
}

/**
 * The Woodbury step from L and L^-1 (2/3 n^3 flops): L = chol(B) (in `work.b`, returned),
 * L^-1 (in `work.inverse`), diag((C^-1 + S^2)^-1) in `diagonal` and (C^-1 + S^2)^-1 v =
 * C v - C S L^-T L^-1 S C v in `out` (the same arithmetic as `applyWoodburyInverse`, with the two
 * triangular solves done inside the passes over L and L^-1 and C v inside the fill of B).
 * Throws `NotPositiveDefiniteError` named `what` when B's factorisation fails (overflow or
 * non-finite input: B's eigenvalues are >= 1).
 */
export function woodburyFromInverseFactor(
  C: Matrix, s: ArrayLike<number>, v: Float64Array, what: string, work: InverseFactorWork, diagonal: Float64Array, out: Float64Array,
): Cholesky {
  const n = C.rows;
  const { b, inverse, rowSquares, cv, y } = work;
  fillIdentityPlusScaledTimes(C.data, s, v, n, b.data, cv);
  const chol = cholesky(b, { inPlace: true, what, skipFiniteCheck: true });
  for (let i = 0; i < n; i++) y[i] = s[i] * cv[i];
  invertFactor(b.data, n, inverse, rowSquares, y); // y = L^-1 S C v
  woodburyInverseDiagonalFromInverse(C.data, s, b.data, inverse, rowSquares, n, diagonal, y); // y = B^-1 S C v
  for (let i = 0; i < n; i++) y[i] *= s[i];
  out.set(cv);
  backendFor(n).symv("L", n, -1, C.data, n, y, 1, out); // C v - C S B^-1 S C v
  return chol;
}

/** V <- L^-1 S C from L and L^-1 (O(n^2) flops plus n^2 for each s_j < SOLVE_BELOW), as `solveScaledRows` would leave it. */
export function solvedFromInverse(
  c: Float64Array, s: ArrayLike<number>, factor: Float64Array, inverse: Float64Array, n: number, V: Float64Array,
): void {
  for (let j = 0; j < n; j++) {
    const cj = j * n;
    const inv = 1 / s[j];
    for (let i = 0; i < j; i++) V[i + cj] = factor[j + i * n] * inv;
    const l = factor[j + cj];
    V[j + cj] = (((l - 1) * (l + 1)) / l) * inv;
    for (let i = j + 1; i < n; i++) V[i + cj] = -inverse[i + cj] * inv;
  }
  const cols = columnsToSolve(s, n);
  const x = solvedColumns(c, s, factor, n, cols);
  for (let q = 0; q < cols.length; q++) V.set(x.subarray(q * n, (q + 1) * n), cols[q] * n);
}
