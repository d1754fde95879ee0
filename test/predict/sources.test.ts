/**
 * Predictions from draws (one theta per draw, or fixed) and from a Gaussian approximation in
 * site form, against a dense computation that inverts matrices by Gaussian elimination: the GP
 * conditional at each draw's theta (with its relative jitter), q's covariance
 * (K^-1 + diag(tau))^-1, and probit's Phi(m / sqrt(1 + v)) averaged over draws. Each check has
 * a broken variant that the tolerance rejects.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { normalCdf } from "../../src/math/normal.js";
import { predictFromApproximation, predictFromDraws, type LogTheta } from "../../src/predict/sources.js";
import { Rng } from "../../src/random/rng.js";
import { gaussSolve } from "./denseSolve.js";

function inverse(a: number[][]): number[][] {
  const n = a.length;
  const cols = Array.from({ length: n }, (_, j) => gaussSolve(a, Array.from({ length: n }, (_, i) => (i === j ? 1 : 0))));
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => cols[j]![i]!));
}

/** k(a, b) written out from the definition. */
function k(theta: LogTheta, a: number[], b: number[]): number {
  let s = 0;
  for (let r = 0; r < a.length; r++) {
    const l = Math.exp(theta.logLengthscale.length === 1 ? theta.logLengthscale[0]! : theta.logLengthscale[r]!);
    s += ((a[r]! - b[r]!) / l) ** 2;
  }
  return Math.exp(2 * theta.logSignalSd) * Math.exp(-s / 2);
}

function rows(x: Matrix): number[][] {
  return Array.from({ length: x.rows }, (_, i) => Array.from({ length: x.cols }, (_, j) => x.data[i + j * x.rows]!));
}

/** Dense f_* marginals given q = N(mu, Sigma) (Sigma = 0: given f = mu) at theta, jitter on K and k_**. */
function denseMarginals(theta: LogTheta, x: Matrix, xs: Matrix, mu: number[], sigma: number[][] | undefined, jitter: number) {
  const X = rows(x);
  const XS = rows(xs);
  const K = X.map((a, i) => X.map((b, j) => k(theta, a, b) + (i === j ? jitter : 0)));
  const Kinv = inverse(K);
  return XS.map((s) => {
    const ks = X.map((a) => k(theta, a, s));
    const A = Kinv.map((row) => row.reduce((t, v, j) => t + v * ks[j]!, 0)); // K^-1 k_*
    const mean = A.reduce((t, v, i) => t + v * mu[i]!, 0);
    let v = k(theta, s, s) + jitter - A.reduce((t, a, i) => t + a * ks[i]!, 0);
    if (sigma) v += A.reduce((t, a, i) => t + a * sigma[i]!.reduce((u, sij, j) => u + sij * A[j]!, 0), 0);
    return { mean, v };
  });
}

function randomMatrix(rng: Rng, r: number, c: number): Matrix {
  const m = new Matrix(r, c);
  for (let i = 0; i < r * c; i++) m.data[i] = rng.normal();
  return m;
}

const n = 6;
const m = 4;
const rng = new Rng(20261125, 0);
const x = randomMatrix(rng, n, 2);
const xs = randomMatrix(rng, m, 2);

test("predictFromApproximation: q's marginals (K^-1 + diag tau)^-1 and probit probabilities match a dense inversion; dropping Sigma does not", () => {
  const theta = { logLengthscale: [0.2, -0.3], logSignalSd: 0.4 };
  const mu = Array.from({ length: n }, () => rng.normal());
  const tau = Array.from({ length: n }, () => 0.2 + rng.uniform() * 2);
  const X = rows(x);
  const K = X.map((a, i) => X.map((b, j) => k(theta, a, b) + (i === j ? 1e-3 : 0)));
  const Kinv = inverse(K);
  const sigma = inverse(Kinv.map((row, i) => row.map((v, j) => v + (i === j ? tau[i]! : 0))));
  const dense = denseMarginals(theta, x, xs, mu, sigma, 1e-3);
  const p = predictFromApproximation({ likelihood: "probit" }, x, { ...theta, mean: mu, sitePrecisions: tau }, xs, { jitter: { absolute: 1e-3 } });
  const noSigma = denseMarginals(theta, x, xs, mu, undefined, 1e-3);
  for (let j = 0; j < m; j++) {
    assert.ok(Math.abs(p.meanF[j]! - dense[j]!.mean) < 1e-9, `mean ${j}`);
    assert.ok(Math.abs(p.sdF[j]! - Math.sqrt(dense[j]!.v)) < 1e-9, `sd ${j}`);
    assert.ok(Math.abs(p.pPositive![j]! - normalCdf(dense[j]!.mean / Math.sqrt(1 + dense[j]!.v))) < 1e-12, `p ${j}`);
  }
  // negative control: the conditional variance alone (Sigma left out) is rejected at this tolerance
  assert.ok(Array.from(p.sdF).some((s, j) => Math.abs(s - Math.sqrt(noSigma[j]!.v)) > 1e-3));
});

