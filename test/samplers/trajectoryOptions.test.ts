import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import { hmc } from "../../src/samplers/kernels/hmc.js";
import { rmhmc } from "../../src/samplers/kernels/rmhmc.js";
import { checkTrajectoryOptions, leapfrogStepCount, stepsForLength } from "../../src/samplers/integrators/trajectoryOptions.js";
import type { LocalGeometry, Target } from "../../src/targets/types.js";

// A standard normal target in 2-D with the identity metric, enough to build both kernels.
const target: Target = {
  dim: 2,
  logDensity: (x) => -0.5 * (x[0] * x[0] + x[1] * x[1]),
  logDensityAndGradient: (x, g) => {
    g[0] = -x[0];
    g[1] = -x[1];
    return -0.5 * (x[0] * x[0] + x[1] * x[1]);
  },
  geometry: (x): LocalGeometry => ({
    position: x, logDensity: -0.5 * (x[0] * x[0] + x[1] * x[1]), gradient: Float64Array.of(-x[0], -x[1]), logDetMetric: 0,
    applyInverse: (p, out) => out.set(p),
    sampleMomentum: (rng, out) => rng.fillNormal(out),
    hamiltonianGradient: (_p, out) => out.set([x[0], x[1]]),
  }),
};

test("the shared trajectory options get their defaults and are checked the same way by HMC and RMHMC", () => {
  const o = checkTrajectoryOptions({ stepSize: 0.1, leapfrogSteps: 7 });
  assert.deepEqual(o, { targetAcceptance: 0.65, divergenceThreshold: 1000, maxSteps: 7, randomiseSteps: false });
  const bad: [string, Record<string, number>][] = [
    ["stepSize", { stepSize: -1 }], ["leapfrogSteps", { leapfrogSteps: 2.5 }],
    ["targetAcceptance", { targetAcceptance: 1.5 }], ["divergenceThreshold", { divergenceThreshold: 0 }],
  ];
  for (const [name, change] of bad) {
    const options = { stepSize: 0.1, leapfrogSteps: 5, ...change };
    for (const make of [() => hmc(target, options), () => rmhmc(target, options)]) assert.throws(make, new RegExp(name));
  }
  // and good options build both
  assert.equal(hmc(target, { stepSize: 0.1, leapfrogSteps: 5 }).tunable.targetAcceptance, 0.65);
  assert.equal(rmhmc(target, { stepSize: 0.1, leapfrogSteps: 5 }).tunable.targetAcceptance, 0.65);
});

test("the number of leapfrog steps is the maximum, or uniform on 1..maximum when randomised", () => {
  const rng = new Rng(3);
  const fixed = checkTrajectoryOptions({ stepSize: 0.1, leapfrogSteps: 4 });
  for (let i = 0; i < 20; i++) assert.equal(leapfrogStepCount(fixed, rng, 0.1), 4);
  const random = checkTrajectoryOptions({ stepSize: 0.1, leapfrogSteps: 4, randomiseSteps: true });
  const seen = new Array<number>(5).fill(0);
  for (let i = 0; i < 4000; i++) seen[leapfrogStepCount(random, rng, 0.1)]++;
  assert.equal(seen[0], 0);
  for (let k = 1; k <= 4; k++) assert.ok(Math.abs(seen[k] - 1000) < 5 * Math.sqrt(1000 * 0.75), `count of ${k}: ${seen[k]}`);
});

test("with a trajectory length the count is round(length / step size) within 1..maximum, and uniform below it when randomised", () => {
  const rng = new Rng(4);
  const o = checkTrajectoryOptions({ stepSize: 0.5, leapfrogSteps: 50, trajectoryLength: 3 });
  // the paper's logistic-regression setting, the adapted step sizes of Pima and Heart, the cap and the floor
  for (const [eps, steps] of [[0.5, 6], [0.96, 3], [0.62, 5], [0.01, 50], [100, 1]]) assert.equal(leapfrogStepCount(o, rng, eps), steps, `step size ${eps}`);
  assert.equal(stepsForLength(3, 0.96, 50), 3);
  // the count follows the step size it is given: the kernel's current one
  const random = checkTrajectoryOptions({ stepSize: 0.5, leapfrogSteps: 50, trajectoryLength: 2, randomiseSteps: true });
  const seen = new Array<number>(51).fill(0);
  for (let i = 0; i < 4000; i++) seen[leapfrogStepCount(random, rng, 0.5)]++;
  assert.equal(seen[0] + seen.slice(5).reduce((a, b) => a + b, 0), 0);
  for (let k = 1; k <= 4; k++) assert.ok(Math.abs(seen[k] - 1000) < 5 * Math.sqrt(1000 * 0.75), `count of ${k}: ${seen[k]}`);
  for (const bad of [0, -1, NaN]) {
    for (const make of [() => hmc(target, { stepSize: 0.1, leapfrogSteps: 5, trajectoryLength: bad }), () => rmhmc(target, { stepSize: 0.1, leapfrogSteps: 5, trajectoryLength: bad })]) assert.throws(make, /trajectoryLength/);
  }
});
