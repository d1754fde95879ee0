// Riemannian manifold Lagrangian Monte Carlo on logistic regression (samplers/kernels/lagrangianDense.ts):
// the model's G + c dG[a] is G plus c sum_k a_k dG_k formed from the derivative matrices; the
// integrator is reversible and its log-Jacobian is that of a finite-difference Jacobian of the map;
// chains leave the small logistic regression's quadrature moments invariant, and dropping the
// Jacobian from the accept step is caught by the same check.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import { lagrangianDense } from "../../src/samplers/kernels/lagrangianDense.js";
import { denseMetricTarget } from "../../src/targets/denseMetric.js";
import { logAbsDet } from "../approx/fixtures.js";
import { cases, expectFail, expectPass, run } from "./invarianceHarness.js";
import { mediumLogistic } from "./parametricFixtures.js";

test("logistic regression's metricAlong is G + c sum_k a_k dG_k", () => {
  const model = mediumLogistic();
  const rng = new Rng(2);
  for (let trial = 0; trial < 3; trial++) {
    const beta = Float64Array.from({ length: 4 }, () => rng.normal());
    const a = Float64Array.from({ length: 4 }, () => rng.normal());
    const c = 0.3 * (trial - 1);
    const parts = model.denseMetric(beta, true);
    const dG = parts.metricDerivatives!;
    const got = model.metricAlong!(beta, a, c);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) {
      let want = parts.metric.get(i, j);
      for (let k = 0; k < 4; k++) want += c * a[k] * dG[k].get(i, j);
      assert.ok(Math.abs(got.get(i, j) - want) < 1e-10 * (1 + Math.abs(want)), `(${i}, ${j}): ${got.get(i, j)} against ${want}`);
    }
  }
});

test("Lagrangian integrator on logistic regression: reversible, and its log-Jacobian is the map's", () => {
  const model = mediumLogistic();
  const target = denseMetricTarget(model);
  const kernel = lagrangianDense(target, { stepSize: 0.4, leapfrogSteps: 4 });
  const rng = new Rng(8);
  for (let trial = 0; trial < 4; trial++) {
    const x0 = Float64Array.from([0.3, 1, -0.8, 0.5], (m) => m + 0.5 * rng.normal());
    const v0 = Float64Array.from({ length: 4 }, () => 0.5 * rng.normal());
    const fwd = kernel.trajectory(kernel.init(x0), v0, 4);
    assert.equal(fwd.failure, undefined);
    const back = kernel.trajectory(kernel.init(fwd.position), fwd.velocity.map((x) => -x), 4);
    for (let i = 0; i < 4; i++) {
      assert.ok(Math.abs(back.position[i] - x0[i]) < 1e-10, `position ${i}`);
      assert.ok(Math.abs(back.velocity[i] + v0[i]) < 1e-10, `velocity ${i}`);
    }
    assert.ok(Math.abs(back.logJacobian + fwd.logJacobian) < 1e-9);
    const h = 1e-6;
    const rows: number[][] = Array.from({ length: 8 }, () => new Array(8).fill(0));
    for (let j = 0; j < 8; j++) {
      const at = (sign: number) => {
        const x = x0.slice();
        const v = v0.slice();
        if (j < 4) x[j] += sign * h; else v[j - 4] += sign * h;
        const r = kernel.trajectory(kernel.init(x), v, 4);
        return [...r.position, ...r.velocity];
      };
      const plus = at(1);
      const minus = at(-1);
      for (let i = 0; i < 8; i++) rows[i][j] = (plus[i] - minus[i]) / (2 * h);
    }
    const fd = logAbsDet(rows);
    assert.ok(Math.abs(fd - fwd.logJacobian) < 1e-5, `log|J|: finite differences ${fd}, integrator ${fwd.logJacobian}`);
    assert.ok(Math.abs(fwd.logJacobian) > 1e-3, "the map should not preserve volume here");
  }
});

const logistic = cases.find((c) => c.name === "logistic")!;

test("Lagrangian Monte Carlo leaves the small logistic regression's quadrature moments invariant", (t) => {
  const kernel = lagrangianDense(denseMetricTarget(logistic.model()), { stepSize: 0.8, leapfrogSteps: 3, randomiseSteps: true });
  expectPass(t, run(kernel, logistic, undefined, 31), "lagrangian on logistic");
});

test("negative control: without the Jacobian in the accept step the same check fails", (t) => {
  const kernel = lagrangianDense(denseMetricTarget(logistic.model()), { stepSize: 0.8, leapfrogSteps: 3, randomiseSteps: true, broken: "lagrangian-no-jacobian" });
  expectFail(t, run(kernel, logistic, undefined, 31), "lagrangian without the Jacobian on logistic");
});

test("the lagrangian integrator asks for metricAlong", () => {
  const banana = cases.find((c) => c.name === "banana")!;
  assert.throws(() => lagrangianDense(denseMetricTarget(banana.model()), { stepSize: 0.1, leapfrogSteps: 2 }), /metricAlong/);
});
