/**
 * Pure TypeScript backend: the fallback when OpenBLAS is absent and the reference the
 * native backend is tested against. Loops run down columns (unit stride in column-major
 * storage) wherever the algorithm allows.
 */
import type { Diag, LinalgBackend, Side, Trans, Uplo } from "./types.js";

function potrf(uplo: Uplo, n: number, a: Float64Array, lda: number): number {
  if (uplo === "L") {
    // Left-looking column Cholesky: column j is updated by the finished columns k < j.
    for (let j = 0; j < n; j++) {
      const cj = j * lda;
      for (let k = 0; k < j; k++) {
        const ck = k * lda;
        const t = a[j + ck];
        if (t === 0) continue;
        for (let i = j; i < n; i++) a[i + cj] -= t * a[i + ck];
      }
      const d = a[j + cj];
      if (!(d > 0)) return j + 1;
      const s = Math.sqrt(d);
      a[j + cj] = s;
      const inv = 1 / s;
      for (let i = j + 1; i < n; i++) a[i + cj] *= inv;
    }
    return 0;
  }
  // Upper: A = U'U, column j of U from dot products with the finished columns.
  for (let j = 0; j < n; j++) {
    const cj = j * lda;
    for (let i = 0; i < j; i++) {
      const ci = i * lda;
      let s = a[i + cj];
      for (let k = 0; k < i; k++) s -= a[k + ci] * a[k + cj];
      a[i + cj] = s / a[i + ci];
    }
    let d = a[j + cj];
    for (let k = 0; k < j; k++) d -= a[k + cj] * a[k + cj];
    if (!(d > 0)) {
      a[j + cj] = d;
      return j + 1;
    }
    a[j + cj] = Math.sqrt(d);
  }
  return 0;
}

function trsv(uplo: Uplo, trans: Trans, diag: Diag, n: number, a: Float64Array, lda: number, x: Float64Array, xo = 0): void {
  const unit = diag === "U";
  if (uplo === "L" && trans === "N") {
    for (let j = 0; j < n; j++) {
      const cj = j * lda;
      if (!unit) x[xo + j] /= a[j + cj];
      const t = x[xo + j];
      if (t !== 0) for (let i = j + 1; i < n; i++) x[xo + i] -= t * a[i + cj];
    }
  } else if (uplo === "L") {
    for (let j = n - 1; j >= 0; j--) {
      const cj = j * lda;
      let s = x[xo + j];
      for (let i = j + 1; i < n; i++) s -= a[i + cj] * x[xo + i];
      x[xo + j] = unit ? s : s / a[j + cj];
    }
  } else if (trans === "N") {
    for (let j = n - 1; j >= 0; j--) {
      const cj = j * lda;
      if (!unit) x[xo + j] /= a[j + cj];
      const t = x[xo + j];
      if (t !== 0) for (let i = 0; i < j; i++) x[xo + i] -= t * a[i + cj];
    }
  } else {
    for (let j = 0; j < n; j++) {
      const cj = j * lda;
      let s = x[xo + j];
      for (let i = 0; i < j; i++) s -= a[i + cj] * x[xo + i];
      x[xo + j] = unit ? s : s / a[j + cj];
    }
  }
}

function trsm(side: Side, uplo: Uplo, transA: Trans, diag: Diag, m: number, n: number, alpha: number,
  a: Float64Array, lda: number, b: Float64Array, ldb: number): void {
  if (alpha !== 1) {
    for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) b[i + j * ldb] *= alpha;
  }
  if (side === "L") {
    for (let j = 0; j < n; j++) trsv(uplo, transA, diag, m, a, lda, b, j * ldb);
    return;
  }
  // X op(A) = B, op(A) n x n: column j of B depends on the columns k of X with op(A)[k, j] != 0.
  const opLower = (uplo === "L") === (transA === "N");
  const opA = transA === "N" ? (k: number, j: number) => a[k + j * lda] : (k: number, j: number) => a[j + k * lda];
  const unit = diag === "U";
  const solveCol = (j: number, kFrom: number, kTo: number) => {
    const cj = j * ldb;
    for (let k = kFrom; k < kTo; k++) {
      const t = opA(k, j);
      if (t === 0) continue;
      const ck = k * ldb;
      for (let i = 0; i < m; i++) b[i + cj] -= t * b[i + ck];
    }
    if (!unit) {
      const inv = 1 / opA(j, j);
      for (let i = 0; i < m; i++) b[i + cj] *= inv;
    }
  };
  if (opLower) for (let j = n - 1; j >= 0; j--) solveCol(j, j + 1, n);
  else for (let j = 0; j < n; j++) solveCol(j, 0, j);
}

