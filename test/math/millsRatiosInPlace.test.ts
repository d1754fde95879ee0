// The array loops of src/math/normal.ts that the probit likelihood takes its terms from
// (millsRatiosInPlace, normalPdfsInPlace): the numbers of the scalar functions bit for bit, on
// both sides of every join (the Taylor nodes, x = 8 where the continued fraction takes over) and
// at the special arguments, and closed-form values to an ulp or two.
import { test } from "node:test";
import assert from "node:assert/strict";
import { millsRatio, millsRatiosInPlace, normalPdf, normalPdfsInPlace } from "../../src/math/normal.js";

const args: number[] = [0, -0, 8, -8, 8 + 1e-12, 1e-300, 37, -37, 39.999, 40, 1e8, Infinity, -Infinity, NaN];
for (let k = -400; k <= 400; k++) args.push(k / 10 + 1 / 16);

test("millsRatiosInPlace on |z| is millsRatio(|z|) bit for bit, special arguments included", () => {
  const xs = Float64Array.from(args, Math.abs);
  millsRatiosInPlace(xs, xs.length);
  for (let i = 0; i < args.length; i++) {
    const expected = millsRatio(Math.abs(args[i]));
    assert.ok(Object.is(xs[i], expected), `x = ${Math.abs(args[i])}: ${xs[i]} vs ${expected}`);
  }
});

test("millsRatiosInPlace leaves the entries past count as they were", () => {
  const xs = Float64Array.of(1, 2, 3);
  millsRatiosInPlace(xs, 2);
  assert.equal(xs[2], 3);
  assert.notEqual(xs[1], 2);
});

test("normalPdfsInPlace is normalPdf bit for bit, and both give closed-form values", () => {
  const zs = Float64Array.from(args);
  normalPdfsInPlace(zs, zs.length);
  for (let i = 0; i < args.length; i++) {
    const expected = normalPdf(args[i]);
    assert.ok(Object.is(zs[i], expected), `z = ${args[i]}: ${zs[i]} vs ${expected}`);
  }
  // R(0) = sqrt(pi / 2), phi(0) = 1 / sqrt(2 pi), phi(1) = exp(-1/2) / sqrt(2 pi).
  const close = (a: number, b: number) => assert.ok(Math.abs(a - b) <= 2 * Number.EPSILON * b, `${a} vs ${b}`);
  const r = Float64Array.of(0);
  millsRatiosInPlace(r, 1);
  close(r[0], Math.sqrt(Math.PI / 2));
  close(normalPdf(0), 1 / Math.sqrt(2 * Math.PI));
  close(normalPdf(1), 0.24197072451914337);
});
