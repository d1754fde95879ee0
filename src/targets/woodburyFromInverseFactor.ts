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
 * Matrices are column-major n x n Float64Arrays; only lower triangles of C, L and L^-1 are read.
 */
import { backendFor } from "../linalg/cholesky.js";
import { invertLowerTriangularInPlace } from "../linalg/triangular.js";

/** Below this s_j, column j of V is solved for (the squares of s_i s_j could underflow). */
export const SOLVE_BELOW = 1e-60;

/** inverse <- L^-1 from the factor L (a copy, inverted in place: n^3/3 flops). */
export function invertFactor(factor: Float64Array, n: number, inverse: Float64Array): void {
  inverse.set(factor.subarray(0, n * n));
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

/**
 * out_j <- diag((C^-1 + S^2)^-1)_j = C_jj - |V e_j|^2 from L (`factor`) and L^-1 (`inverse`, as
 * `invertFactor` leaves it), in O(n^2) flops plus n^2 for each s_j < SOLVE_BELOW. Returns the
 * number of columns solved for.
 */
export function woodburyInverseDiagonalFromInverse(
  c: Float64Array, s: ArrayLike<number>, factor: Float64Array, inverse: Float64Array, n: number, out: Float64Array,
): number {
  // out_j accumulates sum_{i<j} L_ji^2 column by column of L (contiguous reads)
  out.fill(0, 0, n);
  for (let i = 0; i < n; i++) {
    const ci = i * n;
    for (let j = i + 1; j < n; j++) out[j] += factor[j + ci] * factor[j + ci];
  }
  for (let j = 0; j < n; j++) {
    const cj = j * n;
    let ss = out[j];
    for (let i = j + 1; i < n; i++) ss += inverse[i + cj] * inverse[i + cj];
    const l = factor[j + cj];
    const d = ((l - 1) * (l + 1)) / l; // L_jj - 1/L_jj without subtracting two numbers near 1
    ss += d * d;
    out[j] = c[j + cj] - ss / (s[j] * s[j]);
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
