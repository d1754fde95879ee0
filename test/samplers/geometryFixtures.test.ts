// The analytic test geometries are themselves checked first: dL/dx and dH/dx against central
// finite differences of L and of H(x, p) = -L + 1/2 log|G| + 1/2 p'G^-1 p computed directly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import { gpLogisticProblem, varyingMetricProblem, type GeometryTarget } from "./fixtures.js";

function checkHamiltonianGradient(target: GeometryTarget, seed: number, label: string): number {
  const rng = new Rng(seed);
  const n = target.dim;
  let worst = 0;
  for (let trial = 0; trial < 5; trial++) {
    const x = new Float64Array(n);
    const p = new Float64Array(n);
    for (let i = 0; i < n; i++) { x[i] = rng.normal(); p[i] = 2 * rng.normal(); }
    const geo = target.geometry(x);
    const analytic = new Float64Array(n);
    geo.hamiltonianGradient(p, analytic);
    const g = new Float64Array(n);
    target.logDensityAndGradient!(x, g);
    for (let k = 0; k < n; k++) {
      const h = 1e-5;
      const xp = x.slice(); xp[k] += h;
      const xm = x.slice(); xm[k] -= h;
      const fd = (target.hamiltonian(xp, p) - target.hamiltonian(xm, p)) / (2 * h);
      const err = Math.abs(fd - analytic[k]) / (1 + Math.abs(fd));
      worst = Math.max(worst, err);
      const fdL = (target.logDensity(xp) - target.logDensity(xm)) / (2 * h);
      assert.ok(Math.abs(fdL - g[k]) < 1e-7 * (1 + Math.abs(fdL)), `${label}: dL/dx_${k} ${g[k]} vs finite difference ${fdL}`);
    }
  }
  return worst;
}

test("test geometries: dH/dx matches finite differences of H", () => {
  assert.ok(checkHamiltonianGradient(varyingMetricProblem().target, 1, "varying metric") < 1e-7);
  assert.ok(checkHamiltonianGradient(gpLogisticProblem().target, 2, "GP logistic") < 1e-7);
});

test("test geometries: the 'wrong sign in dG' control is caught by the same finite-difference check", () => {
  assert.ok(checkHamiltonianGradient(varyingMetricProblem({ flipDg: true }).target, 1, "flipped") > 1e-3);
});

test("test geometries: applyInverse, inverseMetricAt and inverseMetricMatrix agree, and momentum draws have covariance G", () => {
  const { target } = varyingMetricProblem();
  const x = Float64Array.from([0.3, -0.7, 1.1]);
  const geo = target.geometry(x);
  const p = Float64Array.from([1, -2, 0.5]);
  const a = new Float64Array(3), b = new Float64Array(3);
  geo.applyInverse(p, a);
  target.inverseMetricAt(x).applyInverse(p, b);
  const inv = geo.inverseMetricMatrix!();
  for (let i = 0; i < 3; i++) {
    let s = 0;
    for (let j = 0; j < 3; j++) s += inv.get(i, j) * p[j];
    assert.ok(Math.abs(a[i] - b[i]) < 1e-12 && Math.abs(a[i] - s) < 1e-12);
  }
  // E[p p'] = G, so E[p' G^-1 p] = 3 and E[(p'G^-1 p)^2] = 15 (chi-square with 3 degrees of freedom).
  const rng = new Rng(5);
  const draws = 20000;
  let m = 0;
  const q = new Float64Array(3);
  for (let t = 0; t < draws; t++) {
    geo.sampleMomentum(rng, q);
    geo.applyInverse(q, a);
    m += q[0] * a[0] + q[1] * a[1] + q[2] * a[2];
  }
  m /= draws;
  assert.ok(Math.abs(m - 3) < 4 * Math.sqrt(6 / draws), `E[p'G^-1p] = ${m}`);
});
