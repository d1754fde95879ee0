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
  checkArgCount, checkDim, checkFlag, checkLd, checkMatrix, checkNumber, checkThreads, checkVector,
} from "./checks.js";
import type { Diag, LinalgBackend, Side, Trans, Uplo } from "./types.js";

/**
 * Blocking parameters. `nb` is the block size of potrf/trsm/syrk; below `blockedFrom` the plain
 * loops are used (blocking only pays off once a matrix stops fitting in cache). The tests lower
 * these to run the blocked code on small matrices, where its edge cases are cheap to check.
 */
export const jsTuning = { nb: 64, blockedFrom: 96, gemmPackedFrom: 32 * 32 * 32 };

// Micro-kernel shape and packing blocks. MR x NR = 2 x 4 measured fastest in V8 among
// 2x4, 2x6, 3x4, 4x2 and 4x4 (larger tiles spill the accumulators out of registers).
const MR = 2;
const NR = 4;
const KC = 256;
const MC = 128;
const NC = 512;
const packA = new Float64Array(MC * KC);
const packB = new Float64Array(KC * NC);
let syrkScratch = new Float64Array(64 * 64);

// ---------------------------------------------------------------------------------------
// gemm: C += alpha op(A) op(B), on sub-matrices given by (array, offset, leading dimension).

function gemmPlain(tA: Trans, tB: Trans, m: number, n: number, k: number, alpha: number,
  a: Float64Array, ao: number, lda: number, b: Float64Array, bo: number, ldb: number,
  c: Float64Array, co: number, ldc: number): void {
  for (let j = 0; j < n; j++) {
    const cj = co + j * ldc;
    if (tA === "N") {
      // C[:, j] += sum_l A[:, l] (alpha op(B)[l, j]): axpy down the columns of A.
      for (let l = 0; l < k; l++) {
        const t = alpha * (tB === "N" ? b[bo + l + j * ldb] : b[bo + j + l * ldb]);
        if (t === 0) continue;
        const al = ao + l * lda;
        for (let i = 0; i < m; i++) c[cj + i] += t * a[al + i];
      }
    } else {
      // C[i, j] += alpha A[:, i] . op(B)[:, j]: dot products down the columns of A.
      for (let i = 0; i < m; i++) {
        const ai = ao + i * lda;
        let s = 0;
        if (tB === "N") {
          const bj = bo + j * ldb;
          for (let l = 0; l < k; l++) s += a[ai + l] * b[bj + l];
        } else {
          for (let l = 0; l < k; l++) s += a[ai + l] * b[bo + j + l * ldb];
        }
        c[cj + i] += alpha * s;
      }
    }
  }
}

/** Packs alpha op(A)[i0:i0+mc, l0:l0+kc] into row panels of MR: packA[p*MR*kc + l*MR + r]. */
function packOpA(tA: Trans, mc: number, kc: number, alpha: number, a: Float64Array, ao: number, lda: number, i0: number, l0: number): void {
  for (let ir = 0; ir < mc; ir += MR) {
    const base = ir * kc; // (ir / MR) * MR * kc
    const mr = Math.min(MR, mc - ir);
    for (let r = 0; r < MR; r++) {
      if (r >= mr) {
        for (let l = 0; l < kc; l++) packA[base + l * MR + r] = 0;
        continue;
      }
      const i = i0 + ir + r;
      if (tA === "N") {
        let p = ao + i + l0 * lda;
        for (let l = 0; l < kc; l++, p += lda) packA[base + l * MR + r] = alpha * a[p];
      } else {
        const p = ao + l0 + i * lda;
        for (let l = 0; l < kc; l++) packA[base + l * MR + r] = alpha * a[p + l];
      }
    }
  }
}

/** Packs op(B)[l0:l0+kc, j0:j0+nc] into column panels of NR: packB[q*NR*kc + l*NR + s]. */
function packOpB(tB: Trans, kc: number, nc: number, b: Float64Array, bo: number, ldb: number, l0: number, j0: number): void {
  for (let jr = 0; jr < nc; jr += NR) {
    const base = jr * kc;
    const nr = Math.min(NR, nc - jr);
    for (let s = 0; s < NR; s++) {
      if (s >= nr) {
        for (let l = 0; l < kc; l++) packB[base + l * NR + s] = 0;
        continue;
      }
      const j = j0 + jr + s;
      if (tB === "N") {
        const p = bo + l0 + j * ldb;
        for (let l = 0; l < kc; l++) packB[base + l * NR + s] = b[p + l];
      } else {
        let p = bo + j + l0 * ldb;
        for (let l = 0; l < kc; l++, p += ldb) packB[base + l * NR + s] = b[p];
      }
    }
  }
}

