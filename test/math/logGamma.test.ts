import { test } from "node:test";
import assert from "node:assert/strict";
import { logFactorial, logGamma } from "../../src/math/index.js";

// Reference values from mpmath.loggamma at 40 digits.
const REFERENCE: Array<[number, number]> = [
  [0.5, 0.57236494292470008707],
  [1e-300, 690.77552789821370518],
  [1e-8, 18.420680738180208884],
  [0.1, 2.252712651734205902],
  [1.5, -0.12078223763524522235],
  [2.5, 0.28468287047291915963],
  [3, 0.69314718055994530942],
  [7.3, 7.1478925230222486921],
  [14.999, 25.188546870546927907],
  [15, 25.1912211827386815],
  [20.5, 40.83150097453079811],
  [21, 42.33561646075348503],
  [22, 45.380138898476908026],
  [100, 359.13420536957539878],
  [1000.5, 5908.6741758486774887],
  [1e6, 12815504.56914761166],
  [1e10, 220258509288.81058147],
  [1e15, 33538776394910668.91],
  [1e300, 6.8977552789821374147e302],
];

test("logGamma matches high-precision values (4e-15 absolute + 1e-15 relative)", () => {
  for (const [x, want] of REFERENCE) {
    const got = logGamma(x);
    assert.ok(Math.abs(got - want) <= 4e-15 + 1e-15 * Math.abs(want), `logGamma(${x}) = ${got}, want ${want}`);
  }
});

test("logGamma is 0 at 1 and 2, NaN off its domain", () => {
  assert.equal(logGamma(1), 0);
  assert.equal(logGamma(2), 0);
  assert.ok(Number.isNaN(logGamma(0)));
  assert.ok(Number.isNaN(logGamma(-1.5)));
  assert.ok(Number.isNaN(logGamma(NaN)));
});

test("logFactorial agrees with summed logs and with logGamma(n + 1)", () => {
  let s = 0;
  for (let n = 0; n <= 400; n++) {
    if (n > 0) s += Math.log(n);
    const got = logFactorial(n);
    assert.ok(Math.abs(got - s) <= 1e-13 * Math.max(1, s), `log ${n}! = ${got}, summed logs give ${s}`);
    assert.equal(got, logGamma(n + 1));
  }
  assert.ok(Number.isNaN(logFactorial(2.5)));
  assert.ok(Number.isNaN(logFactorial(-1)));
});
