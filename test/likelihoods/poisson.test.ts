import { test } from "node:test";
import assert from "node:assert/strict";
import { LikelihoodDataError, LikelihoodOptionError, poissonLikelihood, poissonLogPmf, samplePoisson } from "../../src/likelihoods/index.js";
import { normalQuantile } from "../../src/math/index.js";
import { Rng } from "../../src/random/index.js";
import type { Likelihood } from "../../src/likelihoods/types.js";
import { assertContract, assertReport, checkFisherMonteCarlo, checkSampler, evalPoint, integerSupport, override, pmfBinning, type Binning } from "./contract.js";

const makeRng = (seed: number, stream: number) => new Rng(seed, stream);
const M = 0.25; // exposure (cell area) used throughout
const lik = poissonLikelihood({ exposure: M });

/** f at which the rate m e^f equals lambda. */
const latentFor = (lambda: number) => Math.log(lambda / M);
/** Support 0..K with K beyond lambda + 40 sd: the omitted mass is below 1e-300. */
const supportFor = (lambda: number) => integerSupport(0, Math.ceil(lambda + 40 * Math.sqrt(lambda) + 60));

test("poisson: log p against high-precision values (mpmath, 50 digits)", () => {
  const cases: Array<[number, number, number]> = [
    [0, 0.3, -0.2999999999999999889],
    [1, 0.3, -1.5039728043259360185],
    [3, 2.5, -1.5428872736055898053],
    [100, 1e-3, -1054.5159034537771933],
    [50, 40, -4.0337942460762169249],
    [1000, 1000, -4.3728995060262968242],
    [12345, 10000, -261.30158640369979756],
    [1e12, 1e12 + 1e6, -15.234448757835946846],
    [1e12, 1e12, -14.734449091169030179],
    [5, 1e-300, -3458.6651312338505719],
  ];
  for (const [k, lambda, want] of cases) {
    const got = poissonLogPmf(k, lambda);
    // 1e-14 relative + 1e-13 absolute: the naive y log(lambda) - lambda - log y! would miss the
    // 1e12 cases by about 1e-4.
    assert.ok(Math.abs(got - want) <= 1e-13 + 1e-14 * Math.abs(want), `log Poisson(${k} | ${lambda}) = ${got}, want ${want}`);
  }
  // Through the likelihood with exposure: m = 0.25, f = 10, y = 30000 (mpmath: -26370.100519268475115).
  assert.ok(Math.abs(evalPoint(lik, 30000, 10).ll + 26370.100519268475115) < 1e-10);
  assert.equal(poissonLogPmf(0, 0), 0);
  assert.equal(poissonLogPmf(2, 0), -Infinity);
});

test("poisson with exposure: derivatives (f = -20..10), Fisher information and sampler meet the contract", () => {
  const points: Array<[number, number]> = [];
  for (const f of [-20, -10, -3, 0, 2, 5, 10]) for (const y of [0, 1, 7, 100, 30000]) points.push([y, f]);
  assertContract({
    likelihood: lik,
    derivativePoints: points,
    // rates 0.3, 3, 9.99 (inversion), 10, 50, 1e4 (PTRS)
    latent: [0.3, 3, 9.99, 10, 50, 1e4].map(latentFor),
    support: (f) => supportFor(M * Math.exp(f)),
    seed: 2024,
    makeRng,
  });
});

test("poisson: Fisher information and derivatives in closed form", () => {
  const f = 1.3;
  const lambda = M * Math.exp(f);
  const c = evalPoint(lik, 4, f);
  assert.ok(Math.abs(c.d1 - (4 - lambda)) < 1e-15);
  assert.ok(Math.abs(c.d2 + lambda) < 1e-15 && Math.abs(c.d3 + lambda) < 1e-15);
  const R = lik.fisherInformation(Float64Array.of(f), new Float64Array(1));
  assert.ok(Math.abs(R[0] - lambda) < 1e-15);
  // Without exposure the rate is e^f (B.2 exactly).
  const plain = poissonLikelihood();
  assert.ok(Math.abs(plain.fisherInformation(Float64Array.of(f), new Float64Array(1))[0] - Math.exp(f)) < 1e-15);
});

