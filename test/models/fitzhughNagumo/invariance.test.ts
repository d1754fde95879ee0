/**
 * The parametric samplers leave the Fitzhugh-Nagumo posterior invariant: on a reduced problem
 * (40 observations on [0, 10], noise sd 0.5, solver tolerance 1e-6 so that a run takes seconds;
 * a skewed posterior, mean of c 0.1 sd away from the mode) the chains' means and covariances
 * agree with self-normalised importance sampling around the mode (importanceReference.ts), with
 * z-scores whose denominator holds both the chains' batch-means MCSE and the importance
 * sampling standard error. Negative control: simplified mMALA without the proposal densities
 * is caught by the same check. (RMHMC needs about 50 solves with second-order sensitivities per
 * transition; it is checked on the generic targets of test/models/parametricInvariance.test.ts
 * and run on this model in experiments/fitzhughNagumo.ts.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fitzhughNagumoModel } from "../../../src/models/fitzhughNagumo/model.js";
import { simulateFitzhughNagumo } from "../../../src/models/fitzhughNagumo/simulate.js";
import type { AdaptOptions } from "../../../src/samplers/chain/adaptation.js";
import { sample } from "../../../src/samplers/chain/driver.js";
import { parametricSampler, type ParametricSamplerName } from "../../../src/samplers/parametricRegistry.js";
import { smmala } from "../../../src/samplers/kernels/smmala.js";
import type { Kernel } from "../../../src/samplers/types.js";
import { denseMetricTarget } from "../../../src/targets/denseMetric.js";
import { describe, momentZScores, type MomentCheck } from "../../samplers/mcse.js";
import { importanceReference } from "./importanceReference.js";

const PASS_Z = 4;
const FAIL_Z = 6;
const BURN_IN = 300;
const DRAWS = 2000;

const data = simulateFitzhughNagumo({ n: 40, tEnd: 10 }, 5);
const model = fitzhughNagumoModel(data, { rtol: 1e-6, atol: 1e-8 });
const target = denseMetricTarget(model);
const ref = importanceReference(model, [0.2, 0.2, 3], 5000, 2);

/** z-scores against the importance-sampling reference, its standard error included. */
function check(kernel: Kernel, adapt: AdaptOptions | undefined, seed: number): MomentCheck[] {
  const result = sample(kernel, { draws: DRAWS, burnIn: BURN_IN, chains: 2, seed, init: ref.mode, adapt });
  const checks = momentZScores(result, ref.mean, (i, j) => ref.cov[i][j]);
  return checks.map((c) => {
    const idx = (c.name.match(/\d/g) ?? []).map(Number);
    const refSe = c.name.startsWith("E[") ? ref.meanSe[idx[0]] : ref.covSe[idx[0]][idx[1]];
    const mcse = Math.sqrt(c.mcse * c.mcse + refSe * refSe);
    return { ...c, mcse, z: (c.estimate - c.truth) / mcse };
  });
}

const maxZ = (cs: MomentCheck[]) => Math.max(...cs.map((c) => Math.abs(c.z)));

test("the importance-sampling reference is usable (ESS, skewness the Gaussian approximation misses)", () => {
  assert.ok(ref.ess > 1000, `importance sampling ESS ${ref.ess}`);
  // the posterior is not the Laplace approximation: the mean of c sits away from the mode
  assert.ok(Math.abs(ref.mean[2] - ref.mode[2]) > 3 * ref.meanSe[2], `mean ${ref.mean[2]} vs mode ${ref.mode[2]}`);
});

for (const name of ["smmala", "mmala", "mh-componentwise"] as ParametricSamplerName[]) {
  test(`${name} leaves the Fitzhugh-Nagumo posterior invariant`, (t) => {
    const { kernel, adapt } = parametricSampler(target, name, ref.mode, BURN_IN);
    const cs = check(kernel, adapt, 31);
    t.diagnostic(`${name}: max |z| = ${maxZ(cs).toFixed(2)}`);
    assert.ok(maxZ(cs) < PASS_Z, `${name}: a moment is off\n${describe(cs)}`);
  });
}

test("negative control: simplified mMALA without the proposal densities is caught", (t) => {
  const kernel = smmala(target, { stepSize: 0.8, targetAcceptance: 0.7, broken: "smmala-no-hastings" });
  const cs = check(kernel, { method: "dual-averaging" }, 31);
  t.diagnostic(`no-hastings: max |z| = ${maxZ(cs).toFixed(2)}`);
  assert.ok(maxZ(cs) > FAIL_Z, `the broken variant was not detected\n${describe(cs)}`);
});
