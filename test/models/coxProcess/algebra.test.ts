// The Cox process's structured algebra against dense N x N computations: the Jacobi
// eigendecomposition, the Kronecker rotations, Sigma^-1, log|Sigma|, the constant metric
// G = lambda I + Sigma^-1 and its mass-matrix form, the gradient (finite differences), the mode,
// and Christensen et al.'s transformation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cholesky } from "../../../src/linalg/cholesky.js";
import { Matrix } from "../../../src/linalg/matrix.js";
import { matmul } from "../../../src/linalg/products.js";
import { symmetricEigen } from "../../../src/linalg/symmetricEigen.js";
import { Rng } from "../../../src/random/rng.js";
import { christensenTarget, denseGridPrecision } from "../../../src/models/coxProcess/christensen.js";
import { constantMetricMass, coxProcessMetricTarget, coxProcessModel, paperHyperparameters } from "../../../src/models/coxProcess/coxProcess.js";
import { denseGridCovariance, exponentialCorrelation1d } from "../../../src/models/coxProcess/gridCovariance.js";
import { KroneckerGrid } from "../../../src/models/coxProcess/kroneckerGrid.js";
import { coxProcessMode } from "../../../src/models/coxProcess/mode.js";

import { COUNTS, HYPER, maxAbsDiff, N, SIDE } from "./smallGrid.js";

function denseMatvec(a: Matrix, x: Float64Array): Float64Array {
  const out = new Float64Array(a.rows);
  for (let j = 0; j < a.cols; j++) for (let i = 0; i < a.rows; i++) out[i] += a.data[i + j * a.rows] * x[j];
  return out;
}

const randomVector = (seed: number, n = N) => new Rng(seed).fillNormal(new Float64Array(n));

test("symmetricEigen reconstructs A = Q diag(d) Q' with orthogonal Q and ascending eigenvalues", () => {
  const a = exponentialCorrelation1d(12, 3.7);
  const { values, vectors } = symmetricEigen(a);
  const qd = vectors.clone();
  for (let k = 0; k < 12; k++) for (let i = 0; i < 12; i++) qd.data[i + k * 12] *= values[k];
  assert.ok(maxAbsDiff(matmul(qd, vectors, false, true).data, a.data) < 1e-13);
  assert.ok(maxAbsDiff(matmul(vectors, vectors, true, false).data, Matrix.identity(12).data) < 1e-13);
  for (let k = 1; k < 12; k++) assert.ok(values[k] >= values[k - 1]);
  // a case with a known spectrum: [[2, 1], [1, 2]] has eigenvalues 1 and 3
  const two = symmetricEigen(Matrix.fromRows([[2, 1], [1, 2]]));
  assert.ok(maxAbsDiff(two.values, [1, 3]) < 1e-15);
});

test("the separable grid covariance is sigma^2 (E kron E), and the Kronecker grid applies it and its inverse", () => {
  const dense = denseGridCovariance(SIDE, HYPER.sigma2, HYPER.beta, "separable");
  const grid = new KroneckerGrid(SIDE, HYPER.sigma2, HYPER.beta);
  const x = randomVector(1);
  const out = new Float64Array(N);
  const work = new Float64Array(N);
  grid.applySpectral(grid.d, x, out, work);
  assert.ok(maxAbsDiff(out, denseMatvec(dense, x)) < 1e-12, "Sigma x");
  grid.applySpectral(grid.d.map((d) => 1 / d), x, out, work);
  const ch = cholesky(dense);
  assert.ok(maxAbsDiff(out, ch.solve(x)) < 1e-9, "Sigma^-1 x");
  assert.ok(Math.abs(grid.logDet() - ch.logDet()) < 1e-9, "log|Sigma|");
  // the rotations are each other's inverse
  const z = new Float64Array(N);
  grid.rotateIn(x, z);
  grid.rotateOut(z, out);
  assert.ok(maxAbsDiff(out, x) < 1e-13);
  // the dense precision of Christensen's transformation
  const p = denseGridPrecision(coxProcessModel(SIDE, COUNTS, HYPER));
  assert.ok(maxAbsDiff(matmul(p, dense).data, Matrix.identity(N).data) < 1e-9);
});

