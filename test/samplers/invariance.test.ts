// Invariance: HMC and RMHMC chains match closed-form (or quadrature) means and covariances within
// Monte Carlo error, and each check has a negative control (a deliberately broken variant) that the
// same check rejects. z-scores use batch-means standard errors; fixed seeds make every run the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Cholesky } from "../../src/linalg/cholesky.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { sample } from "../../src/samplers/chain/driver.js";
import { hmc, type HmcOptions } from "../../src/samplers/kernels/hmc.js";
import { identityMass, massFromCholesky, massFromInverseCholesky, type MassMatrix } from "../../src/samplers/integrators/massMatrix.js";
import { rmhmc, type RmhmcOptions } from "../../src/samplers/kernels/rmhmc.js";
import type { Kernel, SamplerState } from "../../src/samplers/types.js";
import {
  cholDense, GAUSS_COV, GAUSS_MEAN, gaussianTarget, gpLogisticTarget, quadratureMoments2d, toColumnMajor, varyingMetricProblem,
} from "./fixtures.js";
import { describe, maxAbsZ, momentZScores } from "./mcse.js";

/** A correct chain must keep every |z| below this (9 or 5 z-scores per check). */
const PASS_Z = 4;
/** A broken chain must push some |z| above this. */
const FAIL_Z = 6;

const gaussCov = (i: number, j: number) => GAUSS_COV[i][j];

function zScores<S extends SamplerState>(kernel: Kernel<S>, mean: number[], cov: (i: number, j: number) => number, draws: number, seed = 42) {
  const result = sample(kernel, { draws, burnIn: 300, chains: 2, seed, init: mean });
  return momentZScores(result, mean, cov);
}

type Ctx = { diagnostic(message: string): void };

function expectPass(t: Ctx, checks: ReturnType<typeof momentZScores>, label: string): void {
  t.diagnostic(`${label}: max |z| = ${maxAbsZ(checks).toFixed(2)}`);
  assert.ok(maxAbsZ(checks) < PASS_Z, `${label}: a moment is off\n${describe(checks)}`);
}

function expectFail(t: Ctx, checks: ReturnType<typeof momentZScores>, label: string): void {
  t.diagnostic(`${label}: max |z| = ${maxAbsZ(checks).toFixed(2)}`);
  assert.ok(maxAbsZ(checks) > FAIL_Z, `${label}: the broken variant was not detected\n${describe(checks)}`);
}

// ---------- HMC on a correlated 3-D Gaussian ----------

const hmcBase: HmcOptions = { stepSize: 0.3, leapfrogSteps: 10, randomiseSteps: true };

test("HMC (identity mass) leaves a correlated Gaussian invariant", (t) => {
  expectPass(t, zScores(hmc(gaussianTarget(GAUSS_MEAN, GAUSS_COV), hmcBase), GAUSS_MEAN, gaussCov, 10000), "HMC");
});

test("negative control: HMC accepting on the potential energy alone fails the same check", (t) => {
  expectFail(t, zScores(hmc(gaussianTarget(GAUSS_MEAN, GAUSS_COV), { ...hmcBase, broken: "potential-only" }), GAUSS_MEAN, gaussCov, 10000), "HMC potential-only");
});

function precisionCholesky(): Cholesky {
  const g = gaussianTarget(GAUSS_MEAN, GAUSS_COV);
  return new Cholesky(new Matrix(3, 3, cholDense(g.precision, 3)));
}

function covarianceCholesky(): Cholesky {
  return new Cholesky(new Matrix(3, 3, cholDense(toColumnMajor(GAUSS_COV), 3)));
}

test("HMC with M given by a Cholesky factor of M, and by one of M^-1 (both M = precision), leaves the Gaussian invariant", (t) => {
  for (const [label, mass] of [["factor of M", massFromCholesky(precisionCholesky())], ["factor of M^-1", massFromInverseCholesky(covarianceCholesky())]] as const) {
    expectPass(t, zScores(hmc(gaussianTarget(GAUSS_MEAN, GAUSS_COV), { stepSize: 0.8, leapfrogSteps: 4, randomiseSteps: true, mass }), GAUSS_MEAN, gaussCov, 6000), `HMC ${label}`);
  }
});

