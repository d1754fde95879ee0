/**
 * The schemes on the exact posterior of theta for probit with n = 3 (hyperGrid.ts: the
 * trivariate orthant probability), beside the n = 2 checks of schemeInvariance.test.ts: the
 * closed form against Monte Carlo, then the invariance of p(theta | y) under the default scheme
 * (aa), sa and the other three, with MCSE-based tolerances and a deliberately broken variant of
 * each that must fail.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { SchemeName } from "../../src/hyper/schemes.js";
import type { FaultOf } from "../../src/math/negativeControl.js";
import type { ThetaSamplerName } from "../../src/hyper/thetaSamplers.js";
import { Rng } from "../../src/random/rng.js";
import { GRID3_X, GRID3_Y, gridMoments, gridProblem, gridSpace, invarianceFailures, orthantProbability } from "./hyperGrid.js";
import { positivePrior } from "../../src/gp/hyperpriors.js";

test("the trivariate orthant probability in closed form agrees with Monte Carlo (4 standard errors)", () => {
  const rng = new Rng(31);
  for (const [r12, r13, r23] of [[0.5, -0.3, 0.2], [0.9, 0.85, 0.8], [-0.4, -0.4, 0.1], [0, 0, 0]] as const) {
    // z = L u with L L' the correlation matrix
    const l11 = 1, l21 = r12, l22 = Math.sqrt(1 - r12 * r12), l31 = r13, l32 = (r23 - r13 * r12) / l22, l33 = Math.sqrt(1 - l31 * l31 - l32 * l32);
    const m = 200_000;
    let hits = 0;
    for (let k = 0; k < m; k++) {
      const u1 = rng.normal(), u2 = rng.normal(), u3 = rng.normal();
      if (l11 * u1 > 0 && l21 * u1 + l22 * u2 > 0 && l31 * u1 + l32 * u2 + l33 * u3 > 0) hits++;
    }
    const p = orthantProbability([r12, r13, r23]);
    const se = Math.sqrt((p * (1 - p)) / m);
    assert.ok(Math.abs(hits / m - p) < 4 * se, `r = ${r12}, ${r13}, ${r23}: Monte Carlo ${hits / m}, closed form ${p} (se ${se})`);
    // negative control: the n = 2 formula's 1/(2 pi) in place of 1/(4 pi) is far off
    const wrong = 0.125 + (Math.asin(r12) + Math.asin(r13) + Math.asin(r23)) / (2 * Math.PI);
    if (r12 !== 0) assert.ok(Math.abs(hits / m - wrong) > 4 * se, "the check does not tell a wrong formula");
  }
});

const problem = gridProblem(GRID3_X, GRID3_Y);

test("the n = 3 grid posterior is not the n = 2 one, and the data move it from the prior", () => {
  const two = gridProblem([0, 0.8], Float64Array.from([1, 1]));
  assert.ok(Math.abs(problem.exact.mean[0] - two.exact.mean[0]) > 0.05 || Math.abs(problem.exact.mean[1] - two.exact.mean[1]) > 0.05);
});

const CASES: [SchemeName, ThetaSamplerName | undefined, FaultOf<"hyper-scheme" | "khr" | "pseudo-marginal">][] = [
  ["aa", "mh", "scheme-no-jacobian"],
  ["sa", "mh", "gibbs-shape"],
  ["sa", "hmc", "scheme-no-jacobian"],
  ["aa", "smmala", "scheme-no-jacobian"],
  ["asis", "mh", "gibbs-shape"],
  ["khr", "mh", "no-proposal-density"],
  ["surr", undefined, "scheme-no-jacobian"],
  ["pm", undefined, "pm-no-proposal-density"],
];

const thetaBy = (scheme: SchemeName, sampler: ThetaSamplerName | undefined) => sampler ? `theta sampler ${sampler}` : scheme === "pm" ? "its own theta moves" : "theta sampler slice";

for (const [scheme, sampler, broken] of CASES) {
  test(`${scheme} with ${thetaBy(scheme, sampler)} leaves p(theta | y) invariant (probit, n = 3, exact grid)`, () => {
    assert.deepEqual(invarianceFailures(problem, scheme, sampler, 23), []);
  });
  test(`${scheme} with ${thetaBy(scheme, sampler)}, broken (${broken}): the n = 3 check fails`, () => {
    assert.ok(invarianceFailures(problem, scheme, sampler, 23, broken).length > 0, "the broken variant passed the invariance check");
  });
}

test("pm with Laplace's approximation and 2 importance draws (the noisier estimate other likelihoods use) leaves p(theta | y) invariant; without the Jacobian the check fails", () => {
  const options = { approximation: "laplace" as const, importanceSamples: 2 };
  assert.deepEqual(invarianceFailures(problem, "pm", undefined, 29, undefined, undefined, options), []);
  assert.ok(invarianceFailures(problem, "pm", undefined, 29, "scheme-no-jacobian", undefined, options).length > 0, "the broken variant passed the invariance check");
});

test("pm under the priors Stan users write (half-normal on the signal sd, inverse-gamma on the lengthscale) leaves p(theta | y) invariant; the same draws scored against the default priors' posterior fail", () => {
  const base = gridSpace(GRID3_X);
  const space = { ...base, lengthscalePriors: [positivePrior({ family: "invgamma", shape: 3, scale: 1 })], variancePrior: positivePrior({ family: "halfnormal", scale: 1, on: "sd" }) };
  const stanLike = { space, y: GRID3_Y, exact: gridMoments(space, GRID3_Y) };
  assert.deepEqual(invarianceFailures(stanLike, "pm", undefined, 31), []);
  // the check tells these priors from the default ones: the same chains against the other posterior
  assert.ok(invarianceFailures({ ...stanLike, exact: problem.exact }, "pm", undefined, 31).length > 0, "the check does not tell the priors apart");
});

test("pm with an absolute jitter (K = sigma C + a I, a = 0.5) leaves p(theta | y) invariant; without the Jacobian the check fails", () => {
  // (the n = 3 posterior moves little with the jitter: a = 0.5 shifts E psi by 0.02, so the check
  // cannot tell the jitters apart; K's entries are checked against the formula in absoluteJitter.test.ts)
  const space = { ...gridSpace(GRID3_X), relativeJitter: 0, absoluteJitter: 0.5 };
  const absolute = { space, y: GRID3_Y, exact: gridMoments(space, GRID3_Y) };
  assert.deepEqual(invarianceFailures(absolute, "pm", undefined, 37), []);
  assert.ok(invarianceFailures(absolute, "pm", undefined, 37, "scheme-no-jacobian").length > 0, "the broken variant passed the invariance check");
});
