// Negative controls for the parametric samplers' invariance tests: one deliberately broken variant
// per sampler family, which the check of invarianceHarness.ts must reject.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hmc } from "../../src/samplers/kernels/hmc.js";
import { iwls } from "../../src/samplers/kernels/iwls.js";
import { mala } from "../../src/samplers/kernels/mala.js";
import { identityMass } from "../../src/samplers/integrators/massMatrix.js";
import { componentwiseMetropolis } from "../../src/samplers/kernels/mhComponentwise.js";
import { mmala } from "../../src/samplers/kernels/mmala.js";
import { DEFAULT_KINETIC_DOF, studentTKinetic } from "../../src/samplers/integrators/kineticEnergy.js";
import { rmhmc } from "../../src/samplers/kernels/rmhmc.js";
import { smmala } from "../../src/samplers/kernels/smmala.js";
import type { AdaptOptions } from "../../src/samplers/chain/adaptation.js";
import { denseMetricTarget } from "../../src/targets/denseMetric.js";
import { BURN_IN, cases, expectFail, run } from "./invarianceHarness.js";
import { GAUSS_COV, GAUSS_MEAN, gaussianModel, negatedDerivatives, quadratureMoments } from "./parametricFixtures.js";

const da: AdaptOptions = { method: "dual-averaging" };
const [gauss, banana, logistic] = cases;

test("the 2-D quadrature reproduces the Gaussian's closed-form moments", () => {
  const m = quadratureMoments(gaussianModel(), -12, 11);
  for (let i = 0; i < 2; i++) {
    assert.ok(Math.abs(m.mean[i] - GAUSS_MEAN[i]) < 1e-6);
    for (let j = 0; j < 2; j++) assert.ok(Math.abs(m.cov[i][j] - GAUSS_COV[i][j]) < 1e-4, `cov ${i}${j}: ${m.cov[i][j]}`);
  }
});

test("negative control: simplified mMALA without the proposal densities fails on the banana", (t) => {
  expectFail(t, run(smmala(denseMetricTarget(banana.model()), { stepSize: 0.8, broken: "smmala-no-hastings" }), banana, da, 5), "smmala no-hastings");
});

test("negative control: mMALA whose reverse density omits the Christoffel terms fails on the banana", (t) => {
  expectFail(t, run(mmala(denseMetricTarget(banana.model()), { stepSize: 0.8, broken: "reverse-without-christoffel" }), banana, da, 6), "mmala reverse-without-christoffel");
});

test("negative control: MALA without the proposal densities fails on the Gaussian", (t) => {
  expectFail(t, run(mala(denseMetricTarget(gauss.model()), { stepSize: 0.5, broken: "smmala-no-hastings" }), gauss, da, 7), "mala no-hastings");
});

test("negative control: IWLS without the proposal densities fails on the logistic model", (t) => {
  expectFail(t, run(iwls(denseMetricTarget(logistic.model()), "smmala-no-hastings"), logistic, undefined, 8), "iwls no-hastings");
});

test("negative control: HMC accepting on the potential energy alone fails on the Gaussian", (t) => {
  const kernel = hmc(denseMetricTarget(gauss.model()), { stepSize: 0.3, leapfrogSteps: 10, mass: identityMass(2), broken: "potential-only" });
  expectFail(t, run(kernel, gauss, da, 9), "hmc potential-only");
});

test("negative control: RMHMC with dG/dx negated fails on the banana", (t) => {
  const kernel = rmhmc(denseMetricTarget(negatedDerivatives(banana.model())), { stepSize: 0.5, leapfrogSteps: 6, targetAcceptance: 0.8 });
  expectFail(t, run(kernel, banana, da, 10), "rmhmc negated dG");
});

test("negative control: component-wise MH skipping the ratio on half the coordinates fails on the logistic model", (t) => {
  const kernel = componentwiseMetropolis(denseMetricTarget(logistic.model()), { adapt: true, broken: "skip-ratio" });
  expectFail(t, run(kernel, logistic, undefined, 11), "mh-componentwise skip-ratio");
});

test("negative control: RMHMC with a Student-t kinetic energy but Gaussian momenta fails on the banana", (t) => {
  const kineticEnergy = { ...studentTKinetic(DEFAULT_KINETIC_DOF, 2), scaleMomentum: () => undefined };
  const kernel = rmhmc(denseMetricTarget(banana.model()), { stepSize: 0.5, leapfrogSteps: 6, targetAcceptance: 0.8, kineticEnergy });
  expectFail(t, run(kernel, banana, da, 14), "rmhmc-t gaussian momenta");
});

test("negative control: RMHMC whose trajectory length depends on the state (antithetic below the mean, short above) fails on the Gaussian", (t) => {
  // Each kernel alone leaves the target invariant; choosing between them by the position does not.
  const target = denseMetricTarget(gauss.model());
  const antithetic = rmhmc(target, { stepSize: 0.2, leapfrogSteps: 50, trajectoryLength: Math.PI });
  const short = rmhmc(target, { stepSize: 0.2, leapfrogSteps: 50, trajectoryLength: 0.4 });
  const kernel: typeof short = { ...short, step: (state, rng) => (state.position[0] < GAUSS_MEAN[0] ? antithetic : short).step(state, rng) };
  expectFail(t, run(kernel, gauss, undefined, 12), "rmhmc state-dependent trajectory length");
});
