// The logistic model's contractions of dG/dbeta_k (traces, quadratic forms, the Christoffel sum)
// against the same quantities computed from the D matrices dG_k themselves (which
// denseMetric.test.ts checks by finite differences): the geometry must not depend on the path.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Matrix } from "../../src/linalg/matrix.js";
import { logisticRegression } from "../../src/models/logisticRegression.js";
import { Rng } from "../../src/random/rng.js";
import { denseMetricTarget, withDerivativeMatricesOnly } from "../../src/targets/denseMetric.js";

function maxRelDiff(a: Float64Array, b: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]) / (1 + Math.abs(b[i])));
  return m;
}

test("logistic regression: dH/dx and the Christoffel drift from the contractions equal those from the dG matrices", () => {
  const rng = new Rng(77);
  const n = 60;
  const d = 6;
  const x = new Matrix(n, d);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x.set(i, 0, 1);
    for (let k = 1; k < d; k++) x.set(i, k, (k + 1) * rng.normal());
    y[i] = rng.uniform() < 0.4 ? 1 : 0;
  }
  const model = logisticRegression(x, y, { priorVariance: 10 });
  const fast = denseMetricTarget(model);
  const slow = denseMetricTarget(withDerivativeMatricesOnly(model));
  for (let trial = 0; trial < 3; trial++) {
    const beta = Float64Array.from({ length: d }, () => 0.3 * rng.normal());
    const p = Float64Array.from({ length: d }, () => rng.normal());
    const gf = fast.geometry(beta);
    const gs = slow.geometry(beta);
    const hf = new Float64Array(d);
    const hs = new Float64Array(d);
    gf.hamiltonianGradient(p, hf);
    gs.hamiltonianGradient(p, hs);
    assert.ok(maxRelDiff(hf, hs) < 1e-10, `dH/dx: ${hf} vs ${hs}`);
    const cf = new Float64Array(d);
    const cs = new Float64Array(d);
    gf.christoffelDrift(cf);
    gs.christoffelDrift(cs);
    assert.ok(maxRelDiff(cf, cs) < 1e-10, `Christoffel drift: ${cf} vs ${cs}`);
    // and they are not trivially equal: the drift term is not zero here
    assert.ok(Math.max(...cs.map(Math.abs)) > 1e-6);
  }
});
