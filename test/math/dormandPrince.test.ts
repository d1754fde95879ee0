/**
 * The Dormand-Prince 5(4) solver against closed forms: a damped rotation y' = A y (solution
 * e^{-t/2} (cos 2t, -sin 2t)), read through the dense output at times between steps; a
 * non-autonomous y' = cos t; its error control (the global error follows the tolerance, the step
 * count grows like tol^(-1/5)); a blow-up reported as an OdeSolverError.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { OdeSolverError, solveDormandPrince, type OdeRightHandSide } from "../../src/math/dormandPrince.js";

const rotation: OdeRightHandSide = (_t, y, dy) => {
  dy[0] = -0.5 * y[0] + 2 * y[1];
  dy[1] = -2 * y[0] - 0.5 * y[1];
};
const exact = (t: number) => [Math.exp(-t / 2) * Math.cos(2 * t), -Math.exp(-t / 2) * Math.sin(2 * t)];
const times = Float64Array.from({ length: 301 }, (_, j) => (10 * j) / 300);

function maxError(rtol: number): { err: number; steps: number } {
  const sol = solveDormandPrince(rotation, 0, [1, 0], times, { rtol, atol: rtol * 1e-2 });
  let err = 0;
  for (let j = 0; j < times.length; j++) {
    const e = exact(times[j]);
    for (let i = 0; i < 2; i++) err = Math.max(err, Math.abs(sol.values[2 * j + i] - e[i]));
  }
  return { err, steps: sol.acceptedSteps };
}

test("a damped rotation: dense output at 301 times matches the closed form to the tolerance", () => {
  const { err, steps } = maxError(1e-8);
  assert.ok(err < 1e-7, `max error ${err}`);
  // 301 output times on far fewer steps: the values between steps come from the dense output
  assert.ok(steps < 250, `${steps} steps`);
});

test("error control: the global error follows the tolerance and the step count grows like tol^(-1/5)", () => {
  const loose = maxError(1e-5);
  const tight = maxError(1e-10);
  assert.ok(loose.err > 1e-7 && loose.err < 1e-4, `rtol 1e-5: ${loose.err}`);
  assert.ok(tight.err < 1e-9, `rtol 1e-10: ${tight.err}`);
  assert.ok(loose.err / tight.err > 1e3, `error ratio ${loose.err / tight.err}`);
  const growth = tight.steps / loose.steps;
  // (1e5)^(1/5) = 10
  assert.ok(growth > 5 && growth < 20, `steps ${loose.steps} -> ${tight.steps}`);
});

test("a non-autonomous equation y' = cos t, y(0) = 0 gives sin t", () => {
  const out = Float64Array.from({ length: 50 }, (_, j) => 0.37 * (j + 1));
  const sol = solveDormandPrince((t, _y, dy) => void (dy[0] = Math.cos(t)), 0, [0], out, { rtol: 1e-10, atol: 1e-12 });
  for (let j = 0; j < out.length; j++) assert.ok(Math.abs(sol.values[j] - Math.sin(out[j])) < 1e-9, `t = ${out[j]}`);
});

test("output times at t0 return y0; repeated times are allowed; a time before t0 is refused", () => {
  const sol = solveDormandPrince(rotation, 0, [1, 0], [0, 0, 1, 1]);
  assert.deepEqual(Array.from(sol.values.subarray(0, 4)), [1, 0, 1, 0]);
  assert.equal(sol.values[4], sol.values[6]);
  assert.throws(() => solveDormandPrince(rotation, 1, [1, 0], [0.5]), RangeError);
});

test("errorComponents: components left out of the norm do not change the step sequence", () => {
  // y0' = -y0 (controlled), y1' = 50 cos(50 t) (fast, not controlled)
  const f: OdeRightHandSide = (t, y, dy) => {
    dy[0] = -y[0];
    dy[1] = 50 * Math.cos(50 * t);
  };
  const alone = solveDormandPrince((_t, y, dy) => void (dy[0] = -y[0]), 0, [1], [5], { rtol: 1e-6 });
  const riding = solveDormandPrince(f, 0, [1, 0], [5], { rtol: 1e-6, errorComponents: 1 });
  const both = solveDormandPrince(f, 0, [1, 0], [5], { rtol: 1e-6 });
  assert.equal(riding.acceptedSteps, alone.acceptedSteps);
  assert.equal(riding.values[0], alone.values[0]);
  assert.ok(both.acceptedSteps > 3 * alone.acceptedSteps, `${both.acceptedSteps} vs ${alone.acceptedSteps}`);
});

test("a solution that blows up (y' = y^2, y(0) = 1, infinite at t = 1) is an OdeSolverError", () => {
  assert.throws(() => solveDormandPrince((_t, y, dy) => void (dy[0] = y[0] * y[0]), 0, [1], [2], { maxSteps: 5000 }), OdeSolverError);
});
