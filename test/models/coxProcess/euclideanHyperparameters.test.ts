// The model of (log sigma, log beta) given the Euclidean Cox process's torus field
// (models/coxProcess/euclideanHyperparameters.ts), on a 4 x 4 grid in an 8 x 8 torus, against
// dense 64 x 64 algebra written independently of the FFTs: the torus covariance C from wrapped
// distances, its log determinant and quadratic form by Cholesky, eq. 39's traces with dC/dlog beta
// by central differences; the gradient and the metric's derivatives against finite differences;
// and the support: where the fixed torus's embedding is not positive definite (the dense C has
// no Cholesky factor there), L is -Infinity with a finite metric.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cholesky } from "../../../src/linalg/cholesky.js";
import { Matrix } from "../../../src/linalg/matrix.js";
import { matmul } from "../../../src/linalg/products.js";
import { Rng } from "../../../src/random/rng.js";
import { euclideanHyperparameterModel, supportLimit } from "../../../src/models/coxProcess/euclideanHyperparameters.js";
import { PRIOR } from "../../../src/models/coxProcess/hyperparameters.js";
import { checkDenseMetricModel } from "../../../src/targets/denseMetricCheck.js";

const SIDE = 4;
const M = 8;
const SIZE = M * M;
const MU = 0.3;
const FIELD = new Rng(11).fillNormal(new Float64Array(SIZE)).map((v) => MU + 1.3 * v);

/** C on the torus, entry by entry: sigma^2 exp(-sqrt(|a-a'|_M^2 + |b-b'|_M^2) / (n beta)). */
function denseTorusCovariance(sigma2: number, beta: number): Matrix {
  const c = new Matrix(SIZE, SIZE);
  const wrap = (d: number) => Math.min(Math.abs(d), M - Math.abs(d));
  for (let q = 0; q < SIZE; q++) for (let p = 0; p < SIZE; p++) {
    const da = wrap((p % M) - (q % M));
    const db = wrap(Math.floor(p / M) - Math.floor(q / M));
    c.data[p + q * SIZE] = sigma2 * Math.exp(-Math.sqrt(da * da + db * db) / (SIDE * beta));
  }
  return c;
}

function priorLog(phi: number[]): number {
  let s = 0;
  for (let i = 0; i < 2; i++) s -= (phi[i] - PRIOR.mean[i]) ** 2 / (2 * PRIOR.sd[i] ** 2);
  return s;
}

const POINTS = [[1.1, 0.2], [0.6, 0.45], [2, 0.05], [1.4, 0.58]];

test("L(phi) is log N(w; mu, C_theta) on the torus plus the prior, up to a constant", () => {
  const model = euclideanHyperparameterModel(SIDE, M, FIELD, MU);
  const diffs = POINTS.map(([s, b]) => {
    const ch = cholesky(denseTorusCovariance(s * s, b));
    const r = FIELD.map((v) => v - MU);
    const a = ch.solve(r);
    let q = 0;
    for (let k = 0; k < SIZE; k++) q += r[k] * a[k];
    const phi = [Math.log(s), Math.log(b)];
    const direct = -0.5 * ch.logDet() - 0.5 * q + priorLog(phi);
    return model.logDensity(Float64Array.from(phi)) - direct;
  });
  for (const d of diffs) assert.ok(Math.abs(d - diffs[0]) < 1e-8, `${diffs}`);
});

test("the metric is 1/2 tr(C^-1 dC_i C^-1 dC_j) (eq. 39 for the torus field, in log coordinates) plus the prior's precision", () => {
  const model = euclideanHyperparameterModel(SIDE, M, FIELD, MU);
  for (const [sigma, beta] of POINTS) {
    const phi = Float64Array.of(Math.log(sigma), Math.log(beta));
    const c = denseTorusCovariance(sigma * sigma, beta);
    const h = 1e-6;
    const cp = denseTorusCovariance(sigma * sigma, beta * Math.exp(h));
    const cm = denseTorusCovariance(sigma * sigma, beta * Math.exp(-h));
    const ch = cholesky(c);
    const a = [ch.solveMatrix(new Matrix(SIZE, SIZE, c.data.map((v) => 2 * v))), ch.solveMatrix(new Matrix(SIZE, SIZE, cp.data.map((v, k) => (v - cm.data[k]) / (2 * h))))];
    const metric = model.denseMetric(phi, false).metric;
    for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) {
      const p = matmul(a[i], a[j]);
      let tr = 0;
      for (let k = 0; k < SIZE; k++) tr += p.data[k + k * SIZE];
      const expected = 0.5 * tr + (i === j ? 1 / PRIOR.sd[i] ** 2 : 0);
      assert.ok(Math.abs(metric.get(i, j) - expected) < 1e-6 * (1 + Math.abs(expected)), `(${sigma}, ${beta}) D[${i},${j}] ${metric.get(i, j)} vs ${expected}`);
    }
  }
});

test("gradient and metric derivatives match finite differences", () => {
  const model = euclideanHyperparameterModel(SIDE, M, FIELD, MU);
  for (const [s, b] of POINTS) {
    const c = checkDenseMetricModel(model, Float64Array.of(Math.log(s), Math.log(b)));
    assert.ok(c.gradient < 1e-6, `gradient at (${s}, ${b}): ${c.gradient}`);
    assert.ok(c.metricDerivatives < 1e-6, `dG at (${s}, ${b}): ${c.metricDerivatives}`);
  }
});

test("outside the support (the torus's embedding not positive definite) L is -Infinity and the metric finite", () => {
  const limit = supportLimit(SIDE, M);
  assert.ok(limit > 0.5 && limit < 1, `support limit ${limit}`);
  const model = euclideanHyperparameterModel(SIDE, M, FIELD, MU);
  const inside = Float64Array.of(0, Math.log(limit * 0.99));
  const outside = Float64Array.of(0, Math.log(limit * 1.01));
  assert.ok(model.inSupport(inside) && Number.isFinite(model.logDensity(inside)));
  assert.ok(!model.inSupport(outside));
  assert.equal(model.logDensity(outside), -Infinity);
  const parts = model.denseMetric(outside, true);
  assert.ok(parts.metric.data.every(Number.isFinite) && parts.metricDerivatives!.every((d) => d.data.every(Number.isFinite)));
  // independently: the dense C has a Cholesky factor just inside, and none just outside
  cholesky(denseTorusCovariance(1, limit * 0.99));
  assert.throws(() => cholesky(denseTorusCovariance(1, limit * 1.01)));
});
