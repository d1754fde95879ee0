// Invariance of the samplers of f | y, theta (comparison paper, Section 3): each leaves the latent
// posterior invariant on (i) GP regression with n = 3 (a correlated Gaussian posterior in closed
// form, reached through the real latent target with a Gaussian likelihood) and (ii) GP probit
// classification with n = 2 (moments by 2-D quadrature). Every sampler also has negative
// controls, deliberately broken variants that the same check must reject. z-scores use
// batch-means standard errors over two chains; fixed seeds make every run the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sample } from "../../src/samplers/chain/driver.js";
import { ellipticalSlice } from "../../src/samplers/kernels/ellipticalSlice.js";
import { hmc } from "../../src/samplers/kernels/hmc.js";
import { hmcV1, hmcV2 } from "../../src/samplers/kernels/hmcGp.js";
import { lowerTimesInPlace, type MassMatrix } from "../../src/samplers/integrators/massMatrix.js";
import { randomWalkMetropolis } from "../../src/samplers/kernels/metropolisRw.js";
import { mhV1, mhV2 } from "../../src/samplers/kernels/mhNeal.js";
import { smmala } from "../../src/samplers/kernels/smmala.js";
import type { Kernel, SamplerState } from "../../src/samplers/types.js";
import type { Target } from "../../src/targets/types.js";
import { describe, maxAbsZ, momentZScores } from "./mcse.js";
import { poissonProblem, probitProblem, regressionProblem, type KnownPosterior } from "./latentFixtures.js";

/** A correct chain must keep every |z| below this (9 z-scores for n = 3, 5 for n = 2). */
const PASS_Z = 4;
/** A broken chain must push some |z| above this. */
const FAIL_Z = 6;

const regression = regressionProblem();
const classification = probitProblem();
const problems: [string, KnownPosterior][] = [["GP regression n = 3", regression], ["GP probit n = 2", classification]];

type Ctx = { diagnostic(message: string): void };

/**
 * One seed for every check in this file. (With seed 42, HMC v1 on the probit problem showed
 * z = -3.8 on Var[f_2], from a deficit in chains 0-1 that shrank to -2.8 at 16 times the length;
 * eight further seeds at that length gave no sign of bias, combined z within +-1.3.)
 */
const SEED = 1;

function checks<S extends SamplerState>(kernel: Kernel<S>, p: KnownPosterior, draws: number, seed = SEED) {
  const result = sample(kernel, { draws, burnIn: 300, chains: 2, seed, init: p.mean });
  return momentZScores(result, p.mean, p.cov);
}

function expectPass<S extends SamplerState>(t: Ctx, label: string, kernel: Kernel<S>, p: KnownPosterior, draws: number): void {
  const c = checks(kernel, p, draws);
  t.diagnostic(`${label}: max |z| = ${maxAbsZ(c).toFixed(2)}`);
  assert.ok(maxAbsZ(c) < PASS_Z, `${label}: a moment is off\n${describe(c)}`);
}

function expectFail<S extends SamplerState>(t: Ctx, label: string, kernel: Kernel<S>, p: KnownPosterior, draws: number): void {
  const c = checks(kernel, p, draws);
  t.diagnostic(`${label}: max |z| = ${maxAbsZ(c).toFixed(2)}`);
  assert.ok(maxAbsZ(c) > FAIL_Z, `${label}: the broken variant was not detected\n${describe(c)}`);
}

// ---------- random-walk MH (Section 3.1) ----------

test("MH (random walk) leaves both posteriors invariant", (t) => {
  expectPass(t, "mh, regression", randomWalkMetropolis(regression.target, { scale: 1 }), regression, 20000);
  expectPass(t, "mh, probit", randomWalkMetropolis(classification.target, { scale: 1.5 }), classification, 20000);
});

test("negative control: MH keeping the rejected proposal's log density in the state fails", (t) => {
  for (const [label, p] of problems) {
    expectFail(t, `mh stale log density, ${label}`, randomWalkMetropolis(p.target, { scale: 1, broken: "stale-log-density" }), p, 20000);
  }
});

