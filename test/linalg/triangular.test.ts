import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { getBackend, invertLowerTriangularInPlace, jsBackend, opCounts, resetOpCounts, setBackend, type LinalgBackend } from "../../src/linalg/index.js";
import { backends, EPS, makeRng, SENTINEL } from "./helpers.js";

/** A well-conditioned lower-triangular n x n matrix in an array with leading dimension ld (padding and upper triangle = SENTINEL). */
function lower(n: number, ld: number, seed: number): Float64Array {
  const rng = makeRng(seed);
  const a = new Float64Array(ld * n).fill(SENTINEL);
  for (let j = 0; j < n; j++) {
    a[j + j * ld] = 1 + rng.uniform();
    for (let i = j + 1; i < n; i++) a[i + j * ld] = (rng.uniform() - 0.5) / Math.sqrt(n);
  }
  return a;
}

for (const { name, be, skip } of backends) {
  describe(`invertLowerTriangularInPlace on the ${name} backend`, { skip }, () => {
    for (const [n, ld] of [[1, 1], [5, 7], [32, 32], [33, 40], [100, 100], [257, 260]]) {
      test(`n = ${n}, ld = ${ld}: L X = I, upper triangle and padding untouched, n^3/3 flops counted`, () => {
        const saved = getBackend();
        setBackend(be as LinalgBackend);
        try {
          const l = lower(n, ld, n);
          const x = l.slice();
          resetOpCounts();
          invertLowerTriangularInPlace(n, x, ld);
          assert.equal(opCounts.flops, (n * n * n) / 3);
          let err = 0;
          for (let j = 0; j < n; j++) {
            for (let i = 0; i < n; i++) {
              let s = 0;
              for (let k = j; k <= i; k++) s += l[i + k * ld] * x[k + j * ld];
              err = Math.max(err, Math.abs(s - (i === j ? 1 : 0)));
            }
            for (let i = 0; i < j; i++) assert.equal(x[i + j * ld], SENTINEL, "upper triangle");
            for (let i = n; i < ld; i++) assert.equal(x[i + j * ld], SENTINEL, "padding");
          }
          assert.ok(err < 50 * n * EPS, `max |L X - I| = ${err}`);
        } finally {
          setBackend(saved);
        }
      });
    }
  });
}

test("invertLowerTriangularInPlace checks its arguments", () => {
  setBackend(getBackend() ?? jsBackend);
  assert.throws(() => invertLowerTriangularInPlace(3, new Float64Array(8), 3), /too short/);
  assert.throws(() => invertLowerTriangularInPlace(3, new Float64Array(9), 2), /leading dimension/);
  assert.throws(() => invertLowerTriangularInPlace(-1, new Float64Array(9)), /order/);
});
