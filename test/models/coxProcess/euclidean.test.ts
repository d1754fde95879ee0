// The paper's Euclidean covariance by circulant embedding (circulantGrid.ts) and the model in
// whitened coordinates (euclideanCoxProcess.ts) against direct dense computations: R C R' = Sigma
// exactly, the embedding's eigenvalues against a dense torus covariance, x = mu + R C^1/2 nu has
// covariance Sigma, the constant metric G = I + lambda C, the gradient (finite differences), the
// mode against the dense x-density, and Christensen's transform built from the Euclidean Sigma.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cholesky } from "../../../src/linalg/cholesky.js";
import { Matrix } from "../../../src/linalg/matrix.js";
import { Rng } from "../../../src/random/rng.js";
import { christensenTarget, denseEuclideanPrecision } from "../../../src/models/coxProcess/christensen.js";
import { CirculantGrid } from "../../../src/models/coxProcess/circulantGrid.js";
import { euclideanCoxProcessModel } from "../../../src/models/coxProcess/euclideanCoxProcess.js";
import { coxFieldMode } from "../../../src/models/coxProcess/fieldModel.js";
import { denseGridCovariance } from "../../../src/models/coxProcess/gridCovariance.js";

import { COUNTS, HYPER, maxAbsDiff, N, SIDE } from "./smallGrid.js";

/** Sigma' = (R C^1/2)(R C^1/2)' from the columns C^1/2 R' e_j: what x = mu + R C^1/2 nu's covariance is. */
function impliedCovariance(grid: CirculantGrid): Matrix {
  const n = grid.size;
  const cols: Float64Array[] = [];
  const e = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    e.fill(0);
    e[j] = 1;
    const c = new Float64Array(grid.torusSize);
    grid.rootFromGrid(e, c);
    cols.push(c);
  }
  const s = new Matrix(n, n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    let v = 0;
    for (let k = 0; k < grid.torusSize; k++) v += cols[i][k] * cols[j][k];
    s.data[i + n * j] = v;
  }
  return s;
}

/** The x-density of eq. 31 with Sigma written out and factorised: sum(y x - m e^x) - r' Sigma^-1 r / 2. */
function denseLogDensity(side: number, counts: ArrayLike<number>, hyper: typeof HYPER, x: Float64Array): number {
  const n = side * side;
  const ch = cholesky(denseGridCovariance(side, hyper.sigma2, hyper.beta, "euclidean"));
  const r = x.map((v) => v - hyper.mu);
  const s = ch.solve(r);
  let lp = 0;
  for (let k = 0; k < n; k++) lp += counts[k] * x[k] - Math.exp(x[k]) / n - 0.5 * r[k] * s[k];
  return lp;
}

test("the circulant embedding restricted to the grid is the Euclidean Sigma of eq. 31, exactly", () => {
  for (const [side, beta] of [[SIDE, HYPER.beta], [3, 0.5], [8, 1 / 33], [6, 1]]) {
    const grid = new CirculantGrid(side, HYPER.sigma2, beta);
    assert.ok(grid.torus >= 2 * side);
    const dense = denseGridCovariance(side, HYPER.sigma2, beta, "euclidean");
    const err = maxAbsDiff(impliedCovariance(grid).data, dense.data);
    assert.ok(err < 1e-12 * HYPER.sigma2, `side ${side}, beta ${beta}: ${err}`);
  }
});

test("negative control: a torus smaller than 2(n - 1) wraps distances round and is caught", () => {
  const grid = new CirculantGrid(4, HYPER.sigma2, 0.5, { torus: 4 });
  const dense = denseGridCovariance(4, HYPER.sigma2, 0.5, "euclidean");
  assert.ok(maxAbsDiff(impliedCovariance(grid).data, dense.data) > 0.05);
});

test("the embedding's eigenvalues are those of the dense torus covariance; the paper's 64 x 64 grid embeds in 128 x 128", () => {
  const grid = new CirculantGrid(4, HYPER.sigma2, 0.7);
  const m = grid.torus;
  const big = m * m;
  const l = 4 * 0.7;
  const v = new Rng(5).fillNormal(new Float64Array(big));
  const cv = new Float64Array(big);
  grid.applySpectral(grid.eigenvalues, v, cv);
  const direct = new Float64Array(big);
  for (let q = 0; q < big; q++) for (let p = 0; p < big; p++) {
    const da = Math.abs((p % m) - (q % m));
    const db = Math.abs(Math.floor(p / m) - Math.floor(q / m));
    const d1 = Math.min(da, m - da);
    const d2 = Math.min(db, m - db);
    direct[p] += HYPER.sigma2 * Math.exp(-Math.sqrt(d1 * d1 + d2 * d2) / l) * v[q];
  }
  assert.ok(maxAbsDiff(cv, direct) < 1e-12 * Math.max(...direct.map(Math.abs)));
  const paper = new CirculantGrid(64, 1.91, 1 / 33);
  assert.equal(paper.torus, 128);
  assert.ok(Math.min(...paper.eigenvalues) >= 0);
});

