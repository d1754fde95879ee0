import { test } from "node:test";
import assert from "node:assert/strict";
import { logisticLikelihood, LikelihoodDataError } from "../../src/likelihoods/index.js";
import { Rng } from "../../src/random/index.js";
import { assertContract, assertReport, checkDerivatives, checkFisherMonteCarlo, evalPoint, integerSupport, override } from "./contract.js";

const lik = logisticLikelihood();
const makeRng = (seed: number, stream: number) => new Rng(seed, stream);

test("logistic: log p, derivatives, Fisher information and sampler meet the contract", () => {
  const fs = [-700, -300, -30, -5, -1, -1e-3, 0, 0.7, 3, 30, 300, 700];
  assertContract({
    likelihood: lik,
    derivativePoints: fs.flatMap((f) => [[0, f], [1, f]] as Array<[number, number]>),
    latent: [-4, -1, 0, 0.5, 2.5],
    support: () => integerSupport(0, 1),
    seed: 11,
    makeRng,
  });
});

test("logistic: values against closed forms, including |f| = 700 and 745", () => {
  // log p(1 | f) = -log(1 + e^-f): at f = -700 that is -700 - e^-700; at f = 700, -e^-700.
  const e700 = Math.exp(-700);
  let c = evalPoint(lik, 1, 700);
  assert.ok(Math.abs(c.ll + e700) <= 1e-15 * e700);
  assert.ok(Math.abs(c.d1 - e700) <= 1e-15 * e700); // 1 - l+(700), not rounded to 0
  assert.ok(Math.abs(c.d2 + e700) <= 1e-15 * e700);
  c = evalPoint(lik, 1, -700);
  assert.equal(c.ll, -700);
  assert.equal(c.d1, 1);
  c = evalPoint(lik, 0, 745);
  assert.equal(c.ll, -745);
  assert.ok(Number.isFinite(c.d2) && c.d2 <= 0);
  // f = 0: p = 1/2, d1 = y - 1/2, d2 = -1/4, d3 = 0, R = 1/4.
  c = evalPoint(lik, 1, 0);
  assert.ok(Math.abs(c.ll + Math.LN2) < 1e-16);
  assert.equal(c.d1, 0.5);
  assert.equal(c.d2, -0.25);
  assert.ok(c.d3 === 0); // +0 or -0
  // f = log 3: p(1) = 3/4, R = 3/16, d3 = -s t (t - s) = -(3/16)(1/4 - 3/4) = 3/32.
  c = evalPoint(lik, 0, Math.log(3));
  assert.ok(Math.abs(c.ll - Math.log(0.25)) < 1e-15);
  assert.ok(Math.abs(c.d1 + 0.75) < 1e-15);
  assert.ok(Math.abs(c.d3 - 3 / 32) < 1e-15);
  const R = lik.fisherInformation(Float64Array.of(Math.log(3), 800), new Float64Array(2));
  assert.ok(Math.abs(R[0] - 3 / 16) < 1e-16);
  assert.equal(R[1], 0);
});

test("logistic: vectorised calls agree with single-point calls and check lengths", () => {
  const y = Float64Array.of(1, 0, 1, 0);
  const f = Float64Array.of(-2, 0.3, 40, -40);
  const d1 = new Float64Array(4), d2 = new Float64Array(4), d3 = new Float64Array(4);
  const sum = lik.derivatives(y, f, d1, d2, d3);
  const pts = lik.logLikelihoodPoints(y, f, new Float64Array(4));
  let s = 0;
  for (let i = 0; i < 4; i++) {
    const c = evalPoint(lik, y[i], f[i]);
    assert.equal(pts[i], c.ll);
    assert.equal(d1[i], c.d1);
    assert.equal(d2[i], c.d2);
    assert.equal(d3[i], c.d3);
    s += c.ll;
  }
  assert.equal(sum, s);
  assert.equal(lik.logLikelihood(y, f), s);
  assert.throws(() => lik.logLikelihood(y, new Float64Array(3)), RangeError);
  assert.throws(() => lik.derivatives(y, f, d1, new Float64Array(2)), RangeError);
});

