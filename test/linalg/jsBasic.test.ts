import { test } from "node:test";
import assert from "node:assert/strict";
import { cholesky, Matrix, NotPositiveDefiniteError } from "../../src/linalg/index.js";

test("cholesky of a 3x3 SPD matrix reproduces it and solves", () => {
  const a = Matrix.fromRows([[4, 2, 0.6], [2, 5, 1.5], [0.6, 1.5, 3]]);
  const ch = cholesky(a);
  const l = ch.factor;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    let s = 0;
    for (let k = 0; k < 3; k++) s += l.get(i, k) * l.get(j, k);
    assert.ok(Math.abs(s - a.get(i, j)) < 1e-14);
  }
  const x = ch.solve([1, 2, 3]);
  for (let i = 0; i < 3; i++) {
    let s = 0;
    for (let j = 0; j < 3; j++) s += a.get(i, j) * x[j];
    assert.ok(Math.abs(s - (i + 1)) < 1e-13);
  }
});

test("cholesky raises NotPositiveDefiniteError with the pivot", () => {
  const a = Matrix.fromRows([[1, 2], [2, 1]]);
  assert.throws(() => cholesky(a), (e: unknown) => e instanceof NotPositiveDefiniteError && e.pivotIndex === 1 && Math.abs(e.pivotValue + 3) < 1e-12);
});
