// lowerTimesInPlace and lowerTransposeTimesInPlace against a direct dense product.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lowerTimesInPlace, lowerTransposeTimesInPlace } from "../../src/samplers/integrators/massMatrix.js";
import { Rng } from "../../src/random/rng.js";

function direct(l: Float64Array, n: number, x: Float64Array, transpose: boolean): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) {
      const lij = transpose ? (i <= j ? l[j + i * n] : 0) : j <= i ? l[i + j * n] : 0;
      s += lij * x[j];
    }
    out[i] = s;
  }
  return out;
}

test("L x and L' x in place match the dense product (column-major L; the upper triangle is ignored)", () => {
  const rng = new Rng(4, 0);
  for (const n of [1, 2, 3, 17, 64]) {
    const l = new Float64Array(n * n);
    for (let k = 0; k < n * n; k++) l[k] = rng.normal(); // upper entries too: they must not be read
    const x = Float64Array.from({ length: n }, () => rng.normal());
    for (const transpose of [false, true]) {
      const want = direct(l, n, x, transpose);
      const got = Float64Array.from(x);
      (transpose ? lowerTransposeTimesInPlace : lowerTimesInPlace)(l, n, got);
      for (let i = 0; i < n; i++) assert.ok(Math.abs(got[i] - want[i]) <= 1e-12 * (1 + Math.abs(want[i])), `n ${n}, transpose ${transpose}, i ${i}: ${got[i]} vs ${want[i]}`);
    }
  }
});
