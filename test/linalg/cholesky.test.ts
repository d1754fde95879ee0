/**
 * The high-level Cholesky API on both backends: factor, log-determinant and solves checked
 * against independent facts (a matrix built as L0 diag(d) L0' with unit lower L0 has
 * log|A| = sum log d, and Cholesky pivot j equal to d_j); well- and ill-conditioned matrices;
 * the typed errors; jitter only when asked for, and reported.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  cholesky, DimensionError, jsBackend, Matrix, NonFiniteError, NotPositiveDefiniteError, setBackend, SMALL_ORDER,
} from "../../src/linalg/index.js";
import type { LinalgBackend } from "../../src/linalg/index.js";
import { backends, EPS, hilbertEntries, makeRng, seKernelEntries } from "./helpers.js";

/** A = L0 diag(d) L0' with L0 unit lower triangular (entries N(0, 1/n) below the diagonal). */
function ldl(n: number, d: number[], seed: number): Matrix {
  const rng = makeRng(seed);
  const l0 = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    l0[j + j * n] = 1;
    for (let i = j + 1; i < n; i++) l0[i + j * n] = rng.normal() / Math.sqrt(n);
  }
  const a = new Matrix(n, n);
  for (let j = 0; j < n; j++) {
    for (let i = j; i < n; i++) {
      let s = 0;
      for (let k = 0; k <= j; k++) s += l0[i + k * n] * d[k] * l0[j + k * n];
      a.data[i + j * n] = a.data[j + i * n] = s;
    }
  }
  return a;
}

function fromEntries(n: number, f: (i: number, j: number) => number): Matrix {
  const a = new Matrix(n, n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) a.data[i + j * n] = f(i, j);
  return a;
}

/** max |L L' - A| / max |A|. */
function reconstructionError(a: Matrix, l: Matrix): number {
  const n = a.rows;
  let err = 0;
  let norm = 0;
  for (let j = 0; j < n; j++) {
    for (let i = j; i < n; i++) {
      let s = 0;
      for (let k = 0; k <= j; k++) s += l.get(i, k) * l.get(j, k);
      err = Math.max(err, Math.abs(s - a.get(i, j)));
      norm = Math.max(norm, Math.abs(a.get(i, j)));
    }
  }
  return err / norm;
}

/** Normwise backward error of a solve: max|A x - b| / (max|A| n max|x| + max|b|). */
function solveBackwardError(a: Matrix, x: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.rows;
  let r = 0;
  let na = 0;
  let nx = 0;
  let nb = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) {
      s += a.get(i, j) * x[j];
      na = Math.max(na, Math.abs(a.get(i, j)));
    }
    r = Math.max(r, Math.abs(s - b[i]));
    nx = Math.max(nx, Math.abs(x[i]));
    nb = Math.max(nb, Math.abs(b[i]));
  }
  return r / (na * n * nx + nb);
}

const SIZES = [1, 2, 3, 17, 64, 200];

