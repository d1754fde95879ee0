/**
 * Checkpoint and resume of the stochastic volatility model's two-block Gibbs sampler (Girolami &
 * Calderhead 2011, Section 8) and of the log-Gaussian Cox process samplers (Section 9): a chain
 * resumed from any checkpoint, or from a stop, draws what the chain never stopped drew, bit for
 * bit, for every sampler (the chains of a `--model` run on the worker pool: modelChains.test.ts).
 * Negative controls: a Gibbs checkpoint without the kernel's state (each block's step size, dual
 * averaging and tallies) and an LGCP checkpoint without the adaptation's sums resume to other
 * draws.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { coxProcessModel, paperHyperparameters } from "../../src/models/coxProcess/coxProcess.js";
import { simulateCoxProcess } from "../../src/models/coxProcess/simulate.js";
import { simulateVolatility } from "../../src/models/volatility/svSimulate.js";
import { COX_PROCESS_SAMPLERS, coxProcessSampler } from "../../src/models/coxProcess/samplers.js";
import { SV_SAMPLER_NAMES, svGibbsKernel, svInitialPoint, type SvSamplerName } from "../../src/models/volatility/gibbs.js";
import type { ChainOptions } from "../../src/samplers/chain/driver.js";
import { resumeDiffers, resumesExactly } from "../samplers/resumeChecks.js";

const SEED = 23;
const y = simulateVolatility(40, 0.65, 0.15, 0.98, 4).y;
const SV_CHAIN = { draws: 5, burnIn: 6, thin: 2 };

/** The Gibbs kernel with `p` for the parameters and `v` for the volatilities, short trajectories. */
function svKernel(p: SvSamplerName, v: SvSamplerName) {
  return () => svGibbsKernel(y, { parameters: { sampler: p, leapfrogSteps: 3 }, volatilities: { sampler: v, leapfrogSteps: 5 }, adapt: SV_CHAIN.burnIn > 0 });
}
const svInit = svInitialPoint(y);
const svOptions: ChainOptions = { ...SV_CHAIN, init: svInit };

for (const [p, v] of [...SV_SAMPLER_NAMES.map((s) => [s, s] as const), ["mmala", "rmhmc"] as const]) {
  test(`volatility, ${p},${v}: a chain resumed from any checkpoint or stop draws what the chain never stopped drew`, () => {
    resumesExactly(svKernel(p, v), svOptions, SEED, 3, [0, 1, 6, 7, 15]);
  });
}

const lgcp = (() => {
  const hyper = paperHyperparameters();
  return coxProcessModel(6, simulateCoxProcess(6, hyper, 3).counts, hyper);
})();

for (const sampler of COX_PROCESS_SAMPLERS) {
  test(`lgcp, ${sampler}: a chain resumed from any checkpoint or stop draws what the chain never stopped drew`, () => {
    const s = coxProcessSampler(lgcp, sampler, { leapfrogSteps: 4 });
    resumesExactly(() => coxProcessSampler(lgcp, sampler, { leapfrogSteps: 4 }).kernel, { draws: 5, burnIn: 6, thin: 2, init: s.init, adapt: s.adapt }, SEED, 3, [0, 6, 7, 15]);
  });
}

test("negative controls: a Gibbs checkpoint without the blocks' state, an LGCP one without the adaptation's sums, resume to other draws", () => {
  const kernel = svKernel("mmala", "rmhmc");
  const { reference, saved } = resumesExactly(kernel, svOptions, SEED, 3, []);
  const cp = saved.find((c) => c.done === 3)!;
  assert.ok(cp.kernelState, "the Gibbs checkpoint holds the kernel's state");
  assert.ok(resumeDiffers(kernel, svOptions, SEED, { ...cp, kernelState: undefined }, reference), "Gibbs: kernel state dropped");
  const s = coxProcessSampler(lgcp, "rmhmc", { leapfrogSteps: 4 });
  const options: ChainOptions = { draws: 5, burnIn: 6, thin: 2, init: s.init, adapt: s.adapt };
  const lgcpKernel = () => coxProcessSampler(lgcp, "rmhmc", { leapfrogSteps: 4 }).kernel;
  const run = resumesExactly(lgcpKernel, options, SEED, 3, []);
  const inBurnIn = run.saved.find((c) => c.done === 3)!;
  assert.ok(resumeDiffers(lgcpKernel, options, SEED, { ...inBurnIn, adapter: undefined }, run.reference), "lgcp: adapter reset");
});
