import { test } from "node:test";
import assert from "node:assert/strict";
import { positivePrior } from "../../src/gp/hyperpriors.js";
import { DEFAULT_RELATIVE_JITTER, hyperLogPrior, kernelAt, type HyperSpace } from "../../src/hyper/covariance.js";
import { thetaGivenF } from "../../src/hyper/thetaGivenF.js";
import { thetaGivenNu } from "../../src/hyper/thetaGivenNu.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { poissonLikelihood } from "../../src/likelihoods/poisson.js";
import { probit } from "../../src/likelihoods/probit.js";
import { Rng } from "../../src/random/rng.js";
import { fisherAgreement } from "./fisherCheck.js";

function space(n: number, d: number, seed: number): HyperSpace {
  const rng = new Rng(seed);
  return {
    x: new Matrix(n, d, Float64Array.from({ length: n * d }, () => rng.uniform())),
    lengthscalePriors: Array.from({ length: d }, () => positivePrior({ family: "gamma", shape: 1, rate: 1 })),
    variancePrior: positivePrior({ family: "invgamma", shape: 1, scale: 1 }),
    relativeJitter: DEFAULT_RELATIVE_JITTER,
  };
}

function gradientByDifferences(fn: (t: Float64Array) => number, t: Float64Array, h = 1e-5): Float64Array {
  return t.map((_, k) => {
    const up = t.slice(); up[k] += h;
    const down = t.slice(); down[k] -= h;
    return (fn(up) - fn(down)) / (2 * h);
  });
}

function assertClose(a: ArrayLike<number>, b: ArrayLike<number>, rel: number, what: string): void {
  for (let i = 0; i < a.length; i++) {
    assert.ok(Math.abs(a[i]! - b[i]!) <= rel * (1 + Math.abs(b[i]!)), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
  }
}

test("theta | f: the log density at n = 2 equals log N(f; 0, K) + log p(t) computed by hand", () => {
  const s = space(2, 1, 1);
  const t = Float64Array.of(-0.7, 0.4);
  const f = Float64Array.of(0.3, -1.1);
  // K = sigma [[1 + j, c], [c, 1 + j]], c = exp(-(x1 - x2)^2 / (2 l^2)).
  const sigma = Math.exp(0.4);
  const l = Math.exp(-0.7);
  const c = Math.exp(-((s.x.get(0, 0) - s.x.get(1, 0)) ** 2) / (2 * l * l));
  const a = sigma * (1 + s.relativeJitter);
  const b = sigma * c;
  const det = a * a - b * b;
  const quad = (a * f[0] * f[0] - 2 * b * f[0] * f[1] + a * f[1] * f[1]) / det;
  const logN = -Math.log(2 * Math.PI) - 0.5 * Math.log(det) - 0.5 * quad;
  // Gamma(1, 1) on l with Jacobian: log l - l; inverse-Gamma(1, 1) on sigma with Jacobian: -log sigma - 1 / sigma.
  const logPrior = Math.log(l) - l + (-Math.log(sigma) - 1 / sigma);
  assert.ok(Math.abs(thetaGivenF(s, f).logDensity(t) - (logN + logPrior)) < 1e-12);
});

test("theta | f: gradient against central finite differences (ARD, d = 3)", () => {
  const s = space(15, 3, 2);
  const rng = new Rng(5);
  for (const t of [Float64Array.of(-0.5, 0.2, -1, 0.3), Float64Array.of(0.4, -0.8, 0.1, -0.6)]) {
    const f = kernelAt(s, t).chol.multiplyLower(Float64Array.from({ length: 15 }, () => rng.normal()));
    const target = thetaGivenF(s, f);
    const e = target.evaluate(t);
    assert.ok(Math.abs(e.value - target.logDensity(t)) < 1e-12 * (1 + Math.abs(e.value)));
    assertClose(e.gradient, gradientByDifferences((u) => target.logDensity(u), t), 1e-6, "gradient");
  }
});

test("theta | f: the metric is the Fisher information of f | t (Monte Carlo, 4 standard errors) plus the prior's curvature; twice it fails", () => {
  const n = 6;
  const s = space(n, 2, 3);
  const t = Float64Array.of(-0.6, -0.2, 0.5);
  const m = 3;
  // Scores of log N(f; 0, K(t)) alone: the gradient minus the prior's.
  const prior = hyperLogPrior(s, t);
  const G = thetaGivenF(s, new Float64Array(n)).metric(t);
  const rng = new Rng(11);
  const chol = kernelAt(s, t).chol;
  const { worstTrue, bestWrong } = fisherAgreement(G, prior.hessianDiagonal, 40000, () => {
    const f = chol.multiplyLower(Float64Array.from({ length: n }, () => rng.normal()));
    return thetaGivenF(s, f).evaluate(t).gradient.map((g, k) => g - prior.gradient[k]!);
  });
  assert.ok(worstTrue < 4, `metric off by ${worstTrue.toFixed(2)} standard errors`);
  assert.ok(bestWrong > 10, `twice the metric is within ${bestWrong.toFixed(2)} standard errors`);
});

test("theta | y, nu: gradient through the Cholesky derivative against central finite differences (probit, Poisson)", () => {
  const n = 12;
  const s = space(n, 2, 4);
  const rng = new Rng(8);
  const nu = Float64Array.from({ length: n }, () => rng.normal());
  const t = Float64Array.of(-0.9, 0.3, 0.7);
  const f = kernelAt(s, t).chol.multiplyLower(nu);
  const yProbit = f.map((v) => (v + rng.normal() > 0 ? 1 : -1));
  const yCounts = f.map((v) => Math.floor(Math.exp(v) + rng.uniform() * 2));
  for (const [name, lik, y] of [["probit", probit, yProbit], ["poisson", poissonLikelihood(), yCounts]] as const) {
    const target = thetaGivenNu(s, lik, y, nu);
    const e = target.evaluate(t);
    assert.ok(Math.abs(e.value - target.logDensity(t)) < 1e-12 * (1 + Math.abs(e.value)), name);
    assertClose(e.gradient, gradientByDifferences((u) => target.logDensity(u), t), 1e-6, `${name} gradient`);
    assertClose(target.latent(t), f, 1e-14, `${name} latent`);
  }
});
