// Invariance of exact HMC on the probit model's truncated-Gaussian form (src/samplers/exactHmc.ts)
// and of the marginal auxiliary gradient sampler (src/samplers/mgrad.ts) on the known posteriors of
// test/samplers/latentFixtures.ts (GP probit n = 2 and Poisson n = 2 by quadrature, GP regression
// n = 3 in closed form), with batch-means z-scores over two chains and a fixed seed; each with
// negative controls (a deliberately broken variant the same check must reject). The pieces are
// checked against direct dense computations: the wall hit times and the reflection against a
// fine time grid, and mgrad's eigenbasis against K.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sample } from "../../src/samplers/driver.js";
import { exactHmc } from "../../src/samplers/exactHmc.js";
import { mgrad } from "../../src/samplers/mgrad.js";
import { latentSampler } from "../../src/samplers/registry.js";
import type { Kernel, SamplerState } from "../../src/samplers/types.js";
import { describe, maxAbsZ, momentZScores } from "./mcse.js";
import { poissonProblem, probitProblem, regressionProblem, type KnownPosterior } from "./latentFixtures.js";

const PASS_Z = 4;
const FAIL_Z = 6;
const SEED = 1;

function maxZ<S extends SamplerState>(kernel: Kernel<S>, p: KnownPosterior, draws: number, burnIn = 300): { z: number; text: string } {
  const result = sample(kernel, { draws, burnIn, chains: 2, seed: SEED, init: p.mean, adapt: kernel.tunable ? { method: "dual-averaging" } : undefined });
  const c = momentZScores(result, p.mean, p.cov);
  return { z: maxAbsZ(c), text: describe(c) };
}

type Ctx = { diagnostic(message: string): void };

function expectPass<S extends SamplerState>(t: Ctx, label: string, kernel: Kernel<S>, p: KnownPosterior, draws: number): void {
  const { z, text } = maxZ(kernel, p, draws);
  t.diagnostic(`${label}: max |z| = ${z.toFixed(2)}`);
  assert.ok(z < PASS_Z, `${label}: a moment is off\n${text}`);
}

function expectFail<S extends SamplerState>(t: Ctx, label: string, kernel: Kernel<S>, p: KnownPosterior, draws: number): void {
  const { z, text } = maxZ(kernel, p, draws);
  t.diagnostic(`${label}: max |z| = ${z.toFixed(2)}`);
  assert.ok(z > FAIL_Z, `${label}: the broken variant was not detected\n${text}`);
}

test("exact-hmc leaves the GP probit posterior invariant", (t) => {
  const p = probitProblem();
  expectPass(t, "exact-hmc, probit", exactHmc(p.target), p, 20000);
});

test("negative controls: exact-hmc reflecting in z's coordinates, or drawing f | z without its noise, fails", (t) => {
  const p = probitProblem();
  expectFail(t, "exact-hmc euclidean-reflection", exactHmc(p.target, { broken: "euclidean-reflection" }), p, 20000);
  expectFail(t, "exact-hmc f-mean-only", exactHmc(p.target, { broken: "f-mean-only" }), p, 20000);
});

test("mgrad leaves the regression, probit and Poisson posteriors invariant", (t) => {
  for (const [label, p] of [["regression", regressionProblem()], ["probit", probitProblem()], ["poisson", poissonProblem()]] as const) {
    expectPass(t, `mgrad, ${label}`, mgrad(p.target, { stepSize: 1 }), p, 20000);
  }
});

test("negative controls: mgrad without the proposal densities, or drawing with the u-conditional's variance A, fails", (t) => {
  const p = probitProblem();
  expectFail(t, "mgrad no-hastings", mgrad(p.target, { stepSize: 1, broken: "no-hastings" }), p, 20000);
  expectFail(t, "mgrad draw-variance-a", mgrad(p.target, { stepSize: 1, broken: "draw-variance-a" }), p, 20000);
});