test("predictFromDraws: one theta per draw (relative jitter 1e-3 sigma) averages the dense conditionals; one theta for all does not", () => {
  const chains = 2;
  const draws = 3;
  const width = 3; // 2 log lengthscales, log signal sd
  const theta = Array.from({ length: chains }, () => Float64Array.from({ length: draws * width }, (_, i) => (i % width === 2 ? 0.3 : 0) + 0.4 * rng.normal()));
  const f = Array.from({ length: chains }, () => Float64Array.from({ length: draws * n }, () => rng.normal()));
  const rel = 1e-3;
  const got = predictFromDraws({ likelihood: "probit" }, x, { draws, f, theta }, xs, { jitter: { relative: rel } });
  const pbar = new Float64Array(m);
  const mbar = new Float64Array(m);
  for (let c = 0; c < chains; c++) {
    for (let s = 0; s < draws; s++) {
      const row = theta[c]!.subarray(s * width, (s + 1) * width);
      const th = { logLengthscale: [row[0]!, row[1]!], logSignalSd: row[2]! };
      const dense = denseMarginals(th, x, xs, Array.from(f[c]!.subarray(s * n, (s + 1) * n)), undefined, rel * Math.exp(2 * row[2]!));
      dense.forEach((d, j) => {
        pbar[j] += normalCdf(d.mean / Math.sqrt(1 + d.v)) / (chains * draws);
        mbar[j] += d.mean / (chains * draws);
      });
    }
  }
  for (let j = 0; j < m; j++) {
    assert.ok(Math.abs(got.pPositive![j]! - pbar[j]!) < 1e-10, `p ${j}: ${got.pPositive![j]} vs ${pbar[j]}`);
    assert.ok(Math.abs(got.meanF[j]! - mbar[j]!) < 1e-9, `mean ${j}`);
  }
  // negative control: the first draw's theta for every draw gives other probabilities
  const first = theta[0]!;
  const fixed = predictFromDraws({ likelihood: "probit" }, x, { draws, f, fixedTheta: { logLengthscale: [first[0]!, first[1]!], logSignalSd: first[2]! } }, xs, { jitter: { relative: rel } });
  assert.ok(Array.from(fixed.pPositive!).some((v, j) => Math.abs(v - pbar[j]!) > 1e-3));
});

test("predictFromDraws: theta columns that repeat a fixed theta give the fixed-theta predictions (shared lengthscale layout)", () => {
  const draws = 4;
  const fixedTheta = { logLengthscale: [0.1], logSignalSd: 0.2 };
  const f = [Float64Array.from({ length: draws * n }, () => rng.normal())];
  const theta = [Float64Array.from({ length: draws * 2 }, (_, i) => (i % 2 === 0 ? 0.1 : 0.2))];
  const a = predictFromDraws({ likelihood: "logistic" }, x, { draws, f, fixedTheta }, xs);
  const b = predictFromDraws({ likelihood: "logistic" }, x, { draws, f, theta }, xs);
  // sampled thetas make K from the inputs' squared distances (summed once), the fixed theta by direct assembly: equal to round-off
  const close = (u: Float64Array, v: Float64Array) => u.every((w, j) => Math.abs(w - v[j]!) <= 1e-12);
  assert.ok(close(b.pPositive!, a.pPositive!), `${Array.from(b.pPositive!)} against ${Array.from(a.pPositive!)}`);
  assert.ok(close(b.sdF, a.sdF));
  // the control: another signal sd in the theta columns is far from it
  const other = predictFromDraws({ likelihood: "logistic" }, x, { draws, f, theta: [theta[0]!.map((v, i) => (i % 2 === 0 ? v : 0.5))] }, xs);
  assert.ok(!close(other.sdF, a.sdF));
  // the same kernel through the library's seKernel: the dense k above is that kernel
  const K = seKernel({ logLengthscale: 0.1, logSignalSd: 0.2 }).matrix(x);
  assert.ok(Math.abs(K.data[1]! - k(fixedTheta, rows(x)[1]!, rows(x)[0]!)) < 1e-14);
});