// ---------- MH v1 and v2 (Section 3.5) ----------

test("MH v1 (f' = f + alpha z) leaves both posteriors invariant", (t) => {
  for (const [label, p] of problems) expectPass(t, `mh-v1, ${label}`, mhV1(p.target, { alpha: 0.7 }), p, 20000);
});

test("negative control: MH v1 accepted on the likelihood ratio alone (as if prior-reversible) fails", (t) => {
  for (const [label, p] of problems) expectFail(t, `mh-v1 likelihood-only, ${label}`, mhV1(p.target, { alpha: 0.7, broken: "likelihood-only" }), p, 20000);
});

test("MH v2 (f' = sqrt(1 - alpha^2) f + alpha z, likelihood-ratio acceptance) leaves both posteriors invariant", (t) => {
  for (const [label, p] of problems) expectPass(t, `mh-v2, ${label}`, mhV2(p.target, { alpha: 0.7 }), p, 20000);
});

test("negative control: MH v2 accepted on the full posterior ratio (prior counted twice) fails", (t) => {
  for (const [label, p] of problems) expectFail(t, `mh-v2 full-posterior, ${label}`, mhV2(p.target, { alpha: 0.7, broken: "full-posterior" }), p, 20000);
});

// ---------- elliptical slice sampling (Section 3.4, Algorithm 3) ----------

test("elliptical slice sampling leaves both posteriors invariant", (t) => {
  for (const [label, p] of problems) expectPass(t, `ess, ${label}`, ellipticalSlice(p.target), p, 10000);
});

test("negative controls: ESS with the slice on the full density, or with z ~ N(0, 2K), fails", (t) => {
  expectFail(t, "ess full-density threshold, regression", ellipticalSlice(regression.target, { broken: "full-density-threshold" }), regression, 10000);
  expectFail(t, "ess prior-scale, probit", ellipticalSlice(classification.target, { broken: "prior-scale" }), classification, 10000);
});

test("negative control: ESS shrinking the bracket edge to 0, as the extracted Algorithm 3 lines 7-8 read, fails", (t) => {
  expectFail(t, "ess bracket-to-zero, regression", ellipticalSlice(regression.target, { broken: "bracket-to-zero" }), regression, 40000);
});

// ---------- HMC v1 and v2 (Section 3.6, Algorithm 4) ----------

test("HMC v1 (M^-1 = (K^-1 + C)^-1) and HMC v2 (M^-1 = K) leave both posteriors invariant", (t) => {
  for (const [label, p] of problems) {
    expectPass(t, `hmc-v1, ${label}`, hmcV1(p.target, { stepSize: 0.5 }), p, 5000);
    expectPass(t, `hmc-v2, ${label}`, hmcV2(p.target, { stepSize: 0.4 }), p, 5000);
  }
});

/** A mass whose momentum draws come from one matrix and whose dynamics and energy use another. */
function mismatched(momentum: MassMatrix, dynamics: MassMatrix): MassMatrix {
  return {
    dim: dynamics.dim,
    kind: "mismatched",
    sampleMomentum: (rng, out) => momentum.sampleMomentum(rng, out),
    applyInverse: (p, out) => dynamics.applyInverse(p, out),
    kineticEnergy: (p) => dynamics.kineticEnergy(p),
  };
}

test("negative control: HMC v1 drawing its momentum from v2's N(0, K^-1) while the dynamics use v1's M fails", (t) => {
  for (const [label, p] of problems) {
    const v1 = hmcV1(p.target, { stepSize: 0.5 });
    const v2 = hmcV2(p.target, { stepSize: 0.5 });
    const broken = hmc(p.target, { stepSize: 0.5, leapfrogSteps: 10, randomiseSteps: true, mass: mismatched(v2.mass, v1.mass) });
    expectFail(t, `hmc-v1 mismatched momentum, ${label}`, broken, p, 5000);
  }
});

