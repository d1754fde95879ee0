/**
 * The Fitzhugh-Nagumo posterior as a dense-metric model: gradient, G and dG/dtheta_k through the
 * finite-difference checker (targets/denseMetricCheck.ts), with dG negated as its negative
 * control; G against the Fisher information built from finite-difference sensitivities; the
 * log density against a direct sum over the residuals; zero density for c <= 0; the simulated
 * data's noise.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fitzhughNagumoModel } from "../../../src/models/fitzhughNagumo/model.js";
import { simulateFitzhughNagumo } from "../../../src/models/fitzhughNagumo/simulate.js";
import { denseMetricTarget } from "../../../src/targets/denseMetric.js";
import { checkDenseMetricModel } from "../../../src/targets/denseMetricCheck.js";
import { negatedDerivatives } from "../parametricFixtures.js";

const data = simulateFitzhughNagumo({}, 11);
const tight = fitzhughNagumoModel(data, { rtol: 1e-11, atol: 1e-13 });
const POINTS = [[0.2, 0.2, 3], [0.25, 0.15, 2.9], [0.1, 0.3, 3.2]];

for (const p of POINTS) {
  test(`at (${p}): gradient, G and dG/dtheta_k agree with finite differences`, () => {
    const c = checkDenseMetricModel(tight, Float64Array.from(p), { h: 1e-5 });
    assert.ok(c.gradient < 1e-5, `gradient ${c.gradient}`);
    assert.ok(c.metricDerivatives < 1e-5, `dG ${c.metricDerivatives}`);
    assert.equal(c.asymmetry, 0);
  });
}

test("negative control: the checker catches dG/dtheta_k with the wrong sign", () => {
  const c = checkDenseMetricModel(negatedDerivatives(tight), Float64Array.from(POINTS[1]), { h: 1e-5 });
  assert.ok(c.metricDerivatives > 1e-2, `not caught: ${c.metricDerivatives}`);
});

test("G equals the Fisher information sum_nj s s' / sigma^2 + I / tau^2 with s from finite differences of the states", () => {
  const theta = Float64Array.from(POINTS[1]);
  const h = 1e-6;
  const sens: Float64Array[][] = [];
  for (let k = 0; k < 3; k++) {
    const up = Float64Array.from(theta);
    const down = Float64Array.from(theta);
    up[k] += h;
    down[k] -= h;
    const a = tight.solve(up, 0);
    const b = tight.solve(down, 0);
    sens.push([0, 1].map((n) => Float64Array.from({ length: data.times.length }, (_, j) => (a.state(j, n) - b.state(j, n)) / (2 * h))));
  }
  const g = tight.denseMetric(theta, false).metric;
  for (let i = 0; i < 3; i++) {
    for (let k = 0; k < 3; k++) {
      let f = i === k ? 1 / 100 : 0;
      for (let n = 0; n < 2; n++) for (let j = 0; j < data.times.length; j++) f += (sens[i][n][j] * sens[k][n][j]) / 0.25;
      assert.ok(Math.abs(g.get(i, k) - f) < 1e-5 * Math.abs(f), `G[${i}][${k}] ${g.get(i, k)} vs ${f}`);
    }
  }
});

test("the log density is the Gaussian log-likelihood of the residuals plus the N(0, 10^2) prior", () => {
  const theta = Float64Array.from(POINTS[2]);
  const sol = tight.solve(theta, 0);
  let l = 0;
  const sd = 0.5;
  const norm = (x: number, m: number, s: number) => -0.5 * ((x - m) / s) ** 2 - Math.log(s * Math.sqrt(2 * Math.PI));
  for (let j = 0; j < data.times.length; j++) l += norm(data.v[j], sol.state(j, 0), sd) + norm(data.r[j], sol.state(j, 1), sd);
  for (const x of theta) l += norm(x, 0, 10);
  assert.ok(Math.abs(tight.logDensity(theta) - l) < 1e-9 * Math.abs(l));
  const grad = new Float64Array(3);
  assert.equal(tight.logDensityAndGradient(theta, grad), tight.logDensity(theta));
  assert.equal(tight.denseMetric(theta, true).logDensity, tight.logDensity(theta));
});

test("c <= 0 has zero density, with a factorable metric so that samplers reject it", () => {
  const x = Float64Array.of(0.2, 0.2, -1);
  assert.equal(tight.logDensity(x), -Infinity);
  const geo = denseMetricTarget(tight).geometry(x);
  assert.equal(geo.logDensity, -Infinity);
  assert.equal(geo.logDetMetric, 0);
});

test("simulated data: noise of sd 0.5 around the true states, the same for the same seed", () => {
  const again = simulateFitzhughNagumo({}, 11);
  assert.deepEqual(Array.from(again.v), Array.from(data.v));
  let ss = 0;
  for (let j = 0; j < data.times.length; j++) ss += (data.v[j] - data.trueV[j]) ** 2 + (data.r[j] - data.trueR[j]) ** 2;
  const sd = Math.sqrt(ss / (2 * data.times.length));
  // 400 draws: the sd estimate has sd about 0.5 / sqrt(800) = 0.018
  assert.ok(Math.abs(sd - 0.5) < 0.06, `noise sd ${sd}`);
  assert.equal(data.times[0], 0);
  assert.equal(data.times[199], 20);
  assert.equal(data.trueV[0], -1);
  assert.equal(data.trueR[0], 1);
});
