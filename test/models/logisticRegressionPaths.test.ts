// The logistic model's fast paths against direct computation: G (gemm below 48 coefficients,
// syrk from there) against the sum over cases written out, G alone (metricAt) and the gradient
// alone against those of the whole geometry, the traces of both branches against the dG matrices, and the one-coordinate
// moves of component-wise MH against whole evaluations of the log density.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Matrix } from "../../src/linalg/matrix.js";
import { cholesky } from "../../src/linalg/cholesky.js";
import { logisticRegression, type LogisticRegressionModel } from "../../src/models/logisticRegression.js";
import { Rng } from "../../src/random/rng.js";

function problem(n: number, d: number, seed: number): LogisticRegressionModel {
  const rng = new Rng(seed);
  const x = new Matrix(n, d);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x.set(i, 0, 1);
    for (let k = 1; k < d; k++) x.set(i, k, rng.normal() / Math.sqrt(d));
    y[i] = rng.uniform() < 0.4 ? 1 : 0;
  }
  return logisticRegression(x, y, { priorVariance: 10 });
}

function point(d: number, rng: Rng): Float64Array {
  return Float64Array.from({ length: d }, () => 0.5 * rng.normal());
}

/** G = sum_i s_i (1 - s_i) x_i x_i' + I / alpha, entry by entry. */
function directMetric(model: LogisticRegressionModel, beta: Float64Array): Matrix {
  const { design, priorVariance } = model;
  const d = design.cols;
  const s = model.probabilities(beta);
  const g = new Matrix(d, d);
  for (let a = 0; a < d; a++) {
    for (let b = 0; b < d; b++) {
      let v = a === b ? 1 / priorVariance : 0;
      for (let i = 0; i < design.rows; i++) v += s[i] * (1 - s[i]) * design.get(i, a) * design.get(i, b);
      g.set(a, b, v);
    }
  }
  return g;
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

for (const [n, d] of [[80, 6], [150, 50]] as const) {
  test(`logistic regression (N = ${n}, D = ${d}): G, G alone, the gradient alone and the traces equal their direct computation`, () => {
    const model = problem(n, d, 11 + d);
    const rng = new Rng(3);
    for (let trial = 0; trial < 2; trial++) {
      const beta = point(d, rng);
      const parts = model.denseMetric(beta, true);
      const direct = directMetric(model, beta);
      assert.ok(maxAbsDiff(parts.metric.data, direct.data) < 1e-12, "G against the sum over cases");
      assert.deepEqual(Array.from(model.metricAt(beta).data), Array.from(parts.metric.data), "metricAt is the geometry's G");
      const alone = new Float64Array(d);
      model.gradient(beta, alone);
      assert.ok(maxAbsDiff(alone, parts.gradient) < 1e-12, "the gradient alone is the geometry's");
      // t_k = tr(G^-1 dG_k) from the D matrices
      const gi = cholesky(parts.metric).solveMatrix(Matrix.identity(d));
      const dg = parts.metricDerivatives!;
      const t = parts.metricDerivativeProducts!.traces(cholesky(parts.metric));
      const fromMatrices = dg.map((m) => m.data.reduce((acc, v, i) => acc + v * gi.data[i], 0));
      assert.ok(maxAbsDiff(t, fromMatrices) < 1e-10, `traces: ${t} vs ${fromMatrices}`);
      assert.ok(Math.max(...fromMatrices.map(Math.abs)) > 1e-3, "the traces are not trivially zero");
    }
  });
}

test("logistic regression: one-coordinate moves give the log density of a whole evaluation", () => {
  const d = 7;
  const model = problem(90, d, 5);
  const rng = new Rng(9);
  const beta = point(d, rng);
  const moves = model.coordinateDensity(beta);
  for (let step = 0; step < 40; step++) {
    const k = step % d;
    const value = beta[k] + rng.normal();
    const moved = beta.slice();
    moved[k] = value;
    const l = moves.logDensityWith(k, value);
    assert.ok(Math.abs(l - model.logDensity(moved)) < 1e-9 * (1 + Math.abs(l)), `move ${step}`);
    // keep every other move: the base point follows, and the next moves start from there
    if (step % 2 === 0) {
      moves.set(k, value);
      beta[k] = value;
    }
  }
  // set() without a preceding logDensityWith for that value also moves the base point
  moves.set(2, beta[2] + 0.25);
  beta[2] += 0.25;
  assert.ok(Math.abs(moves.logDensityWith(0, beta[0]) - model.logDensity(beta)) < 1e-9 * (1 + Math.abs(model.logDensity(beta))));
});

test("logistic regression: one-coordinate moves agree with whole evaluations for large moves (block products out of range) and predictors past 700 (the direct fallback, from the start and after a move)", () => {
  const d = 4;
  const model = problem(300, d, 12);
  const rng = new Rng(13);
  const close = (a: number, b: number, what: string) => assert.ok(a === b || Math.abs(a - b) <= 1e-9 * (1 + Math.abs(b)), `${what}: ${a} against ${b}`);
  for (const start of [0.5, 900]) {
    const beta = Float64Array.from({ length: d }, (_, k) => (k === 0 ? start : 0.5 * rng.normal()));
    const moves = model.coordinateDensity(beta);
    // moves of 1e-3 to 2000: the last drive every predictor past 700 (intercept) or make r_i overflow
    for (const [k, delta] of [[1, 1e-3], [2, 40], [3, -300], [0, 0.7], [0, 650], [1, 0.1], [0, -650], [2, 2000], [1, -0.2]] as const) {
      const value = beta[k] + delta;
      const moved = beta.slice();
      moved[k] = value;
      close(moves.logDensityWith(k, value), model.logDensity(moved), `start ${start}, beta_${k} + ${delta}`);
      // keep the moves that stay where the density is finite
      if (Number.isFinite(model.logDensity(moved))) {
        moves.set(k, value);
        beta[k] = value;
      }
    }
    close(moves.logDensityWith(3, beta[3] + 0.01), model.logDensity(Float64Array.from(beta, (b, k) => (k === 3 ? b + 0.01 : b))), `start ${start}, after the moves`);
  }
});

test("logistic regression: the log density equals sum_i [y_i eta_i - log(1 + exp(eta_i))] - beta'beta / (2 alpha), for small and large eta", () => {
  const n = 700; // more than one block of logs
  const model = problem(n, 5, 21);
  const rng = new Rng(4);
  for (const scale of [0.3, 30]) {
    const beta = Float64Array.from({ length: 5 }, () => scale * rng.normal());
    const s = model.probabilities(beta);
    let direct = 0;
    for (let k = 0; k < 5; k++) direct -= beta[k] ** 2 / (2 * model.priorVariance);
    for (let i = 0; i < n; i++) {
      let e = 0;
      for (let k = 0; k < 5; k++) e += model.design.get(i, k) * beta[k];
      // log(1 + exp(e)) written out in long form on each side of 0
      const softplus = e > 0 ? e + Math.log(1 + Math.exp(-e)) : Math.log(1 + Math.exp(e));
      direct += model.labels[i] * e - softplus;
      assert.ok(Math.abs(s[i] - 1 / (1 + Math.exp(-e))) < 1e-15);
    }
    const l = model.logDensity(beta);
    assert.ok(Math.abs(l - direct) < 1e-10 * (1 + Math.abs(direct)), `${l} vs ${direct}`);
  }
});