test("the Euclidean model's gradient in nu matches finite differences; toField is mu + R C^1/2 nu", () => {
  const model = euclideanCoxProcessModel(SIDE, COUNTS, HYPER);
  assert.equal(model.dim, model.grid.torusSize);
  const nu = new Rng(7).fillNormal(new Float64Array(model.dim)).map((v) => 0.3 * v);
  const grad = new Float64Array(model.dim);
  const lp = model.logDensityAndGradient(nu, grad);
  assert.ok(Math.abs(lp - model.logDensity(nu)) < 1e-12 * Math.abs(lp));
  const h = 1e-5;
  for (let k = 0; k < model.dim; k += 7) {
    const p = nu.slice();
    const q = nu.slice();
    p[k] += h;
    q[k] -= h;
    const fd = (model.logDensity(p) - model.logDensity(q)) / (2 * h);
    assert.ok(Math.abs(fd - grad[k]) < 1e-6 * (1 + Math.abs(fd)), `component ${k}: ${grad[k]} vs ${fd}`);
  }
  const x = new Float64Array(N);
  model.toField(new Float64Array(model.dim), x);
  assert.ok(maxAbsDiff(x, new Float64Array(N).fill(HYPER.mu)) < 1e-15);
});

test("the constant metric G = I + lambda C: G v, G^-1, the quadratic forms, log|G| and N(0, G) draws against dense algebra", () => {
  const model = euclideanCoxProcessModel(3, COUNTS.slice(0, 9), HYPER);
  const big = model.dim;
  const g = new Matrix(big, big);
  const e = new Float64Array(big);
  const col = new Float64Array(big);
  for (let j = 0; j < big; j++) {
    e.fill(0);
    e[j] = 1;
    model.grid.applySpectral(model.grid.eigenvalues, e, col);
    for (let i = 0; i < big; i++) g.data[i + big * j] = (i === j ? 1 : 0) + model.lambda * col[i];
  }
  const ch = cholesky(g);
  assert.ok(Math.abs(ch.logDet() - model.metric.logDet) < 1e-9 * Math.abs(ch.logDet()));
  const v = new Rng(8).fillNormal(new Float64Array(big));
  const out = new Float64Array(big);
  model.metric.applyInverse(v, out);
  assert.ok(maxAbsDiff(out, ch.solve(v)) < 1e-10);
  const gv = new Float64Array(big);
  for (let j = 0; j < big; j++) for (let i = 0; i < big; i++) gv[i] += g.data[i + big * j] * v[j];
  model.metric.applyMetric(v, out);
  assert.ok(maxAbsDiff(out, gv) < 1e-10);
  const vgv = gv.reduce((s, w, i) => s + w * v[i], 0);
  assert.ok(Math.abs(model.metric.metricQuadratic(v) - vgv) < 1e-10 * vgv);
  const vgiv = ch.solve(v).reduce((s, w, i) => s + w * v[i], 0);
  assert.ok(Math.abs(model.metric.inverseQuadratic(v) - vgiv) < 1e-10 * vgiv);
  // draws: the sample variance of a' p for a fixed a is a' G a, within 5 sd
  const rng = new Rng(9);
  const a = new Rng(10).fillNormal(new Float64Array(big));
  const draws = 4000;
  let s2 = 0;
  for (let t = 0; t < draws; t++) {
    model.metric.sampleMomentum(rng, out);
    s2 += out.reduce((s, w, i) => s + w * a[i], 0) ** 2 / draws;
  }
  const aga = model.metric.metricQuadratic(a);
  assert.ok(Math.abs(s2 - aga) < 5 * aga * Math.sqrt(2 / draws), `${s2} vs ${aga}`);
});

test("the mode in nu maps to the mode of the dense x-density; Christensen's transform on the Euclidean Sigma gives that density", () => {
  const model = euclideanCoxProcessModel(SIDE, COUNTS, HYPER);
  const { mode, gradientNorm } = coxFieldMode(model);
  assert.ok(gradientNorm < 1e-6);
  // the dense x-gradient y - m e^x - Sigma^-1 (x - mu) vanishes there
  const ch = cholesky(denseGridCovariance(SIDE, HYPER.sigma2, HYPER.beta, "euclidean"));
  const s = ch.solve(mode.map((v) => v - HYPER.mu));
  for (let k = 0; k < N; k++) assert.ok(Math.abs(COUNTS[k] - Math.exp(mode[k]) / N - s[k]) < 1e-6, `cell ${k}`);
  const target = christensenTarget(model, denseEuclideanPrecision(model), mode);
  const gamma = new Rng(11).fillNormal(new Float64Array(N));
  const x = new Float64Array(N);
  target.toField(gamma, x);
  const direct = denseLogDensity(SIDE, COUNTS, HYPER, x);
  assert.ok(Math.abs(target.logDensity(gamma) - direct) < 1e-9 * Math.abs(direct), `${target.logDensity(gamma)} vs ${direct}`);
  assert.ok(maxAbsDiff(target.fromField(x), gamma) < 1e-10);
});

test("the circulant grid rejects bad settings", () => {
  assert.throws(() => new CirculantGrid(0, 1, 0.1), /positive integer/);
  assert.throws(() => new CirculantGrid(4, 0, 0.1), /sigma\^2/);
  assert.throws(() => new CirculantGrid(4, 1, -1), /beta/);
  // a correlation length of 12 cells on a 6 x 6 grid: no torus up to 48 x 48 embeds it
  assert.throws(() => new CirculantGrid(6, 1, 2), /negative eigenvalue .* on tori up to 64 x 64/);
  assert.throws(() => euclideanCoxProcessModel(3, [1, 2], HYPER), /counts have 2 cells/);
});
