// Invariance of multinomial NUTS in coordinates whitened by Laplace's covariance
// (src/samplers/laplaceNuts.ts) on the known posteriors of test/samplers/latentFixtures.ts (GP
// regression n = 3 in closed form, probit and Poisson n = 2 by quadrature), with batch-means
// z-scores over two chains and a fixed seed; its negative control leaves the f' W f / 2 term out of
// log p(u); the registry builds it with Laplace's W filled in by runLatentGp's helper; its leapfrog
// in latent coordinates (laplaceDynamics.ts) is checked against hmc.ts's leapfrog in u mapped by R.
import { test } from "node:test";
import assert from "node:assert/strict";
import { laplace } from "../../src/approx/laplace.js";
import { withWhiteningMass } from "../../src/run/whiteningMass.js";
import { sample } from "../../src/samplers/driver.js";
import type { RandomSource } from "../../src/random/types.js";
import { hmc } from "../../src/samplers/hmc.js";
import { laplaceDynamics } from "../../src/samplers/laplaceDynamics.js";
import { laplaceNuts, type LaplaceNutsOptions } from "../../src/samplers/laplaceNuts.js";
import { laplaceWhitening } from "../../src/samplers/laplaceWhitening.js";
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
  const spec = withWhiteningMass(p.target, latentSamplerSpec({ sampler: "laplace-nuts", whitening: "laplace" })).spec;
  assert.ok(spec.sampler === "laplace-nuts" && spec.massDiagonal !== undefined && spec.maxTreeDepth === 10);
  const kernel = latentSampler(p.target, spec);
  assert.equal(kernel.name, "laplace-nuts");
  const result = sample(kernel, { draws: 50, chains: 1, seed: 4, init: p.mean });
  for (let i = 0; i < 50; i++) {
    const f = result.samples.subarray(2 * i, 2 * i + 2);
    assert.ok(Math.abs(result.stats.lp[i] - p.target.logDensity(f)) < 1e-9, `lp of draw ${i}`);
  }
});

test("laplace-nuts' leapfrog in latent coordinates (one product with Sigma per step) is the leapfrog of u = R^-1 f mapped by R, with the same energies", () => {
  for (const p of [probitProblem(), regressionProblem(), poissonProblem()]) {
    const n = p.target.dim;
    const w = laplace(p.target.kernelMatrix, p.target.y, p.target.likelihood).w;
    const whitening = laplaceWhitening(p.target, "test", w);
    const dyn = laplaceDynamics(p.target, whitening);
    const z = Float64Array.from({ length: n }, (_, i) => 0.7 - 0.45 * i);
    let k = 0;
    const fixed = { normal: () => z[k++ % n], uniform: () => 0.5 } as unknown as RandomSource;
    const f0 = Float64Array.from(p.mean, (m, i) => m + 0.3 * (i + 1));
    const pt = dyn.newPoint();
    dyn.start(dyn.init(f0), fixed, pt);
    // The same trajectory in u with the identity mass (hmc.ts on the whitened density).
    const reference = hmc(whitening.target, { stepSize: 0.3, leapfrogSteps: 5 });
    const u0 = whitening.whiten(f0);
    const traj = reference.integrate(reference.init(u0), z, 5);
    assert.ok(Math.abs(dyn.energy(pt) - traj.startEnergy) < 1e-9, `H0 ${dyn.energy(pt)} vs ${traj.startEnergy}`);
    for (let l = 0; l < 5; l++) dyn.leapfrog(pt, 0.3);
    const r = whitening.factor.factor;
    for (let i = 0; i < n; i++) {
      let fi = 0;
      let vi = 0;
      for (let j = 0; j <= i; j++) {
        fi += r.get(i, j) * traj.position[j];
        vi += r.get(i, j) * traj.momentum[j];
      }
      assert.ok(Math.abs(pt.f[i] - fi) < 1e-9 * (1 + Math.abs(fi)), `f_${i}: ${pt.f[i]} vs R u ${fi}`);
      assert.ok(Math.abs(pt.v[i] - vi) < 1e-9 * (1 + Math.abs(vi)), `v_${i}: ${pt.v[i]} vs R p ${vi}`);
    }
    assert.ok(Math.abs(dyn.energy(pt) - traj.endEnergy) < 1e-9, `H ${dyn.energy(pt)} vs ${traj.endEnergy}`);
  }
});
