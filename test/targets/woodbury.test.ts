import { test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { Matrix, NotPositiveDefiniteError } from "../../src/linalg/index.js";
import { Rng } from "../../src/random/rng.js";
import {
  applyWoodburyInverse,
  choleskyIdentityPlusScaled,
  factorIdentityPlusScaled,
  woodbury,
  woodburyInverseDiagonal,
  woodburyInverseMatrix,
} from "../../src/targets/woodbury.js";
import { type Dense, luInverseAndLogDet, matVec } from "./dense.js";

// Checks every routine of the Woodbury module against (C^-1 + S^2)^-1 and log|C^-1 + S^2|
// formed by explicit Gauss-Jordan inversion (test/targets/dense.ts, independent of src/linalg).
const N = 9;

function problem(seed: number, zeroSite = false) {
  const rng = new Rng(seed);
  const X = new Matrix(N, 2);
  for (let i = 0; i < 2 * N; i++) X.data[i] = 2 * rng.uniform() - 1;
  const C = seKernel({ lengthscale: 0.7, signalSd: 1.4 }).matrix(X);
  for (let i = 0; i < N; i++) C.data[i + i * N] += 1e-3;
  // precisions over several orders of magnitude, one of them 0 if asked (a point without a site)
  const s = Float64Array.from({ length: N }, () => Math.sqrt(Math.exp(4 * rng.normal())));
  if (zeroSite) s[3] = 0;
  const v = Float64Array.from({ length: N }, () => rng.normal());
  return { C, s, v };
}

/** (C^-1 + S^2)^-1 and log|C^-1 + S^2| by explicit inversion. */
function direct(C: Matrix, s: Float64Array): { inverse: Dense; logDet: number } {
  const prec = luInverseAndLogDet(C.toRows()).inverse;
  for (let i = 0; i < N; i++) prec[i][i] += s[i] * s[i];
  const lu = luInverseAndLogDet(prec);
  return { inverse: lu.inverse, logDet: lu.logAbsDet };
}

function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let scale = 0;
  for (let i = 0; i < b.length; i++) scale = Math.max(scale, Math.abs(b[i]));
  let e = 0;
  for (let i = 0; i < b.length; i++) e = Math.max(e, Math.abs(a[i] - b[i]));
  return e / scale;
}

for (const zeroSite of [false, true]) {
  test(`Woodbury step agrees with explicit inversion${zeroSite ? " (one s_n = 0)" : ""}`, () => {
    for (const seed of [1, 2, 3]) {
      const { C, s, v } = problem(seed, zeroSite);
      const ref = direct(C, s);
      const logDetC = luInverseAndLogDet(C.toRows()).logAbsDet;

      const factor = new Float64Array(N * N);
      const logDetB = factorIdentityPlusScaled(C.data, s, N, factor);
      // log|C^-1 + S^2| = -log|C| + log|B|
      assert.ok(Math.abs(-logDetC + logDetB - ref.logDet) < 1e-9 * (1 + Math.abs(ref.logDet)), `seed ${seed}: log-determinant`);

      const out = new Float64Array(N);
      applyWoodburyInverse(C.data, s, factor, N, v, out, new Float64Array(N), new Float64Array(N));
      assert.ok(relErr(out, matVec(ref.inverse, v)) < 1e-9, `seed ${seed}: inverse times a vector`);
      // out may alias v
      const w = v.slice();
      applyWoodburyInverse(C.data, s, factor, N, w, w, new Float64Array(N), new Float64Array(N));
      assert.deepEqual(Array.from(w), Array.from(out));

      const diag = new Float64Array(N);
      woodburyInverseDiagonal(C.data, s, factor, N, new Float64Array(N * N), diag);
      assert.ok(relErr(diag, ref.inverse.map((r, i) => r[i])) < 1e-9, `seed ${seed}: diagonal of the inverse`);

      const dense = woodburyInverseMatrix(C, s, factor).toRows().flat();
      assert.ok(relErr(dense, ref.inverse.flat()) < 1e-9, `seed ${seed}: dense inverse`);

      const dw = woodbury(C, s);
      assert.equal(dw.logDetB, logDetB);
      assert.deepEqual(Array.from(dw.inverse.data), Array.from(woodburyInverseMatrix(C, s, factor).data));
      assert.deepEqual(Array.from(dw.cholesky.factor.data).filter((_, k) => k % N >= Math.floor(k / N)),
        Array.from(factor).filter((_, k) => k % N >= Math.floor(k / N)));
    }
  });
}

test("negative control: the comparison catches a Woodbury step with S^2 in place of S", () => {
  // (C^-1 + S^4)^-1: what a caller passing the precisions instead of their square roots gets
  const { C, s, v } = problem(1);
  const ref = direct(C, s);
  const wrong = s.map((x) => x * x);
  const factor = new Float64Array(N * N);
  factorIdentityPlusScaled(C.data, wrong, N, factor);
  const out = new Float64Array(N);
  applyWoodburyInverse(C.data, wrong, factor, N, v, out, new Float64Array(N), new Float64Array(N));
  assert.ok(relErr(out, matVec(ref.inverse, v)) > 1e-3);
  // and one that forgets the correction term (s = 0: C v instead of (C^-1 + S^2)^-1 v)
  const zero = new Float64Array(N);
  applyWoodburyInverse(C.data, zero, factorOf(C, zero), N, v, out, new Float64Array(N), new Float64Array(N));
  assert.ok(relErr(out, matVec(ref.inverse, v)) > 1e-3);
});

function factorOf(C: Matrix, s: Float64Array): Float64Array {
  const f = new Float64Array(N * N);
  factorIdentityPlusScaled(C.data, s, N, f);
  return f;
}

test("a B that overflows gives NaN from the fast factorisation and a typed error from the Cholesky form", () => {
  const { C, s } = problem(1);
  const huge = s.map(() => 1e200);
  assert.ok(Number.isNaN(factorIdentityPlusScaled(C.data, huge, N, new Float64Array(N * N))));
  assert.throws(() => choleskyIdentityPlusScaled(C, huge, "I + S C S", { skipFiniteCheck: true }), NotPositiveDefiniteError);
});