/** C[co.., MR x NR tile] += packed A panel x packed B panel. */
function microKernel(kc: number, pa: number, pb: number, c: Float64Array, co: number, ldc: number): void {
  const A = packA;
  const B = packB;
  let c00 = 0, c10 = 0, c01 = 0, c11 = 0, c02 = 0, c12 = 0, c03 = 0, c13 = 0;
  for (let l = 0; l < kc; l++) {
    const a0 = A[pa], a1 = A[pa + 1];
    let b = B[pb];
    c00 += a0 * b; c10 += a1 * b;
    b = B[pb + 1];
    c01 += a0 * b; c11 += a1 * b;
    b = B[pb + 2];
    c02 += a0 * b; c12 += a1 * b;
    b = B[pb + 3];
    c03 += a0 * b; c13 += a1 * b;
    pa += MR;
    pb += NR;
  }
  c[co] += c00; c[co + 1] += c10; co += ldc;
  c[co] += c01; c[co + 1] += c11; co += ldc;
  c[co] += c02; c[co + 1] += c12; co += ldc;
  c[co] += c03; c[co + 1] += c13;
}

/** A partial tile at the bottom or right edge of C: only mr x nr entries are written. */
function edgeKernel(kc: number, pa: number, pb: number, mr: number, nr: number, c: Float64Array, co: number, ldc: number): void {
  for (let s = 0; s < nr; s++) {
    for (let r = 0; r < mr; r++) {
      let t = 0;
      for (let l = 0; l < kc; l++) t += packA[pa + l * MR + r] * packB[pb + l * NR + s];
      c[co + r + s * ldc] += t;
    }
  }
}

