// Multinomial NUTS (src/samplers/kernels/nuts.ts): invariance on a correlated 3-D Gaussian and on the
// GP probit posterior with n = 2 (moments by quadrature), by batch-means z-scores over two chains
// with a fixed seed; negative controls (states weighted by exp(L) alone; the trajectory's last
// state taken instead of the multinomial draw); and its diagnostics: the tree depth, its
// saturation at maxTreeDepth, divergences.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import { sample } from "../../src/samplers/chain/driver.js";
import { nuts, type NutsOptions } from "../../src/samplers/kernels/nuts.js";
import type { Target } from "../../src/targets/types.js";
import { GAUSS_COV, GAUSS_MEAN, gaussianTarget } from "./fixtures.js";
import { probitProblem } from "./latentFixtures.js";
import { describe, maxAbsZ, momentZScores } from "./mcse.js";

const PASS_Z = 4;
const FAIL_Z = 6;
const gauss = gaussianTarget(GAUSS_MEAN, GAUSS_COV);
const probit = probitProblem();
const problems: [string, Target, ArrayLike<number>, (i: number, j: number) => number, number][] = [
  ["Gaussian 3-D", gauss, GAUSS_MEAN, (i, j) => gauss.cov[i + j * 3], 0.6],
  ["GP probit n = 2", probit.target, probit.mean, probit.cov, 0.5],
];

function maxZ(target: Target, mean: ArrayLike<number>, cov: (i: number, j: number) => number, stepSize: number, broken?: NutsOptions["broken"]): { z: number; text: string } {
  const kernel = nuts(target, { stepSize, broken });
  const result = sample(kernel, { draws: 10000, burnIn: 200, chains: 2, seed: 3, init: mean });
  const c = momentZScores(result, mean, cov);
  return { z: maxAbsZ(c), text: describe(c) };
}

test("nuts leaves a correlated Gaussian and the GP probit posterior invariant", (t) => {
  for (const [label, target, mean, cov, eps] of problems) {
    const { z, text } = maxZ(target, mean, cov, eps);
    t.diagnostic(`${label}: max |z| = ${z.toFixed(2)}`);
    assert.ok(z < PASS_Z, `${label}: a moment is off\n${text}`);
  }
});

test("negative controls: nuts weighing states by exp(L) alone, or moving to the trajectory's last state, fails", (t) => {
  for (const broken of ["weights-potential", "last-state"] as const) {
    let worst = 0;
    let texts = "";
    for (const [label, target, mean, cov, eps] of problems) {
      const { z, text } = maxZ(target, mean, cov, eps, broken);
      t.diagnostic(`${broken}, ${label}: max |z| = ${z.toFixed(2)}`);
      worst = Math.max(worst, z);
      texts += `${label}\n${text}\n`;
    }
    assert.ok(worst > FAIL_Z, `${broken}: the broken variant was not detected\n${texts}`);
  }
});

test("nuts reports its tree depth, saturation at maxTreeDepth, and divergences", () => {
  const rng = new Rng(5);
  // A tiny step: the trajectory cannot turn within 2^3 - 1 steps, so every tree saturates.
  const slow = nuts(gauss, { stepSize: 0.01, maxTreeDepth: 3 });
  let state = slow.init(Float64Array.from(GAUSS_MEAN));
  for (let t = 0; t < 20; t++) {
    const { state: next, info } = slow.step(state, rng);
    assert.equal(info.treeDepth, 3);
    assert.equal(info.treeDepthSaturated, true);
    assert.equal(info.leapfrogSteps, 7);
    assert.equal(info.gradientCalls, 7);
    state = next;
  }
  // A moderate step: trees stop by the criterion, below the largest depth, and 2^d - 1 steps.
  const fast = nuts(gauss, { stepSize: 0.5 });
  state = fast.init(Float64Array.from(GAUSS_MEAN));
  for (let t = 0; t < 50; t++) {
    const { state: next, info } = fast.step(state, rng);
    assert.ok(info.treeDepth! >= 1 && info.treeDepth! < 10 && !info.treeDepthSaturated);
    assert.ok(!info.divergent);
    assert.ok(info.leapfrogSteps <= 2 ** (info.treeDepth! + 1) - 1);
    state = next;
  }
  // A step far beyond the stability limit of the leapfrog: the energy explodes, a divergence.
  const wild = nuts(gauss, { stepSize: 50 });
  state = wild.init(Float64Array.from(GAUSS_MEAN));
  let divergent = 0;
  for (let t = 0; t < 20; t++) {
    const { state: next, info } = wild.step(state, rng);
    if (info.divergent) {
      divergent++;
      assert.equal(info.divergence, "energy-error");
    }
    state = next;
  }
  assert.ok(divergent >= 15, `divergences ${divergent} of 20`);
});
