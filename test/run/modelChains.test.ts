/**
 * The chains of a `--model` run on the worker pool (run/modelChains.ts, run/modelChainTask.ts):
 * each worker rebuilds the kernel from plain data through the model registry, and the chains draw
 * what the driver's `sample` draws with the kernel built in this thread (chain c on Rng(seed, c),
 * one kernel for all chains), on worker threads (workers > 0), in the pool's inProcess mode, and
 * with one worker running both chains on one kernel; the kernel's own summary (the volatility
 * blocks') comes back with each result. A stop leaves checkpoints that continue the run exactly;
 * an error while a worker builds comes back as its class. Negative controls: another kernel (a
 * longer trajectory) draws otherwise, as does a second chain started from the first chain's tuned
 * step size (what a shared kernel would do without the restore).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DataError } from "../../src/io/errors.js";
import { simulateVolatility } from "../../src/models/volatility/svSimulate.js";
import type { BlockGibbsKernel } from "../../src/samplers/kernels/blockGibbs.js";
import { StopFlag } from "../../src/parallel/pool.js";
import { Rng } from "../../src/random/rng.js";
import { runModelChainTasks } from "../../src/run/modelChains.js";
import { buildModelKernel, type ModelChainBuild } from "../../src/run/modelChainTask.js";
import { modelInfo } from "../../src/models/registry.js";
import type { ChainCheckpoint } from "../../src/samplers/chain/chainCheckpoint.js";
import { runChain, sample } from "../../src/samplers/chain/driver.js";
import { scratchDir } from "../fixtures.js";
import { sameChain } from "../samplers/resumeChecks.js";

const SEED = 29;
const CHAINS = { draws: 5, burnIn: 6, thin: 2, chains: 2, seed: SEED };

const scratch = scratchDir();
process.on("exit", () => scratch.cleanup());
const svFile = join(scratch.dir, "returns.csv");
writeFileSync(svFile, "y\n" + Array.from(simulateVolatility(40, 0.65, 0.15, 0.98, 4).y).join("\n") + "\n");
const lrFile = join(scratch.dir, "labels.csv");
{
  const rng = new Rng(3, 0);
  const rows = Array.from({ length: 30 }, () => {
    const x1 = rng.normal();
    const x2 = rng.normal();
    return `${x1},${x2},${rng.uniform() < 1 / (1 + Math.exp(-(x1 - x2))) ? 1 : 0}`;
  });
  writeFileSync(lrFile, "x1,x2,y\n" + rows.join("\n") + "\n");
}

const volatility = (leapfrogSteps = 5): ModelChainBuild => ({
  model: "volatility", dataFile: svFile, targetOptions: { interweave: true }, sampler: "mmala,rmhmc",
  samplerOptions: { parameters: { adapt: true }, volatilities: { leapfrogSteps, adapt: true }, interweave: { adapt: true }, adapt: true },
});
const logistic: ModelChainBuild = {
  model: "logistic-regression", dataFile: lrFile, targetOptions: { priorVariance: 100, polynomialDegree: 1 }, sampler: "smmala", samplerOptions: { burnIn: CHAINS.burnIn, adapt: true },
};

/** The chains as the driver's `sample` runs them on the kernel built in this thread, and that kernel. */
function reference(build: ModelChainBuild, chains = CHAINS) {
  const m = modelInfo[build.model] as unknown as { readData(p: string): unknown; buildTarget(d: unknown, o: object): unknown; sampler(t: unknown, n: string, o: object): { kernel: BlockGibbsKernel; init: Float64Array; adapt: undefined } };
  const s = m.sampler(m.buildTarget(m.readData(build.dataFile), build.targetOptions), build.sampler, build.samplerOptions);
  return { ...s, run: sample(s.kernel, { ...chains, init: s.init, adapt: s.adapt }) };
}

