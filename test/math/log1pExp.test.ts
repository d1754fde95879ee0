// log1pExp, logistic and logSumExp against 50-digit values (test/fixtures/logistic_reference.json,
// written by test/fixtures/logistic_reference.py with mpmath) over x in [-800, 800], densely on
// [-60, 60] and around every cut-off (-37, 18, 33.3).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { log1pExp, logistic, logSumExp } from "../../src/math/index.js";

const ref = JSON.parse(readFileSync(new URL("../../../test/fixtures/logistic_reference.json", import.meta.url), "utf8")) as {
  rows: [number, number, number][]; // x, log(1 + e^x), 1 / (1 + e^-x)
};
const EPS = 2 ** -52;
const SMALLEST_NORMAL = 2.2250738585072014e-308;

test("log1pExp: relative error of a few ulp wherever the result is a normal float64", (t) => {
  let worst = { x: NaN, err: 0 };
  for (const [x, want] of ref.rows) {
    if (want < SMALLEST_NORMAL) continue;
    const err = Math.abs(log1pExp(x) - want) / want;
    if (!(err <= worst.err)) worst = { x, err };
  }
  t.diagnostic(`log1pExp max relative error ${worst.err.toExponential(2)} (${(worst.err / EPS).toFixed(1)} ulp) at x = ${worst.x}`);
  assert.ok(worst.err < 4 * EPS, `${worst.err} at ${worst.x}`);
  assert.ok(ref.rows.some(([x]) => x === -37) && ref.rows.some(([x]) => x === 33.3));
});

test("log1pExp limits: e^x below, x above, no overflow", () => {
  assert.equal(log1pExp(-Infinity), 0);
  assert.equal(log1pExp(Infinity), Infinity);
  assert.equal(log1pExp(1000), 1000);
  assert.equal(log1pExp(-1000), 0);
  assert.equal(log1pExp(-700), Math.exp(-700));
  assert.equal(log1pExp(0), Math.LN2);
  assert.ok(Number.isNaN(log1pExp(NaN)));
});

test("log1pExp agrees with the direct formula where that formula is safe (|x| < 1)", () => {
  for (let x = -1; x <= 1; x += 0.01) {
    const direct = Math.log(1 + Math.exp(x));
    assert.ok(Math.abs(log1pExp(x) - direct) <= 2 * EPS * direct, `x = ${x}`);
  }
});

test("logistic: relative error of a few ulp, and 1 - logistic(x) = logistic(-x)", (t) => {
  let worst = { x: NaN, err: 0 };
  for (const [x, , want] of ref.rows) {
    if (want < SMALLEST_NORMAL) continue;
    const err = Math.abs(logistic(x) - want) / want;
    if (!(err <= worst.err)) worst = { x, err };
  }
  t.diagnostic(`logistic max relative error ${worst.err.toExponential(2)} (${(worst.err / EPS).toFixed(1)} ulp) at x = ${worst.x}`);
  assert.ok(worst.err < 4 * EPS, `${worst.err} at ${worst.x}`);
  for (const x of [-50, -3, -0.5, 0, 0.25, 2, 40]) assert.ok(Math.abs(logistic(x) + logistic(-x) - 1) <= EPS);
  assert.equal(logistic(-Infinity), 0);
  assert.equal(logistic(Infinity), 1);
  assert.equal(logistic(-800), 0);
  assert.ok(Number.isNaN(logistic(NaN)));
});

test("logSumExp: large, tiny and infinite terms, and NaN", () => {
  assert.ok(Math.abs(logSumExp([1000, 1000]) - (1000 + Math.LN2)) <= 2 * EPS * 1000);
  assert.ok(Math.abs(logSumExp([-1000, -1000, -1000]) - (-1000 + Math.log(3))) <= 2 * EPS * 1000);
  assert.equal(logSumExp([0, -Infinity]), 0);
  assert.equal(logSumExp([]), -Infinity);
  assert.equal(logSumExp([-Infinity, -Infinity]), -Infinity);
  assert.equal(logSumExp([Infinity, 3]), Infinity);
  assert.ok(Number.isNaN(logSumExp([NaN, 1])));
  assert.ok(Number.isNaN(logSumExp([NaN])));
  assert.ok(Number.isNaN(logSumExp([1, NaN, Infinity])));
  // log(e^a + e^b) for moderate values against the direct sum
  assert.ok(Math.abs(logSumExp(new Float64Array([0.5, -1.25, 2])) - Math.log(Math.exp(0.5) + Math.exp(-1.25) + Math.exp(2))) <= 4 * EPS * 2.3);
});
