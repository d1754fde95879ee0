/**
 * The theta targets as samplers see them (src/hyper/thetaTargets.ts): the gradient over a subset
 * of the coordinates against finite differences of the log density, the dense metric's members
 * against the matrix itself, and K rescaled in sigma (covariance.ts rescaledKernelAt) against K
 * computed and factorised directly.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { positivePrior } from "../../src/gp/hyperpriors.js";
import { DEFAULT_RELATIVE_JITTER, kernelAt, rescaledKernelAt, type HyperSpace } from "../../src/hyper/covariance.js";
import { thetaGivenF } from "../../src/hyper/thetaGivenF.js";
import { thetaGivenNu } from "../../src/hyper/thetaGivenNu.js";
import { denseLocalMetric, METRIC_FLOOR, thetaTarget } from "../../src/hyper/thetaTargets.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { probit } from "../../src/likelihoods/probit.js";
import { Rng } from "../../src/random/rng.js";

const rng = new Rng(21);
const n = 6, d = 2;
const space: HyperSpace = {
  x: new Matrix(n, d, Float64Array.from({ length: n * d }, () => rng.uniform())),
  lengthscalePriors: [positivePrior({ family: "gamma", shape: 1, rate: 1 }), positivePrior({ family: "lognormal", mu: 0, sigma: 1 })],
  variancePrior: positivePrior({ family: "invgamma", shape: 1, scale: 1 }),
  relativeJitter: DEFAULT_RELATIVE_JITTER,
};
const f = Float64Array.from({ length: n }, () => rng.normal());
const y = Float64Array.from({ length: n }, (_, i) => (i % 2 ? 1 : -1));
const base = Float64Array.from([-0.3, 0.2, 0.4]);

function checkGradient(target: ReturnType<typeof thetaTarget>, x: Float64Array, what: string): void {
  const grad = new Float64Array(x.length);
  target.logDensityAndGradient!(x, grad);
  for (let k = 0; k < x.length; k++) {
    const h = 1e-5;
    const up = x.slice(); up[k] += h;
    const down = x.slice(); down[k] -= h;
    const fd = (target.logDensity(up) - target.logDensity(down)) / (2 * h);
    assert.ok(Math.abs(fd - grad[k]!) <= 1e-6 * Math.max(1, Math.abs(fd)), `${what}, coordinate ${k}: ${grad[k]} vs finite differences ${fd}`);
  }
}

test("theta | f over the lengthscales only (sigma held): the gradient is the finite-difference one", () => {
  checkGradient(thetaTarget(thetaGivenF(space, f), base, [0, 1]), Float64Array.from([-0.3, 0.2]), "SA, psi only");
  checkGradient(thetaTarget(thetaGivenF(space, f), base), base.slice(), "SA, all of theta");
});

test("theta | y, nu: the gradient is the finite-difference one", () => {
  checkGradient(thetaTarget({ ...thetaGivenNu(space, probit, y, f), metric: (t) => thetaGivenF(space, f).metric(t) }, base), base.slice(), "AA");
});

test("the Fisher metric of the restricted target is the block of G plus the floor, and its members agree with it", () => {
  const target = thetaTarget(thetaGivenF(space, f), base, [0, 1]);
  const x = Float64Array.from([-0.3, 0.2]);
  const G = thetaGivenF(space, f).metric(base);
  const metric = target.fisherMetric!(x);
  const v = Float64Array.from([0.7, -1.3]);
  const Gv = new Float64Array(2);
  metric.applyMetric!(v, Gv);
  for (let i = 0; i < 2; i++) {
    const expected = G.get(i, 0) * v[0]! + G.get(i, 1) * v[1]! + METRIC_FLOOR * v[i]!;
    assert.ok(Math.abs(Gv[i]! - expected) < 1e-10 * Math.max(1, Math.abs(expected)));
  }
  const back = new Float64Array(2);
  metric.applyInverse(Gv, back);
  for (let i = 0; i < 2; i++) assert.ok(Math.abs(back[i]! - v[i]!) < 1e-10);
  const a = G.get(0, 0) + METRIC_FLOOR, b = G.get(0, 1), c = G.get(1, 1) + METRIC_FLOOR;
  assert.ok(Math.abs(metric.logDetMetric - Math.log(a * c - b * b)) < 1e-10);
});

test("dense metric: momentum draws have covariance G", () => {
  const G = new Matrix(2, 2, Float64Array.from([2, 0.6, 0.6, 1]));
  const m = denseLocalMetric(new Float64Array(2), 0, new Float64Array(2), G);
  const r = new Rng(3);
  const p = new Float64Array(2);
  const s = [0, 0, 0];
  const N = 200000;
  for (let i = 0; i < N; i++) {
    m.sampleMomentum(r, p);
    s[0] += p[0]! * p[0]!; s[1] += p[0]! * p[1]!; s[2] += p[1]! * p[1]!;
  }
  // sd of a sample variance of N normal draws: sigma^2 sqrt(2 / N), about 0.0063 for sigma^2 = 2
  assert.ok(Math.abs(s[0]! / N - 2) < 0.03 && Math.abs(s[1]! / N - 0.6) < 0.02 && Math.abs(s[2]! / N - 1) < 0.015, JSON.stringify(s.map((v) => v / N)));
});

test("K and its factor rescaled in sigma equal those computed directly", () => {
  const from = kernelAt(space, base);
  const t = Float64Array.from([base[0]!, base[1]!, -1.7]);
  const direct = kernelAt(space, t);
  const scaled = rescaledKernelAt(space, from, t);
  for (let i = 0; i < n * n; i++) {
    assert.ok(Math.abs(scaled.K.data[i]! - direct.K.data[i]!) < 1e-12);
    assert.ok(Math.abs(scaled.chol.factor.data[i]! - direct.chol.factor.data[i]!) < 1e-12);
  }
  assert.throws(() => rescaledKernelAt(space, from, [0, base[1]!, 0]), /psi_1 differs/);
});
