// The momentum equation of the generalised leapfrog (note eq. 13) solved with Anderson
// acceleration (generalisedLeapfrog.ts): it reaches the root the plain fixed-point iteration
// reaches, and it fails only where the plain iteration fails too, given 100 times the iterations.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import { rmhmc } from "../../src/samplers/kernels/rmhmc.js";
import { gpLogisticProblem, varyingMetricProblem, type GeometryTarget } from "./fixtures.js";

const problems: [string, () => GeometryTarget][] = [
  ["3-D Gaussian with G(x) = diag(exp(A x)) + C", () => varyingMetricProblem().target],
  ["GP logistic classification, n = 2, Hessian metric", () => gpLogisticProblem().target],
];

for (const [name, make] of problems) {
  test(`Anderson-accelerated momentum solve: the plain iteration's trajectories, fewer failures and iterations: ${name}`, () => {
    const target = make();
    // step 1: large enough that some solves converge slowly and some have no root
    const options = { stepSize: 1, leapfrogSteps: 5, fixedPointTolerance: 1e-10 };
    const accelerated = rmhmc(target, options);
    const plain = rmhmc(target, { ...options, momentumSolve: "plain" });
    const plainLong = rmhmc(target, { ...options, momentumSolve: "plain", maxFixedPointIterations: 5000 });
    const rng = new Rng(5);
    let plainFailures = 0, failures = 0, longFailures = 0, compared = 0, iterations = 0, plainIterations = 0;
    for (let t = 0; t < 100; t++) {
      const x0 = Float64Array.from({ length: target.dim }, () => rng.normal());
      const p0 = new Float64Array(target.dim);
      const s = accelerated.init(x0);
      accelerated.sampleMomentum(s, rng, p0);
      const a = accelerated.integrate(s, p0, 5);
      const b = plain.integrate(plain.init(x0), p0, 5);
      const c = plainLong.integrate(plainLong.init(x0), p0, 5);
      if (a.divergence) failures++;
      if (b.divergence) plainFailures++;
      if (c.divergence) longFailures++;
      // a failure of the accelerated solve is one of the plain iteration's, however long it runs
      if (a.divergence) assert.ok(c.divergence !== undefined, `transition ${t}: the plain iteration converged where the accelerated one did not`);
      if (a.divergence || c.divergence) continue;
      compared++;
      iterations += a.fixedPointIterations;
      plainIterations += c.fixedPointIterations;
      for (let i = 0; i < target.dim; i++) {
        // the plain iteration stops within 1e-10 of its previous iterate, up to 1e-10 / (1 - rate) from the root
        assert.ok(Math.abs(a.position[i] - c.position[i]) < 1e-6 * (1 + Math.abs(c.position[i])), `transition ${t}: positions ${a.position[i]}, ${c.position[i]}`);
        assert.ok(Math.abs(a.momentum[i] - c.momentum[i]) < 1e-6 * (1 + Math.abs(c.momentum[i])), `transition ${t}: momenta ${a.momentum[i]}, ${c.momentum[i]}`);
      }
      assert.ok(Math.abs(a.endEnergy - c.endEnergy) < 1e-6);
    }
    assert.ok(compared >= 70, `${compared} trajectories compared`);
    assert.ok(failures <= longFailures, `${failures} failures, the long plain iteration ${longFailures}`);
    // What the acceleration is for: where the plain iteration's 50 iterations were not enough.
    assert.ok(plainFailures > failures, `the plain iteration with 50 iterations failed ${plainFailures} times, the accelerated ${failures}`);
    assert.ok(iterations < 0.9 * plainIterations, `iterations ${iterations} against ${plainIterations}`);
  });
}

test("momentumSolve is checked", () => {
  assert.throws(() => rmhmc(varyingMetricProblem().target, { stepSize: 0.1, leapfrogSteps: 2, momentumSolve: "newton" as never }), /momentumSolve/);
});
