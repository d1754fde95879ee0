// packNumbers lays arrays end to end, in order, whatever their length (a spread of 300000 numbers
// into a call's arguments overflows the stack; this does not).
import { test } from "node:test";
import assert from "node:assert/strict";
import { packNumbers } from "../../src/math/packNumbers.js";

test("packNumbers concatenates in order, empty pieces included", () => {
  assert.deepEqual(packNumbers([[1, 2], new Float64Array(0), Float64Array.of(3), [4, 5, 6]]), Float64Array.of(1, 2, 3, 4, 5, 6));
  assert.deepEqual(packNumbers([]), new Float64Array(0));
});

test("packNumbers takes pieces of hundreds of thousands of numbers", () => {
  const big = Float64Array.from({ length: 300000 }, (_, i) => i);
  const out = packNumbers([[7], big, big]);
  assert.equal(out.length, 600001);
  assert.equal(out[0], 7);
  assert.equal(out[300000], 299999);
  assert.equal(out[600000], 299999);
  assert.throws(() => Float64Array.of(...big, ...big), RangeError);
});
