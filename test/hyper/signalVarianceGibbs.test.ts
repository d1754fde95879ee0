import { test } from "node:test";
import assert from "node:assert/strict";
import { positivePrior } from "../../src/gp/hyperpriors.js";
import { kernelAt, type HyperSpace } from "../../src/hyper/covariance.js";
import { gibbsSignalVariance, NotConjugateError } from "../../src/hyper/signalVarianceGibbs.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { regularizedGammaQ } from "../../src/math/incompleteGamma.js";
import { Rng } from "../../src/random/rng.js";
import { ksTest } from "../random/stats.js";

const n = 8;
const rngX = new Rng(3);
const SPACE: HyperSpace = {
  x: new Matrix(n, 2, Float64Array.from({ length: n * 2 }, () => rngX.uniform())),
  lengthscalePriors: [positivePrior({ family: "gamma", shape: 1, rate: 1 }), positivePrior({ family: "gamma", shape: 1, rate: 1 })],
  variancePrior: positivePrior({ family: "invgamma", shape: 2, scale: 1.5 }),
  relativeJitter: 1e-6,
};

function ks(draws: number[], cdf: (x: number) => number): number {
  return ksTest(Float64Array.from(draws), cdf).d;
}

/**
 * Invariance: sigma from its prior, f | sigma from the model, then one Gibbs step: the new sigma
 * must again follow the prior (the joint p(sigma, f) is kept). Kolmogorov-Smirnov at the 1% level.
 */
function gibbsMarginal(step: (t: Float64Array, f: Float64Array, rng: Rng) => Float64Array, seed: number): number[] {
  const rng = new Rng(seed);
  const psi = [-0.5, 0.2];
  const out: number[] = [];
  for (let r = 0; r < 4000; r++) {
    const sigma = SPACE.variancePrior.sample(rng);
    const t = Float64Array.of(...psi, Math.log(sigma));
    const f = kernelAt(SPACE, t).chol.multiplyLower(Float64Array.from({ length: n }, () => rng.normal()));
    out.push(Math.exp(step(t, f, rng)[2]!));
  }
  return out;
}

const priorCdf = (x: number) => regularizedGammaQ(2, 1.5 / x);
const bound = 1.628 / Math.sqrt(4000);

test("signal variance Gibbs step keeps p(sigma, f): sigma after the step follows the prior", () => {
  const d = ks(gibbsMarginal((t, f, rng) => gibbsSignalVariance(SPACE, t, f, rng), 1), priorCdf);
  assert.ok(d < bound, `KS ${d} >= ${bound}`);
});

test("signal variance Gibbs step (negative control): a shape of a + n instead of a + n/2 fails the same test", () => {
  const broken = (t: Float64Array, f: Float64Array, rng: Rng) => {
    const u = Float64Array.from(t);
    u[2] = 0;
    const a = kernelAt(SPACE, u).chol.solve(f);
    let q = 0;
    for (let i = 0; i < n; i++) q += f[i]! * a[i]!;
    u[2] = Math.log((1.5 + q / 2) / rng.gamma(2 + n));
    return u;
  };
  const d = ks(gibbsMarginal(broken, 1), priorCdf);
  assert.ok(d > bound, `the broken step passed: KS ${d}`);
});

test("signal variance Gibbs step needs an inverse-Gamma prior", () => {
  const s = { ...SPACE, variancePrior: positivePrior({ family: "gamma", shape: 1, rate: 1 }) };
  assert.throws(() => gibbsSignalVariance(s, Float64Array.of(0, 0, 0), new Float64Array(n), new Rng(1)), NotConjugateError);
});
