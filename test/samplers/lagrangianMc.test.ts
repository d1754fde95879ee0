// Riemannian manifold Lagrangian Monte Carlo (samplers/kernels/lagrangianMc.ts) on the latent GP target:
// its integrator is reversible and its log-Jacobian is that of a finite-difference Jacobian of the
// map; chains leave three known posteriors invariant (closed form, 2-D quadrature); dropping the
// Jacobian from the accept step (a negative control) is caught by the same check.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sample } from "../../src/samplers/chain/driver.js";
import { lagrangianMc } from "../../src/samplers/kernels/lagrangianMc.js";
import { Rng } from "../../src/random/rng.js";
import { logAbsDet } from "../approx/fixtures.js";
import { describe, maxAbsZ, momentZScores } from "./mcse.js";
import { poissonProblem, probitProblem, regressionProblem, type KnownPosterior } from "./latentFixtures.js";

const PASS_Z = 4;
const FAIL_Z = 6;

const problems: [string, () => KnownPosterior, number][] = [
  ["GP regression n = 3", regressionProblem, 0.5],
  ["GP probit n = 2", probitProblem, 0.6],
  ["Poisson n = 2", poissonProblem, 0.5],
];

for (const [label, make, eps] of problems) {
  test(`Lagrangian integrator, ${label}: reversible, and its log-Jacobian is the map's`, () => {
    const p = make();
    const n = p.target.dim;
    const kernel = lagrangianMc(p.target, { stepSize: eps, leapfrogSteps: 4 });
    const rng = new Rng(3);
    for (let trial = 0; trial < 5; trial++) {
      // near the mean, and in the tails (where D - e/4 dg o v has negative entries: the rank-r correction)
      const x0 = Float64Array.from(p.mean, (m) => m + (trial < 3 ? 0.8 : 3) * rng.normal());
      const v0 = Float64Array.from({ length: n }, () => rng.normal());
      const fwd = kernel.trajectory(kernel.init(x0), v0, 4);
      assert.equal(fwd.failure, undefined);
      const back = kernel.trajectory(kernel.init(fwd.position), fwd.velocity.map((x) => -x), 4);
      for (let i = 0; i < n; i++) {
        assert.ok(Math.abs(back.position[i] - x0[i]) < 1e-10, `position ${i}: ${back.position[i]} against ${x0[i]}`);
        assert.ok(Math.abs(back.velocity[i] + v0[i]) < 1e-10, `velocity ${i}: ${back.velocity[i]} against ${-v0[i]}`);
      }
      // the reverse map's Jacobian is the inverse of the forward one's
      assert.ok(Math.abs(back.logJacobian + fwd.logJacobian) < 1e-9);
      // central differences of (x, v) -> (x', v')
      const h = 1e-6;
      const rows: number[][] = Array.from({ length: 2 * n }, () => new Array(2 * n).fill(0));
      for (let j = 0; j < 2 * n; j++) {
        const at = (sign: number) => {
          const x = x0.slice();
          const v = v0.slice();
          if (j < n) x[j] += sign * h; else v[j - n] += sign * h;
          const r = kernel.trajectory(kernel.init(x), v, 4);
          return [...r.position, ...r.velocity];
        };
        const plus = at(1);
        const minus = at(-1);
        for (let i = 0; i < 2 * n; i++) rows[i][j] = (plus[i] - minus[i]) / (2 * h);
      }
      const fd = logAbsDet(rows);
      assert.ok(Math.abs(fd - fwd.logJacobian) < 1e-5, `log|J|: finite differences ${fd}, integrator ${fwd.logJacobian}`);
    }
  });

  test(`Lagrangian Monte Carlo leaves the posterior invariant: ${label}`, (t) => {
    const p = make();
    const result = sample(lagrangianMc(p.target, { stepSize: eps, leapfrogSteps: 5, randomiseSteps: true }), { draws: 5000, burnIn: 300, chains: 2, seed: 21, init: p.mean });
    const z = momentZScores(result, p.mean, p.cov);
    t.diagnostic(`max |z| ${maxAbsZ(z).toFixed(2)}, acceptance ${result.chainResults[0].summary.acceptanceRate.toFixed(3)}`);
    assert.ok(maxAbsZ(z) < PASS_Z, describe(z));
  });
}

test("negative control: Lagrangian Monte Carlo without the Jacobian in the accept step fails the same check", (t) => {
  const p = poissonProblem();
  const result = sample(lagrangianMc(p.target, { stepSize: 0.5, leapfrogSteps: 5, randomiseSteps: true, broken: "lagrangian-no-jacobian" }), { draws: 5000, burnIn: 300, chains: 2, seed: 21, init: p.mean });
  const z = momentZScores(result, p.mean, p.cov);
  t.diagnostic(`max |z| ${maxAbsZ(z).toFixed(2)}`);
  assert.ok(maxAbsZ(z) > FAIL_Z, `the missing Jacobian was not detected\n${describe(z)}`);
});
