/**
 * Checkpoints of chains with sampled hyperparameters: a chain resumed from any of its checkpoints
 * (read back from their JSON, on a freshly built kernel, as a new process does) draws bit for bit
 * what the chain never stopped drew, for schemes that use each piece of the saved state: the
 * Gibbs step of sigma (sa, asis: K rescaled from the cache), KHR's kept Laplace approximation,
 * SURR's adapted bracket, an HMC theta sampler. Negative controls: a checkpoint without the K
 * cache, or without the theta tunable's adaptation, resumes into other draws.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";
import { decodeExact, encodeExact } from "../../src/run/checkpoint.js";
import { hyperChain, type HyperChainResult, type HyperRunSpec } from "../../src/run/hyperRun.js";
import { DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR } from "../../src/hyper/jointKernel.js";
import { packJointState, unpackJointState } from "../../src/hyper/jointChainState.js";
import type { KernelAt } from "../../src/hyper/covariance.js";
import type { LaplaceAt } from "../../src/hyper/jointMoves.js";
import type { ChainCheckpoint } from "../../src/samplers/chain/chainCheckpoint.js";
import { latentSamplerSpec } from "../../src/samplers/registry.js";
import type { SchemeName } from "../../src/hyper/schemes.js";
import type { ThetaSamplerName } from "../../src/hyper/thetaSamplers.js";

const n = 10;
const d = 2;
const X = (() => {
  const rng = new Rng(8);
  return new Matrix(n, d, Float64Array.from({ length: d * n }, () => 3 * rng.uniform()));
})();
const y = Float64Array.from({ length: n }, (_, i) => (Math.sin(2 * X.get(i, 0)) + Math.cos(X.get(i, 1)) > 0 ? 1 : -1));
const plainX = { rows: n, cols: d, data: X.data };

function spec(scheme: SchemeName, thetaSampler?: ThetaSamplerName): HyperRunSpec {
  return {
    model: { likelihood: "probit", lengthscalePrior: DEFAULT_LENGTHSCALE_PRIOR, variancePrior: DEFAULT_VARIANCE_PRIOR },
    sampler: { scheme, ...(thetaSampler ? { thetaSampler } : {}), latent: latentSamplerSpec({ sampler: "hmc-v2", maxLeapfrogSteps: 4 } as never) },
    draws: 8, burnIn: 10, thin: 2, chains: 1, seed: 5,
  };
}

function same(a: HyperChainResult, b: HyperChainResult, what: string): void {
  assert.deepEqual(a.samples, b.samples, `${what}: draws`);
  assert.deepEqual(a.stats, b.stats, `${what}: per-draw statistics`);
  assert.equal(a.tunedValue, b.tunedValue, `${what}: theta tunable`);
  assert.equal(a.latentTunedValue, b.latentTunedValue, `${what}: latent tunable`);
  // flops are a sum of differences of the process-wide counters: their last bits depend on the counters' size, not on the chain
  const { flops: fa, ...countsA } = a.linalg;
  const { flops: fb, ...countsB } = b.linalg;
  assert.deepEqual(countsA, countsB, `${what}: operations`);
  assert.ok(Math.abs(fa - fb) <= 1e-9 * fb, `${what}: flops ${fa} and ${fb}`);
  assert.equal(a.transitions, b.transitions, `${what}: transitions`);
}

const CASES: [SchemeName, ThetaSamplerName | undefined][] = [["sa", "mh"], ["asis", "hmc"], ["khr", "mh"], ["surr", undefined], ["aa", "smmala"]];

for (const [scheme, thetaSampler] of CASES) {
  test(`${scheme} (${thetaSampler ?? "slice"}): a chain resumed from any checkpoint draws what the chain never stopped drew`, () => {
    const s = spec(scheme, thetaSampler);
    const reference = hyperChain(plainX, y, s, 0);
    const saved: string[] = [];
    const checkpointed = hyperChain(plainX, y, s, 0, { checkpoint: { every: 4, save: (cp) => saved.push(encodeExact(cp)) } });
    same(checkpointed, reference, "with checkpoints");
    assert.deepEqual(saved.map((t) => decodeExact<ChainCheckpoint>(t).done), [4, 8, 12, 16, 20, 24, 26]);
    for (const text of saved.slice(0, -1)) {
      const cp = decodeExact<ChainCheckpoint>(text);
      same(hyperChain(plainX, y, s, 0, { resume: cp }), reference, `resumed after ${cp.done}`);
    }
  });
}

/** The kernel's record: 5 operation counts, then the chain's state. */
const OPERATION_COUNTS = 5;

