/**
 * Checkpoint and resume of the parametric samplers (Girolami & Calderhead 2011, Sections 7.1 and
 * 10) on a small logistic regression and a small Fitzhugh-Nagumo posterior: a chain resumed from
 * any checkpoint, or from a stop at any transition, draws what the chain never stopped drew, bit
 * for bit. Negative controls: a checkpoint that loses the kernel's own state (component-wise
 * Metropolis's adapted scales, Holmes & Held's z and lambda), the step-size adaptation's running
 * sums or the generator's state resumes to other draws.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fitzhughNagumoModel } from "../../src/models/fitzhughNagumo/model.js";
import { simulateFitzhughNagumo } from "../../src/models/fitzhughNagumo/simulate.js";
import { Rng } from "../../src/random/rng.js";
import type { ChainOptions } from "../../src/samplers/chain/driver.js";
import { PARAMETRIC_SAMPLER_NAMES, parametricSampler, type ParametricSamplerName } from "../../src/samplers/parametricRegistry.js";
import { denseMetricTarget, type DenseMetricTarget } from "../../src/targets/denseMetric.js";
import { smallLogistic } from "../models/parametricFixtures.js";
import { resumeDiffers, resumesExactly } from "./resumeChecks.js";

const SEED = 17;

function setup(target: DenseMetricTarget, sampler: ParametricSamplerName, init: Float64Array, options: Omit<ChainOptions, "init" | "adapt">) {
  const adapt = parametricSampler(target, sampler, init, options.burnIn ?? 0).adapt;
  const kernel = () => parametricSampler(target, sampler, init, options.burnIn ?? 0).kernel;
  return { kernel, options: { ...options, init, adapt } as ChainOptions };
}

const logistic = denseMetricTarget(smallLogistic());
const LOGISTIC_CHAIN = { draws: 9, burnIn: 8, thin: 2 };

for (const sampler of PARAMETRIC_SAMPLER_NAMES) {
  test(`logistic regression, ${sampler}: a chain resumed from any checkpoint or stop draws what the chain never stopped drew`, () => {
    const { kernel, options } = setup(logistic, sampler, new Float64Array(logistic.dim), LOGISTIC_CHAIN);
    resumesExactly(kernel, options, SEED, 3, [0, 1, 7, 8, 9, 13, 25]);
  });
}

// 12 observations on [0, 6] and a loose solver tolerance: each transition takes milliseconds
const fnData = simulateFitzhughNagumo({ n: 12, tEnd: 6 }, 5);
const fn = denseMetricTarget(fitzhughNagumoModel(fnData, { rtol: 1e-5, atol: 1e-7 }));

for (const sampler of PARAMETRIC_SAMPLER_NAMES.filter((s) => s !== "iwls" && s !== "holmes-held")) {
  test(`fitzhugh-nagumo, ${sampler}: a chain resumed from any checkpoint or stop draws what the chain never stopped drew`, () => {
    const { kernel, options } = setup(fn, sampler, Float64Array.of(0.2, 0.2, 3), { draws: 3, burnIn: 3, thin: 1 });
    resumesExactly(kernel, options, SEED, 2, [3, 4]);
  });
}

test("negative controls: a checkpoint without the kernel's state, the adaptation's sums or the generator's state resumes to other draws", () => {
  for (const sampler of ["mh-componentwise", "holmes-held"] as const) {
    const { kernel, options } = setup(logistic, sampler, new Float64Array(logistic.dim), LOGISTIC_CHAIN);
    const { reference, saved } = resumesExactly(kernel, options, SEED, 3, []);
    const cp = saved.find((c) => c.done === 6)!;
    assert.ok(cp.kernelState, `${sampler}: the checkpoint holds the kernel's state`);
    assert.ok(resumeDiffers(kernel, options, SEED, { ...cp, kernelState: undefined }, reference), `${sampler}: kernel state dropped`);
  }
  const { kernel, options } = setup(logistic, "smmala", new Float64Array(logistic.dim), LOGISTIC_CHAIN);
  const { reference, saved } = resumesExactly(kernel, options, SEED, 3, []);
  const inBurnIn = saved.find((c) => c.phase === "burn-in" && c.done === 6)!;
  assert.ok(resumeDiffers(kernel, options, SEED, { ...inBurnIn, adapter: undefined }, reference), "adapter reset");
  assert.ok(resumeDiffers(kernel, options, SEED, { ...inBurnIn, rng: new Rng(SEED, 0).snapshot() }, reference), "generator restarted");
  assert.ok(!resumeDiffers(kernel, options, SEED, inBurnIn, reference), "the whole checkpoint resumes exactly");
});
