/**
 * The inverse of a lower-triangular matrix in place (what LAPACK's dtrtri does for uplo = L,
 * diag = N), by recursion on 2 x 2 blocks:
 *
 *   [A11   0 ]^-1   [ A11^-1               0     ]
 *   [A21  A22]    = [ -A22^-1 A21 A11^-1   A22^-1 ]
 *
 * A21 <- A21 A11^-1 and A21 <- -A22^-1 A21 are two triangular solves (trsm) of half the order,
 * (n/2)^3 flops each, so the whole costs n^3/3 flops (n^3/4 at the top level, a quarter of that
 * below), almost all of it in trsm on the backend; blocks of order <= 32 are inverted by plain
 * loops. A backend with LAPACK's dtrtri (the native one) does it in one call instead
 * (BENCHMARKS.md, "Parallel EP in 2/3 n^3 a sweep"). Only the lower
 * triangle is read or written.
 */
import { backendFor } from "./cholesky.js";
import { opCounts } from "./counters.js";
import { DimensionError } from "./errors.js";

const BASE_ORDER = 32;

/**
 * a (n x n lower triangle, leading dimension lda, column-major) <- its inverse. The diagonal must
 * be non-zero (a Cholesky factor's is positive). Counts one triangular-solve operation of n^3/3 flops.
 */
export function invertLowerTriangularInPlace(n: number, a: Float64Array, lda: number = n): void {
  if (!Number.isInteger(n) || n < 0) throw new DimensionError(`order must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(lda) || lda < Math.max(1, n)) throw new DimensionError(`leading dimension ${lda} is less than the order ${n}`);
  if (n > 0 && a.length < (n - 1) * lda + n) throw new DimensionError(`array of ${a.length} entries is too short for order ${n} with leading dimension ${lda}`);
  opCounts.triangularSolveMatrix++;
  opCounts.flops += (n * n * n) / 3;
  const be = backendFor(n);
  if (be.trtri) {
    // the diagonal of a Cholesky factor is positive; a zero one is a caller's error
    const info = be.trtri("L", "N", n, a, lda);
    if (info !== 0) throw new RangeError(`invertLowerTriangularInPlace: diagonal entry ${info} is zero`);
    return;
  }
  invert(n, a, 0, lda);
}

function invert(n: number, a: Float64Array, off: number, lda: number): void {
  if (n <= BASE_ORDER) {
    invertSmall(n, a, off, lda);
    return;
  }
  const n1 = n >> 1;
  const n2 = n - n1;
  const be = backendFor(n);
  const a11 = a.subarray(off);
  const a21 = a.subarray(off + n1);
  const a22 = a.subarray(off + n1 + n1 * lda);
  be.trsm("R", "L", "N", "N", n2, n1, 1, a11, lda, a21, lda); // A21 <- A21 A11^-1
  be.trsm("L", "L", "N", "N", n2, n1, -1, a22, lda, a21, lda); // A21 <- -A22^-1 A21
  invert(n1, a, off, lda);
  invert(n2, a, off + n1 + n1 * lda, lda);
}

/** Column by column from the right: column j of the inverse is -x_jj A^-1[j+1:, j+1:] A[j+1:, j]. */
function invertSmall(n: number, a: Float64Array, off: number, lda: number): void {
  for (let j = n - 1; j >= 0; j--) {
    const cj = off + j * lda;
    const inv = 1 / a[cj + j];
    a[cj + j] = inv;
    // a[j+1:, j] <- -inv * T a[j+1:, j], T = the already inverted trailing block (lower triangular)
    for (let i = n - 1; i > j; i--) {
      let s = 0;
      for (let k = j + 1; k <= i; k++) s += a[off + i + k * lda] * a[cj + k];
      a[cj + i] = -inv * s;
    }
  }
}