for (const { name, be, skip } of backends) {
  describe(`cholesky() on the ${name} backend`, { skip }, () => {
    const use = () => setBackend(be as LinalgBackend);

    for (const n of SIZES) {
      test(`n = ${n}: L L' = A, log-determinant, solves, L x`, () => {
        use();
        const rng = makeRng(n);
        const d = Array.from({ length: n }, () => 0.5 + 2 * rng.uniform());
        const a = ldl(n, d, 100 + n);
        const before = a.data.slice();
        const ch = cholesky(a);
        assert.deepEqual(a.data, before, "the input must not change unless inPlace");
        assert.ok(reconstructionError(a, ch.factor) < 1e-12, "L L' reproduces A");
        for (let j = 1; j < n; j++) for (let i = 0; i < j; i++) assert.equal(ch.factor.get(i, j), 0, "upper triangle of L is zero");
        // log|A| = sum log d_k (|L0| = 1).
        const logDet = d.reduce((s, v) => s + Math.log(v), 0);
        assert.ok(Math.abs(ch.logDet() - logDet) <= 1e-12 * Math.max(1, Math.abs(logDet)) + n * 1e-14, `logDet ${ch.logDet()} vs ${logDet}`);

        const b = Array.from({ length: n }, () => rng.normal());
        const x = ch.solve(b);
        assert.ok(solveBackwardError(a, x, b) < 10 * n * EPS, "A x = b");
        // L y = b, then L' z = y.
        const y = ch.solveLowerInPlace(Float64Array.from(b));
        const ly = ch.multiplyLower(y);
        for (let i = 0; i < n; i++) assert.ok(Math.abs(ly[i] - b[i]) <= 1e-12 * (1 + Math.abs(b[i])), "L y = b");
        const z = ch.solveUpperInPlace(y.slice());
        for (let i = 0; i < n; i++) {
          let s = 0;
          for (let k = i; k < n; k++) s += ch.factor.get(k, i) * z[k];
          assert.ok(Math.abs(s - y[i]) <= 1e-12 * (1 + Math.abs(y[i])), "L' z = y");
        }
        // Several right-hand sides at once.
        const bm = new Matrix(n, 3, Float64Array.from({ length: 3 * n }, () => rng.normal()));
        const xm = ch.solveMatrix(bm);
        for (let c = 0; c < 3; c++) assert.ok(solveBackwardError(a, xm.column(c), bm.column(c)) < 10 * n * EPS, "A X = B");
        const w = ch.solveLowerMatrixInPlace(bm.clone());
        for (let c = 0; c < 3; c++) {
          const lw = ch.multiplyLower(w.column(c));
          for (let i = 0; i < n; i++) assert.ok(Math.abs(lw[i] - bm.get(i, c)) <= 1e-12 * (1 + Math.abs(bm.get(i, c))), "L W = B");
        }
      });
    }

    test("ill-conditioned SPD matrices: SE kernel plus jitter, Hilbert plus jitter", () => {
      use();
      const mats: [string, Matrix][] = [
        ["SE kernel n=200, lengthscale 0.3, + 1e-8 I", fromEntries(200, seKernelEntries(200, 0.3, 1e-8))],
        ["SE kernel n=64, lengthscale 1, + 1e-10 I", fromEntries(64, seKernelEntries(64, 1, 1e-10))],
        ["Hilbert n=12 + 1e-12 I", fromEntries(12, hilbertEntries(1e-12))],
        ["Hilbert n=40 + 1e-9 I", fromEntries(40, hilbertEntries(1e-9))],
      ];
      const rng = makeRng(5);
      for (const [label, a] of mats) {
        const ch = cholesky(a);
        const e = reconstructionError(a, ch.factor);
        assert.ok(e < 1e-12, `${label}: max |L L' - A| / max |A| = ${e}`);
        const b = Array.from({ length: a.rows }, () => rng.normal());
        const x = ch.solve(b);
        const be2 = solveBackwardError(a, x, b);
        assert.ok(be2 < 10 * a.rows * EPS, `${label}: solve backward error ${be2}`);
      }
    });

    test("NotPositiveDefiniteError carries the failing pivot index and value", () => {
      use();
      for (const n of [2, 17, 40, 64, 65, 200]) {
        for (const j of new Set([0, 1, n >> 1, 63, 64, n - 1].filter((v) => v < n))) {
          const d = Array.from({ length: n }, (_, k) => (k === j ? -0.5 : 1 + (k % 3)));
          const a = ldl(n, d, 7 * n + j);
          assert.throws(() => cholesky(a), (e: unknown) => {
            assert.ok(e instanceof NotPositiveDefiniteError, `n=${n} j=${j}: ${e}`);
            assert.equal(e.pivotIndex, j, `n=${n}: pivot index`);
            assert.ok(Math.abs(e.pivotValue + 0.5) < 1e-10, `n=${n} j=${j}: pivot value ${e.pivotValue}, want -0.5`);
            assert.match(e.message, new RegExp(`pivot ${j} \\(0-based\\)`));
            return true;
          });
        }
      }
      // The low-level routine reports the 1-based pivot, for both triangles.
      const n = 70;
      const a = ldl(n, Array.from({ length: n }, (_, k) => (k === 66 ? -2 : 1)), 3);
      for (const uplo of ["L", "U"] as const) assert.equal((be as LinalgBackend).potrf(uplo, n, a.data.slice(), n), 67);
    });

    test("a numerically singular kernel matrix fails; explicit jitter fixes it and is reported", () => {
      use();
      const n = 100;
      const k = fromEntries(n, seKernelEntries(n, 0.5, 0));
      assert.throws(() => cholesky(k), NotPositiveDefiniteError);
      const messages: string[] = [];
      const ch = cholesky(k, { jitter: 1e-6, onJitter: (m) => messages.push(m), what: "K" });
      assert.equal(messages.length, 1);
      assert.match(messages[0], /jitter 0\.000001 .*K.*n = 100/);
      const kj = fromEntries(n, seKernelEntries(n, 0.5, 1e-6));
      assert.ok(reconstructionError(kj, ch.factor) < 1e-12, "the factor is that of K + jitter I");
    });

    test("NaN that skipped the finite check is a NotPositiveDefiniteError at its row", () => {
      use();
      for (const n of [10, 50]) {
        const a = ldl(n, Array.from({ length: n }, () => 1), 9);
        a.set(7, 3, NaN);
        assert.throws(() => cholesky(a, { skipFiniteCheck: true }),
          (e: unknown) => e instanceof NotPositiveDefiniteError && e.pivotIndex === 7 && Number.isNaN(e.pivotValue));
        const b = ldl(n, Array.from({ length: n }, () => 1), 9);
        b.set(5, 5, Infinity);
        assert.throws(() => cholesky(b, { skipFiniteCheck: true }),
          (e: unknown) => e instanceof NotPositiveDefiniteError && e.pivotIndex === 5 && !Number.isFinite(e.pivotValue));
      }
    });
  });
}

