/**
 * SMMALA's metric in the AA scheme (comparison paper, Appendix A.2): G(t) = J' R J minus the
 * prior's Hessian, J = df/dt at f = L(t) nu. Checked twice independently: J by central finite
 * differences of f = L(t) nu (so the Cholesky derivative is not trusted), and the Fisher part as
 * the covariance of the scores d log p(y | L(t) nu)/dt over y drawn from the likelihood (Monte
 * Carlo, 4 standard errors; twice the metric must fail); for probit and Poisson.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { positivePrior } from "../../src/gp/hyperpriors.js";
import { DEFAULT_RELATIVE_JITTER, hyperLogPrior, kernelAt, type HyperSpace } from "../../src/hyper/covariance.js";
import { thetaGivenNu } from "../../src/hyper/thetaGivenNu.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { poissonLikelihood } from "../../src/likelihoods/poisson.js";
import { probit } from "../../src/likelihoods/probit.js";
import { Rng } from "../../src/random/rng.js";
import { fisherAgreement } from "./fisherCheck.js";

const n = 7;
const rng0 = new Rng(21);
const space: HyperSpace = {
  x: new Matrix(n, 2, Float64Array.from({ length: 2 * n }, () => rng0.uniform())),
  lengthscalePriors: [0, 1].map(() => positivePrior({ family: "gamma", shape: 1, rate: 1 })),
  variancePrior: positivePrior({ family: "invgamma", shape: 1, scale: 1 }),
  relativeJitter: DEFAULT_RELATIVE_JITTER,
};
const t = Float64Array.of(-0.7, -0.3, 0.4);
const m = 3;
const nu = Float64Array.from({ length: n }, () => rng0.normal());
const likelihoods = [["probit", probit], ["poisson", poissonLikelihood()]] as const;

test("AA metric: J' R J - prior Hessian with J = df/dt by central finite differences of f = L(t) nu", () => {
  const f = kernelAt(space, t).chol.multiplyLower(nu);
  const h = 1e-5;
  const J = Array.from({ length: m }, (_, k) => {
    const up = t.slice(); up[k] += h;
    const down = t.slice(); down[k] -= h;
    const a = kernelAt(space, up).chol.multiplyLower(nu), b = kernelAt(space, down).chol.multiplyLower(nu);
    return a.map((v, i) => (v - b[i]!) / (2 * h));
  });
  const prior = hyperLogPrior(space, t);
  for (const [name, lik] of likelihoods) {
    const y = new Float64Array(n).fill(1);
    const G = thetaGivenNu(space, lik, y, nu).metric(t);
    const R = lik.fisherInformation(f, new Float64Array(n));
    for (let k = 0; k < m; k++) for (let l = 0; l < m; l++) {
      let want = 0;
      for (let i = 0; i < n; i++) want += J[k]![i]! * R[i]! * J[l]![i]!;
      if (k === l) want -= prior.hessianDiagonal[k]!;
      assert.ok(Math.abs(G.get(k, l) - want) <= 1e-6 * (1 + Math.abs(want)), `${name} G[${k}][${l}]: ${G.get(k, l)} vs ${want}`);
      assert.equal(G.get(k, l), G.get(l, k));
    }
  }
});

test("AA metric: the Fisher part is the covariance of the scores over y ~ p(y | L(t) nu) (Monte Carlo, 4 standard errors); twice it fails", () => {
  const f = kernelAt(space, t).chol.multiplyLower(nu);
  const prior = hyperLogPrior(space, t);
  for (const [name, lik] of likelihoods) {
    const rng = new Rng(5);
    const G = thetaGivenNu(space, lik, new Float64Array(n).fill(1), nu).metric(t);
    const y = new Float64Array(n);
    const { worstTrue, bestWrong } = fisherAgreement(G, prior.hessianDiagonal, 20000, () => {
      lik.sample(f, rng, y);
      return thetaGivenNu(space, lik, y, nu).evaluate(t).gradient.map((g, k) => g - prior.gradient[k]!);
    });
    assert.ok(worstTrue < 4, `${name}: metric off by ${worstTrue.toFixed(2)} standard errors`);
    assert.ok(bestWrong > 10, `${name}: twice the metric is within ${bestWrong.toFixed(2)} standard errors`);
  }
});