test("negative control: momentum drawn from N(0, M) but the dynamics and energy using another M fail the same check", (t) => {
  const right = massFromCholesky(precisionCholesky());
  const wrongDynamics = identityMass(3);
  const mismatched: MassMatrix = {
    dim: 3,
    kind: "mismatched",
    sampleMomentum: (rng, out) => right.sampleMomentum(rng, out),
    applyInverse: (p, out) => wrongDynamics.applyInverse(p, out),
    kineticEnergy: (p) => wrongDynamics.kineticEnergy(p),
  };
  expectFail(t, zScores(hmc(gaussianTarget(GAUSS_MEAN, GAUSS_COV), { stepSize: 0.3, leapfrogSteps: 10, randomiseSteps: true, mass: mismatched }), GAUSS_MEAN, gaussCov, 6000), "HMC mismatched mass");
});

// ---------- RMHMC ----------

test("RMHMC with the constant metric G = precision leaves the Gaussian invariant", (t) => {
  expectPass(t, zScores(rmhmc(gaussianTarget(GAUSS_MEAN, GAUSS_COV, "precision"), { stepSize: 0.7, leapfrogSteps: 4 }), GAUSS_MEAN, gaussCov, 5000), "RMHMC constant metric");
});

test("negative control: RMHMC with momentum drawn from N(0, 4G) fails the same check", (t) => {
  expectFail(t, zScores(rmhmc(gaussianTarget(GAUSS_MEAN, GAUSS_COV, "precision-wrong-momentum"), { stepSize: 0.7, leapfrogSteps: 4 }), GAUSS_MEAN, gaussCov, 5000), "RMHMC wrong momentum");
});

const rmBase: RmhmcOptions = { stepSize: 0.6, leapfrogSteps: 4 };

for (const variant of ["fast", "reference"] as const) {
  test(`RMHMC (${variant}) with the position-dependent metric diag(exp(A x)) + C leaves the Gaussian invariant`, (t) => {
    expectPass(t, zScores(rmhmc(varyingMetricProblem().target, { ...rmBase, variant }), GAUSS_MEAN, gaussCov, 5000), `RMHMC ${variant}`);
  });

  test(`negative control: RMHMC (${variant}) with 1/2 log|G| dropped from H fails the same check`, (t) => {
    expectFail(t, zScores(rmhmc(varyingMetricProblem({ dropLogDet: true }).target, { ...rmBase, variant }), GAUSS_MEAN, gaussCov, 5000), `RMHMC ${variant} without log|G|`);
  });
}

test("negative control: RMHMC with the wrong sign of dG/dx in dH/dx fails the same check", (t) => {
  expectFail(t, zScores(rmhmc(varyingMetricProblem({ flipDg: true }).target, rmBase), GAUSS_MEAN, gaussCov, 5000), "RMHMC flipped dG");
});

// ---------- GP classification, n = 2, against 2-D quadrature ----------

const GP_K_WIDE = [[9, 7], [7, 9]];

function gpTruth() {
  const { logDensity } = gpLogisticTarget(GP_K_WIDE, [1, -1]);
  const q = quadratureMoments2d(logDensity, -25, 25, 1000);
  return { mean: q.mean, cov: (i: number, j: number) => q.cov[i][j] };
}

test("RMHMC (Hessian metric) and HMC on GP logistic classification with n = 2 match quadrature moments", (t) => {
  const truth = gpTruth();
  const { target } = gpLogisticTarget(GP_K_WIDE, [1, -1]);
  expectPass(t, zScores(rmhmc(target, { stepSize: 0.3, leapfrogSteps: 5 }), truth.mean, truth.cov, 5000), "RMHMC GP");
  expectPass(t, zScores(hmc(target, { stepSize: 0.5, leapfrogSteps: 10, randomiseSteps: true }), truth.mean, truth.cov, 10000), "HMC GP");
});

test("negative controls on GP classification: RMHMC without 1/2 log|G|, HMC with the potential-only accept step", (t) => {
  const truth = gpTruth();
  expectFail(t, zScores(rmhmc(gpLogisticTarget(GP_K_WIDE, [1, -1], { dropLogDet: true }).target, { stepSize: 0.3, leapfrogSteps: 5 }), truth.mean, truth.cov, 5000), "RMHMC GP without log|G|");
  const { target } = gpLogisticTarget(GP_K_WIDE, [1, -1]);
  expectFail(t, zScores(hmc(target, { stepSize: 0.5, leapfrogSteps: 10, randomiseSteps: true, broken: "potential-only" }), truth.mean, truth.cov, 10000), "HMC GP potential-only");
});
