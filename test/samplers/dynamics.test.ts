// The Dynamics interface (integrators/dynamics.ts) and the trajectories over it
// (integrators/staticTrajectory.ts): every implementation's step is reversible (forward, negate
// the momentum, back), with a broken integrator as the negative control; HMC's merged-kick
// trajectory is the same as L steps of `step`; stepTrajectory stops at a failing step.
import { test } from "node:test";
import assert from "node:assert/strict";
import { laplace } from "../../src/approx/laplace.js";
import { Cholesky } from "../../src/linalg/cholesky.js";
import { NonFiniteError } from "../../src/linalg/errors.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";
import type { Dynamics, PhasePoint } from "../../src/samplers/integrators/dynamics.js";
import { euclideanDynamics } from "../../src/samplers/integrators/euclideanDynamics.js";
import { GeneralisedLeapfrog } from "../../src/samplers/integrators/generalisedLeapfrog.js";
import { laplaceDynamics } from "../../src/samplers/integrators/laplaceDynamics.js";
import { massFromCholesky } from "../../src/samplers/integrators/massMatrix.js";
import { staticTrajectory, stepTrajectory, type TrajectoryEnd } from "../../src/samplers/integrators/staticTrajectory.js";
import { laplaceWhitening } from "../../src/samplers/kernels/laplaceWhitening.js";
import type { SamplerState } from "../../src/samplers/types.js";
import { latentGpTarget } from "../../src/targets/latentGpModel.js";
import { cholDense, GAUSS_COV, GAUSS_MEAN, gaussianTarget, toColumnMajor, varyingMetricProblem } from "./fixtures.js";

const M = toColumnMajor([[2, 0.5, -0.3], [0.5, 1, 0.2], [-0.3, 0.2, 0.7]]);
const denseMass = () => massFromCholesky(new Cholesky(new Matrix(3, 3, cholDense(M, 3))));

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** A dynamics with how to read a point's position and negate its momentum (all the arrays that hold it). */
interface Case<P extends PhasePoint, S extends SamplerState> {
  dyn: Dynamics<P, S>;
  x0: Float64Array;
  position(pt: P): Float64Array;
  negate(pt: P): void;
}

function negateAll(...arrays: Float64Array[]): void {
  for (const a of arrays) for (let i = 0; i < a.length; i++) a[i] = -a[i];
}

function laplaceCase(broken?: "kick-before") {
  const n = 6;
  const rng = new Rng(5);
  const X = new Matrix(n, 1, Float64Array.from({ length: n }, () => rng.uniform()));
  const y = Float64Array.from({ length: n }, (_, i) => (Math.sin(6 * X.get(i, 0)) > 0 ? 1 : -1));
  const target = latentGpTarget(X, y, { likelihood: "probit", logLengthscale: [-1], logSignalSd: 0.5, jitter: 1e-6 }, () => undefined);
  const w = laplace(target.kernelMatrix, target.y, target.likelihood).w;
  const dyn = laplaceDynamics(target, laplaceWhitening(target, "test", w), { integrator: "split", broken });
  return {
    dyn,
    x0: Float64Array.from({ length: n }, (_, i) => 0.3 * Math.sin(i)),
    position: (pt: ReturnType<typeof dyn.newPoint>) => pt.f,
    negate: (pt: ReturnType<typeof dyn.newPoint>) => negateAll(pt.v, pt.s),
  };
}

function euclideanCase() {
  const dyn = euclideanDynamics(gaussianTarget(GAUSS_MEAN, GAUSS_COV), denseMass(), "test");
  return { dyn, x0: Float64Array.from([0.2, -0.5, 1.1]), position: (pt: ReturnType<typeof dyn.newPoint>) => pt.x, negate: (pt: ReturnType<typeof dyn.newPoint>) => negateAll(pt.p) };
}

function generalisedCase() {
  const target = varyingMetricProblem().target;
  const dyn = new GeneralisedLeapfrog(3, { geometryAt: (x) => target.geometry!(x), inverseAt: undefined, fixedCount: undefined, tolerance: 1e-12, iterationCap: 200, accelerateMomentum: true });
  return { dyn, x0: Float64Array.from([0.2, -0.5, 1.1]), position: (pt: ReturnType<typeof dyn.newPoint>) => pt.position, negate: (pt: ReturnType<typeof dyn.newPoint>) => negateAll(pt.p) };
}

/** Steps forward, negates the momentum, steps as far back: the distance to the start, and how far it moved. */
function reversal<P extends PhasePoint, S extends SamplerState>(c: Case<P, S>, steps: number, eps: number): { error: number; moved: number; energyError: number } {
  const pt = c.dyn.newPoint();
  c.dyn.start(c.dyn.init(c.x0), new Rng(3), pt);
  const h0 = c.dyn.energy(pt);
  const start = c.position(pt).slice();
  for (let l = 0; l < steps; l++) assert.ok(!c.dyn.step(pt, eps), "a step failed");
  const moved = maxAbsDiff(c.position(pt), start);
  const energyError = Math.abs(c.dyn.energy(pt) - h0);
  c.negate(pt);
  for (let l = 0; l < steps; l++) assert.ok(!c.dyn.step(pt, eps), "a step back failed");
  return { error: maxAbsDiff(c.position(pt), start), moved, energyError };
}

