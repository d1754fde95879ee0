/**
 * The matrix products of the pure TypeScript backend (js.ts), on sub-matrices given by
 * (array, offset, leading dimension): gemm, C += alpha op(A) op(B), and syrk, C += alpha
 * op(A) op(A)' on one triangle. Small products run plain loops down columns; large ones pack
 * blocks of op(A) and op(B) into contiguous panels (the Goto/BLIS scheme) and multiply them
 * with an MR x NR register-blocked micro-kernel. syrk is gemm on the off-diagonal blocks plus
 * a small kernel on the diagonal blocks.
 */
import type { Trans, Uplo } from "./types.js";

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

/**
 * Packs `count` lines of width `kc` into panels of `w` lines, interleaved: dst[(p * w) * kc +
 * l * w + r] = alpha x[x0 + (p * w + r) * lineStride + l * kStride]; a last panel short of w
 * lines is padded with zeros, so the micro-kernel never branches on the edge.
 */
function packPanels(dst: Float64Array, w: number, count: number, kc: number, alpha: number,
  x: Float64Array, x0: number, lineStride: number, kStride: number): void {
  for (let ir = 0; ir < count; ir += w) {
    const base = ir * kc; // (ir / w) * w * kc
    const lines = Math.min(w, count - ir);
    for (let r = 0; r < w; r++) {
      if (r >= lines) {
        for (let l = 0; l < kc; l++) dst[base + l * w + r] = 0;
        continue;
      }
      let p = x0 + (ir + r) * lineStride;
      // A copy when alpha = 1 (always for op(B)): the same values, without a multiply per entry.
      if (alpha === 1) for (let l = 0; l < kc; l++, p += kStride) dst[base + l * w + r] = x[p];
      else for (let l = 0; l < kc; l++, p += kStride) dst[base + l * w + r] = alpha * x[p];
    }
  }
}

/** Packs alpha op(A)[i0:i0+mc, l0:l0+kc] into row panels of MR: packA[p*MR*kc + l*MR + r]. */
function packOpA(tA: Trans, mc: number, kc: number, alpha: number, a: Float64Array, ao: number, lda: number, i0: number, l0: number): void {
  // op(A)[i, l] is A[i, l] (N) or A[l, i] (T).
  if (tA === "N") packPanels(packA, MR, mc, kc, alpha, a, ao + i0 + l0 * lda, 1, lda);
  else packPanels(packA, MR, mc, kc, alpha, a, ao + l0 + i0 * lda, lda, 1);
}

/** Packs op(B)[l0:l0+kc, j0:j0+nc] into column panels of NR: packB[q*NR*kc + l*NR + s]. */
function packOpB(tB: Trans, kc: number, nc: number, b: Float64Array, bo: number, ldb: number, l0: number, j0: number): void {
  // op(B)[l, j] is B[l, j] (N) or B[j, l] (T).
  if (tB === "N") packPanels(packB, NR, nc, kc, 1, b, bo + l0 + j0 * ldb, ldb, 1);
  else packPanels(packB, NR, nc, kc, 1, b, bo + j0 + l0 * ldb, 1, ldb);
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

export function gemmAcc(tA: Trans, tB: Trans, m: number, n: number, k: number, alpha: number,
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

export function syrkAcc(uplo: Uplo, trans: Trans, n: number, k: number, alpha: number,
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
