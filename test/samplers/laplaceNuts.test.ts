// Invariance of multinomial NUTS in coordinates whitened by Laplace's covariance
// (src/samplers/kernels/laplaceNuts.ts) on the known posteriors of test/samplers/latentFixtures.ts (GP
// regression n = 3 in closed form, probit and Poisson n = 2 by quadrature), with batch-means
// z-scores over two chains and a fixed seed, with either integrator (split, centred on Laplace's mode,
// and leapfrog); its negative controls leave the f' W f / 2 term out of log p(u), rotate q about the
// wrong centre, or kick on one side of the rotation only; the registry builds it with Laplace's W
// filled in by runLatentGp's helper; its leapfrog in latent coordinates (laplaceDynamics.ts) is
// checked against hmc.ts's leapfrog in u mapped by R (laplaceNutsBackends.test.ts checks both
// integrators against dense loops in u).
import { test } from "node:test";
import assert from "node:assert/strict";
import { laplace } from "../../src/approx/laplace.js";
import { withWhiteningMass } from "../../src/run/whiteningMass.js";
import { sample } from "../../src/samplers/chain/driver.js";
import type { RandomSource } from "../../src/random/types.js";
import { hmc } from "../../src/samplers/kernels/hmc.js";
import { LAPLACE_INTEGRATORS, laplaceDynamics } from "../../src/samplers/integrators/laplaceDynamics.js";
import { laplaceNuts, type LaplaceNutsOptions } from "../../src/samplers/kernels/laplaceNuts.js";
import { laplaceWhitening } from "../../src/samplers/kernels/laplaceWhitening.js";
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

/** The split integrator's centre is Laplace's mode, as `runLatentGp` fills in the whitening's mean. */
function maxZ(p: KnownPosterior, options: Pick<LaplaceNutsOptions, "broken" | "integrator"> = {}): { z: number; text: string } {
  const fit = laplace(p.target.kernelMatrix, p.target.y, p.target.likelihood);
  // A step of 1.2 (fixed: no adaptation here) is long enough for the broken integrators to show.
  const kernel = laplaceNuts(p.target, { stepSize: 1.2, diagonal: fit.w, center: fit.mode, ...options });
  const result = sample(kernel, { draws: 10000, burnIn: 200, chains: 2, seed: 2, init: p.mean });
  const c = momentZScores(result, p.mean, p.cov);
  return { z: maxAbsZ(c), text: describe(c) };
}

for (const integrator of LAPLACE_INTEGRATORS) {
  test(`laplace-nuts (${integrator} integrator) leaves the regression, probit and Poisson posteriors invariant`, (t) => {
    for (const [label, p] of problems) {
      const { z, text } = maxZ(p, { integrator });
      t.diagnostic(`${label}: max |z| = ${z.toFixed(2)}`);
      assert.ok(z < PASS_Z, `${label}: a moment is off\n${text}`);
    }
  });
}

test("negative control: laplace-nuts without the f' W f / 2 term of log p(u) fails", (t) => {
  const { z, text } = maxZ(problems[1][1], { broken: "drop-w" });
  t.diagnostic(`drop-w, probit: max |z| = ${z.toFixed(2)}`);
  assert.ok(z > FAIL_Z, `drop-w was not detected\n${text}`);
});

// Each broken split integrator on the two posteriors where its bias is largest.
const splitControls = [
  ["center-precision", "rotating q about c instead of Sigma^-1 c", [0, 2]],
  ["kick-before", "kicking a whole step before the rotation and none after (not reversible)", [1, 2]],
] as const;
for (const [broken, what, which] of splitControls) {
  test(`negative control: the split integrator ${what} fails`, (t) => {
    for (const k of which) {
      const [label, p] = problems[k];
      const { z, text } = maxZ(p, { broken });
      t.diagnostic(`${broken}, ${label}: max |z| = ${z.toFixed(2)}`);
      assert.ok(z > FAIL_Z, `${broken} was not detected on ${label}\n${text}`);
    }
  });
}
