// The model of (log sigma, log beta) given the field: log density against a dense Gaussian
// log density, the metric against eq. 39 computed with dense N x N matrices, and the gradient and
// metric derivatives against finite differences (targets/denseMetricCheck.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { cholesky } from "../../../src/linalg/cholesky.js";
import { Matrix } from "../../../src/linalg/matrix.js";
import { matmul } from "../../../src/linalg/products.js";
import { Rng } from "../../../src/random/rng.js";
import { denseGridCovariance } from "../../../src/models/coxProcess/gridCovariance.js";
import { coxHyperparameterModel, PRIOR } from "../../../src/models/coxProcess/hyperparameters.js";
import { checkDenseMetricModel } from "../../../src/targets/denseMetricCheck.js";

const SIDE = 4;
const N = 16;
const MU = 0.3;
const FIELD = new Rng(5).fillNormal(new Float64Array(N)).map((v) => MU + 1.2 * v);

test("L(phi) is log N(x; mu, sigma^2 (E kron E)) plus the prior, up to a constant in phi", () => {
  const model = coxHyperparameterModel(SIDE, FIELD, MU);
  const direct = (sigma: number, beta: number) => {
    const s = denseGridCovariance(SIDE, sigma * sigma, beta, "separable");
    const ch = cholesky(s);
    const r = FIELD.map((v) => v - MU);
    const a = ch.solve(r);
    let q = 0;
    for (let k = 0; k < N; k++) q += r[k] * a[k];
    const phi = [Math.log(sigma), Math.log(beta)];
    let prior = 0;
    for (let i = 0; i < 2; i++) prior -= (phi[i] - PRIOR.mean[i]) ** 2 / (2 * PRIOR.sd[i] ** 2);
    return -0.5 * ch.logDet() - 0.5 * q + prior;
  };
  const points = [[1.1, 0.2], [0.6, 0.45], [2, 0.05]];
  const diffs = points.map(([s, b]) => model.logDensity(Float64Array.of(Math.log(s), Math.log(b))) - direct(s, b));
  for (const d of diffs) assert.ok(Math.abs(d - diffs[0]) < 1e-9, `${diffs}`);
});

test("the metric is 1/2 tr(Sigma^-1 dSigma_i Sigma^-1 dSigma_j) (eq. 39, in log coordinates) plus the prior's precision", () => {
  const model = coxHyperparameterModel(SIDE, FIELD, MU);
  const sigma = 0.8;
  const beta = 0.3;
  const phi = Float64Array.of(Math.log(sigma), Math.log(beta));
  const s = denseGridCovariance(SIDE, sigma * sigma, beta, "separable");
  const h = 1e-6;
  // dSigma/dlog beta by central differences of the dense covariance, dSigma/dlog sigma = 2 Sigma
  const sp = denseGridCovariance(SIDE, sigma * sigma, beta * Math.exp(h), "separable");
  const sm = denseGridCovariance(SIDE, sigma * sigma, beta * Math.exp(-h), "separable");
  const dBeta = new Matrix(N, N, sp.data.map((v, k) => (v - sm.data[k]) / (2 * h)));
  const dSigma = new Matrix(N, N, s.data.map((v) => 2 * v));
  const ch = cholesky(s);
  const a = [ch.solveMatrix(dSigma), ch.solveMatrix(dBeta)];
  const metric = model.denseMetric(phi, false).metric;
  for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) {
    let tr = 0;
    const p = matmul(a[i], a[j]);
    for (let k = 0; k < N; k++) tr += p.data[k + k * N];
    const expected = 0.5 * tr + (i === j ? 1 / PRIOR.sd[i] ** 2 : 0);
    assert.ok(Math.abs(metric.get(i, j) - expected) < 1e-6 * (1 + Math.abs(expected)), `D[${i},${j}] ${metric.get(i, j)} vs ${expected}`);
  }
});

test("gradient and metric derivatives match finite differences", () => {
  const model = coxHyperparameterModel(SIDE, FIELD, MU);
  for (const [s, b] of [[1.1, 0.2], [0.6, 0.45], [1.5, 0.08]]) {
    const c = checkDenseMetricModel(model, Float64Array.of(Math.log(s), Math.log(b)));
    assert.ok(c.gradient < 1e-6, `gradient at (${s}, ${b}): ${c.gradient}`);
    assert.ok(c.metricDerivatives < 1e-6, `dG at (${s}, ${b}): ${c.metricDerivatives}`);
  }
});
