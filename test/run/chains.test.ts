import { test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";
import { runLatentGp } from "../../src/run/chains.js";
import { initialPoint, runLatentGpChain, type LatentGpRunSpec } from "../../src/run/runSpec.js";
import { latentSampler } from "../../src/samplers/registry.js";
import { latentGpTarget } from "../../src/targets/latentGpModel.js";
import { StopFlag } from "../../src/parallel/pool.js";

function problem(n: number) {
  const rng = new Rng(8);
  const X = new Matrix(n, 2, Float64Array.from({ length: 2 * n }, () => 3 * rng.uniform()));
  const y = Float64Array.from({ length: n }, (_, i) => (Math.sin(2 * X.get(i, 0)) + Math.cos(X.get(i, 1)) > 0 ? 1 : -1));
  return { X, y };
}

const spec = (sampler: "rmhmc" | "hmc"): LatentGpRunSpec => ({
  model: { likelihood: "probit", logLengthscale: [0], logSignalSd: Math.log(2) },
  sampler: { sampler, stepSize: 0.2, leapfrogSteps: 5 },
  draws: 15, burnIn: 10, thin: 2, chains: 3, seed: 21,
  adapt: { method: "dual-averaging", targetAcceptance: 0.8 },
  init: "laplace",
});

for (const sampler of ["rmhmc", "hmc"] as const) {
  test(`${sampler}: chain c rerun alone on a kernel rebuilt from the spec gives the same draws as in the run`, async () => {
    const data = problem(12);
    const s = spec(sampler);
    const run = await runLatentGp(data, s, { parallel: 2 });
    assert.equal(run.results.length, 3);
    // the run as run: the spec with its defaults (the jitter) filled in
    assert.deepEqual(run.spec.model.jitter, { relative: 1e-6 });
    const target = latentGpTarget(data.X, data.y, run.spec.model);
    const again = runLatentGpChain(latentSampler(target, run.spec.sampler), initialPoint(target, "laplace"), run.spec, 2);
    assert.deepEqual(again.samples, run.results[2].samples);
    assert.deepEqual(again.stats.lp, run.results[2].stats.lp);
    assert.equal(again.tunedValue, run.results[2].tunedValue);
    // and the chains differ from one another (each has its own stream)
    assert.notDeepEqual(run.results[0].samples, run.results[1].samples);
  });
}

test("initialPoint: zero is the prior mean; laplace is the posterior mode (dL/dx = 0 there, not at 0)", () => {
  const data = problem(12);
  const target = latentGpTarget(data.X, data.y, spec("rmhmc").model);
  assert.deepEqual(initialPoint(target, "zero"), new Float64Array(12));
  const maxGrad = (x: Float64Array) => {
    const g = new Float64Array(12);
    target.logDensityAndGradient(x, g);
    return Math.max(...g.map(Math.abs));
  };
  assert.ok(maxGrad(initialPoint(target, "laplace")) < 1e-8);
  assert.ok(maxGrad(initialPoint(target, "zero")) > 0.1);
  // the mode is a property of the model: a kernel matrix built independently gives the same target
  const K = seKernel({ lengthscale: 1, signalSd: 2 }).matrix(data.X);
  assert.deepEqual(target.kernelMatrix.data, K.data);
});

test("runLatentGp: the same seed gives bitwise the same draws on 1 or 2 worker threads and in this thread", async () => {
  const data = problem(10);
  const s = { ...spec("rmhmc"), chains: 3 };
  const inThread = await runLatentGp(data, s, { inProcess: true });
  assert.equal(inThread.workers, 0);
  for (const parallel of [1, 2]) {
    const run = await runLatentGp(data, s, { parallel });
    assert.equal(run.workers, parallel);
    assert.equal(run.complete, true);
    for (let c = 0; c < 3; c++) {
      assert.equal(run.results[c].chain, c);
      assert.deepEqual(run.results[c].samples, inThread.results[c].samples);
      assert.deepEqual(run.results[c].stats, inThread.results[c].stats);
      assert.equal(run.results[c].tunedValue, inThread.results[c].tunedValue);
    }
  }
});

test("runLatentGp: a stop request ends every chain early with its draws so far, a prefix of the full run's", async () => {
  const data = problem(10);
  // far more draws than the chains can make before the stop; draw i does not depend on the total
  const s = { ...spec("hmc"), chains: 2, draws: 200_000, burnIn: 10, thin: 1 };
  const stop = new StopFlag();
  const progressed = new Set<number>();
  const run = await runLatentGp(data, s, {
    parallel: 2,
    stop,
    progressInterval: 20,
    onProgress: (p) => {
      if (p.phase === "sampling" && p.iteration >= 50) progressed.add(p.chain);
      if (progressed.size === 2) stop.request();
    },
  });
  assert.equal(run.complete, false);
  const longest = Math.max(...run.results.map((r) => r.draws));
  const full = await runLatentGp(data, { ...s, draws: longest }, { parallel: 2 });
  assert.equal(full.complete, true);
  assert.ok(full.results.every((r) => r.stopped === undefined && r.draws === longest));
  for (const [c, r] of run.results.entries()) {
    assert.equal(r.stopped, true);
    assert.ok(r.draws >= 40 && r.draws < s.draws, `chain ${c}: ${r.draws} draws`);
    assert.equal(r.samples.length, r.draws * 10);
    assert.equal(r.stats.lp.length, r.draws);
    assert.deepEqual(r.samples, full.results[c].samples.subarray(0, r.draws * 10));
    assert.deepEqual(r.stats.lp, full.results[c].stats.lp.subarray(0, r.draws));
  }
});