test("the Euclidean grid covariance differs from the separable one off the axes only", () => {
  const e = denseGridCovariance(3, 1, 0.5, "euclidean");
  const s = denseGridCovariance(3, 1, 0.5, "separable");
  // cells 0 = (0,0) and 1 = (1,0) share a column: distance 1 either way
  assert.equal(e.get(0, 1), s.get(0, 1));
  // cells 0 = (0,0) and 4 = (1,1): sqrt(2) against 2
  assert.ok(Math.abs(e.get(0, 4) - Math.exp(-Math.SQRT2 / 1.5)) < 1e-15);
  assert.ok(Math.abs(s.get(0, 4) - Math.exp(-2 / 1.5)) < 1e-15);
});

test("the gradient of L(x) matches central finite differences", () => {
  const model = coxProcessModel(SIDE, COUNTS, HYPER);
  const x = randomVector(2).map((v) => 0.5 * v + HYPER.mu);
  const g = new Float64Array(N);
  model.logDensityAndGradient(x, g);
  const h = 1e-5;
  for (let k = 0; k < N; k++) {
    const xp = x.slice();
    const xm = x.slice();
    xp[k] += h;
    xm[k] -= h;
    const fd = (model.logDensity(xp) - model.logDensity(xm)) / (2 * h);
    assert.ok(Math.abs(fd - g[k]) < 1e-6 * (1 + Math.abs(g[k])), `component ${k}: ${g[k]} vs ${fd}`);
  }
  // L against its definition with a dense Sigma^-1
  const dense = denseGridCovariance(SIDE, HYPER.sigma2, HYPER.beta, "separable");
  const r = x.map((v) => v - HYPER.mu);
  const sr = cholesky(dense).solve(r);
  let direct = 0;
  for (let k = 0; k < N; k++) direct += COUNTS[k] * x[k] - Math.exp(x[k]) / N - 0.5 * r[k] * sr[k];
  assert.ok(Math.abs(model.logDensity(x) - direct) < 1e-9);
});

test("the constant metric G = lambda I + Sigma^-1: inverse, product, kinetic energy and log|G| against dense", () => {
  const model = coxProcessModel(SIDE, COUNTS, HYPER);
  const lambda = Math.exp(HYPER.mu + HYPER.sigma2) / N;
  assert.ok(Math.abs(model.lambda - lambda) < 1e-15);
  const g = denseGridPrecision(model);
  for (let k = 0; k < N; k++) g.data[k + k * N] += lambda;
  const ch = cholesky(g);
  const p = randomVector(3);
  const out = new Float64Array(N);
  const mass = constantMetricMass(model);
  mass.applyInverse(p, out);
  assert.ok(maxAbsDiff(out, ch.solve(p)) < 1e-10, "G^-1 p");
  let q = 0;
  for (let k = 0; k < N; k++) q += p[k] * out[k];
  assert.ok(Math.abs(mass.kineticEnergy(p) - 0.5 * q) < 1e-10, "1/2 p' G^-1 p");
  const metric = coxProcessMetricTarget(model).fisherMetric!(new Float64Array(N).fill(HYPER.mu));
  metric.applyMetric!(p, out);
  assert.ok(maxAbsDiff(out, denseMatvec(g, p)) < 1e-9, "G v");
  assert.ok(Math.abs(metric.logDetMetric - ch.logDet()) < 1e-9, "log|G|");
  assert.ok(Math.abs(metric.metricQuadraticForm!(p) - p.reduce((s, v, k) => s + v * denseMatvec(g, p)[k], 0)) < 1e-8);
});

