/**
 * One lengthscale shared by every input column (`--shared-lengthscale`): theta = (psi, log sigma)
 * whatever d is. K at a shared psi is K of the ARD kernel with every psi_r = psi, dK/dpsi is the
 * sum of the ARD derivatives (the chain rule), the theta targets' gradients agree with finite
 * differences, and a joint chain runs on it with two theta columns.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { positivePrior } from "../../src/gp/hyperpriors.js";
import { DEFAULT_RELATIVE_JITTER, hyperDimension, kernelAt, type HyperSpace } from "../../src/hyper/covariance.js";
import { hyperSpace } from "../../src/hyper/jointKernel.js";
import { thetaGivenF } from "../../src/hyper/thetaGivenF.js";
import { thetaGivenNu } from "../../src/hyper/thetaGivenNu.js";
import { jointChain } from "../../src/hyper/schemes.js";
import { DimensionError } from "../../src/linalg/errors.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { probit } from "../../src/likelihoods/probit.js";
import { Rng } from "../../src/random/rng.js";

const n = 12, d = 3;
const rng0 = new Rng(3);
const X = new Matrix(n, d, Float64Array.from({ length: n * d }, () => rng0.uniform()));
const prior = () => positivePrior({ family: "gamma", shape: 1, rate: 1 });
const space = (priors: number): HyperSpace => ({
  x: X,
  lengthscalePriors: Array.from({ length: priors }, prior),
  variancePrior: positivePrior({ family: "invgamma", shape: 1, scale: 1 }),
  relativeJitter: DEFAULT_RELATIVE_JITTER,
});
const shared = space(1);
const ard = space(d);

function gradientByDifferences(fn: (t: Float64Array) => number, t: Float64Array, h = 1e-5): Float64Array {
  return t.map((_, k) => {
    const up = t.slice(); up[k] += h;
    const down = t.slice(); down[k] -= h;
    return (fn(up) - fn(down)) / (2 * h);
  });
}

test("shared lengthscale: K is the ARD K with equal psi, and dK/dpsi the sum of the ARD derivatives", () => {
  assert.equal(hyperDimension(shared), 2);
  assert.equal(hyperDimension(hyperSpace(X, { likelihood: "probit", lengthscalePrior: { family: "gamma", shape: 1, rate: 1 }, variancePrior: { family: "invgamma", shape: 1, scale: 1 }, sharedLengthscale: true })), 2);
  const psi = -0.4, logSigma = 0.6;
  const a = kernelAt(shared, [psi, logSigma]);
  const b = kernelAt(ard, [psi, psi, psi, logSigma]);
  a.K.data.forEach((v, i) => assert.ok(Math.abs(v - b.K.data[i]!) <= 1e-14 * (1 + Math.abs(v)), `K[${i}]`));
  const sum = new Float64Array(n * n);
  for (let r = 0; r < d; r++) b.derivative(r).data.forEach((v, i) => (sum[i] += v));
  a.derivative(0).data.forEach((v, i) => assert.ok(Math.abs(v - sum[i]!) <= 1e-12 * (1 + Math.abs(v)), `dK/dpsi[${i}]`));
  // negative control: one column's derivative alone is not it
  assert.ok(a.derivative(0).data.some((v, i) => Math.abs(v - b.derivative(0).data[i]!) > 1e-6));
  assert.throws(() => kernelAt(space(2), [0, 0, 0]), DimensionError);
});

test("shared lengthscale: theta | f and theta | y, nu gradients against central finite differences", () => {
  const rng = new Rng(9);
  const t = Float64Array.of(-0.8, 0.5);
  const nu = Float64Array.from({ length: n }, () => rng.normal());
  const f = kernelAt(shared, t).chol.multiplyLower(nu);
  const y = f.map((v) => (v + rng.normal() > 0 ? 1 : -1));
  const sa = thetaGivenF(shared, f);
  const aa = thetaGivenNu(shared, probit, y, nu);
  for (const [name, target] of [["theta | f", sa], ["theta | y, nu", aa]] as const) {
    const g = target.evaluate(t).gradient;
    const fd = gradientByDifferences((u) => target.logDensity(u), t);
    for (let k = 0; k < 2; k++) assert.ok(Math.abs(g[k]! - fd[k]!) <= 1e-6 * (1 + Math.abs(fd[k]!)), `${name} gradient[${k}]: ${g[k]} vs ${fd[k]}`);
  }
});

test("shared lengthscale: a joint chain (aa, sa) moves theta = (psi, log sigma)", () => {
  const y = Float64Array.from({ length: n }, (_, i) => (X.get(i, 0) + X.get(i, 1) > 1 ? 1 : -1));
  for (const scheme of ["aa", "sa"] as const) {
    const chain = jointChain({ space: shared, likelihood: probit, y }, { scheme, thetaSampler: "mh" }, [0, 0]);
    const rng = new Rng(4);
    const seen = new Set<number>();
    for (let i = 0; i < 50; i++) {
      chain.step(rng);
      assert.equal(chain.t.length, 2);
      seen.add(chain.t[0]!);
    }
    assert.ok(seen.size > 1, `${scheme}: psi never moved`);
  }
});
