/**
 * The high-level products on both backends, against their definitions written as loops here:
 * op(A) op(B), op(A) x, A'A and AA' (both triangles filled), symmetric A x, the Hadamard form
 * K o (s s') and the row scaling diag(s) K of the note's Algorithm 3; shape errors; operation
 * counters.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  crossprod, DimensionError, hadamardOuter, matmul, matvec, Matrix, opCounts, resetOpCounts, scaleRows, setBackend,
  symmetricMatvecInto, tcrossprod,
} from "../../src/linalg/index.js";
import type { LinalgBackend } from "../../src/linalg/index.js";
import { backends, EPS, makeRng } from "./helpers.js";

function random(rows: number, cols: number, seed: number): Matrix {
  const rng = makeRng(seed);
  return new Matrix(rows, cols, Float64Array.from({ length: rows * cols }, () => rng.normal()));
}

/** |got - want| <= 8 k u sum |terms| + tiny, entry by entry. */
function close(got: number, want: number, absSum: number, k: number): boolean {
  return Math.abs(got - want) <= 8 * (k + 2) * EPS * absSum + 1e-300;
}

for (const { name, be, skip } of backends) {
  describe(`products on the ${name} backend`, { skip }, () => {
    // Sizes on both sides of the small-order cutoff, where the backend is used.
    for (const [m, n, k] of [[3, 4, 5], [40, 33, 57], [70, 5, 20]]) {
      test(`matmul and matvec, ${m} x ${k} times ${k} x ${n}`, () => {
        setBackend(be as LinalgBackend);
        for (const tA of [false, true]) for (const tB of [false, true]) {
          const a = tA ? random(k, m, m + n) : random(m, k, m + n);
          const b = tB ? random(n, k, k) : random(k, n, k);
          const opA = (i: number, l: number) => (tA ? a.get(l, i) : a.get(i, l));
          const opB = (l: number, j: number) => (tB ? b.get(j, l) : b.get(l, j));
          const c = matmul(a, b, tA, tB);
          assert.equal(c.rows, m);
          assert.equal(c.cols, n);
          for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
            let s = 0;
            let t = 0;
            for (let l = 0; l < k; l++) {
              s += opA(i, l) * opB(l, j);
              t += Math.abs(opA(i, l) * opB(l, j));
            }
            assert.ok(close(c.get(i, j), s, t, k), `tA=${tA} tB=${tB} (${i}, ${j})`);
          }
          const x = Array.from({ length: k }, (_, l) => Math.sin(l + 1));
          const y = matvec(a, x, tA);
          assert.equal(y.length, m);
          for (let i = 0; i < m; i++) {
            let s = 0;
            let t = 0;
            for (let l = 0; l < k; l++) {
              s += opA(i, l) * x[l];
              t += Math.abs(opA(i, l) * x[l]);
            }
            assert.ok(close(y[i], s, t, k), `matvec tA=${tA} row ${i}`);
          }
        }
      });
    }

    test("crossprod, tcrossprod and symmetricMatvecInto", () => {
      setBackend(be as LinalgBackend);
      for (const [r, c] of [[5, 3], [50, 37]]) {
        const a = random(r, c, r * c);
        const ata = crossprod(a);
        const aat = tcrossprod(a);
        for (const [prod, n, k, at] of [[ata, c, r, (i: number, l: number) => a.get(l, i)], [aat, r, c, (i: number, l: number) => a.get(i, l)]] as const) {
          assert.equal(prod.rows, n);
          for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
            let s = 0;
            let t = 0;
            for (let l = 0; l < k; l++) {
              s += at(i, l) * at(j, l);
              t += Math.abs(at(i, l) * at(j, l));
            }
            assert.ok(close(prod.get(i, j), s, t, k), `(${i}, ${j})`);
          }
        }
        // Only the lower triangle is read: poison the upper one.
        const n = ata.rows;
        const lowerOnly = ata.clone();
        for (let j = 1; j < n; j++) for (let i = 0; i < j; i++) lowerOnly.set(i, j, NaN);
        const x = Float64Array.from({ length: n }, (_, i) => 1 / (i + 1));
        const y = symmetricMatvecInto(lowerOnly, x, new Float64Array(n));
        for (let i = 0; i < n; i++) {
          let s = 0;
          let t = 0;
          for (let l = 0; l < n; l++) {
            s += ata.get(i, l) * x[l];
            t += Math.abs(ata.get(i, l) * x[l]);
          }
          assert.ok(close(y[i], s, t, n), `symv row ${i}`);
        }
      }
    });
  });
}

describe("element-wise helpers, shapes and counters", () => {
  test("hadamardOuter is K_ij s_i s_j and scaleRows is s_i K_ij, also in place", () => {
    const k = random(4, 4, 1);
    const s = [0.5, -2, 3, 1e-3];
    const h = hadamardOuter(k, s);
    const r = scaleRows(k, s);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) {
      assert.equal(h.get(i, j), k.get(i, j) * s[i] * s[j]);
      assert.equal(r.get(i, j), k.get(i, j) * s[i]);
    }
    const k2 = k.clone();
    assert.equal(hadamardOuter(k2, s, k2), k2);
    assert.deepEqual(k2.data, h.data);
    const rect = random(3, 5, 2);
    const rr = scaleRows(rect, [1, 2, 3]);
    assert.equal(rr.get(2, 4), 3 * rect.get(2, 4));
  });

  test("shape mismatches raise DimensionError", () => {
    const a = random(3, 4, 3);
    assert.throws(() => matmul(a, random(3, 2, 4)), DimensionError);
    assert.throws(() => matmul(a, random(2, 3, 4), false, true), DimensionError);
    assert.throws(() => matvec(a, [1, 2, 3]), DimensionError);
    assert.throws(() => matvec(a, [1, 2, 3, 4], true), DimensionError);
    assert.throws(() => symmetricMatvecInto(a, new Float64Array(3), new Float64Array(3)), DimensionError);
    const sq = random(3, 3, 5);
    assert.throws(() => symmetricMatvecInto(sq, new Float64Array(3), new Float64Array(2)), DimensionError);
    assert.throws(() => hadamardOuter(a, [1, 2, 3]), DimensionError);
    assert.throws(() => hadamardOuter(sq, [1, 2]), DimensionError);
    assert.throws(() => hadamardOuter(sq, [1, 2, 3], new Matrix(2, 2)), DimensionError);
    assert.throws(() => scaleRows(a, [1, 2, 3, 4]), DimensionError);
    assert.throws(() => scaleRows(a, [1, 2, 3], new Matrix(3, 3)), DimensionError);
  });

  test("operation counters follow the O(n^3) operations", () => {
    resetOpCounts();
    matmul(random(4, 5, 1), random(5, 6, 2));
    crossprod(random(7, 3, 3));
    assert.equal(opCounts.matrixProduct, 1);
    assert.equal(opCounts.symmetricProduct, 1);
    assert.equal(opCounts.flops, 2 * 4 * 6 * 5 + 3 * 3 * 7);
  });
});
