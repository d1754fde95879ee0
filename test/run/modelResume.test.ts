/**
 * Checkpoint and resume of the stochastic volatility model's two-block Gibbs sampler (Girolami &
 * Calderhead 2011, Section 8) and of the log-Gaussian Cox process samplers (Section 9): a chain
 * resumed from any checkpoint, or from a stop, draws what the chain never stopped drew, bit for
 * bit, for every sampler; and the sliced chains of a `--model` run (run/slicedChains.ts) draw
 * what the driver's `sample` draws, a stop leaving checkpoints that continue the run exactly.
 * Negative controls: a Gibbs checkpoint without the kernel's state (each block's step size, dual
 * averaging and tallies) and an LGCP checkpoint without the adaptation's sums resume to other
 * draws, and slices without the kernel's state are caught by the same comparison.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { coxProcessModel, paperHyperparameters } from "../../src/models/coxProcess/coxProcess.js";
import { simulateCoxProcess } from "../../src/models/coxProcess/simulate.js";
import { simulateVolatility } from "../../src/models/volatility/svSimulate.js";
import { StopFlag } from "../../src/parallel/pool.js";
import { COX_PROCESS_SAMPLERS, coxProcessSampler } from "../../src/models/coxProcess/samplers.js";
import { runSlicedChains } from "../../src/run/slicedChains.js";
import { SV_SAMPLER_NAMES, svGibbsKernel, svInitialPoint, type SvSamplerName } from "../../src/models/volatility/gibbs.js";
import type { ChainCheckpoint } from "../../src/samplers/chain/chainCheckpoint.js";
import { sample, type ChainOptions } from "../../src/samplers/chain/driver.js";
import type { Kernel } from "../../src/samplers/types.js";
import { resumeDiffers, resumesExactly, sameChain } from "../samplers/resumeChecks.js";

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

/** A kernel that forgets its own state between slices (its saveState dropped): the negative control of the slices. */
function forgetful(k: Kernel): Kernel {
  return { name: k.name, init: (x) => k.init(x), step: (s, rng) => k.step(s, rng), tunable: k.tunable };
}

test("sliced chains: a slice per transition draws what sample draws; without the kernel's state they do not", async () => {
  const chains = { draws: 5, burnIn: 6, thin: 2, chains: 2, seed: SEED, init: svInit };
  const reference = sample(svKernel("rmhmc", "rmhmc")(), chains);
  const sliced = await runSlicedChains(svKernel("rmhmc", "rmhmc")(), { ...chains, sliceMs: 0 });
  assert.equal(sliced.complete, true);
  sliced.chainResults.forEach((r, c) => sameChain(r, reference.chainResults[c], `chain ${c}`));
  const broken = await runSlicedChains(forgetful(svKernel("rmhmc", "rmhmc")()), { ...chains, sliceMs: 0 });
  assert.throws(() => broken.chainResults.forEach((r, c) => sameChain(r, reference.chainResults[c], `chain ${c}`)), assert.AssertionError);
});

test("sliced chains: a stop ends the run with each chain's checkpoint, and a run resumed from them ends where the run never stopped does", async () => {
  const kernel = svKernel("mmala", "mala");
  const chains = { draws: 5, burnIn: 6, thin: 2, chains: 2, seed: SEED, init: svInit };
  const reference = sample(kernel(), chains);
  for (const stopAt of [0, 4, 12, 19]) {
    const stop = new StopFlag();
    const saved: (ChainCheckpoint | undefined)[] = [];
    let transitions = 0;
    const k = kernel();
    // the stop is requested after `stopAt` transitions over both chains (16 each)
    const counting: Kernel = { ...k, step: (s, rng) => (++transitions === stopAt && stop.request(), k.step(s, rng)) };
    const first = await runSlicedChains(counting, { ...chains, stop, sliceMs: 0, checkpoint: { every: 0, save: (cp) => (saved[cp.chain] = cp) } });
    assert.equal(first.complete, stopAt === 0, `stop at ${stopAt}`);
    const resumed = await runSlicedChains(kernel(), { ...chains, resume: saved });
    assert.equal(resumed.complete, true);
    resumed.chainResults.forEach((r, c) => sameChain(r, reference.chainResults[c], `stop at ${stopAt}, chain ${c}`));
  }
});
