import { test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { Matrix } from "../../src/linalg/index.js";
import { poissonLikelihood } from "../../src/likelihoods/poisson.js";
import { probit } from "../../src/likelihoods/probit.js";
import type { Likelihood } from "../../src/likelihoods/types.js";
import { Rng } from "../../src/random/rng.js";
import { annealedLatentTarget } from "../../src/targets/annealedLatent.js";
import { TargetOptionError } from "../../src/targets/errors.js";
import type { LocalMetric } from "../../src/targets/types.js";
import { type Dense, luInverseAndLogDet, matVec, maxAbs, maxAbsDiff } from "./dense.js";

// The metric operations SMMALA uses (LocalMetric), for the Fisher metric K^-1 + R(f) and for the
// note's metric K^-1 + Lambda(f) in both its fast and its reference form, against G formed
// densely and inverted by Gauss-Jordan elimination (test/targets/dense.ts).
const N = 6;
const poisson = poissonLikelihood();

function problem(lik: Likelihood, seed = 4) {
  const rng = new Rng(seed);
  const X = new Matrix(N, 1);
  for (let i = 0; i < N; i++) X.data[i] = 3 * rng.uniform();
  const K = seKernel({ lengthscale: 0.8, signalSd: 1.2 }).matrix(X);
  for (let i = 0; i < N; i++) K.data[i + i * N] += 1e-6;
  const y = Float64Array.from({ length: N }, () => (lik === probit ? (rng.uniform() < 0.5 ? -1 : 1) : Math.floor(4 * rng.uniform())));
  const x = Float64Array.from({ length: N }, () => rng.normal());
  const v = Float64Array.from({ length: N }, () => rng.normal());
  return { K, y, x, v };
}

function denseMetric(K: Matrix, diag: Float64Array): Dense {
  const G = luInverseAndLogDet(K.toRows()).inverse;
  for (let i = 0; i < N; i++) G[i][i] += diag[i];
  return G;
}

function checkAgainstDense(label: string, m: LocalMetric, G: Dense, v: Float64Array, logDetK: number): void {
  const { inverse, logAbsDet } = luInverseAndLogDet(G);
  const tol = (a: ArrayLike<number>) => 1e-9 * Math.max(1, maxAbs(a));
  assert.ok(Math.abs(m.logDetMetric - logAbsDet) < 1e-9 * (1 + Math.abs(logAbsDet)), `${label}: log|G|`);
  if (m.logDetMetricUpToConstant !== undefined) {
    assert.ok(Math.abs(m.logDetMetricUpToConstant - logDetK - logAbsDet) < 1e-9 * (1 + Math.abs(logAbsDet)), `${label}: log|G| + log|K|`);
  }
  const w = new Float64Array(N);
  m.applyInverse(v, w);
  const want = matVec(inverse, v);
  assert.ok(maxAbsDiff(w, want) < tol(want), `${label}: G^-1 v`);
  const Gv = matVec(G, v);
  m.applyMetric!(v, w);
  assert.ok(maxAbsDiff(w, Gv) < tol(Gv), `${label}: G v`);
  const q = Gv.reduce((s, x, i) => s + x * v[i], 0);
  assert.ok(Math.abs(m.metricQuadraticForm!(v) - q) < 1e-9 * Math.abs(q), `${label}: v' G v`);
}

test("the Fisher metric K^-1 + beta R(f) matches the dense metric (probit, Poisson; beta = 1 and 0.4)", () => {
  for (const lik of [probit, poisson]) {
    const pr = problem(lik);
    for (const beta of [1, 0.4]) {
      const t = annealedLatentTarget({ likelihood: lik, y: pr.y, kernelMatrix: pr.K, beta });
      const r = lik.fisherInformation(pr.x, new Float64Array(N)).map((x: number) => beta * x);
      const m = t.fisherMetric(pr.x);
      checkAgainstDense(`${lik.name} fisher beta=${beta}`, m, denseMetric(t.kernelMatrix, r), pr.v, t.logDetK);
      // L and dL/dx are the target's
      const g = new Float64Array(N);
      assert.equal(m.logDensity, t.logDensityAndGradient(pr.x, g));
      assert.deepEqual(Array.from(m.gradient), Array.from(g));
    }
  }
});

test("negative control: the same check rejects the observed-Hessian metric where it differs from the Fisher one (probit)", () => {
  const pr = problem(probit);
  const t = annealedLatentTarget({ likelihood: probit, y: pr.y, kernelMatrix: pr.K });
  const r = probit.fisherInformation(pr.x, new Float64Array(N));
  assert.throws(() => checkAgainstDense("observed as fisher", t.geometry(pr.x), denseMetric(t.kernelMatrix, r), pr.v, t.logDetK), assert.AssertionError);
});

test("the note's metric K^-1 + Lambda(f), fast and reference geometry, matches the dense metric", () => {
  const pr = problem(probit);
  const t = annealedLatentTarget({ likelihood: probit, y: pr.y, kernelMatrix: pr.K });
  const d1 = new Float64Array(N), d2 = new Float64Array(N);
  probit.derivatives(pr.y, pr.x, d1, d2);
  const G = denseMetric(t.kernelMatrix, d2.map((x) => -x));
  checkAgainstDense("fast geometry", t.geometry(pr.x), G, pr.v, t.logDetK);
  checkAgainstDense("reference geometry", t.referenceGeometry(pr.x), G, pr.v, t.logDetK);
});

test("a momentum draw from the Fisher metric has covariance G (10^5 draws, entrywise within 5 standard errors)", () => {
  const pr = problem(poisson);
  const t = annealedLatentTarget({ likelihood: poisson, y: pr.y, kernelMatrix: pr.K });
  const m = t.fisherMetric(pr.x);
  const G = denseMetric(t.kernelMatrix, poisson.fisherInformation(pr.x, new Float64Array(N)));
  const rng = new Rng(9);
  const draws = 100000;
  const S = Array.from({ length: N }, () => new Float64Array(N));
  const p = new Float64Array(N);
  for (let k = 0; k < draws; k++) {
    m.sampleMomentum(rng, p);
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) S[i][j] += p[i] * p[j] / draws;
  }
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) {
    const se = Math.sqrt((G[i][j] * G[i][j] + G[i][i] * G[j][j]) / draws);
    assert.ok(Math.abs(S[i][j] - G[i][j]) < 5 * se, `cov[${i}][${j}] = ${S[i][j]}, G = ${G[i][j]}`);
  }
});

test("the Fisher metric is refused for an EP-style q", () => {
  const pr = problem(probit);
  const t = annealedLatentTarget({ likelihood: probit, y: pr.y, kernelMatrix: pr.K, q: { mean: new Float64Array(N), siteVariances: new Float64Array(N).fill(1) } });
  assert.throws(() => t.fisherMetric(pr.x), TargetOptionError);
});
