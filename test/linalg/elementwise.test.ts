/**
 * The element-wise kernels of the backends (scaleRows, rowSumsOfSquares, logisticWeightRoots,
 * crossWeightedSquares): against their definitions, computed here, with leading dimensions past the rows (the padding must survive),
 * in place, and on views with a byte offset; and the same bits on both backends, which the
 * models rely on (a chain's draws must not depend on the backend's kernels being the js or the
 * native ones). Negative control: the sums of squares taken in the other order differ from the
 * native ones in some entry, and weights from another exp (math/fastExp.ts, within 2 ulp of
 * Math.exp) differ from both backends' in some entry, so the bit-for-bit comparisons can fail.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { jsBackend } from "../../src/linalg/index.js";
import { fastExp } from "../../src/math/fastExp.js";
import { backends, makeMatrix, makeRng, native, nativeSkip, SENTINEL } from "./helpers.js";

const SHAPES: [number, number, number][] = [[1, 1, 1], [7, 3, 7], [250, 7, 253], [1000, 25, 1000], [33, 0, 33], [0, 4, 1]];

function data(m: number, n: number, ld: number, seed: number) {
  const rng = makeRng(seed);
  const a = makeMatrix(m, n, ld, () => rng.normal() * Math.exp(3 * rng.normal()));
  const w = Float64Array.from({ length: m }, () => Math.sqrt(rng.uniform()));
  return { a, w };
}

for (const { name, be, skip } of backends) {
  describe(`${name} backend: scaleRows and rowSumsOfSquares`, { skip }, () => {
    test("scaleRows: B = diag(w) A entry by entry, padding untouched, in place too", () => {
      for (const [m, n, ld] of SHAPES) {
        const { a, w } = data(m, n, ld, m + 7 * n);
        const ldb = ld + 2;
        const b = new Float64Array(Math.max(1, ldb * n)).fill(SENTINEL);
        be!.scaleRows(m, n, w, a, ld, b, ldb);
        for (let j = 0; j < n; j++) {
          for (let i = 0; i < ldb; i++) {
            const want = i < m ? a[i + j * ld] * w[i] : SENTINEL;
            assert.ok(Object.is(b[i + j * ldb], want), `${m} x ${n}: b[${i}, ${j}]`);
          }
        }
        const inPlace = a.slice();
        be!.scaleRows(m, n, w, inPlace, ld, inPlace, ld);
        for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) assert.ok(Object.is(inPlace[i + j * ld], a[i + j * ld] * w[i]));
      }
    });

    test("rowSumsOfSquares: out_i = sum_j a_ij^2 in the order j = 0, 1, ...; entries past m untouched", () => {
      for (const [m, n, ld] of SHAPES) {
        const { a } = data(m, n, ld, 3 * m + n);
        const out = new Float64Array(m + 2).fill(SENTINEL);
        be!.rowSumsOfSquares(m, n, a, ld, out);
        for (let i = 0; i < m; i++) {
          let s = 0;
          for (let j = 0; j < n; j++) s += a[i + j * ld] * a[i + j * ld];
          assert.ok(Object.is(out[i], s), `${m} x ${n}: out[${i}] = ${out[i]}, want ${s}`);
        }
        assert.equal(out[m], SENTINEL);
        assert.equal(out[m + 1], SENTINEL);
      }
    });

    test("both read and write through views with a byte offset", () => {
      const { a, w } = data(5, 3, 5, 11);
      const buf = new Float64Array(42).fill(SENTINEL);
      const av = buf.subarray(2, 17);
      av.set(a);
      const bv = buf.subarray(20, 35);
      be!.scaleRows(5, 3, w, av, 5, bv, 5);
      for (let k = 0; k < 15; k++) assert.ok(Object.is(bv[k], a[k] * w[k % 5]));
      assert.equal(buf[19], SENTINEL);
      assert.equal(buf[35], SENTINEL);
      const out = buf.subarray(36, 41);
      be!.rowSumsOfSquares(5, 3, av, 5, out);
      for (let i = 0; i < 5; i++) assert.ok(Object.is(out[i], a[i] * a[i] + a[i + 5] * a[i + 5] + a[i + 10] * a[i + 10]));
      assert.equal(buf[41], SENTINEL);
    });
  });
}

/** Linear predictors over the whole range of exp, with the special values. */
function predictors(count: number, seed: number): Float64Array {
  const rng = makeRng(seed);
  const scales = [1e-9, 0.3, 1, 3, 40, 800];
  const e = Float64Array.from({ length: count }, (_, i) => (rng.uniform() - 0.5) * 2 * scales[i % scales.length]);
  e.set([0, -0, 0.34657359027997264, -1.0397207708399179, 708.3, -745.2, 746, Infinity, -Infinity, NaN]);
  return e;
}

