/**
 * Pure TypeScript backend: the fallback when OpenBLAS is absent and the reference the native
 * backend is tested against.
 *
 * Small problems use plain loops that run down columns (unit stride in column-major storage).
 * Large ones are blocked the way LAPACK and BLAS libraries block them, so that the O(n^3) work
 * happens in one matrix-multiply kernel on data that sits in cache:
 *  - gemm packs blocks of op(A) and op(B) into contiguous panels (the Goto/BLIS scheme) and
 *    multiplies them with an MR x NR register-blocked micro-kernel;
 *  - syrk is gemm on the off-diagonal blocks plus a small kernel on the diagonal blocks;
 *  - trsm solves a diagonal block with the plain loops, then updates the rest with gemm;
 *  - potrf is LAPACK's left-looking blocked dpotrf: syrk + gemm update of a block column,
 *    plain Cholesky of its diagonal block, trsm for the rest of the column.
 * Every path computes the same mathematical quantity in a different summation order, so the
 * results agree with the plain loops to rounding (the tests check both against naive loops).
 */
import {
  checkArgCount, checkDim, checkFlag, checkLd, checkMatrix, checkMatrixArg, checkNumber, checkScalars, checkThreads, checkVector,
} from "./checks.js";
import { potf2Lower, potf2Upper, potrfBlocked } from "./jsCholesky.js";
import { gemmAcc, jsTuning, syrkAcc } from "./jsProducts.js";
import { trsmBlocked, trsvPlain } from "./jsTriangular.js";
import type { Diag, LinalgBackend, Side, Trans, Uplo } from "./types.js";

/** Blocking parameters (see jsProducts.ts); tests lower them to reach the blocked code cheaply. */
export { jsTuning };

// ---------------------------------------------------------------------------------------
// The backend: argument checks (the same, in the same order, as the native addon), then work.

function scale(m: number, n: number, beta: number, c: Float64Array, ldc: number): void {
  if (beta === 1) return;
  for (let j = 0; j < n; j++) {
    const cj = j * ldc;
    // beta = 0 overwrites (NaN or Inf in C do not survive), as BLAS specifies.
    if (beta === 0) c.fill(0, cj, cj + m);
    else for (let i = 0; i < m; i++) c[cj + i] *= beta;
  }
}

function potrf(uplo: Uplo, n: number, a: Float64Array, lda: number): number {
  checkArgCount("potrf", arguments.length, 4);
  checkFlag("potrf", "uplo", uplo, "LU");
  checkDim("potrf", "n", n);
  checkMatrixArg("potrf", "lda", lda, "a", a, n, n);
  if (n < jsTuning.blockedFrom) return uplo === "L" ? potf2Lower(n, a, 0, lda) : potf2Upper(n, a, 0, lda);
  return potrfBlocked(uplo, n, a, lda);
}

function trsm(side: Side, uplo: Uplo, transA: Trans, diag: Diag, m: number, n: number, alpha: number,
  a: Float64Array, lda: number, b: Float64Array, ldb: number): void {
  checkArgCount("trsm", arguments.length, 11);
  checkFlag("trsm", "side", side, "LR");
  checkFlag("trsm", "uplo", uplo, "LU");
  checkFlag("trsm", "transA", transA, "NT");
  checkFlag("trsm", "diag", diag, "NU");
  checkDim("trsm", "m", m);
  checkDim("trsm", "n", n);
  checkNumber("trsm", "alpha", alpha);
  const k = side === "L" ? m : n;
  checkLd("trsm", "lda", lda, k);
  checkLd("trsm", "ldb", ldb, m);
  checkMatrix("trsm", "a", a, k, k, lda);
  checkMatrix("trsm", "b", b, m, n, ldb);
  if (m === 0 || n === 0) return;
  // alpha = 0 sets B to zero without reading A, as BLAS specifies.
  scale(m, n, alpha, b, ldb);
  if (alpha === 0) return;
  trsmBlocked(side, uplo, transA, diag, m, n, a, 0, lda, b, 0, ldb);
}

function trsv(uplo: Uplo, trans: Trans, diag: Diag, n: number, a: Float64Array, lda: number, x: Float64Array): void {
  checkArgCount("trsv", arguments.length, 7);
  checkFlag("trsv", "uplo", uplo, "LU");
  checkFlag("trsv", "trans", trans, "NT");
  checkFlag("trsv", "diag", diag, "NU");
  checkDim("trsv", "n", n);
  checkMatrixArg("trsv", "lda", lda, "a", a, n, n);
  checkVector("trsv", "x", x, n);
  trsvPlain(uplo, trans, diag, n, a, 0, lda, x, 0);
}

