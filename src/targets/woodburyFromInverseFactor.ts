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
  const z = y ?? new Float64Array(n);
  rowSquares.fill(0, 0, n);
  // columns in blocks of four: the diagonal block column by column, then rows below it with the
  // four columns at once, which quarters the read-modify-writes of rowSquares_i and z_i (the pass
  // is bound by them, not by flops)
  for (let j = 0; j < n; j += 4) {
    const h = Math.min(4, n - j);
    for (let q = j; q < j + h; q++) {
      const cq = q * n;
      inverse[q + cq] = factor[q + cq];
      const t = (z[q] /= factor[q + cq]);
      for (let i = q + 1; i < j + h; i++) {
        const l = factor[i + cq];
        inverse[i + cq] = l;
        rowSquares[i] += l * l;
        z[i] -= l * t;
      }
    }
    if (h < 4) break; // the last columns: no rows below
    const c0 = j * n;
    const c1 = c0 + n;
    const c2 = c1 + n;
    const c3 = c2 + n;
    const t0 = z[j];
    const t1 = z[j + 1];
    const t2 = z[j + 2];
    const t3 = z[j + 3];
    for (let i = j + 4; i < n; i++) {
      const a0 = factor[i + c0];
      const a1 = factor[i + c1];
      const a2 = factor[i + c2];
      const a3 = factor[i + c3];
      inverse[i + c0] = a0;
      inverse[i + c1] = a1;
      inverse[i + c2] = a2;
      inverse[i + c3] = a3;
      rowSquares[i] += a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3;
      z[i] -= a0 * t0 + a1 * t1 + a2 * t2 + a3 * t3;
    }
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
  // columns of L^-1 in blocks of four (eight independent sums): the diagonal block column by
  // column, then the rows below it; z_i for i >= j is not yet overwritten while the block's dot
  // products are formed (blocks ascend, and the block's own entries are written at its end)
  const z = y ?? new Float64Array(n);
  const acc = new Float64Array(8); // the block's sums of squares, then its dot products
  for (let j = 0; j < n; j += 4) {
    const h = Math.min(4, n - j);
    for (let q = 0; q < h; q++) {
      const cq = (j + q) * n;
      let ss = rowSquares[j + q];
      let dot = inverse[j + q + cq] * z[j + q];
      for (let i = j + q + 1; i < j + h; i++) {
        const m = inverse[i + cq];
        ss += m * m;
        dot += m * z[i];
      }
      acc[q] = ss;
      acc[4 + q] = dot;
    }
    if (h === 4) {
      const c0 = j * n;
      const c1 = c0 + n;
      const c2 = c1 + n;
      const c3 = c2 + n;
      let ss0 = acc[0], ss1 = acc[1], ss2 = acc[2], ss3 = acc[3];
      let dot0 = acc[4], dot1 = acc[5], dot2 = acc[6], dot3 = acc[7];
      for (let i = j + 4; i < n; i++) {
        const zi = z[i];
        const m0 = inverse[i + c0];
        const m1 = inverse[i + c1];
        const m2 = inverse[i + c2];
        const m3 = inverse[i + c3];
        ss0 += m0 * m0;
        ss1 += m1 * m1;
        ss2 += m2 * m2;
        ss3 += m3 * m3;
        dot0 += m0 * zi;
        dot1 += m1 * zi;
        dot2 += m2 * zi;
        dot3 += m3 * zi;
      }
      acc.set([ss0, ss1, ss2, ss3, dot0, dot1, dot2, dot3]);
    }
    for (let q = 0; q < h; q++) {
      const jj = j + q;
      z[jj] = acc[4 + q];
      out[jj] = c[jj * (n + 1)] - (acc[q] + squaredDiagonalTerm(factor[jj * (n + 1)])) / (s[jj] * s[jj]);
    }
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
  // columns in blocks of four: the diagonal block column by column, then the rows below it
  for (let j = 0; j < n; j += 4) {
    const h = Math.min(4, n - j);
    for (let q = j; q < j + h; q++) {
      const cq = q * n;
      const sq = s[q];
      const vq = v[q];
      const cqq = c[q + cq];
      b[q + cq] = sq * cqq * sq + 1;
      let dot = cqq * vq;
      for (let i = q + 1; i < j + h; i++) {
        const x = c[i + cq];
        b[i + cq] = s[i] * x * sq;
        cv[i] += x * vq;
        dot += x * v[i];
      }
      cv[q] += dot;
    }
    if (h < 4) break; // the last columns: no rows below
    const c0 = j * n;
    const c1 = c0 + n;
    const c2 = c1 + n;
    const c3 = c2 + n;
    const s0 = s[j], s1 = s[j + 1], s2 = s[j + 2], s3 = s[j + 3];
    const v0 = v[j], v1 = v[j + 1], v2 = v[j + 2], v3 = v[j + 3];
    let d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (let i = j + 4; i < n; i++) {
      const x0 = c[i + c0];
      const x1 = c[i + c1];
      const x2 = c[i + c2];
      const x3 = c[i + c3];
      const si = s[i];
      const vi = v[i];
      b[i + c0] = si * x0 * s0;
      b[i + c1] = si * x1 * s1;
      b[i + c2] = si * x2 * s2;
      b[i + c3] = si * x3 * s3;
      cv[i] += x0 * v0 + x1 * v1 + x2 * v2 + x3 * v3;
      d0 += x0 * vi;
      d1 += x1 * vi;
      d2 += x2 * vi;
      d3 += x3 * vi;
    }
    cv[j] += d0;
    cv[j + 1] += d1;
    cv[j + 2] += d2;
    cv[j + 3] += d3;
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