for (const { name, be, skip } of backends) {
  describe(`${name} backend: logisticWeightRoots and crossWeightedSquares`, { skip }, () => {
    test("logisticWeightRoots: sqrt(z w w), z = Math.exp(-|e|), w = 1 / (1 + z), bit for bit; 1/2 at 0, 0 at +-Infinity", () => {
      const e = predictors(20_000, 5);
      const out = new Float64Array(e.length + 1).fill(SENTINEL);
      be!.logisticWeightRoots(e.length, e, out);
      for (let i = 0; i < e.length; i++) {
        const z = Math.exp(-Math.abs(e[i]));
        const w = 1 / (1 + z);
        assert.ok(Object.is(out[i], Math.sqrt(z * w * w)), `e = ${e[i]}: ${out[i]}`);
      }
      assert.equal(out[0], 0.5);
      assert.equal(out[7], 0);
      assert.ok(Number.isNaN(out[9]));
      assert.equal(out[e.length], SENTINEL);
    });

    test("crossWeightedSquares: u = A v, u_i = w_i u_i^2, out = A' u, as the backend's own two gemv and that loop", () => {
      for (const [m, n, ld] of [[250, 7, 250], [1000, 25, 1003], [4, 0, 4], [0, 3, 1]] as const) {
        const rng = makeRng(m + n);
        const a = makeMatrix(m, n, ld, () => rng.normal());
        const v = Float64Array.from({ length: n }, () => rng.normal());
        const w = Float64Array.from({ length: m }, () => rng.uniform() - 0.3);
        const u = new Float64Array(m);
        const out = new Float64Array(n);
        be!.crossWeightedSquares(m, n, a, ld, v, w, u, out);
        const u2 = new Float64Array(m);
        const out2 = new Float64Array(n);
        be!.gemv("N", m, n, 1, a, ld, v, 0, u2);
        for (let i = 0; i < m; i++) u2[i] = w[i] * u2[i] * u2[i];
        be!.gemv("T", m, n, 1, a, ld, u2, 0, out2);
        for (let i = 0; i < m; i++) assert.ok(Object.is(u[i], u2[i]), `${m} x ${n}: u[${i}]`);
        for (let j = 0; j < n; j++) assert.ok(Object.is(out[j], out2[j]), `${m} x ${n}: out[${j}]`);
        // and the quantity itself: sum_i a_ij w_i (a_i' v)^2
        for (let j = 0; j < n; j++) {
          let want = 0;
          for (let i = 0; i < m; i++) {
            let ai = 0;
            for (let k = 0; k < n; k++) ai += a[i + k * ld] * v[k];
            want += a[i + j * ld] * w[i] * ai * ai;
          }
          assert.ok(Math.abs(out[j] - want) <= 1e-11 * (1 + Math.abs(want)), `${m} x ${n}: out[${j}] = ${out[j]}, want ${want}`);
        }
      }
    });
  });
}

describe("logisticWeightRoots: the same bits on the js and native backends (fdlibm's exp in the addon)", { skip: nativeSkip }, () => {
  test("a million predictors over the range of exp; negative control: fastExp's weights differ", () => {
    const e = predictors(1_000_000, 9);
    const a = new Float64Array(e.length);
    const b = new Float64Array(e.length);
    jsBackend.logisticWeightRoots(e.length, e, a);
    native!.logisticWeightRoots(e.length, e, b);
    let differ = 0;
    for (let i = 0; i < e.length; i++) if (!Object.is(a[i], b[i])) differ++;
    assert.equal(differ, 0, `${differ} of ${e.length} weights differ between the backends`);
    let control = 0;
    for (let i = 0; i < 20_000; i++) {
      const z = fastExp(-Math.abs(e[i]));
      const w = 1 / (1 + z);
      if (!Object.is(Math.sqrt(z * w * w), b[i])) control++;
    }
    assert.ok(control > 0, "weights from fastExp matched the native ones everywhere");
  });
});

describe("scaleRows and rowSumsOfSquares: the same bits on the js and native backends", { skip: nativeSkip }, () => {
  test("on 1000 x 25 and 5822 x 86 matrices of entries spread over many magnitudes", () => {
    for (const [m, n] of [[1000, 25], [5822, 86]]) {
      const { a, w } = data(m, n, m, m);
      const bj = new Float64Array(m * n);
      const bn = new Float64Array(m * n);
      jsBackend.scaleRows(m, n, w, a, m, bj, m);
      native!.scaleRows(m, n, w, a, m, bn, m);
      for (let k = 0; k < m * n; k++) assert.ok(Object.is(bj[k], bn[k]), `scaleRows ${m} x ${n}: entry ${k}`);
      const sj = new Float64Array(m);
      const sn = new Float64Array(m);
      jsBackend.rowSumsOfSquares(m, n, a, m, sj);
      native!.rowSumsOfSquares(m, n, a, m, sn);
      for (let i = 0; i < m; i++) assert.ok(Object.is(sj[i], sn[i]), `rowSumsOfSquares ${m} x ${n}: entry ${i}`);
      // negative control: the same sums in the other order differ from the native ones somewhere
      let differs = 0;
      for (let i = 0; i < m; i++) {
        let s = 0;
        for (let j = n - 1; j >= 0; j--) s += a[i + j * m] * a[i + j * m];
        if (!Object.is(s, sn[i])) differs++;
      }
      assert.ok(differs > 0, `${m} x ${n}: the reversed sums matched the native ones everywhere`);
    }
  });
});
