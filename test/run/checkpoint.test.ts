import { test } from "node:test";
import assert from "node:assert/strict";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";
import { decodeExact, encodeExact } from "../../src/run/checkpoint.js";
import { withWhiteningMass } from "../../src/run/whiteningMass.js";
import { initialPoint, runLatentGpChain, type LatentGpRunSpec } from "../../src/run/runSpec.js";
import type { ChainCheckpoint } from "../../src/samplers/chain/chainCheckpoint.js";
import { LATENT_SAMPLER_NAMES, latentSampler, latentSamplerSpec, type LatentSamplerName } from "../../src/samplers/registry.js";
import { latentGpTarget } from "../../src/targets/latentGpModel.js";
import { sameChain } from "../samplers/resumeChecks.js";

function problem(n: number) {
  const rng = new Rng(8);
  const X = new Matrix(n, 2, Float64Array.from({ length: 2 * n }, () => 3 * rng.uniform()));
  const y = Float64Array.from({ length: n }, (_, i) => (Math.sin(2 * X.get(i, 0)) + Math.cos(X.get(i, 1)) > 0 ? 1 : -1));
  return { X, y };
}

function setup(sampler: LatentSamplerName, n = 8) {
  const { X, y } = problem(n);
  const spec: LatentGpRunSpec = {
    model: { likelihood: "probit", logLengthscale: [0], logSignalSd: Math.log(2) },
    sampler: latentSamplerSpec(sampler),
    draws: 9, burnIn: 8, thin: 2, chains: 1, seed: 21,
    adapt: sampler === "ess" ? undefined : { method: "dual-averaging" },
    init: "zero",
  };
  const target = latentGpTarget(X, y, spec.model);
  const chainSpec = { ...spec, sampler: withWhiteningMass(target, spec.sampler).spec };
  const kernel = () => latentSampler(target, chainSpec.sampler);
  return { spec: chainSpec, kernel, x0: initialPoint(target, "zero") };
}

for (const sampler of LATENT_SAMPLER_NAMES) {
  test(`${sampler}: a chain resumed from any checkpoint (read back from its JSON) draws what the chain never stopped drew`, () => {
    const { spec, kernel, x0 } = setup(sampler);
    const reference = runLatentGpChain(kernel(), x0, spec, 0);
    const saved: string[] = [];
    const checkpointed = runLatentGpChain(kernel(), x0, spec, 0, { checkpoint: { every: 3, save: (cp) => saved.push(encodeExact(cp)) } });
    sameChain(checkpointed, reference, "with checkpoints");
    // every 3rd of 8 + 18 transitions, and the end
    assert.deepEqual(saved.map((t) => decodeExact<ChainCheckpoint>(t).done), [3, 6, 9, 12, 15, 18, 21, 24, 26]);
    for (const text of saved) {
      const cp = decodeExact<ChainCheckpoint>(text);
      // a fresh kernel, as a new process builds
      sameChain(runLatentGpChain(kernel(), x0, spec, 0, { resume: cp }), reference, `resumed after ${cp.done}`);
    }
  });

  test(`${sampler}: a chain stopped (as on SIGTERM) at each transition and resumed from its stop checkpoint draws the same`, () => {
    const { spec, kernel, x0 } = setup(sampler);
    const reference = runLatentGpChain(kernel(), x0, spec, 0);
    for (const stopAfter of [0, 1, 7, 8, 9, 13, 25]) {
      let polls = 0;
      let cp: ChainCheckpoint | undefined;
      const stopped = runLatentGpChain(kernel(), x0, spec, 0, {
        shouldStop: () => polls++ >= stopAfter,
        checkpoint: { every: 0, save: (c) => (cp = decodeExact<ChainCheckpoint>(encodeExact(c))) },
      });
      assert.equal(stopped.stopped, true);
      assert.equal(cp!.done, stopAfter);
      sameChain(runLatentGpChain(kernel(), x0, spec, 0, { resume: cp }), reference, `stopped after ${stopAfter}`);
    }
  });
}

test("negative controls: a resume that loses the held-back normal, the adaptation's sums or the generator's state draws differently", () => {
  const { spec, kernel, x0 } = setup("hmc", 7); // an odd number of normals per momentum
  const reference = runLatentGpChain(kernel(), x0, spec, 0);
  const saved: ChainCheckpoint[] = [];
  runLatentGpChain(kernel(), x0, spec, 0, { checkpoint: { every: 1, save: (cp) => saved.push(decodeExact<ChainCheckpoint>(encodeExact(cp))) } });
  // the polar method holds back every other normal: some checkpoint has one pending
  const withSpare = saved.find((cp) => cp.rng.spare !== null && cp.phase === "sampling")!;
  assert.ok(withSpare, "no checkpoint with a held-back normal");
  assert.throws(() => sameChain(runLatentGpChain(kernel(), x0, spec, 0, { resume: { ...withSpare, rng: { ...withSpare.rng, spare: null } } }), reference, "spare dropped"));
  const inBurnIn = saved.find((cp) => cp.phase === "burn-in" && cp.done === 4)!;
  assert.throws(() => sameChain(runLatentGpChain(kernel(), x0, spec, 0, { resume: { ...inBurnIn, adapter: undefined } }), reference, "adapter reset"));
  assert.throws(() => sameChain(runLatentGpChain(kernel(), x0, spec, 0, { resume: { ...inBurnIn, rng: new Rng(spec.seed, 0).snapshot() } }), reference, "generator restarted"));
  // and the same checkpoints, whole, do resume exactly
  sameChain(runLatentGpChain(kernel(), x0, spec, 0, { resume: withSpare }), reference, "whole");
});

test("a checkpoint of another chain shape is refused", () => {
  const { spec, kernel, x0 } = setup("mh");
  let cp: ChainCheckpoint | undefined;
  runLatentGpChain(kernel(), x0, spec, 0, { checkpoint: { every: 0, save: (c) => (cp = c) } });
  assert.throws(() => runLatentGpChain(kernel(), x0, { ...spec, draws: 10 }, 0, { resume: cp }), /draws 9, this chain has 10/);
});

test("encodeExact keeps NaN, infinities, -0 and every bit of a double", () => {
  const v = { a: Float64Array.from([NaN, -Infinity, -0, 1 / 3, 5e-324]), b: Uint8Array.from([0, 1, 255]), c: NaN, d: [Infinity, 0.1] };
  const back = decodeExact<typeof v>(encodeExact(v));
  assert.deepEqual(back, v);
  assert.ok(Object.is(back.a[2], -0));
});