const cases: [string, () => Case<any, any>][] = [
  ["Euclidean, dense mass", euclideanCase],
  ["Laplace-whitened, split", () => laplaceCase()],
  ["generalised leapfrog", generalisedCase],
];

for (const [name, make] of cases) {
  test(`Dynamics (${name}): step is reversible and nearly conserves H`, () => {
    const r = reversal(make(), 12, 0.2);
    assert.ok(r.moved > 0.1, `the trajectory moved ${r.moved}`);
    assert.ok(r.error < 1e-9, `back to the start to ${r.error}`);
    assert.ok(r.energyError < 0.1, `|H - H0| = ${r.energyError}`);
  });
}

test("Dynamics: the reversibility test fails on a broken integrator (negative control: laplace's kick-before)", () => {
  const r = reversal(laplaceCase("kick-before"), 12, 0.2);
  assert.ok(r.error > 1e-3, `the broken step came back to ${r.error}`);
});

test("staticTrajectory (merged kicks) is stepTrajectory over the same dynamics to rounding; p_sharp is M^-1 p", () => {
  const { dyn, x0 } = euclideanCase();
  const state = dyn.init(x0);
  const p0 = Float64Array.from([0.9, -1.2, 0.4]);
  const [a, b] = [dyn.newPoint(), dyn.newPoint()];
  const [endA, endB]: TrajectoryEnd[] = [{ steps: -1, failure: "fixed-point" }, { steps: -1, failure: "fixed-point" }];
  dyn.place(state, p0, a);
  dyn.place(state, p0, b);
  staticTrajectory(dyn, a, 0.15, 17, endA);
  stepTrajectory(dyn, b, 0.15, 17, endB);
  assert.deepEqual(endA, { steps: 17, failure: undefined });
  assert.deepEqual(endB, { steps: 17, failure: undefined });
  assert.ok(maxAbsDiff(a.x, b.x) < 1e-12 && maxAbsDiff(a.p, b.p) < 1e-12 && Math.abs(a.lp - b.lp) < 1e-12, "the same trajectory");
  assert.ok(maxAbsDiff(a.x, x0) > 0.1, "it moved");
  const sharp = dyn.sharp(a);
  const mp = new Float64Array(3);
  denseMass().applyInverse(a.p, mp);
  assert.ok(maxAbsDiff(sharp, mp) < 1e-14, "p_sharp = M^-1 p");
});

test("the trajectories stop at a failure: a step's reason, a thrown numerical failure, a non-finite density", () => {
  const { dyn, x0 } = euclideanCase();
  const pt = dyn.newPoint();
  const end: TrajectoryEnd = { steps: 0, failure: undefined };
  let calls = 0;
  const failing = { ...dyn, step: (p: typeof pt, eps: number) => (++calls === 4 ? ("fixed-point" as const) : dyn.step(p, eps)) };
  dyn.place(dyn.init(x0), Float64Array.from([1, 0, 0]), pt);
  stepTrajectory(failing, pt, 0.1, 10, end);
  assert.deepEqual(end, { steps: 3, failure: "fixed-point" });
  calls = 0;
  const throwing = { ...dyn, step: (p: typeof pt, eps: number) => { if (++calls === 2) throw new NonFiniteError("test", 0, 0, NaN); dyn.step(p, eps); } };
  stepTrajectory(throwing, pt, 0.1, 10, end);
  assert.deepEqual(end, { steps: 1, failure: "numerical-error" });
  assert.throws(() => stepTrajectory({ ...dyn, step: () => { throw new TypeError("a bug"); } }, pt, 0.1, 10, end), TypeError);
  // A target whose density is NaN beyond x_0 = 1.5: the static trajectory stops as non-finite.
  const g = gaussianTarget(GAUSS_MEAN, GAUSS_COV);
  const walled = { ...g, dim: 3, logDensity: g.logDensity.bind(g), gradient: undefined, logDensityAndGradient: (x: Float64Array, out: Float64Array) => (x[0] > 1.5 ? NaN : g.logDensityAndGradient!(x, out)) };
  const wd = euclideanDynamics(walled, denseMass(), "test");
  const q = wd.newPoint();
  wd.place(wd.init(Float64Array.from([0, 0, 0])), Float64Array.from([3, 0, 0]), q);
  staticTrajectory(wd, q, 0.3, 20, end);
  assert.equal(end.failure, "non-finite");
  assert.ok(end.steps > 0 && end.steps < 20, `stopped after ${end.steps} steps`);
});