test("logistic: checkResponses rejects labels outside {0, 1} and names the response", () => {
  lik.checkResponses(Float64Array.of(0, 1, 1, 0));
  for (const [bad, at] of [[-1, 2], [2, 0], [0.5, 1], [NaN, 3], [Infinity, 1]] as Array<[number, number]>) {
    const y = Float64Array.of(0, 1, 0, 1);
    y[at] = bad;
    assert.throws(
      () => lik.checkResponses(y),
      (e: unknown) => e instanceof LikelihoodDataError && e.index === at && e.message.includes(`response ${at + 1} is ${bad}`) && e.message.includes("0 or 1"),
    );
  }
});

test("negative controls: a wrong second derivative and a wrong Fisher information are caught", () => {
  // d2 = -s t replaced by -s t (1 + 1e-4): a 0.01% error must fail the FD check.
  const wrongD2 = override(lik, {
    derivatives: (y, f, d1, d2, d3) => {
      const s = lik.derivatives(y, f, d1, d2, d3);
      for (let i = 0; i < d2.length; i++) d2[i] *= 1 + 1e-4;
      return s;
    },
  });
  assert.equal(checkDerivatives(wrongD2, [[1, 0.5], [0, -2]]).ok, false);
  // R_ii = l+ l- replaced by l+ l- (1.1): the Monte Carlo check must fail.
  const wrongR = override(lik, {
    fisherInformation: (f, out) => {
      lik.fisherInformation(f, out);
      for (let i = 0; i < out.length; i++) out[i] *= 1.1;
      return out;
    },
  });
  assertReport(checkFisherMonteCarlo(lik, 1.5, new Rng(5)), "the correct Fisher information at f = 1.5");
  assert.equal(checkFisherMonteCarlo(wrongR, 1.5, new Rng(5)).ok, false);
});

test("logistic: gradient() and score() fill d1 as derivatives() does, bit for bit, and gradient()'s value is the log-likelihood's to rounding", () => {
  const rng = new Rng(17);
  // 1003 points (not a whole number of blocks of 16), far ones included
  const n = 1003;
  const f = Float64Array.from({ length: n }, (_, i) => (i % 50 === 0 ? (i % 100 === 0 ? 745 : -700) : 12 * rng.normal()));
  f[1] = 0;
  f[2] = -0;
  const y = Float64Array.from({ length: n }, () => (rng.uniform() < 0.5 ? 0 : 1));
  const d1 = new Float64Array(n), d2 = new Float64Array(n), g1 = new Float64Array(n), s1 = new Float64Array(n);
  const value = lik.derivatives(y, f, d1, d2);
  const fromGradient = lik.gradient!(y, f, g1);
  lik.score!(y, f, s1);
  assert.deepEqual(Array.from(g1), Array.from(d1));
  assert.deepEqual(Array.from(s1), Array.from(d1));
  assert.ok(Math.abs(fromGradient - value) <= 1e-13 * Math.abs(value), `gradient ${fromGradient} vs derivatives ${value}`);
  assert.ok(Math.abs(fromGradient - lik.logLikelihood(y, f)) <= 1e-13 * Math.abs(value));
  // near f = 0 alone the sum is small, and the blocks' products must not cost it its digits
  const small = Float64Array.from({ length: 64 }, (_, i) => (i - 32) * 1e-3);
  const ys = Float64Array.from({ length: 64 }, (_, i) => i % 2);
  const exact = lik.logLikelihood(ys, small);
  assert.ok(Math.abs(lik.gradient!(ys, small, new Float64Array(64)) - exact) <= 1e-15 * Math.abs(exact));
  assert.throws(() => lik.gradient!(y, f, new Float64Array(3)), /length|entries/);
});