function syrk(uplo: Uplo, trans: Trans, n: number, k: number, alpha: number, a: Float64Array, lda: number,
  beta: number, c: Float64Array, ldc: number): void {
  checkArgCount("syrk", arguments.length, 10);
  checkFlag("syrk", "uplo", uplo, "LU");
  checkFlag("syrk", "trans", trans, "NT");
  checkDim("syrk", "n", n);
  checkDim("syrk", "k", k);
  checkScalars("syrk", alpha, beta);
  const rows = trans === "N" ? n : k;
  const cols = trans === "N" ? k : n;
  checkLd("syrk", "lda", lda, rows);
  checkLd("syrk", "ldc", ldc, n);
  checkMatrix("syrk", "a", a, rows, cols, lda);
  checkMatrix("syrk", "c", c, n, n, ldc);
  if (beta !== 1) {
    for (let j = 0; j < n; j++) {
      const i0 = uplo === "L" ? j : 0;
      const i1 = uplo === "L" ? n : j + 1;
      const cj = j * ldc;
      if (beta === 0) c.fill(0, cj + i0, cj + i1);
      else for (let i = i0; i < i1; i++) c[cj + i] *= beta;
    }
  }
  syrkAcc(uplo, trans, n, k, alpha, a, 0, lda, c, 0, ldc);
}

function gemm(transA: Trans, transB: Trans, m: number, n: number, k: number, alpha: number,
  a: Float64Array, lda: number, b: Float64Array, ldb: number, beta: number, c: Float64Array, ldc: number): void {
  checkArgCount("gemm", arguments.length, 13);
  checkFlag("gemm", "transA", transA, "NT");
  checkFlag("gemm", "transB", transB, "NT");
  checkDim("gemm", "m", m);
  checkDim("gemm", "n", n);
  checkDim("gemm", "k", k);
  checkScalars("gemm", alpha, beta);
  const arows = transA === "N" ? m : k;
  const acols = transA === "N" ? k : m;
  const brows = transB === "N" ? k : n;
  const bcols = transB === "N" ? n : k;
  checkLd("gemm", "lda", lda, arows);
  checkLd("gemm", "ldb", ldb, brows);
  checkLd("gemm", "ldc", ldc, m);
  checkMatrix("gemm", "a", a, arows, acols, lda);
  checkMatrix("gemm", "b", b, brows, bcols, ldb);
  checkMatrix("gemm", "c", c, m, n, ldc);
  scale(m, n, beta, c, ldc);
  gemmAcc(transA, transB, m, n, k, alpha, a, 0, lda, b, 0, ldb, c, 0, ldc);
}

function gemv(trans: Trans, m: number, n: number, alpha: number, a: Float64Array, lda: number,
  x: Float64Array, beta: number, y: Float64Array): void {
  checkArgCount("gemv", arguments.length, 9);
  checkFlag("gemv", "trans", trans, "NT");
  checkDim("gemv", "m", m);
  checkDim("gemv", "n", n);
  checkScalars("gemv", alpha, beta);
  checkMatrixArg("gemv", "lda", lda, "a", a, m, n);
  checkVector("gemv", "x", x, trans === "N" ? n : m);
  checkVector("gemv", "y", y, trans === "N" ? m : n);
  if (trans === "N") {
    scale(m, 1, beta, y, Math.max(1, m));
    for (let j = 0; j < n; j++) {
      const t = alpha * x[j];
      if (t === 0) continue;
      const aj = j * lda;
      for (let i = 0; i < m; i++) y[i] += t * a[aj + i];
    }
  } else {
    scale(n, 1, beta, y, Math.max(1, n));
    // alpha = 0 leaves A unread (a NaN in it does not reach y), as BLAS specifies.
    if (alpha === 0) return;
    for (let j = 0; j < n; j++) {
      const aj = j * lda;
      let s = 0;
      for (let i = 0; i < m; i++) s += a[aj + i] * x[i];
      y[j] += alpha * s;
    }
  }
}