for (const build of [volatility(), logistic]) {
  test(`${build.model}: chains on worker threads, in this thread (inProcess) and on one shared worker draw what sample draws`, async () => {
    const ref = reference(build);
    const options = { ...CHAINS, init: ref.init, adapt: ref.adapt };
    const inWorkers = await runModelChainTasks(build, options);
    assert.equal(inWorkers.workers, 2, "the chains ran on worker threads");
    assert.equal(inWorkers.complete, true);
    const inProcess = await runModelChainTasks(build, { ...options, inProcess: true });
    assert.equal(inProcess.workers, 0);
    const shared = await runModelChainTasks(build, { ...options, parallel: 1 });
    assert.equal(shared.workers, 1);
    for (const [what, run] of [["workers", inWorkers], ["inProcess", inProcess], ["one worker", shared]] as const) {
      run.results.forEach((r, c) => sameChain(r, ref.run.chainResults[c], `${what}, chain ${c}`));
    }
    if (build.model === "volatility") {
      // each chain's kernel summary, read as it ended: the last chain's is the reference kernel's now
      assert.deepEqual(inWorkers.results[1].kernelSummary, ref.kernel.summary());
      assert.equal((inWorkers.results[0].kernelSummary as unknown[]).length, 3, "three blocks (parameters, volatilities, interweaving)");
    }
  });
}

test("negative controls: a longer trajectory draws otherwise; a second chain from the first chain's tuned step size draws otherwise", async () => {
  const ref = reference(volatility());
  const other = await runModelChainTasks(volatility(6), { ...CHAINS, init: ref.init, adapt: ref.adapt });
  assert.throws(() => sameChain(other.results[0], ref.run.chainResults[0], "chain 0"), assert.AssertionError);
  const lr = reference(logistic);
  const kernel = buildModelKernel(logistic);
  const chain = (c: number, initialTunableValue?: number) => runChain(kernel, new Rng(SEED, c), { ...CHAINS, init: lr.init, adapt: lr.adapt, chainIndex: c, initialTunableValue });
  const initial = kernel.tunable!.value;
  const first = chain(0, initial);
  sameChain(first, lr.run.chainResults[0], "chain 0");
  assert.notEqual(first.tunedValue, initial);
  // a second chain started from the first chain's tuned step size, as a shared kernel would without the driver's restore
  assert.throws(() => sameChain(chain(1, first.tunedValue), lr.run.chainResults[1], "chain 1, from chain 0's step size"), assert.AssertionError);
  sameChain(chain(1, initial), lr.run.chainResults[1], "chain 1, from the initial step size");
});

test("a stop ends every chain with a checkpoint (one worker: the second chain starts stopped), and a run resumed from them draws what the run never stopped drew", async () => {
  // long enough that the stop, requested when the first checkpoint reaches this thread, comes before the first chain's end
  const LONG = { ...CHAINS, draws: 3000, burnIn: 50, thin: 1 };
  const ref = reference(volatility(), LONG);
  const options = { ...LONG, init: ref.init, adapt: ref.adapt, parallel: 1 };
  const stop = new StopFlag();
  const saved: ChainCheckpoint[] = [];
  const summaries: unknown[] = [];
  const first = await runModelChainTasks(volatility(), {
    ...options, stop,
    checkpoint: { every: 2, save: (cp, summary) => ((saved[cp.chain] = cp), (summaries[cp.chain] = summary), stop.request()) },
  });
  assert.equal(first.complete, false);
  assert.ok(first.results.every((r) => r.stopped));
  assert.ok(saved[0].done >= 2 && saved[0].done < LONG.burnIn + LONG.draws, `chain 0 stopped after ${saved[0].done} transitions`);
  assert.equal(saved[1].done, 0);
  assert.equal((summaries[0] as unknown[]).length, 3, "a checkpoint comes with the kernel's summary");
  const resumed = await runModelChainTasks(volatility(), { ...options, parallel: 2, resume: saved });
  assert.equal(resumed.complete, true);
  resumed.results.forEach((r, c) => sameChain(r, ref.run.chainResults[c], `chain ${c}`));
});

test("an error while a worker builds the kernel comes back as its class: a data file that is not the one the run started with, a bad file", async () => {
  const ref = reference(logistic);
  const options = { ...CHAINS, init: ref.init, adapt: ref.adapt };
  await assert.rejects(runModelChainTasks({ ...logistic, dataSha256: "0".repeat(64) }, options), (e: unknown) => e instanceof DataError && /changed while the run was starting its chains/.test(e.message));
  const bad = join(scratch.dir, "bad.csv");
  writeFileSync(bad, "x1,x2,y\n1,2,3\n");
  await assert.rejects(runModelChainTasks({ ...logistic, dataFile: bad }, options), (e: unknown) => e instanceof DataError && e.message.includes(bad));
});
