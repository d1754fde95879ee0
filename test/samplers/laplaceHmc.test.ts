// Invariance of HMC whitened by Laplace's covariance (src/samplers/kernels/laplaceHmc.ts) on the known
// posteriors of test/samplers/latentFixtures.ts (GP regression n = 3 in closed form, probit and
// Poisson n = 2 by quadrature), with batch-means z-scores over two chains and a fixed seed, and
// its negative controls: the density of u without the f' W f / 2 term of R' K^-1 R = I - R' W R,
// and an accept step on the potential alone. The whitening itself is checked against a dense
// computation: R R' = (K^-1 + W)^-1.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sample } from "../../src/samplers/chain/driver.js";
import { laplace } from "../../src/approx/laplace.js";
import { withWhiteningMass } from "../../src/run/whiteningMass.js";
import { laplaceHmc } from "../../src/samplers/kernels/laplaceHmc.js";
import { latentSampler, latentSamplerSpec } from "../../src/samplers/registry.js";
import type { LatentGpTarget } from "../../src/samplers/latentTarget.js";
import { describe, maxAbsZ, momentZScores } from "./mcse.js";
import { poissonProblem, probitProblem, regressionProblem, type KnownPosterior } from "./latentFixtures.js";

const PASS_Z = 4;
const FAIL_Z = 6;
const SEED = 1;
const problems: [string, KnownPosterior][] = [
  ["GP regression n = 3", regressionProblem()],
  ["GP probit n = 2", probitProblem()],
  ["Poisson n = 2", poissonProblem()],
];

/** Laplace's W at the mode (the mass runLatentGp gives laplace-hmc). */
function laplaceW(target: LatentGpTarget): Float64Array {
  return laplace(target.kernelMatrix, target.y, target.likelihood).w;
}

function maxZ(p: KnownPosterior, broken?: "drop-w" | "potential-only"): { z: number; text: string } {
  const kernel = laplaceHmc(p.target, { stepSize: 0.5, leapfrogSteps: 4, randomiseSteps: true, diagonal: laplaceW(p.target), broken });
  const result = sample(kernel, { draws: 20000, burnIn: 300, chains: 2, seed: SEED, init: p.mean });
  const c = momentZScores(result, p.mean, p.cov);
  return { z: maxAbsZ(c), text: describe(c) };
}

test("laplace-hmc leaves the regression, probit and Poisson posteriors invariant (with Laplace's W, and with its default, the Fisher information at 0)", (t) => {
  const p = problems[1][1];
  const kernel = latentSampler(p.target, "laplace-hmc");
  const c = momentZScores(sample(kernel, { draws: 20000, burnIn: 300, chains: 2, seed: SEED, init: p.mean }), p.mean, p.cov);
  t.diagnostic(`probit, Fisher information at 0: max |z| = ${maxAbsZ(c).toFixed(2)}`);
  assert.ok(maxAbsZ(c) < PASS_Z, describe(c));
  for (const [label, p] of problems) {
    const { z, text } = maxZ(p);
    t.diagnostic(`${label}: max |z| = ${z.toFixed(2)}`);
    assert.ok(z < PASS_Z, `${label}: a moment is off\n${text}`);
  }
});

test("negative controls: laplace-hmc without the f' W f / 2 term, or accepting on the potential alone, fails", (t) => {
  for (const [label, p] of problems.slice(1, 2)) {
    for (const broken of ["drop-w", "potential-only"] as const) {
      const { z, text } = maxZ(p, broken);
      t.diagnostic(`${broken}, ${label}: max |z| = ${z.toFixed(2)}`);
      assert.ok(z > FAIL_Z, `${broken}, ${label}: the broken variant was not detected\n${text}`);
    }
  }
});

test("laplace-hmc's factor R satisfies R R' = (K^-1 + W)^-1 (dense inverse), and states report the target's log density", () => {
  const p = probitProblem();
  const target = p.target;
  const n = target.dim;
  const w = laplaceW(target);
  assert.ok(w.every((v) => v > 0), "probit's W at the mode is positive");
  const kernel = laplaceHmc(target, { stepSize: 0.5, leapfrogSteps: 3, diagonal: w });
  const r = kernel.factor.factor;
  // Dense: (K^-1 + W) (R R') = I for n = 2.
  const k = target.kernelMatrix;
  const det = k.get(0, 0) * k.get(1, 1) - k.get(0, 1) * k.get(1, 0);
  const kinv = [[k.get(1, 1) / det, -k.get(0, 1) / det], [-k.get(1, 0) / det, k.get(0, 0) / det]];
  const prec = kinv.map((row, i) => row.map((v, j) => v + (i === j ? w[i] : 0)));
  const s = [[0, 0], [0, 0]];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let l = 0; l < n; l++) s[i][j] += r.get(i, l) * r.get(j, l);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let v = 0;
      for (let l = 0; l < n; l++) v += prec[i][l] * s[l][j];
      assert.ok(Math.abs(v - (i === j ? 1 : 0)) < 1e-10, `(K^-1 + W) R R' at (${i}, ${j}) is ${v}`);
    }
  }
  const state = kernel.init(Float64Array.from([0.3, -0.2]));
  assert.ok(Math.abs(state.logDensity - target.logDensity(state.position)) < 1e-10);
  assert.ok(Math.abs(state.position[0] - 0.3) < 1e-12 && Math.abs(state.position[1] + 0.2) < 1e-12);
  const built = latentSampler(target, "laplace-hmc");
  assert.equal(built.name, "laplace-hmc");
  // runLatentGp's spec carries Laplace's W (times beta = 1) as plain numbers.
  const filled = withWhiteningMass(target, latentSamplerSpec("laplace-hmc")).spec;
  assert.deepEqual(filled.sampler === "laplace-hmc" ? filled.massDiagonal : undefined, Array.from(w));
  assert.equal(withWhiteningMass(target, latentSamplerSpec("hmc")).spec.sampler, "hmc");
});
