import { test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { ordinalLikelihood } from "../../src/likelihoods/ordinal.js";
import { poissonLogPmf } from "../../src/likelihoods/poisson.js";
import { normalExpectation } from "../../src/math/gaussHermite.js";
import { normalCdf } from "../../src/math/normal.js";
import { conditionalAtTheta, type LatentMarginals } from "../../src/predict/latentConditional.js";
import { ordinalClassProbabilities, probitPositiveProbability, quadraturePredictive } from "../../src/predict/observation.js";
import { predict, type MarginalsByDraw } from "../../src/predict/predict.js";
import { areaUnderRoc, binaryErrorRate, brierScore } from "../../src/predict/scores.js";
import { Rng } from "../../src/random/rng.js";
import { gaussSolve } from "./denseSolve.js";

function oneDraw(mg: LatentMarginals): MarginalsByDraw {
  return { chains: 1, draws: 1, at: () => mg };
}

test("latent conditional: mean and variance of f_* | f, and of f_* under q = N(mu, Sigma), against a dense elimination", () => {
  const rng = new Rng(4);
  const x = new Matrix(6, 2, Float64Array.from({ length: 12 }, () => rng.uniform() * 2));
  const xs = new Matrix(3, 2, Float64Array.from({ length: 6 }, () => rng.uniform() * 2));
  const kernel = seKernel({ lengthscale: [0.8, 1.3], signalSd: 1.5 });
  const jitter = 1e-3;
  const K = kernel.matrix(x).toRows().map((row, i) => row.map((v, j) => v + (i === j ? jitter : 0)));
  const Ks = kernel.cross(x, xs);
  const f = Array.from({ length: 6 }, () => rng.normal());
  const cond = conditionalAtTheta(kernel, x, xs, jitter);
  const mean = cond.mean(f);
  // Sigma = a random SPD matrix B B' / 6.
  const B = Array.from({ length: 6 }, () => Array.from({ length: 6 }, () => rng.normal()));
  const sigmaRows = B.map((ri) => B.map((rj) => ri.reduce((s, v, k) => s + v * rj[k]!, 0) / 6));
  const q = cond.fromGaussian(f, Matrix.fromRows(sigmaRows));
  for (let j = 0; j < 3; j++) {
    const kj = Array.from({ length: 6 }, (_, i) => Ks.get(i, j));
    const a = gaussSolve(K, kj);
    const wantMean = a.reduce((s, v, i) => s + v * f[i]!, 0);
    const wantVar = kernel.diagonal(xs)[j]! + jitter - a.reduce((s, v, i) => s + v * kj[i]!, 0);
    const extra = a.reduce((s, ai, i) => s + ai * sigmaRows[i]!.reduce((t, sik, k) => t + sik * a[k]!, 0), 0);
    assert.ok(Math.abs(mean[j]! - wantMean) < 1e-9, `mean ${j}`);
    assert.ok(Math.abs(cond.variance[j]! - wantVar) < 1e-9, `variance ${j}`);
    assert.ok(Math.abs(q.mean[j]! - wantMean) < 1e-9 && Math.abs(q.variance[j]! - (wantVar + extra)) < 1e-9, `q ${j}`);
  }
});

test("observation: probit's closed form and ordinal's widened noise agree with quadrature of the likelihood; ignoring v does not", () => {
  const mg = { mean: Float64Array.of(-1.2, 0.3, 2.5), variance: Float64Array.of(0.5, 2, 4) };
  const p = probitPositiveProbability(mg);
  for (let j = 0; j < 3; j++) {
    const want = normalExpectation(normalCdf, mg.mean[j]!, mg.variance[j]!, 80);
    assert.ok(Math.abs(p[j]! - want) < 1e-10, `probit ${j}: ${p[j]} vs ${want}`);
    assert.ok(Math.abs(normalCdf(mg.mean[j]!) - want) > 1e-2, "Phi(m) alone is far off");
  }
  const thresholds = [-1, 0.5, 2];
  const lik = ordinalLikelihood({ thresholds, noiseSd: 0.7 });
  const cp = ordinalClassProbabilities(thresholds, 0.7, mg);
  const narrow = ordinalClassProbabilities(thresholds, 0.7, { mean: mg.mean, variance: new Float64Array(3) });
  for (let k = 1; k <= 4; k++) {
    const byQuadrature = quadraturePredictive(lik, new Float64Array(3).fill(k), mg);
    for (let j = 0; j < 3; j++) {
      assert.ok(Math.abs(cp[j * 4 + k - 1]! - byQuadrature[j]!) < 1e-7, `ordinal ${j}, class ${k}: ${cp[j * 4 + k - 1]} vs ${byQuadrature[j]}`);
    }
  }
  assert.ok(Math.abs(narrow[2 * 4 + 3]! - cp[2 * 4 + 3]!) > 1e-2);
});

test("scores: AUC against counting pairs, Brier and error rate by hand", () => {
  const rng = new Rng(9);
  const score = Array.from({ length: 40 }, () => Math.round(rng.uniform() * 10) / 10);
  const positive = score.map((s) => rng.uniform() < s);
  let pairs = 0, wins = 0;
  for (let i = 0; i < 40; i++) for (let j = 0; j < 40; j++) {
    if (positive[i] && !positive[j]) {
      pairs++;
      wins += score[i]! > score[j]! ? 1 : score[i] === score[j] ? 0.5 : 0;
    }
  }
  assert.ok(Math.abs(areaUnderRoc(score, positive) - wins / pairs) < 1e-15);
  assert.ok(Number.isNaN(areaUnderRoc([0.1, 0.2], [true, true])));
  assert.ok(Math.abs(brierScore([0.9, 0.2, 0.6], [true, false, false]) - (0.01 + 0.04 + 0.36) / 3) < 1e-15);
  assert.equal(binaryErrorRate([0.9, 0.2, 0.6, 0.5], [true, false, false, false]), 0.5);
});

test("Poisson interval: with no latent uncertainty it is the Poisson distribution's own 5% and 95% points", () => {
  const rate = 7.3;
  const pred = predict({ likelihood: "poisson" }, oneDraw({ mean: Float64Array.of(Math.log(rate)), variance: Float64Array.of(0) }));
  let cdf = 0, lo = -1, hi = -1;
  for (let k = 0; hi < 0; k++) {
    cdf += Math.exp(poissonLogPmf(k, rate));
    if (lo < 0 && cdf >= 0.05) lo = k;
    if (cdf >= 0.95) hi = k;
  }
  assert.equal(pred.countLower![0], lo);
  assert.equal(pred.countUpper![0], hi);
  assert.ok(Math.abs(pred.countMean![0]! - rate) < 1e-12);
});

/** P(u > 0) for u ~ N(0, C), 2 or 3 dimensions (Sheppard's formula and its 3-D form). */
function orthant(c: number[][]): number {
  const rho = (i: number, j: number) => c[i]![j]! / Math.sqrt(c[i]![i]! * c[j]![j]!);
  if (c.length === 2) return 0.25 + Math.asin(rho(0, 1)) / (2 * Math.PI);
  return 0.125 + (Math.asin(rho(0, 1)) + Math.asin(rho(0, 2)) + Math.asin(rho(1, 2))) / (4 * Math.PI);
}

test("probit prediction from exact posterior draws (n = 2) equals the ratio of orthant probabilities; without the conditional variance it does not", () => {
  const x = Matrix.fromRows([[0], [0.7]]);
  const xs = Matrix.fromRows([[0.35]]);
  const y = [1, 1];
  const kernel = seKernel({ lengthscale: 0.6, signalSd: 2 });
  const all = Matrix.fromRows([[0], [0.7], [0.35]]);
  const Kall = kernel.matrix(all).toRows();
  // p(y, y_* = +1) / p(y): orthants of N(0, D (K + I) D), D = diag(y, +1).
  const signs = [...y, 1];
  const C = Kall.map((row, i) => row.map((v, j) => signs[i]! * signs[j]! * (v + (i === j ? 1 : 0))));
  const exact = orthant(C) / orthant(C.slice(0, 2).map((r) => r.slice(0, 2)));
  // Exact posterior draws of f by rejection from the prior: accept with probability Phi(y1 f1) Phi(y2 f2).
  const rng = new Rng(2026);
  const L = kernel.matrix(x).toRows();
  const l11 = Math.sqrt(L[0]![0]!), l21 = L[1]![0]! / l11, l22 = Math.sqrt(L[1]![1]! - l21 * l21);
  const draws: Float64Array[] = [];
  while (draws.length < 50000) {
    const z1 = rng.normal(), z2 = rng.normal();
    const f = Float64Array.of(l11 * z1, l21 * z1 + l22 * z2);
    if (rng.uniform() < normalCdf(y[0]! * f[0]!) * normalCdf(y[1]! * f[1]!)) draws.push(f);
  }
  const cond = conditionalAtTheta(kernel, x, xs);
  const source: MarginalsByDraw = { chains: 1, draws: draws.length, at: (_, i) => ({ mean: cond.mean(draws[i]!), variance: cond.variance }) };
  const pred = predict({ likelihood: "probit" }, source);
  const per = draws.map((f) => normalCdf(cond.mean(f)[0]! / Math.sqrt(1 + cond.variance[0]!)));
  const mean = per.reduce((a, b) => a + b, 0) / per.length;
  const se = Math.sqrt(per.reduce((a, b) => a + (b - mean) ** 2, 0) / (per.length - 1) / per.length);
  assert.ok(Math.abs(pred.pPositive![0]! - mean) < 1e-12);
  assert.ok(Math.abs(pred.pPositive![0]! - exact) < 4 * se, `predicted ${pred.pPositive![0]} vs exact ${exact} (se ${se})`);
  const withoutVariance = draws.reduce((a, f) => a + normalCdf(cond.mean(f)[0]!), 0) / draws.length;
  assert.ok(Math.abs(withoutVariance - exact) > 8 * se, `Phi(m) alone: ${withoutVariance} vs ${exact} (se ${se})`);
});

test("predict: scores from test labels, with an MCSE for the log predictive density and Brier score", () => {
  const rng = new Rng(3);
  const m = 30;
  const chains = 2, draws = 200;
  const base = Float64Array.from({ length: m }, () => rng.normal() * 2);
  const at = (c: number, i: number) => {
    const r = new Rng(100 + c, i);
    return { mean: base.map((v) => v + 0.3 * r.normal()), variance: new Float64Array(m).fill(0.2) };
  };
  const yStar = base.map((v) => (v + rng.normal() > 0 ? 1 : -1));
  const pred = predict({ likelihood: "probit" }, { chains, draws, at }, yStar);
  const s = pred.scores!;
  const p = pred.pPositive!;
  const lpd = Array.from(yStar, (v, j) => Math.log(v === 1 ? p[j]! : 1 - p[j]!)).reduce((a, b) => a + b, 0) / m;
  assert.ok(Math.abs(s.meanLogPredictiveDensity - lpd) < 1e-12);
  assert.ok(s.meanLogPredictiveDensityMcse > 0 && s.meanLogPredictiveDensityMcse < 0.05);
  assert.ok(s.brierMcse! > 0 && s.auc! > 0.5);
  assert.throws(() => predict({ likelihood: "probit" }, { chains, draws, at }, Float64Array.of(1, 2)), RangeError);
});
