// Invariance of exact HMC on the probit model's truncated-Gaussian form (src/samplers/kernels/exactHmc.ts)
// and of the marginal auxiliary gradient sampler (src/samplers/kernels/mgrad.ts) on the known posteriors of
// test/samplers/latentFixtures.ts (GP probit n = 2 and Poisson n = 2 by quadrature, GP regression
// n = 3 in closed form), with batch-means z-scores over two chains and a fixed seed; each with
// negative controls (a deliberately broken variant the same check must reject). With n = 2 only
// two walls meet; at n = 8, where trajectories hit many walls in turn, exact-hmc and mgrad are
// compared with elliptical slice sampling (tested in latentInvariance.test.ts) by two-sample
// z-scores of every mean and variance, and exact-hmc's Euclidean reflection fails that check too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { batchMeans, transform } from "../../src/diagnostics/batchMeans.js";
import { seKernel } from "../../src/gp/index.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { probit } from "../../src/likelihoods/probit.js";
import { Rng } from "../../src/random/rng.js";
import { sample, type SampleResult } from "../../src/samplers/chain/driver.js";
import { ellipticalSlice } from "../../src/samplers/kernels/ellipticalSlice.js";
import { exactHmc } from "../../src/samplers/kernels/exactHmc.js";
import { mgrad } from "../../src/samplers/kernels/mgrad.js";
import { annealedLatentTarget, type AnnealedLatentTarget } from "../../src/targets/annealedLatent.js";
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
  expectFail(t, "mgrad no-hastings", mgrad(p.target, { stepSize: 1, broken: "mgrad-no-hastings" }), p, 20000);
  expectFail(t, "mgrad draw-variance-a", mgrad(p.target, { stepSize: 1, broken: "draw-variance-a" }), p, 20000);
});

/** GP probit with n = 8 inputs on a line (correlated neighbours), y drawn from the model. */
function probitEight(): AnnealedLatentTarget {
  const n = 8;
  const rng = new Rng(12);
  const x = new Matrix(n, 1, Float64Array.from({ length: n }, (_, i) => i / (n - 1)));
  const K = seKernel({ lengthscale: 0.3, signalSd: 2 }).matrix(x);
  for (let i = 0; i < n; i++) K.data[i + i * n] += 1e-6;
  const y = Float64Array.from({ length: n }, () => (rng.uniform() < 0.5 ? 1 : -1));
  return annealedLatentTarget({ likelihood: probit, y, kernelMatrix: K });
}

/** The largest two-sample |z| over the means and variances of f (variances about a's mean). */
function largestDifference(a: SampleResult, b: SampleResult): { z: number; text: string } {
  let worst = 0;
  const lines: string[] = [];
  for (let j = 0; j < a.dim; j++) {
    const m = batchMeans(transform(a, (x) => x[j])).mean;
    for (const [what, g] of [["mean", (x: Float64Array) => x[j]], ["var", (x: Float64Array) => (x[j] - m) ** 2]] as const) {
      const ea = batchMeans(transform(a, g));
      const eb = batchMeans(transform(b, g));
      const z = (ea.mean - eb.mean) / Math.hypot(ea.mcse, eb.mcse);
      lines.push(`${what} f${j}: ${ea.mean.toFixed(4)} vs ${eb.mean.toFixed(4)} (z ${z.toFixed(2)})`);
      worst = Math.max(worst, Math.abs(z));
    }
  }
  return { z: worst, text: lines.join("\n") };
}

test("at n = 8, exact-hmc and mgrad agree with elliptical slice sampling; exact-hmc reflecting in z's coordinates does not", (t) => {
  const target = probitEight();
  const init = new Float64Array(target.dim);
  const run = <S extends SamplerState>(k: Kernel<S>, draws: number) =>
    sample(k, { draws, burnIn: 500, chains: 2, seed: SEED, init, adapt: k.tunable ? { method: "dual-averaging" } : undefined });
  const reference = run(ellipticalSlice(target), 40000);
  for (const [label, kernel, expectAgree] of [
    ["exact-hmc", exactHmc(target), true],
    ["mgrad", mgrad(target, { stepSize: 1 }), true],
    ["exact-hmc euclidean-reflection", exactHmc(target, { broken: "euclidean-reflection" }), false],
  ] as const) {
    const { z, text } = largestDifference(run(kernel as Kernel<SamplerState>, 10000), reference);
    t.diagnostic(`${label} against ess, n = 8: max |z| = ${z.toFixed(2)}`);
    if (expectAgree) assert.ok(z < 4.5, `${label}: differs from ess\n${text}`);
    else assert.ok(z > FAIL_Z, `${label}: the broken variant was not detected\n${text}`);
  }
});
