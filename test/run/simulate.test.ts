/**
 * The comparison paper's simulated data (Section 4.1): the same seed gives the same X, theta and
 * f whatever the likelihood; the design (inputs in [0, 1]^d, psi in [-3, -1], sigma = exp(2));
 * f ~ N(0, K) checked through K built here from the formula, independently of src/gp; and each
 * likelihood's y against its distribution given f, within Monte Carlo error.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Matrix } from "../../src/linalg/matrix.js";
import { cholesky } from "../../src/linalg/cholesky.js";
import { normalCdf } from "../../src/math/normal.js";
import { SIMULATION_LIKELIHOODS, simulateDataSet, simulateLatentGp, simulateResponses, SIMULATION_ORDINAL } from "../../src/run/simulate.js";

/** K + jitter I from paper eq. 1 written out: sigma exp(-1/2 sum_r (x_ir - x_jr)^2 / exp(psi_r)^2). */
function kernelByHand(X: Matrix, psi: number[], sigma: number, jitter: number): Matrix {
  const n = X.rows;
  const K = new Matrix(n, n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let q = 0;
      for (let r = 0; r < psi.length; r++) q += (X.data[i + r * n] - X.data[j + r * n]) ** 2 / Math.exp(2 * psi[r]);
      K.data[i + j * n] = sigma * Math.exp(-0.5 * q) + (i === j ? jitter : 0);
    }
  }
  return K;
}

test("simulate: one seed, the same X, theta and f for every likelihood; another seed, others", () => {
  const sets = SIMULATION_LIKELIHOODS.map((l) => simulateDataSet(l, 50, 3, 11));
  for (const s of sets.slice(1)) {
    assert.deepEqual(s.X.data, sets[0].X.data);
    assert.deepEqual(s.logLengthscale, sets[0].logLengthscale);
    assert.deepEqual(s.f, sets[0].f);
  }
  // The responses differ by likelihood (different streams and models).
  assert.notDeepEqual(sets[0].y, sets[1].y);
  const other = simulateLatentGp(50, 3, 12);
  assert.notDeepEqual(other.X.data, sets[0].X.data);
  assert.notDeepEqual(other.f, sets[0].f);
});

test("simulate: inputs in [0, 1], psi in [-3, -1], sigma = exp(2), and f ~ N(0, K) (whitened by K built from the formula)", () => {
  const n = 400;
  const s = simulateLatentGp(n, 2, 3);
  for (const x of s.X.data) assert.ok(x >= 0 && x < 1);
  assert.equal(s.logLengthscale.length, 2);
  for (const p of s.logLengthscale) assert.ok(p >= -3 && p <= -1, `psi ${p}`);
  assert.equal(Math.exp(2 * s.logSignalSd), Math.exp(2));
  // z = L^-1 f must be N(0, I): mean and variance of its n entries within 4 standard errors.
  const z = cholesky(kernelByHand(s.X, s.logLengthscale, Math.exp(2), s.jitter)).solveLowerInPlace(Float64Array.from(s.f));
  const mean = z.reduce((a, b) => a + b, 0) / n;
  const variance = z.reduce((a, b) => a + b * b, 0) / n;
  assert.ok(Math.abs(mean) < 4 / Math.sqrt(n), `mean ${mean}`);
  assert.ok(Math.abs(variance - 1) < 4 * Math.sqrt(2 / n), `variance ${variance}`);
  // Uniform inputs: mean 1/2, variance 1/12, over 800 values.
  const mx = s.X.data.reduce((a, b) => a + b, 0) / (2 * n);
  assert.ok(Math.abs(mx - 0.5) < 4 * Math.sqrt(1 / 12 / (2 * n)), `mean x ${mx}`);
});

/** |sum(y_i - E y_i)| within 4 sd of the sum, given f. */
function assertSumWithin(name: string, y: ArrayLike<number>, mean: (i: number) => number, variance: (i: number) => number): void {
  let d = 0, v = 0;
  for (let i = 0; i < y.length; i++) {
    d += y[i] - mean(i);
    v += variance(i);
  }
  assert.ok(Math.abs(d) < 4 * Math.sqrt(v), `${name}: sum of y - E y = ${d}, sd ${Math.sqrt(v)}`);
}

test("simulate: each likelihood's responses have the distribution it says, given f", () => {
  const latent = simulateLatentGp(400, 2, 21);
  const f = latent.f;
  const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
  const lrg = simulateResponses(latent, "logistic").y;
  assert.ok(lrg.every((v) => v === 0 || v === 1));
  assertSumWithin("logistic", lrg, (i) => sigmoid(f[i]), (i) => sigmoid(f[i]) * (1 - sigmoid(f[i])));
  const lcx = simulateResponses(latent, "poisson").y;
  assert.ok(lcx.every((v) => Number.isInteger(v) && v >= 0));
  assertSumWithin("poisson", lcx, (i) => Math.exp(f[i]), (i) => Math.exp(f[i]));
  // VLT: y_i / exp(f_i) ~ N(0, 1), so sum of squares ~ chi^2_n (mean n, variance 2n).
  const vlt = simulateResponses(latent, "volatility").y;
  assertSumWithin("volatility", vlt.map((y, i) => (y / Math.exp(f[i])) ** 2), () => 1, () => 2);
  // ORD: each category's count against sum_i p(y = k | f_i).
  const ord = simulateResponses(latent, "ordinal").y;
  const b = [-Infinity, ...SIMULATION_ORDINAL.thresholds, Infinity];
  for (let k = 1; k < b.length; k++) {
    const p = (i: number) => normalCdf((b[k] - f[i]) / SIMULATION_ORDINAL.noiseSd) - normalCdf((b[k - 1] - f[i]) / SIMULATION_ORDINAL.noiseSd);
    assertSumWithin(`ordinal category ${k}`, ord.map((y) => (y === k ? 1 : 0)), p, (i) => p(i) * (1 - p(i)));
  }
  // Probit's labels are -1/+1 with P(+1) = Phi(f).
  const pro = simulateResponses(latent, "probit").y;
  assertSumWithin("probit", pro.map((y) => (y > 0 ? 1 : 0)), (i) => normalCdf(f[i]), (i) => normalCdf(f[i]) * (1 - normalCdf(f[i])));
});

test("simulate: a negative control — logistic labels checked against the wrong f fail the same check", () => {
  const latent = simulateLatentGp(400, 2, 21);
  const y = simulateResponses(latent, "logistic").y;
  const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
  // Against f shifted by 1 the sum of y - E y is far outside 4 sd.
  assert.throws(() => assertSumWithin("shifted", y, (i) => sigmoid(latent.f[i] + 1), (i) => sigmoid(latent.f[i] + 1) * (1 - sigmoid(latent.f[i] + 1))));
});