test("negative control: HMC v2 drawing p = L_K z (covariance K) instead of L_K^-T z (Algorithm 4 line 1) fails", (t) => {
  for (const [label, p] of problems) {
    const v2 = hmcV2(p.target, { stepSize: 0.4 });
    const l = p.target.kernelCholesky.factor.data;
    const n = p.target.dim;
    const wrongDraw: MassMatrix = {
      ...v2.mass,
      sampleMomentum(rng, out) {
        rng.fillNormal(out);
        lowerTimesInPlace(l, n, out);
      },
    };
    const broken = hmc(p.target, { stepSize: 0.4, leapfrogSteps: 10, randomiseSteps: true, mass: mismatched(wrongDraw, v2.mass) });
    expectFail(t, `hmc-v2 momentum L z, ${label}`, broken, p, 5000);
  }
});

// ---------- SMMALA (Section 3.3, eq. 10, Algorithm 2) ----------

test("SMMALA with the metric K^-1 + R(f) leaves both posteriors invariant", (t) => {
  for (const [label, p] of problems) expectPass(t, `smmala, ${label}`, smmala(p.target, { stepSize: 1.2 }), p, 10000);
});

test("negative control: SMMALA without the proposal densities in the ratio fails (regression)", (t) => {
  expectFail(t, "smmala no-hastings, regression", smmala(regression.target, { stepSize: 1.2, broken: "smmala-no-hastings" }), regression, 10000);
});

test("negative control: SMMALA evaluating g(f | f') with G(f) instead of G(f') fails where the metric varies (probit)", (t) => {
  // On the regression problem R is constant, so this bug is invisible there: the probit check carries it.
  expectFail(t, "smmala forward-metric, probit", smmala(classification.target, { stepSize: 1.2, broken: "forward-metric" }), classification, 40000);
});

// ---------- a third likelihood, where R(f) = exp(f) varies strongly ----------

test("on a Poisson (LCX) posterior with n = 2, every sampler matches quadrature; SMMALA with G(f) at the reverse point fails", (t) => {
  const p = poissonProblem();
  const kernels: [string, Kernel<SamplerState>, number][] = [
    ["mh", randomWalkMetropolis(p.target, { scale: 0.8 }), 20000],
    ["mh-v1", mhV1(p.target, { alpha: 0.7 }), 20000],
    ["mh-v2", mhV2(p.target, { alpha: 0.7 }), 20000],
    ["ess", ellipticalSlice(p.target), 10000],
    ["hmc-v1", hmcV1(p.target, { stepSize: 0.3 }), 5000],
    ["hmc-v2", hmcV2(p.target, { stepSize: 0.3 }), 5000],
    ["smmala", smmala(p.target, { stepSize: 1.2 }), 10000],
  ];
  for (const [label, kernel, draws] of kernels) expectPass(t, `${label}, poisson`, kernel, p, draws);
  expectFail(t, "smmala forward-metric, poisson", smmala(p.target, { stepSize: 1.2, broken: "forward-metric" }), p, 40000);
});

// ---------- SMMALA on a target that offers only a local geometry ----------

/** The probit target seen through Target.geometry alone (the note's observed-Hessian metric, eq. 16). */
function geometryOnly(p: KnownPosterior): Target {
  const t = p.target;
  return { dim: t.dim, logDensity: (x) => t.logDensity(x), logDensityAndGradient: (x, g) => t.logDensityAndGradient(x, g), geometry: (x) => t.geometry(x) };
}

test("SMMALA on a target with only a local geometry (metric K^-1 + Lambda(f)) leaves the probit posterior invariant; G(f) at the reverse point fails", (t) => {
  const target = geometryOnly(classification);
  expectPass(t, "smmala via geometry, probit", smmala(target, { stepSize: 1.2 }), classification, 10000);
  expectFail(t, "smmala via geometry forward-metric, probit", smmala(target, { stepSize: 1.2, broken: "forward-metric" }), classification, 80000);
});
