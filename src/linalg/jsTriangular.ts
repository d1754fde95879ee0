/**
 * Triangular solves of the pure TypeScript backend (js.ts), on sub-matrices given by (array,
 * offset, leading dimension): plain column loops, and LAPACK's blocking for large systems (solve
 * a diagonal block with the loops, update the rest with gemm). No alpha: callers scale B first.
 */
import { gemmAcc, jsTuning } from "./jsProducts.js";
import type { Diag, Side, Trans, Uplo } from "./types.js";

/** x <- op(A)^-1 x on sub-arrays, unit stride. */
export function trsvPlain(uplo: Uplo, trans: Trans, diag: Diag, n: number, a: Float64Array, ao: number, lda: number,
  x: Float64Array, xo: number): void {
  const unit = diag === "U";
  if (uplo === "L" && trans === "N") {
    for (let j = 0; j < n; j++) {
      const cj = ao + j * lda;
      if (!unit) x[xo + j] /= a[cj + j];
      const t = x[xo + j];
      if (t !== 0) for (let i = j + 1; i < n; i++) x[xo + i] -= t * a[cj + i];
    }
  } else if (uplo === "L") {
    for (let j = n - 1; j >= 0; j--) {
      const cj = ao + j * lda;
      let s = x[xo + j];
      for (let i = j + 1; i < n; i++) s -= a[cj + i] * x[xo + i];
      x[xo + j] = unit ? s : s / a[cj + j];
    }
  } else if (trans === "N") {
    for (let j = n - 1; j >= 0; j--) {
      const cj = ao + j * lda;
      if (!unit) x[xo + j] /= a[cj + j];
      const t = x[xo + j];
      if (t !== 0) for (let i = 0; i < j; i++) x[xo + i] -= t * a[cj + i];
    }
  } else {
    for (let j = 0; j < n; j++) {
      const cj = ao + j * lda;
      let s = x[xo + j];
      for (let i = 0; i < j; i++) s -= a[cj + i] * x[xo + i];
      x[xo + j] = unit ? s : s / a[cj + j];
    }
  }
}

function trsmPlain(side: Side, uplo: Uplo, transA: Trans, diag: Diag, m: number, n: number,
  a: Float64Array, ao: number, lda: number, b: Float64Array, bo: number, ldb: number): void {
  if (side === "L") {
    for (let j = 0; j < n; j++) trsvPlain(uplo, transA, diag, m, a, ao, lda, b, bo + j * ldb);
    return;
  }
  // X op(A) = B with op(A) n x n: column j of X is (B[:, j] - sum_k X[:, k] op(A)[k, j]) / op(A)[j, j]
  // over the k != j where op(A)[k, j] can be non-zero: k > j when op(A) is lower (solve from the
  // last column), k < j when it is upper (from the first).
  const opLower = (uplo === "L") === (transA === "N");
  const unit = diag === "U";
  // op(A)[k, j] lives at a[ao + k*rs + j*cs].
  const rs = transA === "N" ? 1 : lda;
  const cs = transA === "N" ? lda : 1;
  const col = (j: number, kFrom: number, kTo: number) => {
    const cj = bo + j * ldb;
    for (let k = kFrom; k < kTo; k++) {
      const t = a[ao + k * rs + j * cs];
      if (t === 0) continue;
      const ck = bo + k * ldb;
      for (let i = 0; i < m; i++) b[cj + i] -= t * b[ck + i];
    }
    if (!unit) {
      const inv = 1 / a[ao + j * rs + j * cs];
      for (let i = 0; i < m; i++) b[cj + i] *= inv;
    }
  };
  if (opLower) for (let j = n - 1; j >= 0; j--) col(j, j + 1, n);
  else for (let j = 0; j < n; j++) col(j, 0, j);
}

export function trsmBlocked(side: Side, uplo: Uplo, tA: Trans, diag: Diag, m: number, n: number,
  a: Float64Array, ao: number, lda: number, b: Float64Array, bo: number, ldb: number): void {
  const nb = jsTuning.nb;
  // op(A)[i, j] as a gemm operand starting at (i, j): A[i, j] with op N, or A[j, i] with op T.
  const opAt = (i: number, j: number) => (tA === "N" ? ao + i + j * lda : ao + j + i * lda);
  if (side === "L") {
    if (Math.max(m, 1) < jsTuning.blockedFrom) return trsmPlain(side, uplo, tA, diag, m, n, a, ao, lda, b, bo, ldb);
    // op(A) X = B over block rows of X: forward when op(A) is lower, backward when upper.
    const forward = (uplo === "L") === (tA === "N");
    for (let step = 0; step < m; step += nb) {
      const i = forward ? step : Math.max(0, m - step - nb);
      const ib = forward ? Math.min(nb, m - i) : m - step - i;
      trsmPlain("L", uplo, tA, diag, ib, n, a, opAt(i, i), lda, b, bo + i, ldb);
      if (forward && i + ib < m) {
        // B[i+ib:m, :] -= op(A)[i+ib:m, i:i+ib] X[i:i+ib, :]
        const r = i + ib;
        gemmAcc(tA, "N", m - r, n, ib, -1, a, opAt(r, i), lda, b, bo + i, ldb, b, bo + r, ldb);
      } else if (!forward && i > 0) {
        // B[0:i, :] -= op(A)[0:i, i:i+ib] X[i:i+ib, :]
        gemmAcc(tA, "N", i, n, ib, -1, a, opAt(0, i), lda, b, bo + i, ldb, b, bo, ldb);
      }
    }
    return;
  }
  if (Math.max(n, 1) < jsTuning.blockedFrom) return trsmPlain(side, uplo, tA, diag, m, n, a, ao, lda, b, bo, ldb);
  // X op(A) = B over block columns of X: forward when op(A) is upper, backward when lower.
  const forward = (uplo === "U") === (tA === "N");
  for (let step = 0; step < n; step += nb) {
    const j = forward ? step : Math.max(0, n - step - nb);
    const jb = forward ? Math.min(nb, n - j) : n - step - j;
    trsmPlain("R", uplo, tA, diag, m, jb, a, opAt(j, j), lda, b, bo + j * ldb, ldb);
    if (forward && j + jb < n) {
      // B[:, j+jb:n] -= X[:, j:j+jb] op(A)[j:j+jb, j+jb:n]
      const r = j + jb;
      gemmAcc("N", tA, m, n - r, jb, -1, b, bo + j * ldb, ldb, a, opAt(j, r), lda, b, bo + r * ldb, ldb);
    } else if (!forward && j > 0) {
      // B[:, 0:j] -= X[:, j:j+jb] op(A)[j:j+jb, 0:j]
      gemmAcc("N", tA, m, j, jb, -1, b, bo + j * ldb, ldb, a, opAt(j, 0), lda, b, bo, ldb);
    }
  }
}
