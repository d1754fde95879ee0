// millsRatiosOfAbs (src/math/normal.ts), the probit likelihood's batch of Mills ratios: the same
// numbers, bit for bit, as the scalar millsRatio at |y f|, on both sides of every join (the Taylor
// nodes, x = 8 where the continued fraction takes over) and at the special arguments.
import { test } from "node:test";
import assert from "node:assert/strict";
import { millsRatio, millsRatiosOfAbs } from "../../src/math/normal.js";

test("millsRatiosOfAbs(y, f) is millsRatio(|y f|) bit for bit, special arguments included", () => {
  const f: number[] = [0, -0, 8, -8, 8 + 1e-12, 1e-300, 37, -37, 1e8, Infinity, -Infinity, NaN];
  for (let k = -400; k <= 400; k++) f.push(k / 10 + 1 / 16);
  const y = Float64Array.from(f, (_, i) => (i % 2 ? 1 : -1));
  const out = new Float64Array(f.length);
  millsRatiosOfAbs(y, Float64Array.from(f), out);
  for (let i = 0; i < f.length; i++) {
    const expected = millsRatio(Math.abs(y[i] * f[i]));
    assert.ok(Object.is(out[i], expected), `f = ${f[i]}, y = ${y[i]}: ${out[i]} vs ${expected}`);
  }
});
