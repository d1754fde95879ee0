// Holmes & Held's auxiliary-variable sampler: its two draws checked against independent
// distributions (the truncated normal's cdf; the logistic law that the scale mixture must give),
// the chain's invariance on the small logistic regression with negative controls, and where it
// applies. The invariance of the default kernel runs in test/models/parametricInvariance.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import { holmesHeld } from "../../src/samplers/kernels/holmesHeld.js";
import { gigHalf, logisticMixingVariance, truncatedNormalByInversion } from "../../src/samplers/kernels/holmesHeldDraws.js";
import { parametricSampler, parametricSamplerApplies } from "../../src/samplers/parametricRegistry.js";
import { denseMetricTarget } from "../../src/targets/denseMetric.js";
import { BURN_IN, cases, expectFail, run } from "../models/invarianceHarness.js";
import { quadratureMoments, smallLogistic } from "../models/parametricFixtures.js";
import { sample } from "../../src/samplers/chain/driver.js";
import { momentZScores } from "./mcse.js";
import type { LogisticRegressionModel } from "../../src/models/logisticRegression.js";
import { drawMany, ksTest, truncatedNormalCdf } from "../random/stats.js";

const logistic = cases[2];

test("the truncated normal by inversion has the truncated normal's distribution, both sides, in the tails too", () => {
  const rng = new Rng(41);
  for (const [mean, sd, positive] of [[0.3, 1, true], [0.3, 1, false], [-2, 0.5, true], [-12, 1, true], [40, 2, false]] as const) {
    const draws = drawMany(4000, () => (truncatedNormalByInversion(rng, mean, sd * sd, positive) - mean) / sd);
    const a = -mean / sd;
    const cdf = positive ? truncatedNormalCdf(a, Infinity) : truncatedNormalCdf(-Infinity, a);
    for (const z of draws) assert.ok(positive ? z > a : z <= a, `draw on the wrong side: ${z} vs ${a}`);
    const ks = ksTest(draws, cdf);
    assert.ok(ks.p > 1e-3, `mean ${mean}, sd ${sd}, ${positive ? ">" : "<="} 0: KS p = ${ks.p}`);
  }
});

/** Logistic eps, then lambda | eps by the sampler, then eps' ~ N(0, lambda): eps' is logistic iff lambda | eps is right (a Gibbs step of (eps, lambda)). */
function gibbsLogisticDraws(seed: number, skipSqueeze: boolean): Float64Array {
  const rng = new Rng(seed);
  return drawMany(20000, () => {
    const u = rng.uniform();
    const eps = Math.log(u / (1 - u));
    const lambda = logisticMixingVariance(rng, eps, skipSqueeze);
    return Math.sqrt(lambda) * rng.normal();
  });
}
const logisticCdf = (x: number) => 1 / (1 + Math.exp(-x));

test("lambda | r (Appendix A4) is the conditional of the logistic scale mixture: a Gibbs step keeps eps logistic", () => {
  const ks = ksTest(gibbsLogisticDraws(42, false), logisticCdf);
  assert.ok(ks.p > 1e-3, `KS p = ${ks.p}, D = ${ks.d}`);
});

test("negative control: lambda from the GIG proposal without the squeeze does not keep eps logistic", () => {
  const ks = ksTest(gibbsLogisticDraws(42, true), logisticCdf);
  assert.ok(ks.p < 1e-6, `KS p = ${ks.p}, D = ${ks.d}`);
});

test("negative control: Holmes-Held with lambda from the unsqueezed proposal fails on the logistic model", (t) => {
  const target = denseMetricTarget(logistic.model());
  expectFail(t, run(holmesHeld(target, target.model as LogisticRegressionModel, { broken: "no-squeeze" }), logistic, undefined, 13), "holmes-held no-squeeze");
});

test("negative control: Holmes-Held whose z-sweep draws each z_i given the others' values before the sweep fails on the logistic model", (t) => {
  const target = denseMetricTarget(logistic.model());
  expectFail(t, run(holmesHeld(target, target.model as LogisticRegressionModel, { broken: "stale-mean" }), logistic, undefined, 13), "holmes-held stale-mean");
});

test("negative control: Holmes-Held whose z_i | z_-i keeps z_i's own term in the mean (no leave-one-out) fails on the logistic model over 20000 draws", (t) => {
  // the error is of order h_i / lambda_i, about 0.07 here: it needs a longer run than the others
  const target = denseMetricTarget(logistic.model());
  const m = quadratureMoments(smallLogistic(), -4, 7);
  const result = sample(holmesHeld(target, target.model as LogisticRegressionModel, { broken: "no-leave-one-out" }), { draws: 20000, burnIn: BURN_IN, chains: 2, seed: 13, init: logistic.init });
  expectFail(t, momentZScores(result, m.mean, (i, j) => m.cov[i][j]), "holmes-held no-leave-one-out, 20000 draws");
});

test("holmes-held applies to logistic regression only", () => {
  const gauss = denseMetricTarget(cases[0].model());
  assert.equal(parametricSamplerApplies(gauss, "holmes-held"), false);
  assert.equal(parametricSamplerApplies(denseMetricTarget(logistic.model()), "holmes-held"), true);
  assert.throws(() => parametricSampler(gauss, "holmes-held", new Float64Array(2), 10), /applies only to logistic regression/);
});

test("the GIG(1/2, 1, r^2) draw is finite and positive for tiny and large residuals (no cancellation of y)", () => {
  const rng = new Rng(44);
  for (const r of [1e-11, 1e-8, 1e-4, 1, 30]) {
    for (let i = 0; i < 20000; i++) {
      const l = gigHalf(rng, r);
      assert.ok(l > 0 && Number.isFinite(l), `r = ${r}: lambda = ${l}`);
    }
  }
});
