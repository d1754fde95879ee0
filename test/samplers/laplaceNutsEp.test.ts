// Invariance of laplace-nuts whitened by EP's covariance (W = EP's site precisions, what
// `gpmcmc sample` runs on probit by default; src/run/whiteningMass.ts) on the probit posterior of
// test/samplers/latentFixtures.ts (n = 2, K = [[9, 7], [7, 9]], y = (+1, -1): far from Gaussian,
// moments by quadrature), with batch-means z-scores over two chains and a fixed seed. Its negative
// control is the same kernel on the same W with the f' W f / 2 term of log p(u) left out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { laplace } from "../../src/approx/laplace.js";
import { withWhiteningMass } from "../../src/run/whiteningMass.js";
import { sample } from "../../src/samplers/chain/driver.js";
import { laplaceNuts } from "../../src/samplers/kernels/laplaceNuts.js";
import { latentSampler, latentSamplerSpec } from "../../src/samplers/registry.js";
import { describe, maxAbsZ, momentZScores } from "./mcse.js";
import { probitProblem } from "./latentFixtures.js";

const PASS_Z = 4;
const FAIL_Z = 6;
const p = probitProblem();
const whitened = withWhiteningMass(p.target, latentSamplerSpec("laplace-nuts"), { onWarning: (m) => assert.fail(m) });
const epW = whitened.spec.sampler === "laplace-nuts" ? whitened.spec.massDiagonal! : [];
const run = (kernel: ReturnType<typeof latentSampler>) => sample(kernel, { draws: 10000, burnIn: 200, chains: 2, seed: 12, init: p.mean });

test("EP's whitening is the one used, and it is not Laplace's here", () => {
  assert.equal(whitened.fit?.used, "ep");
  const w = laplace(p.target.kernelMatrix, p.target.y, p.target.likelihood).w;
  assert.ok(epW.length === 2 && epW.some((t, i) => Math.abs(t - w[i]) > 0.01 * w[i]), `EP ${epW} vs Laplace ${Array.from(w)}`);
});

test("laplace-nuts whitened by EP's covariance leaves the probit posterior invariant", (t) => {
  const c = momentZScores(run(latentSampler(p.target, whitened.spec)), p.mean, p.cov);
  t.diagnostic(`max |z| = ${maxAbsZ(c).toFixed(2)}`);
  assert.ok(maxAbsZ(c) < PASS_Z, `a moment is off\n${describe(c)}`);
});

test("negative control: the same kernel on EP's W without the f' W f / 2 term of log p(u) fails", (t) => {
  const c = momentZScores(run(laplaceNuts(p.target, { stepSize: 0.5, diagonal: epW, broken: "drop-w" })), p.mean, p.cov);
  t.diagnostic(`drop-w: max |z| = ${maxAbsZ(c).toFixed(2)}`);
  assert.ok(maxAbsZ(c) > FAIL_Z, `drop-w was not detected\n${describe(c)}`);
});