test("momentum draws have covariance G (sample covariance against dense G, Monte Carlo tolerance)", () => {
  const side = 2;
  const model = coxProcessModel(side, [1, 0, 4, 2], { sigma2: 1, beta: 0.6, mu: 0.2 });
  const g = denseGridPrecision(model);
  for (let k = 0; k < 4; k++) g.data[k + k * 4] += model.lambda;
  const mass = constantMetricMass(model);
  const rng = new Rng(11);
  const draws = 200000;
  const s = new Float64Array(16);
  const p = new Float64Array(4);
  for (let t = 0; t < draws; t++) {
    mass.sampleMomentum(rng, p);
    for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) s[i + 4 * j] += (p[i] * p[j]) / draws;
  }
  for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) {
    // sd of a sample covariance of normals: sqrt((G_ii G_jj + G_ij^2) / draws)
    const sd = Math.sqrt((g.get(i, i) * g.get(j, j) + g.get(i, j) ** 2) / draws);
    assert.ok(Math.abs(s[i + 4 * j] - g.get(i, j)) < 5 * sd, `G[${i},${j}]: ${s[i + 4 * j]} vs ${g.get(i, j)}`);
  }
});

test("the Newton-CG mode zeroes the gradient; Christensen's map is invertible and its gradient matches finite differences", () => {
  const model = coxProcessModel(SIDE, COUNTS, HYPER);
  const { mode, gradientNorm } = coxProcessMode(model);
  assert.ok(gradientNorm < 1e-6, `gradient norm at the mode ${gradientNorm}`);
  const target = christensenTarget(model, denseGridPrecision(model), mode);
  const gamma = randomVector(4);
  const x = new Float64Array(N);
  target.toField(gamma, x);
  assert.ok(maxAbsDiff(target.fromField(x), gamma) < 1e-10);
  // the prior term through |Gamma|^2 - r' W r equals the direct (x - mu)' Sigma^-1 (x - mu): same log density
  const direct = model.logDensity(x);
  assert.ok(Math.abs(target.logDensity(gamma) - direct) < 1e-9 * Math.abs(direct), `${target.logDensity(gamma)} vs ${direct}`);
  // x - mu = L Gamma with L L' = (Sigma^-1 + diag(m exp(mode)))^-1
  const a = denseGridPrecision(model);
  for (let k = 0; k < N; k++) a.data[k + k * N] += Math.exp(mode[k]) / N;
  const ax = denseMatvec(a, x.map((v) => v - HYPER.mu));
  const lt = target.fromField(x); // = C'(x - mu), so |C'(x - mu)|^2 = (x - mu)' A (x - mu)
  const q1 = lt.reduce((s, v) => s + v * v, 0);
  const q2 = ax.reduce((s, v, k) => s + v * (x[k] - HYPER.mu), 0);
  assert.ok(Math.abs(q1 - q2) < 1e-9 * q2);
  const grad = new Float64Array(N);
  target.logDensityAndGradient(gamma, grad);
  const h = 1e-5;
  for (let k = 0; k < N; k += 3) {
    const gp = gamma.slice();
    const gm = gamma.slice();
    gp[k] += h;
    gm[k] -= h;
    const fd = (target.logDensity(gp) - target.logDensity(gm)) / (2 * h);
    assert.ok(Math.abs(fd - grad[k]) < 1e-6 * (1 + Math.abs(fd)), `component ${k}: ${grad[k]} vs ${fd}`);
  }
});

test("the paper's hyperparameters: mu = log(126) - sigma^2 / 2, and the grid rejects bad settings", () => {
  const h = paperHyperparameters();
  assert.equal(h.sigma2, 1.91);
  assert.equal(h.beta, 1 / 33);
  assert.ok(Math.abs(h.mu - (Math.log(126) - 0.955)) < 1e-15);
  assert.throws(() => new KroneckerGrid(4, -1, 0.1), /sigma\^2/);
  assert.throws(() => coxProcessModel(3, [1, 2], h), /counts have 2 cells/);
});
