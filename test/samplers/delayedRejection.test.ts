// RMHMC's second stage for divergent trajectories (samplers/kernels/delayedRejection.ts): at a step where
// many first trajectories diverge, chains with it keep the target's moments (batch-means z-scores),
// almost none of their transitions stay divergent, and the variant that accepts a second stage
// without the ghost trajectory's test is caught by the same check. Where no trajectory diverges
// the draws are those of the kernel without it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sample } from "../../src/samplers/chain/driver.js";
import { rmhmc, type RmhmcOptions } from "../../src/samplers/kernels/rmhmc.js";
import type { DelayedRejectionStepInfo, Kernel } from "../../src/samplers/types.js";
import { GAUSS_COV, GAUSS_MEAN, gpLogisticTarget, quadratureMoments2d, varyingMetricProblem, type GeometryTarget } from "./fixtures.js";
import { describe, maxAbsZ, momentZScores } from "./mcse.js";

const PASS_Z = 4;
const FAIL_Z = 6;

interface Tally { transitions: number; firstStage: number; moved: number; divergent: number }

function run(target: GeometryTarget, options: RmhmcOptions, init: number[], draws: number, seed: number) {
  const inner = rmhmc(target, options);
  const tally: Tally = { transitions: 0, firstStage: 0, moved: 0, divergent: 0 };
  const kernel: Kernel = {
    name: inner.name, tunable: inner.tunable, init: (x) => inner.init(x),
    step(state, rng) {
      const r = inner.step(state as never, rng);
      const info: DelayedRejectionStepInfo = r.info;
      tally.transitions++;
      if (info.firstStageDivergence !== undefined) {
        tally.firstStage++;
        if (info.accepted) tally.moved++;
      }
      if (info.divergent) tally.divergent++;
      return r;
    },
  };
  return { result: sample(kernel, { draws, burnIn: 300, chains: 2, seed, init }), tally };
}

interface Case { name: string; negativeControl: boolean; target: () => GeometryTarget; truth: () => { mean: number[]; cov: number[][] }; stepSize: number; leapfrogSteps: number; init: number[] }

const GP_K_WIDE = [[9, 7], [7, 9]];
const cases: Case[] = [
  // G(x) = diag(exp(A x)) + C on a 3-D Gaussian: at e = 1.2 about 7% of the first trajectories diverge
  { name: "3-D Gaussian, G(x) = diag(exp(A x)) + C", negativeControl: true, target: () => varyingMetricProblem().target, truth: () => ({ mean: GAUSS_MEAN, cov: GAUSS_COV }), stepSize: 1.2, leapfrogSteps: 5, init: GAUSS_MEAN },
  // GP logistic classification, n = 2, its Hessian metric, moments by quadrature: at e = 0.7 about
  // 12% of the first trajectories diverge. (Here the ghost trajectory's test rarely rejects, and the
  // variant without it is not told apart from the right one by 2 x 10000 draws: the negative control
  // is the Gaussian's.)
  {
    name: "GP logistic classification, n = 2", negativeControl: false, target: () => gpLogisticTarget(GP_K_WIDE, [1, -1]).target,
    truth: () => quadratureMoments2d(gpLogisticTarget(GP_K_WIDE, [1, -1]).logDensity, -25, 25, 1000), stepSize: 0.7, leapfrogSteps: 5, init: [0, 0],
  },
];

for (const c of cases) {
  test(`RMHMC with delayed rejection keeps the target where first trajectories diverge: ${c.name}`, (t) => {
    const truth = c.truth();
    const base: RmhmcOptions = { stepSize: c.stepSize, leapfrogSteps: c.leapfrogSteps };
    const without = run(c.target(), base, c.init, 10000, 11);
    const withDr = run(c.target(), { ...base, delayedRejection: 2 }, c.init, 10000, 11);
    const z = momentZScores(withDr.result, truth.mean, (i, j) => truth.cov[i][j]);
    t.diagnostic(`without: ${without.tally.divergent} of ${without.tally.transitions} divergent; with: ${withDr.tally.firstStage} first stages diverged, ${withDr.tally.moved} second stages moved, ${withDr.tally.divergent} divergent; max |z| ${maxAbsZ(z).toFixed(2)}`);
    assert.ok(maxAbsZ(z) < PASS_Z, describe(z));
    // the second stage was exercised, and it removes most divergent transitions
    assert.ok(withDr.tally.firstStage > 0.03 * withDr.tally.transitions && withDr.tally.moved > 0.2 * withDr.tally.firstStage, JSON.stringify(withDr.tally));
    assert.ok(without.tally.divergent > 0.03 * without.tally.transitions, JSON.stringify(without.tally));
    assert.ok(withDr.tally.divergent < 0.1 * without.tally.divergent, JSON.stringify(withDr.tally));

    if (!c.negativeControl) return;
    // negative control: the second stage without the ghost trajectory's test
    const broken = run(c.target(), { ...base, delayedRejection: 2, broken: "no-ghost" }, c.init, 10000, 11);
    const zb = momentZScores(broken.result, truth.mean, (i, j) => truth.cov[i][j]);
    t.diagnostic(`without the ghost test: max |z| ${maxAbsZ(zb).toFixed(2)}`);
    assert.ok(maxAbsZ(zb) > FAIL_Z, `the broken second stage was not detected\n${describe(zb)}`);
  });
}

test("RMHMC with delayed rejection draws what it draws without where no trajectory diverges", () => {
  const base: RmhmcOptions = { stepSize: 0.4, leapfrogSteps: 4 };
  const a = run(varyingMetricProblem().target, base, GAUSS_MEAN, 500, 3);
  const b = run(varyingMetricProblem().target, { ...base, delayedRejection: 3 }, GAUSS_MEAN, 500, 3);
  assert.equal(b.tally.firstStage, 0);
  assert.deepEqual(Array.from(b.result.samples), Array.from(a.result.samples));
});

test("delayedRejection is checked", () => {
  for (const bad of [1, 1.5, 0, -2]) {
    assert.throws(() => rmhmc(varyingMetricProblem().target, { stepSize: 0.1, leapfrogSteps: 2, delayedRejection: bad }), /delayedRejection/);
  }
});
