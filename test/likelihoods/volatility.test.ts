import { test } from "node:test";
import assert from "node:assert/strict";
import { LikelihoodDataError, volatilityLikelihood } from "../../src/likelihoods/index.js";
import { LOG_SQRT_2PI, normalQuantile } from "../../src/math/index.js";
import { Rng } from "../../src/random/index.js";
import { assertContract, assertReport, checkFisherExact, checkFisherMonteCarlo, checkSampler, evalPoint, override, type Binning, type Support } from "./contract.js";

const lik = volatilityLikelihood();
const makeRng = (seed: number, stream: number) => new Rng(seed, stream);

/**
 * Trapezoid rule for the density of y = exp(f) z on z in [-40, 40] with step 0.01: for a
 * Gaussian integrand the rule is exact to far below 1e-12 (its error decays like exp(-2 pi^2 / h^2)).
 */
function quadrature(f: number): Support {
  const h = 0.01, n = 8001, sd = Math.exp(f);
  const y = new Float64Array(n), weight = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    y[j] = sd * (-40 + j * h);
    weight[j] = sd * h;
  }
  return { y, weight };
}

/** 20 equiprobable bins of y exp(-f) under N(0, 1). */
function normalBins(f: number): Binning {
  const edges = Array.from({ length: 19 }, (_, j) => normalQuantile((j + 1) / 20));
  return {
    probabilities: new Float64Array(20).fill(1 / 20),
    index: (y) => {
      const z = y * Math.exp(-f);
      let j = 0;
      while (j < edges.length && z > edges[j]) j++;
      return j;
    },
  };
}

test("volatility: derivatives, Fisher information (R = 2) and sampler meet the contract", () => {
  const points: Array<[number, number]> = [];
  for (const f of [-30, -5, -0.5, 0, 1, 3, 30]) for (const y of [0, 1e-3, 0.5, -2, 50, 1e5]) points.push([y, f]);
  assertContract({
    likelihood: lik,
    derivativePoints: points,
    latent: [-3, 0, 0.7, 4],
    support: quadrature,
    binning: normalBins,
    seed: 31,
    makeRng,
  });
});

test("volatility: exp(f) is the standard deviation, as in Appendix B.3", () => {
  // y = 2, f = log 2: y is one sd from 0: log p = -log sqrt(2 pi) - log 2 - 1/2, d1 = 0, d2 = -2, d3 = 4.
  const c = evalPoint(lik, 2, Math.LN2);
  assert.ok(Math.abs(c.ll - (-LOG_SQRT_2PI - Math.LN2 - 0.5)) < 1e-15);
  assert.ok(Math.abs(c.d1) < 1e-15);
  assert.ok(Math.abs(c.d2 + 2) < 1e-15 && Math.abs(c.d3 - 4) < 1e-14);
  const R = lik.fisherInformation(Float64Array.of(-3, 0, 50), new Float64Array(3));
  assert.deepEqual(Array.from(R), [2, 2, 2]);
  // Far tails stay finite where y^2 or exp(-2f) alone would overflow: y = 1e200, f = 400.
  const t = evalPoint(lik, 1e200, 400);
  const q = Math.exp(2 * (200 * Math.LN10 - 400));
  assert.ok(Math.abs(t.d1 - (q - 1)) <= 1e-12 * q);
});

test("negative controls: sd exp(f/2) in the sampler, or R = 1/2, are caught", () => {
  const halfSd = override(lik, { sample: (f, rng, out) => lik.sample(f.map((v) => v / 2), rng, out) });
  assertReport(checkSampler(lik, 1, new Rng(4), normalBins(1)), "correct sampler");
  assert.equal(checkSampler(halfSd, 1, new Rng(4), normalBins(1)).ok, false);
  const wrongR = override(lik, { fisherInformation: (f, out) => out.fill(0.5) });
  assert.equal(checkFisherExact(wrongR, 0.3, quadrature(0.3)).ok, false);
  assert.equal(checkFisherMonteCarlo(wrongR, 0.3, new Rng(4)).ok, false);
});

test("volatility: checkResponses accepts any finite y and rejects NaN and infinities by index", () => {
  lik.checkResponses(Float64Array.of(0, -3.5, 1e300, 1e-300));
  for (const bad of [NaN, Infinity, -Infinity]) {
    assert.throws(
      () => lik.checkResponses(Float64Array.of(0.1, bad)),
      (e: unknown) => e instanceof LikelihoodDataError && e.index === 1 && e.message.includes(`response 2 is ${bad}`) && e.message.includes("finite"),
    );
  }
});