test("poisson: per-point exposures agree with one scalar-exposure likelihood per point", () => {
  const m = Float64Array.of(0.01, 1, 7.5);
  const vec = poissonLikelihood({ exposure: m });
  const y = Float64Array.of(0, 3, 40), f = Float64Array.of(2, -1, 1.5);
  const d1 = new Float64Array(3), d2 = new Float64Array(3), d3 = new Float64Array(3);
  const sum = vec.derivatives(y, f, d1, d2, d3);
  const R = vec.fisherInformation(f, new Float64Array(3));
  const draws = vec.sample(f, new Rng(3), new Float64Array(3));
  const rng = new Rng(3);
  let s = 0;
  for (let i = 0; i < 3; i++) {
    const one = poissonLikelihood({ exposure: m[i] });
    const c = evalPoint(one, y[i], f[i]);
    assert.equal(d1[i], c.d1);
    assert.equal(d2[i], c.d2);
    assert.equal(d3[i], c.d3);
    assert.equal(R[i], one.fisherInformation(Float64Array.of(f[i]), new Float64Array(1))[0]);
    assert.equal(draws[i], one.sample(Float64Array.of(f[i]), rng, new Float64Array(1))[0]);
    s += c.ll;
  }
  assert.equal(sum, s);
  assert.throws(() => vec.logLikelihood(new Float64Array(2), new Float64Array(2)), LikelihoodOptionError);
  assert.throws(() => vec.checkResponses(new Float64Array(4)), LikelihoodOptionError);
  assert.throws(() => poissonLikelihood({ exposure: 0 }), LikelihoodOptionError);
  assert.throws(() => poissonLikelihood({ exposure: [1, -2] }), (e: unknown) => e instanceof LikelihoodOptionError && e.message.includes("entry 2"));
});

/** Poisson draws with the rate multiplied by `factor` (a deliberately wrong sampler). */
function scaledRateSampler(factor: number): Likelihood {
  return override(lik, { sample: (f, rng, out) => lik.sample(f.map((v) => v + Math.log(factor)), rng, out) });
}

test("negative control: a Poisson sampler whose rate is 10% too high fails the goodness-of-fit test", () => {
  for (const [k, lambda] of [3, 50, 1e4].entries()) {
    const f = latentFor(lambda);
    const bins = pmfBinning(lik, f, supportFor(lambda).y);
    assertReport(checkSampler(lik, f, new Rng(77, k), bins), `correct sampler at rate ${lambda}`);
    const wrong = checkSampler(scaledRateSampler(1.1), f, new Rng(77, k), bins);
    assert.equal(wrong.ok, false, `rate x 1.1 passed at rate ${lambda}: p = ${wrong.test.pValue}`);
  }
  // And the Monte Carlo Fisher check rejects R = 1.1 lambda.
  const wrongR = override(lik, { fisherInformation: (f, out) => lik.fisherInformation(f, out).map((v) => 1.1 * v) });
  assert.equal(checkFisherMonteCarlo(wrongR, latentFor(20), new Rng(8)).ok, false);
});

test("poisson sampler at rates 1e6 and 1e12: standardised draws fit N(0, 1)", () => {
  // For rate >= 1e6 the standardised Poisson differs from N(0, 1) by skewness 1/sqrt(rate) <= 1e-3;
  // with 20000 draws in 20 equiprobable bins that is far below what the test can see, whereas a
  // sampler 0.1% off in rate at 1e6 (a shift of 1 sd) fails.
  const bins = 20;
  const edges = Array.from({ length: bins - 1 }, (_, j) => normalQuantile((j + 1) / bins));
  for (const lambda of [1e6, 1e12]) {
    const f = latentFor(lambda);
    const binning: Binning = {
      probabilities: new Float64Array(bins).fill(1 / bins),
      index: (y) => {
        const z = (y + 0.5 - lambda) / Math.sqrt(lambda); // continuity-corrected
        let j = 0;
        while (j < edges.length && z > edges[j]) j++;
        return j;
      },
    };
    assertReport(checkSampler(lik, f, new Rng(99), binning), `rate ${lambda}`);
    if (lambda === 1e6) assert.equal(checkSampler(scaledRateSampler(1.001), f, new Rng(99), binning).ok, false);
  }
});

test("samplePoisson: rate 0 gives 0, bad rates throw, draws are non-negative integers", () => {
  const rng = new Rng(1);
  assert.equal(samplePoisson(0, rng), 0);
  assert.throws(() => samplePoisson(-1, rng), RangeError);
  assert.throws(() => samplePoisson(NaN, rng), RangeError);
  assert.throws(() => samplePoisson(Infinity, rng), RangeError);
  for (const lambda of [1e-8, 0.5, 9.999, 10, 10.001, 1e3, 1e9]) {
    for (let i = 0; i < 200; i++) {
      const k = samplePoisson(lambda, rng);
      assert.ok(Number.isInteger(k) && k >= 0, `draw ${k} at rate ${lambda}`);
    }
  }
});

test("poisson: checkResponses rejects negative, non-integer and non-finite counts, naming the response", () => {
  lik.checkResponses(Float64Array.of(0, 1, 5, 1e9));
  for (const bad of [-1, 2.5, NaN, Infinity, 2 ** 60]) {
    const y = Float64Array.of(0, 3, bad, 1);
    assert.throws(
      () => lik.checkResponses(y),
      (e: unknown) => e instanceof LikelihoodDataError && e.index === 2 && e.message.includes(`response 3 is ${bad}`) && e.message.includes("non-negative integer"),
    );
  }
});