/** The checkpoint with its joint state changed by `edit`. */
function edited(cp: ChainCheckpoint, edit: (words: number[], m: number) => number[]): ChainCheckpoint {
  const head = Array.from(cp.kernelState!.subarray(0, OPERATION_COUNTS));
  return { ...cp, kernelState: Float64Array.from([...head, ...edit(Array.from(cp.kernelState!.subarray(OPERATION_COUNTS)), d + 1)]) };
}

test("negative controls: a checkpoint without the K cache, or without the theta tunable's adaptation, resumes into other draws", () => {
  const s = spec("sa", "mh");
  const reference = hyperChain(plainX, y, s, 0);
  let mid: ChainCheckpoint | undefined;
  hyperChain(plainX, y, s, 0, { checkpoint: { every: 6, save: (cp) => { if (cp.done === 6) mid = decodeExact<ChainCheckpoint>(encodeExact(cp)); } } });
  assert.ok(mid);
  const state = unpackJointState(mid.kernelState!.subarray(OPERATION_COUNTS), d + 1, n);
  assert.ok(state.cache.length > 0 && state.theta.length > 1, "the checkpoint is in burn-in with a cache");
  const withoutCache = edited(mid, (w, m) => {
    // [m, n, t, f, latent (count, values), theta (count, values), cache size, entries..., laplace flag...]
    let at = 2 + m + n;
    at += 1 + w[at]!;
    at += 1 + w[at]!;
    return [...w.slice(0, at), 0, 0];
  });
  assert.notDeepEqual(hyperChain(plainX, y, s, 0, { resume: withoutCache }).samples, reference.samples, "the K cache is part of the state");
  const frozenTheta = edited(mid, (w, m) => {
    let at = 2 + m + n;
    at += 1 + w[at]!;
    return [...w.slice(0, at), 1, w[at + 1]!, ...w.slice(at + 1 + w[at]!)];
  });
  assert.notDeepEqual(hyperChain(plainX, y, s, 0, { resume: frozenTheta }).samples, reference.samples, "the theta tunable's adaptation is part of the state");
  // and the unedited one resumes exactly (the edits above, not the round trip, make the difference)
  same(hyperChain(plainX, y, s, 0, { resume: edited(mid, (w) => w) }), reference, "unedited");
});

for (const [scheme, thetaSampler] of [["sa", "mh"], ["khr", "mh"]] as const) {
  test(`${scheme}: a chain stopped (as on SIGTERM) at each transition and resumed from its stop checkpoint draws the same`, () => {
    const s = spec(scheme, thetaSampler);
    const reference = hyperChain(plainX, y, s, 0);
    for (let k = 0; k <= s.burnIn + s.draws * s.thin; k += 3) {
      let polls = 0;
      let last: ChainCheckpoint | undefined;
      const stopped = hyperChain(plainX, y, s, 0, { shouldStop: () => polls++ >= k, checkpoint: { every: 0, save: (cp) => (last = decodeExact<ChainCheckpoint>(encodeExact(cp))) } });
      assert.ok(last, `a checkpoint on the stop after ${k}`);
      if (!stopped.stopped) continue;
      same(hyperChain(plainX, y, s, 0, { resume: last }), reference, `stopped after ${k}`);
    }
  });
}

test("a joint state with n x n factors of a few hundred cases packs and unpacks (no argument spread of large arrays)", () => {
  const big = 300; // 90000 numbers per factor: more than a call's arguments may hold
  const m = 3;
  const fill = (k: number, seed: number) => Float64Array.from({ length: k }, (_, i) => seed + i / k);
  const matrix = (seed: number) => new Matrix(big, big, fill(big * big, seed));
  const kernelAt = { t: fill(m, 1), K: matrix(2), chol: { factor: matrix(3) } } as unknown as KernelAt;
  const laplace = { mode: fill(big, 4), chol: { factor: matrix(5) } } as unknown as LaplaceAt;
  const packed = packJointState({ t: fill(m, 6), f: fill(big, 7), latent: [0.5, 3], theta: [0.25], cache: [kernelAt], laplace });
  const back = unpackJointState(packed, m, big);
  assert.deepEqual(back.t, fill(m, 6));
  assert.deepEqual(back.f, fill(big, 7));
  assert.deepEqual(back.latent, [0.5, 3]);
  assert.deepEqual(back.theta, [0.25]);
  assert.deepEqual(back.cache[0].K, matrix(2).data);
  assert.deepEqual(back.cache[0].L, matrix(3).data);
  assert.deepEqual(back.laplace?.L, matrix(5).data);
});
