import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { getBackend, Matrix, setBackend, type LinalgBackend } from "../../src/linalg/index.js";
import { Rng } from "../../src/random/rng.js";
import { applyWoodburyInverse, factorIdentityPlusScaled, solveScaledRows, woodburyInverseDiagonal } from "../../src/targets/woodbury.js";
import {
  invertFactor, SOLVE_BELOW, solvedFromInverse, woodburyFromInverseFactor, woodburyInverseDiagonalFromInverse,
} from "../../src/targets/woodburyFromInverseFactor.js";
import { backends } from "../linalg/helpers.js";
import { luInverseAndLogDet } from "./dense.js";

// diag((C^-1 + S^2)^-1) and V = L^-1 S C from L = chol(I + S C S) and L^-1, checked against
// Sigma = C - C S B^-1 S C with B^-1 by Gauss-Jordan (test/targets/dense.ts, independent of
// src/linalg) and against the triangular-solve route (solveScaledRows).
const N = 24;

/**
 * C: a strongly correlated squared-exponential kernel with a large variance (as USPS at the note's
 * setting: C_jj / Sigma_jj in the thousands), s over many orders of magnitude, with sites whose
 * s_j^2 Sigma_jj is far below eps (where 1 - (B^-1)_jj loses every digit), one below SOLVE_BELOW
 * and one exactly 0 (both solved for).
 */
function problem(seed: number) {
  const rng = new Rng(seed);
  const X = new Matrix(N, 2);
  for (let i = 0; i < 2 * N; i++) X.data[i] = 2 * rng.uniform() - 1;
  const C = seKernel({ lengthscale: 1.5, signalSd: 160 }).matrix(X);
  for (let i = 0; i < N; i++) C.data[i + i * N] *= 1 + 1e-4;
  const s = Float64Array.from({ length: N }, () => Math.exp(3 * rng.normal() - 2));
  s[2] = 1e-9;
  s[5] = 1e-20;
  s[7] = 1e-70;
  s[11] = 0;
  return { C, s };
}

/** Sigma = C - C S B^-1 S C, B^-1 by explicit Gauss-Jordan inversion (no Cholesky, no triangular solve). */
function direct(C: Matrix, s: Float64Array): number[][] {
  const c = C.toRows();
  const b = c.map((row, i) => row.map((x, j) => s[i] * x * s[j] + (i === j ? 1 : 0)));
  const bi = luInverseAndLogDet(b).inverse;
  // W = S C (rows scaled), Sigma = C - W' B^-1 W
  const w = c.map((row, i) => row.map((x) => s[i] * x));
  const sigma: number[][] = [];
  for (let i = 0; i < N; i++) {
    sigma.push([]);
    for (let j = 0; j < N; j++) {
      let q = 0;
      for (let a = 0; a < N; a++) {
        let t = 0;
        for (let bb = 0; bb < N; bb++) t += bi[a][bb] * w[bb][j];
        q += w[a][i] * t;
      }
      sigma[i].push(c[i][j] - q);
    }
  }
  return sigma;
}

function factors(C: Matrix, s: Float64Array) {
  const factor = new Float64Array(N * N);
  assert.ok(Number.isFinite(factorIdentityPlusScaled(C.data, s, N, factor)));
  const inverse = new Float64Array(N * N);
  const rowSquares = new Float64Array(N);
  invertFactor(factor, N, inverse, rowSquares);
  return { factor, inverse, rowSquares };
}

