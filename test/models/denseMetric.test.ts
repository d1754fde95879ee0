// The dense-metric geometry and every parametric target: gradient, G and dG/dx_k against finite
// differences (targets/denseMetricCheck.ts), G = minus the Hessian for logistic regression, and
// the geometry's dH/dx and Christoffel drift against direct dense computations. Each check is
// also shown to catch a broken model (dG negated).
import { test } from "node:test";
import assert from "node:assert/strict";
import { denseMetricTarget, type DenseMetricModel } from "../../src/targets/denseMetric.js";
import { checkDenseMetricModel } from "../../src/targets/denseMetricCheck.js";
import { Rng } from "../../src/random/rng.js";
import { bananaModel, gaussianModel, mediumLogistic, negatedDerivatives, smallLogistic } from "./parametricFixtures.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { logisticRegression } from "../../src/models/logisticRegression.js";

const TOL = 1e-6;

function randomPoint(rng: Rng, d: number, scale = 1): Float64Array {
  return Float64Array.from({ length: d }, () => scale * rng.normal());
}

const models: [string, () => DenseMetricModel, boolean][] = [
  ["gaussian", gaussianModel, true],
  ["banana", bananaModel, false],
  ["logistic (2 coefficients)", smallLogistic, true],
  ["logistic (4 coefficients)", mediumLogistic, true],
];

for (const [name, make, negHessian] of models) {
  test(`${name}: gradient, G and dG/dx_k agree with finite differences`, () => {
    const model = make();
    const rng = new Rng(3);
    for (let trial = 0; trial < 4; trial++) {
      const x = randomPoint(rng, model.dim, 0.7);
      const c = checkDenseMetricModel(model, x, { metricIsNegativeHessian: negHessian });
      assert.ok(c.gradient < TOL, `${name}: gradient error ${c.gradient}`);
      assert.ok(c.metricDerivatives < TOL, `${name}: dG error ${c.metricDerivatives}`);
      assert.ok(c.asymmetry === 0, `${name}: G is not symmetric`);
      if (negHessian) assert.ok(c.negativeHessian < TOL, `${name}: G vs -Hessian error ${c.negativeHessian}`);
    }
  });
}

test("negative control: the checker catches dG/dx_k with the wrong sign", () => {
  for (const make of [bananaModel, mediumLogistic]) {
    const c = checkDenseMetricModel(negatedDerivatives(make()), Float64Array.from({ length: make().dim }, (_, k) => 0.3 + 0.1 * k));
    assert.ok(c.metricDerivatives > 1e-2, `not caught: ${c.metricDerivatives}`);
  }
});

/** H(x, p) = -L + 1/2 log|G| + 1/2 p'G^-1 p computed directly from the 2 x 2 metric. */
function hamiltonian2(model: DenseMetricModel, x: Float64Array, p: Float64Array): number {
  const g = model.denseMetric(x, false).metric;
  const [a, b, c] = [g.get(0, 0), g.get(0, 1), g.get(1, 1)];
  const det = a * c - b * b;
  const quad = (c * p[0] * p[0] - 2 * b * p[0] * p[1] + a * p[1] * p[1]) / det;
  return -model.logDensity(x) + 0.5 * Math.log(det) + 0.5 * quad;
}

test("dense geometry: dH/dx matches finite differences of H on the banana and the logistic model", () => {
  for (const model of [bananaModel(), smallLogistic()]) {
    const target = denseMetricTarget(model);
    const rng = new Rng(11);
    for (let trial = 0; trial < 4; trial++) {
      const x = randomPoint(rng, 2, 0.8);
      const p = randomPoint(rng, 2, 2);
      const out = new Float64Array(2);
      target.geometry(x).hamiltonianGradient(p, out);
      for (let k = 0; k < 2; k++) {
        const h = 1e-5;
        const xp = x.slice(); xp[k] += h;
        const xm = x.slice(); xm[k] -= h;
        const fd = (hamiltonian2(model, xp, p) - hamiltonian2(model, xm, p)) / (2 * h);
        assert.ok(Math.abs(fd - out[k]) < 1e-6 * (1 + Math.abs(fd)), `dH/dx_${k}: ${out[k]} vs ${fd}`);
      }
    }
  }
});

test("dense geometry: the Christoffel drift equals eq. 10's sums written out entry by entry", () => {
  const model = mediumLogistic();
  const target = denseMetricTarget(model);
  const x = Float64Array.from([0.2, -0.3, 0.1, 0.4]);
  const geo = target.geometry(x);
  const out = new Float64Array(4);
  geo.christoffelDrift(out);
  const gi = geo.inverseMetricMatrix!();
  const dg = model.denseMetric(x, true).metricDerivatives!;
  const d = 4;
  for (let i = 0; i < d; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) {
      // -(G^-1 dG_j G^-1)_ij + 1/2 (G^-1)_ij tr(G^-1 dG_j)
      let term = 0, tr = 0;
      for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) {
        term += gi.get(i, a) * dg[j].get(a, b) * gi.get(b, j);
        tr += gi.get(a, b) * dg[j].get(b, a);
      }
      s += -term + 0.5 * gi.get(i, j) * tr;
    }
    assert.ok(Math.abs(s - out[i]) < 1e-10 * (1 + Math.abs(s)), `c_${i}: ${out[i]} vs ${s}`);
  }
});
