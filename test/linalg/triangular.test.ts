import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DimensionError, getBackend, invertLowerTriangularInPlace, jsBackend, opCounts, resetOpCounts, setBackend, type LinalgBackend } from "../../src/linalg/index.js";
import { backends, EPS, makeRng, native, nativeSkip, SENTINEL } from "./helpers.js";

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

describe("the native backend's trtri (LAPACK dtrtri)", { skip: nativeSkip }, () => {
  test("checks its arguments as the other routines do, and reports a zero diagonal entry", () => {
    const be = native!;
    assert.ok(be.trtri, "the native backend has trtri");
    assert.throws(() => be.trtri!("L", "N", 3, new Float64Array(8), 3), (e: unknown) => e instanceof DimensionError && /trtri: a has 8 entries, needs at least 9/.test((e as Error).message));
    assert.throws(() => be.trtri!("L", "N", 3, new Float64Array(9), 2), (e: unknown) => e instanceof DimensionError && /trtri: lda must be an integer >= 3, got 2/.test((e as Error).message));
    assert.throws(() => be.trtri!("X" as "L", "N", 1, new Float64Array(1), 1), /trtri: uplo must be "L" or "U"/);
    // upper triangular, unit diagonal: [[1, 2], [0, 1]]^-1 = [[1, -2], [0, 1]] (the diagonal is not read)
    const u = Float64Array.of(7, SENTINEL, 2, 7);
    assert.equal(be.trtri!("U", "U", 2, u, 2), 0);
    assert.deepEqual(Array.from(u), [7, SENTINEL, -2, 7]);
    const singular = Float64Array.of(1, 2, SENTINEL, 0);
    assert.equal(be.trtri!("L", "N", 2, singular, 2), 2);
    // through invertLowerTriangularInPlace at an order the native backend is used for
    const n = 200;
    const big = lower(n, n, 7);
    big[n * n - 1] = 0;
    const saved = getBackend();
    setBackend(be);
    try {
      assert.throws(() => invertLowerTriangularInPlace(n, big, n), /diagonal entry 200 is zero/);
    } finally {
      setBackend(saved);
    }
  });
});
