// symmetricFromLower: the full matrix from a lower triangle, against the entries written out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DimensionError } from "../../src/linalg/errors.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { symmetricFromLower } from "../../src/linalg/symmetricFromLower.js";

test("symmetricFromLower mirrors the lower triangle and ignores the upper one; a non-square matrix is refused", () => {
  // column-major 3 x 3 with junk (99) above the diagonal
  const k = new Matrix(3, 3, Float64Array.from([1, 2, 3, 99, 4, 5, 99, 99, 6]));
  const full = symmetricFromLower(k);
  const expected = [[1, 2, 3], [2, 4, 5], [3, 5, 6]];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) assert.equal(full.get(i, j), expected[i][j], `(${i}, ${j})`);
  assert.equal(k.get(0, 1), 99, "the input is left as it was");
  assert.throws(() => symmetricFromLower(new Matrix(2, 3)), DimensionError);
});