function syrk(uplo: Uplo, trans: Trans, n: number, k: number, alpha: number, a: Float64Array, lda: number,
  beta: number, c: Float64Array, ldc: number): void {
  const lower = uplo === "L";
  for (let j = 0; j < n; j++) {
    const cj = j * ldc;
    const i0 = lower ? j : 0;
    const i1 = lower ? n : j + 1;
    if (beta === 0) for (let i = i0; i < i1; i++) c[i + cj] = 0;
    else if (beta !== 1) for (let i = i0; i < i1; i++) c[i + cj] *= beta;
    if (trans === "T") {
      // C[i, j] += alpha * A[:, i] . A[:, j], A is k x n.
      const aj = j * lda;
      for (let i = i0; i < i1; i++) {
        const ai = i * lda;
        let s = 0;
        for (let l = 0; l < k; l++) s += a[l + ai] * a[l + aj];
        c[i + cj] += alpha * s;
      }
    } else {
      // C[:, j] += alpha * sum_l A[j, l] A[:, l], A is n x k.
      for (let l = 0; l < k; l++) {
        const al = l * lda;
        const t = alpha * a[j + al];
        if (t === 0) continue;
        for (let i = i0; i < i1; i++) c[i + cj] += t * a[i + al];
      }
    }
  }
}

function gemm(transA: Trans, transB: Trans, m: number, n: number, k: number, alpha: number,
  a: Float64Array, lda: number, b: Float64Array, ldb: number, beta: number, c: Float64Array, ldc: number): void {
  const bcol = new Float64Array(k);
  for (let j = 0; j < n; j++) {
    const cj = j * ldc;
    if (beta === 0) for (let i = 0; i < m; i++) c[i + cj] = 0;
    else if (beta !== 1) for (let i = 0; i < m; i++) c[i + cj] *= beta;
    // Column j of op(B), gathered contiguously.
    if (transB === "N") for (let l = 0; l < k; l++) bcol[l] = b[l + j * ldb];
    else for (let l = 0; l < k; l++) bcol[l] = b[j + l * ldb];
    if (transA === "N") {
      for (let l = 0; l < k; l++) {
        const t = alpha * bcol[l];
        if (t === 0) continue;
        const al = l * lda;
        for (let i = 0; i < m; i++) c[i + cj] += t * a[i + al];
      }
    } else {
      for (let i = 0; i < m; i++) {
        const ai = i * lda;
        let s = 0;
        for (let l = 0; l < k; l++) s += a[l + ai] * bcol[l];
        c[i + cj] += alpha * s;
      }
    }
  }
}

function gemv(trans: Trans, m: number, n: number, alpha: number, a: Float64Array, lda: number,
  x: Float64Array, beta: number, y: Float64Array): void {
  if (trans === "N") {
    if (beta === 0) y.fill(0, 0, m);
    else if (beta !== 1) for (let i = 0; i < m; i++) y[i] *= beta;
    for (let j = 0; j < n; j++) {
      const t = alpha * x[j];
      if (t === 0) continue;
      const aj = j * lda;
      for (let i = 0; i < m; i++) y[i] += t * a[i + aj];
    }
  } else {
    for (let j = 0; j < n; j++) {
      const aj = j * lda;
      let s = 0;
      for (let i = 0; i < m; i++) s += a[i + aj] * x[i];
      y[j] = (beta === 0 ? 0 : beta * y[j]) + alpha * s;
    }
  }
}

function symv(uplo: Uplo, n: number, alpha: number, a: Float64Array, lda: number, x: Float64Array,
  beta: number, y: Float64Array): void {
  if (beta === 0) y.fill(0, 0, n);
  else if (beta !== 1) for (let i = 0; i < n; i++) y[i] *= beta;
  for (let j = 0; j < n; j++) {
    const aj = j * lda;
    const t = alpha * x[j];
    let s = 0;
    if (uplo === "L") {
      y[j] += t * a[j + aj];
      for (let i = j + 1; i < n; i++) {
        y[i] += t * a[i + aj];
        s += a[i + aj] * x[i];
      }
    } else {
      for (let i = 0; i < j; i++) {
        y[i] += t * a[i + aj];
        s += a[i + aj] * x[i];
      }
      y[j] += t * a[j + aj];
    }
    y[j] += alpha * s;
  }
}

export const jsBackend: LinalgBackend = {
  name: "js",
  potrf,
  trsm,
  trsv: (uplo, trans, diag, n, a, lda, x) => trsv(uplo, trans, diag, n, a, lda, x, 0),
  syrk,
  gemm,
  gemv,
  symv,
  getThreads: () => 1,
  setThreads: () => {},
  describe: () => ({ backend: "js", library: "pure TypeScript", threads: 1 }),
};