function symv(uplo: Uplo, n: number, alpha: number, a: Float64Array, lda: number, x: Float64Array,
  beta: number, y: Float64Array): void {
  checkArgCount("symv", arguments.length, 8);
  checkFlag("symv", "uplo", uplo, "LU");
  checkDim("symv", "n", n);
  checkScalars("symv", alpha, beta);
  checkMatrixArg("symv", "lda", lda, "a", a, n, n);
  checkVector("symv", "x", x, n);
  checkVector("symv", "y", y, n);
  scale(n, 1, beta, y, Math.max(1, n));
  if (alpha === 0) return;
  // One pass over the stored triangle: A[i, j] (i != j) contributes to y[i] and to y[j].
  for (let j = 0; j < n; j++) {
    const aj = j * lda;
    const t = alpha * x[j];
    let s = 0;
    if (uplo === "L") {
      y[j] += t * a[aj + j];
      for (let i = j + 1; i < n; i++) {
        y[i] += t * a[aj + i];
        s += a[aj + i] * x[i];
      }
    } else {
      for (let i = 0; i < j; i++) {
        y[i] += t * a[aj + i];
        s += a[aj + i] * x[i];
      }
      y[j] += t * a[aj + j];
    }
    y[j] += alpha * s;
  }
}

function scaleRows(m: number, n: number, w: Float64Array, a: Float64Array, lda: number, b: Float64Array, ldb: number): void {
  checkArgCount("scaleRows", arguments.length, 7);
  checkDim("scaleRows", "m", m);
  checkDim("scaleRows", "n", n);
  checkVector("scaleRows", "w", w, m);
  checkMatrixArg("scaleRows", "lda", lda, "a", a, m, n);
  checkMatrixArg("scaleRows", "ldb", ldb, "b", b, m, n);
  for (let j = 0; j < n; j++) {
    const aj = j * lda;
    const bj = j * ldb;
    for (let i = 0; i < m; i++) b[bj + i] = a[aj + i] * w[i];
  }
}

function rowSumsOfSquares(m: number, n: number, a: Float64Array, lda: number, out: Float64Array): void {
  checkArgCount("rowSumsOfSquares", arguments.length, 5);
  checkDim("rowSumsOfSquares", "m", m);
  checkDim("rowSumsOfSquares", "n", n);
  checkMatrixArg("rowSumsOfSquares", "lda", lda, "a", a, m, n);
  checkVector("rowSumsOfSquares", "out", out, m);
  out.fill(0, 0, m);
  for (let j = 0; j < n; j++) {
    const aj = j * lda;
    for (let i = 0; i < m; i++) out[i] += a[aj + i] * a[aj + i];
  }
}

function crossWeightedSquares(m: number, n: number, a: Float64Array, lda: number, v: Float64Array, w: Float64Array, u: Float64Array, out: Float64Array): void {
  checkArgCount("crossWeightedSquares", arguments.length, 8);
  checkDim("crossWeightedSquares", "m", m);
  checkDim("crossWeightedSquares", "n", n);
  checkMatrixArg("crossWeightedSquares", "lda", lda, "a", a, m, n);
  checkVector("crossWeightedSquares", "v", v, n);
  checkVector("crossWeightedSquares", "w", w, m);
  checkVector("crossWeightedSquares", "u", u, m);
  checkVector("crossWeightedSquares", "out", out, n);
  gemv("N", m, n, 1, a, lda, v, 0, u);
  for (let i = 0; i < m; i++) u[i] = w[i] * u[i] * u[i];
  gemv("T", m, n, 1, a, lda, u, 0, out);
}

function logisticWeightRoots(n: number, e: Float64Array, out: Float64Array): void {
  checkArgCount("logisticWeightRoots", arguments.length, 3);
  checkDim("logisticWeightRoots", "n", n);
  checkVector("logisticWeightRoots", "e", e, n);
  checkVector("logisticWeightRoots", "out", out, n);
  for (let i = 0; i < n; i++) {
    const z = Math.exp(-Math.abs(e[i]));
    const w = 1 / (1 + z);
    out[i] = Math.sqrt(z * w * w);
  }
}

export const jsBackend: LinalgBackend = Object.freeze({
  name: "js" as const,
  scaleRows,
  rowSumsOfSquares,
  logisticWeightRoots,
  crossWeightedSquares,
  potrf,
  trsm,
  trsv,
  syrk,
  gemm,
  gemv,
  symv,
  getThreads: () => 1,
  setThreads: (n: number) => {
    // Same check as the native backend; there is nothing to set: the js backend is serial.
    checkThreads(n);
  },
  describe: () => ({ backend: "js" as const, library: "pure TypeScript", threads: 1 }),
});
