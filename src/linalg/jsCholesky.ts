/**
 * Cholesky factorisation of the pure TypeScript backend (js.ts): unblocked left-looking loops
 * for small matrices, and LAPACK's left-looking blocked dpotrf for large ones (syrk + gemm
 * update of a block column, plain Cholesky of its diagonal block, trsm for the rest).
 */
import { gemmAcc, jsTuning, syrkAcc } from "./jsProducts.js";
import { trsmBlocked, trsvPlain } from "./jsTriangular.js";
import type { Uplo } from "./types.js";

/** Unblocked lower Cholesky of the n x n block at ao; returns 0 or the 1-based failing pivot. */
export function potf2Lower(n: number, a: Float64Array, ao: number, lda: number): number {
  // Left-looking: column j is updated by the finished columns k < j, so when pivot j fails,
  // row j of L left of the diagonal is complete (cholesky() rebuilds the pivot value from it).
  for (let j = 0; j < n; j++) {
    const cj = ao + j * lda;
    for (let k = 0; k < j; k++) {
      const ck = ao + k * lda;
      const t = a[ck + j];
      if (t === 0) continue;
      for (let i = j; i < n; i++) a[cj + i] -= t * a[ck + i];
    }
    const d = a[cj + j];
    // !(d > 0) also catches NaN, which LAPACK's dpotrf reports as a failing pivot too.
    if (!(d > 0)) return j + 1;
    const s = Math.sqrt(d);
    a[cj + j] = s;
    const inv = 1 / s;
    for (let i = j + 1; i < n; i++) a[cj + i] *= inv;
  }
  return 0;
}

/** Unblocked upper Cholesky A = U'U of the n x n block at ao. */
export function potf2Upper(n: number, a: Float64Array, ao: number, lda: number): number {
  for (let j = 0; j < n; j++) {
    const cj = ao + j * lda;
    // U[0:j, j] solves U[0:j, 0:j]' u = A[0:j, j] (LAPACK dpotf2's upper form), in place.
    trsvPlain("U", "T", "N", j, a, ao, lda, a, cj);
    let d = a[cj + j];
    for (let k = 0; k < j; k++) d -= a[cj + k] * a[cj + k];
    if (!(d > 0)) {
      a[cj + j] = d;
      return j + 1;
    }
    a[cj + j] = Math.sqrt(d);
  }
  return 0;
}

export function potrfBlocked(uplo: Uplo, n: number, a: Float64Array, lda: number): number {
  const nb = jsTuning.nb;
  for (let j = 0; j < n; j += nb) {
    const jb = Math.min(nb, n - j);
    const djj = j + j * lda;
    const r = j + jb;
    if (uplo === "L") {
      // A[j:r, j:r] -= L[j:r, 0:j] L[j:r, 0:j]'; factor it; then
      // L[r:n, j:r] = (A[r:n, j:r] - L[r:n, 0:j] L[j:r, 0:j]') L[j:r, j:r]^-T.
      syrkAcc("L", "N", jb, j, -1, a, j, lda, a, djj, lda);
      const info = potf2Lower(jb, a, djj, lda);
      if (info !== 0) return j + info;
      if (r < n) {
        gemmAcc("N", "T", n - r, jb, j, -1, a, r, lda, a, j, lda, a, r + j * lda, lda);
        trsmBlocked("R", "L", "T", "N", n - r, jb, a, djj, lda, a, r + j * lda, lda);
      }
    } else {
      // The transpose: A[j:r, j:r] -= U[0:j, j:r]' U[0:j, j:r]; factor it; then
      // U[j:r, r:n] = U[j:r, j:r]^-T (A[j:r, r:n] - U[0:j, j:r]' U[0:j, r:n]).
      syrkAcc("U", "T", jb, j, -1, a, j * lda, lda, a, djj, lda);
      const info = potf2Upper(jb, a, djj, lda);
      if (info !== 0) return j + info;
      if (r < n) {
        gemmAcc("T", "N", jb, n - r, j, -1, a, j * lda, lda, a, r * lda, lda, a, j + r * lda, lda);
        trsmBlocked("L", "U", "T", "N", jb, n - r, a, djj, lda, a, j + r * lda, lda);
      }
    }
  }
  return 0;
}