for (const { name, be, skip } of backends) {
  describe(`the Woodbury diagonal from L^-1 on the ${name} backend`, { skip }, () => {
    const withBackend = (f: () => void) => () => {
      const saved = getBackend();
      setBackend(be as LinalgBackend);
      try {
        f();
      } finally {
        setBackend(saved);
      }
    };

    // Sigma_jj = C_jj - |V e_j|^2 cancels by C_jj / Sigma_jj (in the thousands here) in any form that
    // goes through V, the reference's included: errors are measured against C_jj, the scale of
    // that cancellation (relative to Sigma_jj they are C_jj / Sigma_jj times larger).
    test("diag(Sigma) agrees with the explicit inversion and with the triangular-solve route, also where s_j^2 Sigma_jj < eps", withBackend(() => {
      for (const seed of [1, 2, 3]) {
        const { C, s } = problem(seed);
        const ref = direct(C, s);
        const { factor, inverse, rowSquares } = factors(C, s);
        const diag = new Float64Array(N);
        const solved = woodburyInverseDiagonalFromInverse(C.data, s, factor, inverse, rowSquares, N, diag);
        assert.equal(solved, 2, "s_7 < SOLVE_BELOW and s_11 = 0 are solved for");
        const viaSolve = new Float64Array(N);
        woodburyInverseDiagonal(C.data, s, factor, N, new Float64Array(N * N), viaSolve);
        let worst = 0;
        let worstSolve = 0;
        let ratio = 0;
        for (let j = 0; j < N; j++) {
          const cjj = C.data[j * (N + 1)];
          worst = Math.max(worst, Math.abs(diag[j] - ref[j][j]) / cjj);
          worstSolve = Math.max(worstSolve, Math.abs(diag[j] - viaSolve[j]) / cjj);
          ratio = Math.max(ratio, cjj / ref[j][j]);
        }
        assert.ok(ratio > 100, `the problem cancels (max C_jj / Sigma_jj = ${ratio})`);
        assert.ok(worst < 1e-11, `seed ${seed}: max |diag - ref| / C_jj = ${worst}`);
        assert.ok(worstSolve < 1e-12, `seed ${seed}: max |diag - triangular-solve route| / C_jj = ${worstSolve}`);
        assert.ok(s[5] * s[5] * ref[5][5] < 1e-30, "a site far below eps");
      }
    }));

    test("negative control: (1 - (B^-1)_jj) / s_j^2 from the same L^-1 fails the same comparison", withBackend(() => {
      const { C, s } = problem(1);
      const ref = direct(C, s);
      const { inverse } = factors(C, s);
      let worst = 0;
      for (let j = 0; j < N; j++) {
        if (!(s[j] >= SOLVE_BELOW)) continue;
        let bjj = 0; // (B^-1)_jj = |L^-1 e_j|^2
        for (let i = j; i < N; i++) bjj += inverse[i + j * N] ** 2;
        worst = Math.max(worst, Math.abs((1 - bjj) / (s[j] * s[j]) - ref[j][j]) / C.data[j * (N + 1)]);
      }
      assert.ok(worst > 1e-6, `the cancelling formula's max |diag - ref| / C_jj is only ${worst}`);
    }));

    test("V = L^-1 S C agrees with the triangular solve, and C - V'V with the explicit inversion", withBackend(() => {
      for (const seed of [1, 2]) {
        const { C, s } = problem(seed);
        const ref = direct(C, s);
        const { factor, inverse } = factors(C, s);
        const v = new Float64Array(N * N).fill(NaN);
        solvedFromInverse(C.data, s, factor, inverse, N, v);
        const vt = new Float64Array(N * N);
        solveScaledRows(C.data, s, factor, N, vt);
        // entries agree to round-off, except V_jj where s_j is small: its error is about eps / s_j
        // (from L_jj = sqrt(1 + s_j^2 c) rounded), and it meets only entries of row j, which carry
        // the factor s_j, in V'V (checked below)
        let diff = 0;
        for (let j = 0; j < N; j++) {
          for (let i = 0; i < N; i++) {
            const tol = 1e-12 * Math.sqrt(C.data[j * (N + 1)]) + (i === j && s[j] > 0 ? 4e-16 / s[j] : 0);
            diff = Math.max(diff, Math.abs(v[i + j * N] - vt[i + j * N]) / tol);
          }
        }
        assert.ok(diff < 1, `seed ${seed}: V differs from the triangular solve by ${diff} times the tolerance`);
        let worst = 0;
        for (let i = 0; i < N; i++) {
          for (let j = 0; j < N; j++) {
            let q = 0;
            for (let a = 0; a < N; a++) q += v[a + i * N] * v[a + j * N];
            const sig = C.data[i + j * N] - q;
            worst = Math.max(worst, Math.abs(sig - ref[i][j]) / Math.sqrt(C.data[i * (N + 1)] * C.data[j * (N + 1)]));
          }
        }
        assert.ok(worst < 1e-11, `seed ${seed}: max |Sigma_ij - ref| / sqrt(C_ii C_jj) = ${worst}`);
      }
    }));

    // the whole step as EP's sweep takes it: the fused passes (B and C v in one pass over C, the
    // copy of L with its row sums and L^-1 y, the columns of L^-1 with L^-T y) against the
    // explicit inversion, with workspaces reused from a different problem (as sweeps reuse them)
    test("woodburyFromInverseFactor: diag(Sigma), Sigma v and chol(B) agree with the explicit inversion, on reused workspaces", withBackend(() => {
      const work = {
        b: new Matrix(N, N), inverse: new Float64Array(N * N), rowSquares: new Float64Array(N),
        cv: new Float64Array(N), y: new Float64Array(N),
      };
      for (const seed of [3, 1, 2]) {
        const { C, s } = problem(seed);
        const ref = direct(C, s);
        const rng = new Rng(100 + seed);
        const v = Float64Array.from({ length: N }, () => rng.normal());
        const diag = new Float64Array(N).fill(NaN);
        const mean = new Float64Array(N).fill(NaN);
        const chol = woodburyFromInverseFactor(C, s, v, "B", work, diag, mean);
        const { factor, inverse } = factors(C, s);
        let worstL = 0;
        for (let i = 0; i < N * N; i++) worstL = Math.max(worstL, Math.abs(chol.factor.data[i] - factor[i]), Math.abs(work.inverse[i] - inverse[i]));
        assert.ok(worstL < 1e-12 * N, `seed ${seed}: L or L^-1 differs from a fresh factorisation by ${worstL}`);
        let worstDiag = 0;
        let worstMean = 0;
        for (let i = 0; i < N; i++) {
          worstDiag = Math.max(worstDiag, Math.abs(diag[i] - ref[i][i]) / C.data[i * (N + 1)]);
          // (Sigma v)_i cancels against (C v)_i: the scale is sum_j |C_ij v_j|
          let want = 0;
          let scale = 0;
          for (let j = 0; j < N; j++) {
            want += ref[i][j] * v[j];
            scale += Math.abs(C.data[i + j * N] * v[j]);
          }
          worstMean = Math.max(worstMean, Math.abs(mean[i] - want) / scale);
        }
        assert.ok(worstDiag < 1e-11, `seed ${seed}: max |diag - ref| / C_jj = ${worstDiag}`);
        assert.ok(worstMean < 1e-11, `seed ${seed}: max |(Sigma v)_i - ref| / sum_j |C_ij v_j| = ${worstMean}`);
      }
    }));

    test("negative control: Sigma v with the backward solve L' u = t left out (y = S L^-1 S C v) fails the same comparison", withBackend(() => {
      const { C, s } = problem(1);
      const ref = direct(C, s);
      const rng = new Rng(101);
      const v = Float64Array.from({ length: N }, () => rng.normal());
      const { factor } = factors(C, s);
      // C v - C S L^-1 S C v: what the step gives if the pass over L^-1 skipped its dot products
      const cv = new Float64Array(N);
      for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) cv[i] += C.data[i + j * N] * v[j];
      const y = Float64Array.from(cv, (x, i) => s[i] * x);
      getBackend().trsv("L", "N", "N", N, factor, N, y);
      for (let i = 0; i < N; i++) y[i] *= s[i];
      let worst = 0;
      for (let i = 0; i < N; i++) {
        let got = cv[i];
        let want = 0;
        let scale = 0;
        for (let j = 0; j < N; j++) {
          got -= C.data[i + j * N] * y[j];
          want += ref[i][j] * v[j];
          scale += Math.abs(C.data[i + j * N] * v[j]);
        }
        worst = Math.max(worst, Math.abs(got - want) / scale);
      }
      assert.ok(worst > 1e-6, `the step without L^-T is within ${worst} of the reference`);
    }));

    // the passes take columns in blocks of four: other orders end on a smaller block
    test("woodburyFromInverseFactor at odd and tiny orders agrees with the triangular-solve route", withBackend(() => {
      for (const m of [1, 2, 3, 4, 5, 6, 17, 23]) {
        const rng = new Rng(200 + m);
        const X = new Matrix(m, 2);
        for (let i = 0; i < 2 * m; i++) X.data[i] = 2 * rng.uniform() - 1;
        const C = seKernel({ lengthscale: 0.8, signalSd: 3 }).matrix(X);
        for (let i = 0; i < m; i++) C.data[i + i * m] *= 1 + 1e-6;
        const s = Float64Array.from({ length: m }, () => Math.exp(rng.normal()));
        if (m > 2) s[1] = 0;
        const v = Float64Array.from({ length: m }, () => rng.normal());
        const work = { b: new Matrix(m, m), inverse: new Float64Array(m * m), rowSquares: new Float64Array(m), cv: new Float64Array(m), y: new Float64Array(m) };
        const diag = new Float64Array(m);
        const mean = new Float64Array(m);
        woodburyFromInverseFactor(C, s, v, "B", work, diag, mean);
        const factor = new Float64Array(m * m);
        factorIdentityPlusScaled(C.data, s, m, factor);
        const wantDiag = new Float64Array(m);
        woodburyInverseDiagonal(C.data, s, factor, m, new Float64Array(m * m), wantDiag);
        const wantMean = new Float64Array(m);
        applyWoodburyInverse(C.data, s, factor, m, v, wantMean, new Float64Array(m), new Float64Array(m));
        for (let i = 0; i < m; i++) {
          assert.ok(Math.abs(diag[i] - wantDiag[i]) < 1e-13 * C.data[i * (m + 1)], `n = ${m}: diag ${i} = ${diag[i]}, want ${wantDiag[i]}`);
          assert.ok(Math.abs(mean[i] - wantMean[i]) < 1e-12 * (1 + Math.abs(wantMean[i])), `n = ${m}: mean ${i} = ${mean[i]}, want ${wantMean[i]}`);
        }
      }
    }));
  });
}
