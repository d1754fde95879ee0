import { test } from "node:test";
import assert from "node:assert/strict";
import {
  builtinLikelihoods,
  likelihoodByName,
  LikelihoodOptionError,
  likelihoods,
  logisticLikelihood,
  type Likelihood,
} from "../../src/likelihoods/index.js";

test("likelihoodByName builds each built-in likelihood under its command-line name", () => {
  assert.deepEqual(builtinLikelihoods().names(), ["probit", "logistic", "poisson", "volatility", "ordinal"]);
  for (const name of ["probit", "logistic", "poisson", "volatility"]) assert.equal(likelihoodByName(name).name, name);
  const o = likelihoodByName("ordinal", { thresholds: [-1, 1], noiseSd: 0.5 });
  assert.equal(o.name, "ordinal");
  // The options reach the likelihood: with sigma = 0.5, p(y = 2 | f = 0) = Phi(2) - Phi(-2).
  assert.ok(Math.abs(Math.exp(o.logLikelihood(Float64Array.of(2), Float64Array.of(0))) - 0.9544997361036416) < 1e-15);
  const p = likelihoodByName("poisson", { exposure: 2 });
  assert.equal(p.fisherInformation(Float64Array.of(0), new Float64Array(1))[0], 2);
});

test("likelihoodByName rejects unknown names, options that do not apply and missing thresholds", () => {
  assert.throws(
    () => likelihoodByName("gaussian"),
    (e: unknown) => e instanceof LikelihoodOptionError && e.option === "likelihood" && e.message.includes('"gaussian"') && e.message.includes("probit, logistic, poisson, volatility, ordinal"),
  );
  assert.throws(() => likelihoodByName("logistic", { thresholds: [0] }), (e: unknown) => e instanceof LikelihoodOptionError && e.option === "thresholds" && e.message.includes("logistic"));
  assert.throws(() => likelihoodByName("poisson", { noiseSd: 1 }), (e: unknown) => e instanceof LikelihoodOptionError && e.option === "noiseSd");
  assert.throws(() => likelihoodByName("ordinal"), (e: unknown) => e instanceof LikelihoodOptionError && e.option === "thresholds");
  // An option explicitly undefined is as good as absent.
  assert.equal(likelihoodByName("volatility", { exposure: undefined }).name, "volatility");
});

test("a likelihood registered on a registry is found by likelihoodByName without touching the shared one", () => {
  const registry = builtinLikelihoods();
  const stand: Likelihood = { ...logisticLikelihood(), name: "stand-in" };
  registry.register("stand-in", { factory: () => stand, options: [], description: "a stand-in", traits: { responses: "real", laplace: true, predictive: "sd" } });
  assert.equal(likelihoodByName("stand-in", {}, registry), stand);
  assert.equal(likelihoods.has("stand-in"), false);
  assert.throws(() => likelihoodByName("stand-in"), LikelihoodOptionError);
  assert.throws(() => likelihoodByName("stand-in", { noiseSd: 2 }, registry), LikelihoodOptionError);
});