describe("cholesky() arguments and errors", () => {
  test("non-finite entries raise NonFiniteError with their position", () => {
    for (const [i, j, v] of [[3, 1, NaN], [0, 4, Infinity], [4, 4, -Infinity]] as const) {
      const a = ldl(5, [1, 1, 1, 1, 1], 1);
      a.set(i, j, v);
      assert.throws(() => cholesky(a, { what: "K" }), (e: unknown) =>
        e instanceof NonFiniteError && e.row === i && e.col === j && /K has a non-finite entry/.test(e.message));
    }
  });

  test("shape mismatches raise DimensionError", () => {
    assert.throws(() => cholesky(new Matrix(3, 4)), DimensionError);
    const ch = cholesky(ldl(4, [1, 2, 3, 4], 2));
    assert.throws(() => ch.solve([1, 2, 3]), DimensionError);
    assert.throws(() => ch.solveLowerInPlace(new Float64Array(5)), DimensionError);
    assert.throws(() => ch.solveMatrix(new Matrix(3, 2)), DimensionError);
    assert.throws(() => ch.solveLowerMatrixInPlace(new Matrix(5, 2)), DimensionError);
    assert.throws(() => ch.multiplyLower([1]), DimensionError);
    assert.throws(() => new Matrix(2, 2, new Float64Array(3)), DimensionError);
  });

  test("no jitter unless asked; bad jitter values are refused; the default report goes to stderr", () => {
    setBackend(jsBackend);
    const k = fromEntries(30, seKernelEntries(30, 0.5, 0));
    let called = 0;
    assert.throws(() => cholesky(k, { onJitter: () => called++ }), NotPositiveDefiniteError);
    assert.equal(called, 0, "onJitter is not called without jitter");
    cholesky(ldl(3, [1, 1, 1], 1), { jitter: 0, onJitter: () => called++ });
    assert.equal(called, 0, "jitter 0 is no jitter");
    for (const bad of [-1e-6, NaN, Infinity]) assert.throws(() => cholesky(k, { jitter: bad }), /jitter must be a positive number/);
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => (written.push(String(s)), true)) as typeof process.stderr.write;
    try {
      cholesky(k, { jitter: 1e-4 });
    } finally {
      process.stderr.write = write;
    }
    assert.equal(written.length, 1);
    assert.match(written[0], /^gpmcmc: added jitter 0\.0001 to the diagonal of matrix \(n = 30\)\n$/);
  });

  test("inPlace factorises the caller's storage", () => {
    setBackend(jsBackend);
    const a = ldl(4, [1, 2, 3, 4], 3);
    const ch = cholesky(a, { inPlace: true });
    assert.equal(ch.factor, a);
    assert.equal(a.get(0, 3), 0);
  });

  test(`small matrices (n < ${SMALL_ORDER}) stay in TypeScript; larger ones go to the selected backend`, () => {
    let calls = 0;
    const spy: LinalgBackend = { ...jsBackend, potrf: (...args) => (calls++, jsBackend.potrf(...args)) };
    setBackend(spy);
    cholesky(ldl(SMALL_ORDER - 1, Array(SMALL_ORDER - 1).fill(1), 1));
    assert.equal(calls, 0);
    cholesky(ldl(SMALL_ORDER, Array(SMALL_ORDER).fill(1), 1));
    assert.equal(calls, 1);
    setBackend(jsBackend);
  });
});