function gemmAcc(tA: Trans, tB: Trans, m: number, n: number, k: number, alpha: number,
  a: Float64Array, ao: number, lda: number, b: Float64Array, bo: number, ldb: number,
  c: Float64Array, co: number, ldc: number): void {
  if (m === 0 || n === 0 || k === 0 || alpha === 0) return;
  if (m * n * k < jsTuning.gemmPackedFrom || m < MR || n < NR) {
    gemmPlain(tA, tB, m, n, k, alpha, a, ao, lda, b, bo, ldb, c, co, ldc);
    return;
  }
  for (let jc = 0; jc < n; jc += NC) {
    const nc = Math.min(NC, n - jc);
    for (let pc = 0; pc < k; pc += KC) {
      const kc = Math.min(KC, k - pc);
      packOpB(tB, kc, nc, b, bo, ldb, pc, jc);
      for (let ic = 0; ic < m; ic += MC) {
        const mc = Math.min(MC, m - ic);
        packOpA(tA, mc, kc, alpha, a, ao, lda, ic, pc);
        for (let jr = 0; jr < nc; jr += NR) {
          const nr = Math.min(NR, nc - jr);
          const cj = co + ic + (jc + jr) * ldc;
          for (let ir = 0; ir < mc; ir += MR) {
            const mr = Math.min(MR, mc - ir);
            if (mr === MR && nr === NR) microKernel(kc, ir * kc, jr * kc, c, cj + ir, ldc);
            else edgeKernel(kc, ir * kc, jr * kc, mr, nr, c, cj + ir, ldc);
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// syrk: C += alpha op(A) op(A)' on the uplo triangle of the n x n C.

function syrkPlain(uplo: Uplo, trans: Trans, n: number, k: number, alpha: number,
  a: Float64Array, ao: number, lda: number, c: Float64Array, co: number, ldc: number): void {
  const lower = uplo === "L";
  for (let j = 0; j < n; j++) {
    const cj = co + j * ldc;
    const i0 = lower ? j : 0;
    const i1 = lower ? n : j + 1;
    if (trans === "T") {
      // C[i, j] += alpha A[:, i] . A[:, j], A is k x n.
      const aj = ao + j * lda;
      for (let i = i0; i < i1; i++) {
        const ai = ao + i * lda;
        let s = 0;
        for (let l = 0; l < k; l++) s += a[ai + l] * a[aj + l];
        c[cj + i] += alpha * s;
      }
    } else {
      // C[:, j] += alpha sum_l A[j, l] A[:, l], A is n x k.
      for (let l = 0; l < k; l++) {
        const al = ao + l * lda;
        const t = alpha * a[al + j];
        if (t === 0) continue;
        for (let i = i0; i < i1; i++) c[cj + i] += t * a[al + i];
      }
    }
  }
}

function syrkAcc(uplo: Uplo, trans: Trans, n: number, k: number, alpha: number,
  a: Float64Array, ao: number, lda: number, c: Float64Array, co: number, ldc: number): void {
  if (n === 0 || k === 0 || alpha === 0) return;
  const nb = jsTuning.nb;
  if (n < jsTuning.blockedFrom) {
    syrkPlain(uplo, trans, n, k, alpha, a, ao, lda, c, co, ldc);
    return;
  }
  // Row block i of op(A) starts at offset rowOff(i) with op "N" (trans N: rows of A) or
  // "T" (trans T: columns of A), so blocks of C are gemm's op(A_i) op(A_j)'.
  const rowOff = (i: number) => (trans === "N" ? ao + i : ao + i * lda);
  const tA: Trans = trans;
  const tB: Trans = trans === "N" ? "T" : "N";
  if (syrkScratch.length < nb * nb) syrkScratch = new Float64Array(nb * nb);
  for (let j = 0; j < n; j += nb) {
    const jb = Math.min(nb, n - j);
    // Diagonal block: the full jb x jb square into scratch (gemm's speed outweighs the
    // jb^2 k / 2 extra flops), then only its triangle into C.
    const s = syrkScratch;
    s.fill(0, 0, jb * jb);
    gemmAcc(tA, tB, jb, jb, k, alpha, a, rowOff(j), lda, a, rowOff(j), lda, s, 0, jb);
    const cjj = co + j + j * ldc;
    for (let q = 0; q < jb; q++) {
      const i0 = uplo === "L" ? q : 0;
      const i1 = uplo === "L" ? jb : q + 1;
      for (let p = i0; p < i1; p++) c[cjj + p + q * ldc] += s[p + q * jb];
    }
    if (uplo === "L") {
      const r = j + jb;
      if (r < n) gemmAcc(tA, tB, n - r, jb, k, alpha, a, rowOff(r), lda, a, rowOff(j), lda, c, co + r + j * ldc, ldc);
    } else if (j > 0) {
      gemmAcc(tA, tB, j, jb, k, alpha, a, rowOff(0), lda, a, rowOff(j), lda, c, co + j * ldc, ldc);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Triangular solves (no alpha: callers scale B first).

/** x <- op(A)^-1 x on sub-arrays, unit stride. */
function trsvPlain(uplo: Uplo, trans: Trans, diag: Diag, n: number, a: Float64Array, ao: number, lda: number,
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

function trsmBlocked(side: Side, uplo: Uplo, tA: Trans, diag: Diag, m: number, n: number,
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

// ---------------------------------------------------------------------------------------
// Cholesky.

/** Unblocked lower Cholesky of the n x n block at ao; returns 0 or the 1-based failing pivot. */
function potf2Lower(n: number, a: Float64Array, ao: number, lda: number): number {
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
function potf2Upper(n: number, a: Float64Array, ao: number, lda: number): number {
  for (let j = 0; j < n; j++) {
    const cj = ao + j * lda;
    for (let i = 0; i < j; i++) {
      const ci = ao + i * lda;
      let s = a[cj + i];
      for (let k = 0; k < i; k++) s -= a[ci + k] * a[cj + k];
      a[cj + i] = s / a[ci + i];
    }
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

function potrfBlocked(uplo: Uplo, n: number, a: Float64Array, lda: number): number {
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
  checkLd("potrf", "lda", lda, n);
  checkMatrix("potrf", "a", a, n, n, lda);
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
  checkLd("trsv", "lda", lda, n);
  checkMatrix("trsv", "a", a, n, n, lda);
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
  checkNumber("syrk", "alpha", alpha);
  checkNumber("syrk", "beta", beta);
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
  checkNumber("gemm", "alpha", alpha);
  checkNumber("gemm", "beta", beta);
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
  checkNumber("gemv", "alpha", alpha);
  checkNumber("gemv", "beta", beta);
  checkLd("gemv", "lda", lda, m);
  checkMatrix("gemv", "a", a, m, n, lda);
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
  checkNumber("symv", "alpha", alpha);
  checkNumber("symv", "beta", beta);
  checkLd("symv", "lda", lda, n);
  checkMatrix("symv", "a", a, n, n, lda);
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

export const jsBackend: LinalgBackend = Object.freeze({
  name: "js" as const,
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
