// Invariance of multinomial NUTS in coordinates whitened by Laplace's covariance
// (src/samplers/laplaceNuts.ts) on the known posteriors of test/samplers/latentFixtures.ts (GP
// regression n = 3 in closed form, probit and Poisson n = 2 by quadrature), with batch-means
// z-scores over two chains and a fixed seed; its negative control leaves the f' W f / 2 term out of
// log p(u); the registry builds it with Laplace's W filled in by runLatentGp's helper.
import { test } from "node:test";
import assert from "node:assert/strict";
import { laplace } from "../../src/approx/laplace.js";
import { withLaplaceMass } from "../../src/run/laplaceMass.js";
import { sample } from "../../src/samplers/driver.js";
import { laplaceNuts, type LaplaceNutsOptions } from "../../src/samplers/laplaceNuts.js";
import { latentSampler, latentSamplerSpec } from "../../src/samplers/registry.js";
import { describe, maxAbsZ, momentZScores } from "./mcse.js";
import { poissonProblem, probitProblem, regressionProblem, type KnownPosterior } from "./latentFixtures.js";

const PASS_Z = 4;
const FAIL_Z = 6;
const problems: [string, KnownPosterior][] = [
  ["GP regression n = 3", regressionProblem()],
  ["GP probit n = 2", probitProblem()],
  ["Poisson n = 2", poissonProblem()],
];

function maxZ(p: KnownPosterior, broken?: LaplaceNutsOptions["broken"]): { z: number; text: string } {
  const w = laplace(p.target.kernelMatrix, p.target.y, p.target.likelihood).w;
  const kernel = laplaceNuts(p.target, { stepSize: 0.6, diagonal: w, broken });
  const result = sample(kernel, { draws: 10000, burnIn: 200, chains: 2, seed: 2, init: p.mean });
  const c = momentZScores(result, p.mean, p.cov);
  return { z: maxAbsZ(c), text: describe(c) };
}

test("laplace-nuts leaves the regression, probit and Poisson posteriors invariant", (t) => {
  for (const [label, p] of problems) {
    const { z, text } = maxZ(p);
    t.diagnostic(`${label}: max |z| = ${z.toFixed(2)}`);
    assert.ok(z < PASS_Z, `${label}: a moment is off\n${text}`);
  }
});

test("negative control: laplace-nuts without the f' W f / 2 term of log p(u) fails", (t) => {
  const { z, text } = maxZ(problems[1][1], "drop-w");
  t.diagnostic(`drop-w, probit: max |z| = ${z.toFixed(2)}`);
  assert.ok(z > FAIL_Z, `drop-w was not detected\n${text}`);
});

test("laplace-nuts from the registry: Laplace's W filled in, and states report the target's log density", () => {
  const p = probitProblem();
  const spec = withLaplaceMass(p.target, latentSamplerSpec("laplace-nuts"));
  assert.ok(spec.sampler === "laplace-nuts" && spec.massDiagonal !== undefined && spec.maxTreeDepth === 10);
  const kernel = latentSampler(p.target, spec);
  assert.equal(kernel.name, "laplace-nuts");
  const result = sample(kernel, { draws: 50, chains: 1, seed: 4, init: p.mean });
  for (let i = 0; i < 50; i++) {
    const f = result.samples.subarray(2 * i, 2 * i + 2);
    assert.ok(Math.abs(result.stats.lp[i] - p.target.logDensity(f)) < 1e-9, `lp of draw ${i}`);
  }
});
