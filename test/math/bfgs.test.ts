/**
 * BFGS with a strong-Wolfe line search: the minimum of Rosenbrock's function (1, 1) and of a
 * quadratic 1/2 x'Ax - b'x (x = A^-1 b, value -1/2 b'A^-1 b, solved here by hand for a 3 x 3 A);
 * a wrong gradient (a broken variant) does not reach them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { minimizeBfgs, type ValueAndGradient } from "../../src/math/bfgs.js";

const rosenbrock: ValueAndGradient = (x) => {
  const [a, b] = [x[0]!, x[1]!];
  return {
    value: 100 * (b - a * a) ** 2 + (1 - a) ** 2,
    gradient: Float64Array.of(-400 * a * (b - a * a) - 2 * (1 - a), 200 * (b - a * a)),
  };
};

test("BFGS: Rosenbrock's minimum (1, 1) from (-1.2, 1); with a wrong gradient it is not found", () => {
  const r = minimizeBfgs(rosenbrock, [-1.2, 1], { gradientTolerance: 1e-8, valueTolerance: 0 });
  assert.ok(r.converged, r.reason);
  assert.ok(Math.abs(r.x[0]! - 1) < 1e-6 && Math.abs(r.x[1]! - 1) < 1e-6, `${r.x}`);
  assert.ok(r.value < 1e-12);
  assert.ok(r.iterations < 60, `${r.iterations} iterations`);
  const broken: ValueAndGradient = (x) => {
    const v = rosenbrock(x);
    return { value: v.value, gradient: Float64Array.of(v.gradient[0]!, 0.5 * v.gradient[1]!) };
  };
  const b = minimizeBfgs(broken, [-1.2, 1], { gradientTolerance: 1e-8 });
  assert.ok(!(Math.abs(b.x[0]! - 1) < 1e-6 && Math.abs(b.x[1]! - 1) < 1e-6), `${b.x}`);
});

test("BFGS: a quadratic's minimiser A^-1 b and minimum -1/2 b'A^-1 b; a shifted gradient misses them", () => {
  // A = [[4,1,0],[1,3,1],[0,1,2]], b = (1, 2, 3): det A = 18, A^-1 b = (1/18)(5*1 - 2*2 + 1*3, -2*1 + 8*2 - 4*3, 1*1 - 4*2 + 11*3)
  const A = [[4, 1, 0], [1, 3, 1], [0, 1, 2]];
  const b = [1, 2, 3];
  const xStar = [4 / 18, 2 / 18, 26 / 18];
  const fStar = -0.5 * (b[0]! * xStar[0]! + b[1]! * xStar[1]! + b[2]! * xStar[2]!);
  const quad = (shift: number): ValueAndGradient => (x) => {
    const Ax = A.map((row) => row.reduce((t, v, j) => t + v * x[j]!, 0));
    return {
      value: 0.5 * Ax.reduce((t, v, i) => t + v * x[i]!, 0) - b.reduce((t, v, i) => t + v * x[i]!, 0),
      gradient: Float64Array.from(Ax, (v, i) => v - b[i]! + shift),
    };
  };
  const r = minimizeBfgs(quad(0), [0, 0, 0], { gradientTolerance: 1e-10, valueTolerance: 0 });
  assert.ok(r.converged, r.reason);
  xStar.forEach((v, i) => assert.ok(Math.abs(r.x[i]! - v) < 1e-8, `x ${i}: ${r.x[i]} vs ${v}`));
  assert.ok(Math.abs(r.value - fStar) < 1e-12);
  const broken = minimizeBfgs(quad(0.05), [0, 0, 0], { gradientTolerance: 1e-10 });
  assert.ok(xStar.some((v, i) => Math.abs(broken.x[i]! - v) > 1e-3));
});
