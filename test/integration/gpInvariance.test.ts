// End-to-end invariance on the GP model itself: GP probit classification with n = 2 (two inputs,
// squared-exponential kernel, labels +1 / -1 under a prior correlation of 0.8), sampled on
// annealedLatentTarget by RMHMC (fast and reference integrators, fixed points to a tolerance) and
// by HMC (M^-1 = K). Posterior means and covariances come from 2-D quadrature; chains must match
// them within Monte Carlo error (batch-means z-scores, fixed seeds), and the same check must
// reject deliberately broken variants. Also at beta = 0.3 with an EP-style q, where the target
// exp(L_beta) is still known up to a constant, so the same quadrature applies.
//
// Quadrature accuracy. The density is integrated on a regular grid in whitened coordinates
// f = L_K z (L_K L_K' = K), |z_i| <= 12, step 0.04 (the midpoint/trapezoid rule on a smooth
// integrand with Gaussian tails converges exponentially in 1/step). The test checks the grid's
// normalising constant at beta = 1 against its closed form (an orthant probability of a
// bivariate normal: Z = 1/4 + asin(rho)/(2 pi)) to 1e-9 relative, and that halving the number of
// points (step 0.08) moves no moment by more than 1e-8: both far below the Monte Carlo errors
// (~1e-2) the chains are compared at.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { probit } from "../../src/likelihoods/probit.js";
import { logPhi } from "../../src/math/normal.js";
import { sample } from "../../src/samplers/chain/driver.js";
import { hmc } from "../../src/samplers/kernels/hmc.js";
import { massFromInverseCholesky } from "../../src/samplers/integrators/massMatrix.js";
import { rmhmc, type RmhmcOptions } from "../../src/samplers/kernels/rmhmc.js";
import type { Kernel, SamplerState } from "../../src/samplers/types.js";
import { annealedLatentTarget, type AnnealedLatentGeometry, type AnnealedLatentTarget } from "../../src/targets/annealedLatent.js";
import type { LocalGeometry, Target } from "../../src/targets/types.js";
import { Cholesky } from "../../src/linalg/cholesky.js";
import { describe, maxAbsZ, momentZScores, type MomentCheck } from "../samplers/mcse.js";

/** A correct chain must keep every |z| below this (5 z-scores per check: 2 means, 3 covariances). */
const PASS_Z = 4;
/** A broken chain must push some |z| above this. */
const FAIL_Z = 6;

// Two inputs at distance 1, lengthscale 1.5, signal sd 3: K = [[9, 7.21], [7.21, 9]] (correlation
// 0.80), and labels that disagree, so the posterior is skewed and far from the prior.
const INPUTS = new Matrix(2, 1, Float64Array.of(0, 1));
const Y = Float64Array.of(1, -1);
const K = seKernel({ lengthscale: 1.5, signalSd: 3 }).matrix(INPUTS);
// An EP-style q for beta = 0.3: any mean and positive site variances.
const Q = { mean: [1.2, -0.4], siteVariances: [2.5, 0.8] };

// ---------- quadrature ----------

/** The unnormalised log density of the target, written out here independently of src/targets. */
function logDensityOf(beta: number, withQ: boolean): (f: Float64Array) => number {
  const [a, b, c] = [K.get(0, 0), K.get(1, 0), K.get(1, 1)];
  const det = a * c - b * b;
  // f' K^-1 f for the 2 x 2 K
  const quadK = (u: number, v: number) => (c * u * u - 2 * b * u * v + a * v * v) / det;
  return (f) => {
    const joint = logPhi(Y[0] * f[0]) + logPhi(Y[1] * f[1]) - 0.5 * quadK(f[0], f[1]);
    if (!withQ) return beta * joint; // q = prior: L_beta = beta log p(y|f) + log N(f; 0, K)
    // log q up to a constant: Sigma^-1 = K^-1 + diag(1 / site variances)
    const u = f[0] - Q.mean[0];
    const v = f[1] - Q.mean[1];
    const logQ = -0.5 * (quadK(u, v) + (u * u) / Q.siteVariances[0] + (v * v) / Q.siteVariances[1]);
    return beta * joint + (1 - beta) * logQ;
  };
}

interface Moments {
  mean: number[];
  cov: number[][];
  /** integral of exp(logDensity) df (with the N(0, K) normalisation of quadK's term). */
  z: number;
}

/** Moments of exp(logDensity) on the whitened grid f = L_K z, |z_i| <= 12. */
function quadrature(logDensity: (f: Float64Array) => number, points: number): Moments {
  const l00 = Math.sqrt(K.get(0, 0));
  const l10 = K.get(1, 0) / l00;
  const l11 = Math.sqrt(K.get(1, 1) - l10 * l10);
  const lo = -12;
  const h = 24 / points;
  const f = new Float64Array(2);
  let z = 0, m0 = 0, m1 = 0, s00 = 0, s01 = 0, s11 = 0;
  for (let i = 0; i < points; i++) {
    const z0 = lo + (i + 0.5) * h;
    for (let j = 0; j < points; j++) {
      const z1 = lo + (j + 0.5) * h;
      f[0] = l00 * z0;
      f[1] = l10 * z0 + l11 * z1;
      const w = Math.exp(logDensity(f));
      z += w; m0 += w * f[0]; m1 += w * f[1];
      s00 += w * f[0] * f[0]; s01 += w * f[0] * f[1]; s11 += w * f[1] * f[1];
    }
  }
  m0 /= z; m1 /= z;
  // df = |L_K| dz; N(f; 0, K) = exp(-f'K^-1 f / 2) / (2 pi |L_K|)
  const norm = (h * h) / (2 * Math.PI);
  return { mean: [m0, m1], cov: [[s00 / z - m0 * m0, s01 / z - m0 * m1], [s01 / z - m0 * m1, s11 / z - m1 * m1]], z: z * norm };
}

const truthCache = new Map<string, Moments>();
function truth(beta: number, withQ: boolean): Moments {
  const key = `${beta}/${withQ}`;
  let m = truthCache.get(key);
  if (!m) truthCache.set(key, (m = quadrature(logDensityOf(beta, withQ), 600)));
  return m;
}

function maxMomentDifference(a: Moments, b: Moments): number {
  const d = [a.mean[0] - b.mean[0], a.mean[1] - b.mean[1], a.cov[0][0] - b.cov[0][0], a.cov[0][1] - b.cov[0][1], a.cov[1][1] - b.cov[1][1]];
  return Math.max(...d.map(Math.abs));
}

test("quadrature: Z at beta = 1 matches the orthant probability, and halving the grid moves no moment by 1e-8", () => {
  // Z = P(y1 f1 + e1 > 0, y2 f2 + e2 > 0), e ~ N(0, I): an orthant of N(0, diag(y)(K + I)diag(y))
  const rho = (Y[0] * Y[1] * K.get(1, 0)) / Math.sqrt((K.get(0, 0) + 1) * (K.get(1, 1) + 1));
  const exact = 0.25 + Math.asin(rho) / (2 * Math.PI);
  const fine = truth(1, false);
  assert.ok(Math.abs(fine.z - exact) < 1e-9 * exact, `Z ${fine.z} vs ${exact}`);
  // the posterior differs clearly from the prior (mean 0, cov K): the test below is not vacuous
  assert.ok(fine.mean[0] > 0.5 && fine.mean[1] < -0.5, `posterior mean ${fine.mean}`);
  for (const [beta, withQ] of [[1, false], [0.3, true]] as const) {
    const coarse = quadrature(logDensityOf(beta, withQ), 300);
    const diff = maxMomentDifference(truth(beta, withQ), coarse);
    assert.ok(diff < 1e-8, `beta ${beta}: moments move by ${diff} between 300 and 600 points a side`);
  }
});

// ---------- chains ----------

function target(beta = 1, withQ = false): AnnealedLatentTarget {
  return annealedLatentTarget({ likelihood: probit, y: Y, kernelMatrix: K, beta, q: withQ ? Q : undefined });
}

function zScores<S extends SamplerState>(kernel: Kernel<S>, m: Moments, draws: number, seed: number): MomentCheck[] {
  const result = sample(kernel, { draws, burnIn: 200, chains: 2, seed, init: [0, 0] });
  return momentZScores(result, m.mean, (i, j) => m.cov[i][j]);
}

type Ctx = { diagnostic(message: string): void };

function expectPass(t: Ctx, checks: MomentCheck[], label: string): void {
  t.diagnostic(`${label}: max |z| = ${maxAbsZ(checks).toFixed(2)}`);
  assert.ok(maxAbsZ(checks) < PASS_Z, `${label}: a moment is off\n${describe(checks)}`);
}

function expectFail(t: Ctx, checks: MomentCheck[], label: string): void {
  t.diagnostic(`${label}: max |z| = ${maxAbsZ(checks).toFixed(2)}`);
  assert.ok(maxAbsZ(checks) > FAIL_Z, `${label}: the broken variant was not detected\n${describe(checks)}`);
}

/**
 * The negative control: the target with 1/2 log|G| dropped from the Hamiltonian, i.e. log|G| = 0
 * and no trace term 1/2 tr(G^-1 dG/dx_n) = 1/2 dg_n (G^-1)_nn in dH/dx. Everything else (momentum
 * draws, G^-1, the cheap inverse for the fixed-point loop) is the real target's. Such a chain
 * samples p(x) |G(x)|^1/2 instead of p(x).
 */
function withoutLogDet(t: AnnealedLatentTarget, reference = false): Target {
  const geometryOf = (x: Float64Array): AnnealedLatentGeometry | LocalGeometry => (reference ? t.referenceGeometry(x) : t.geometry(x));
  return {
    dim: t.dim,
    logDensity: (x) => t.logDensity(x),
    logDensityAndGradient: (x, g) => t.logDensityAndGradient(x, g),
    inverseMetricAt: reference ? undefined : (x) => t.inverseMetricAt(x),
    geometry(x) {
      const g = geometryOf(x) as LocalGeometry & { metricDerivativeDiagonal: Float64Array; inverseMetricDiagonal: Float64Array };
      return {
        position: g.position,
        logDensity: g.logDensity,
        gradient: g.gradient,
        logDetMetric: 0,
        applyInverse: (p, out) => g.applyInverse(p, out),
        sampleMomentum: (rng, out) => g.sampleMomentum(rng, out),
        inverseMetricMatrix: g.inverseMetricMatrix ? () => g.inverseMetricMatrix!() : undefined,
        hamiltonianGradient(p, out) {
          g.hamiltonianGradient(p, out);
          const dg = g.metricDerivativeDiagonal;
          const diag = g.inverseMetricDiagonal;
          for (let i = 0; i < out.length; i++) out[i] -= 0.5 * dg[i] * diag[i];
        },
      };
    },
  };
}

const RM: RmhmcOptions = { stepSize: 0.6, leapfrogSteps: 6, randomiseSteps: true, fixedPointTolerance: 1e-10 };
const RM_DRAWS = 4000;

test("RMHMC (fast, fixed points to a tolerance) on GP probit, n = 2, beta = 1: matches quadrature; without 1/2 log|G| it fails", (t) => {
  const m = truth(1, false);
  expectPass(t, zScores(rmhmc(target(), RM), m, RM_DRAWS, 11), "RMHMC fast");
  expectFail(t, zScores(rmhmc(withoutLogDet(target()), RM), m, RM_DRAWS, 11), "RMHMC fast without log|G|");
});

test("RMHMC (reference integrator, momentum through chol(G^-1)) on the same problem: matches quadrature; without 1/2 log|G| it fails", (t) => {
  const m = truth(1, false);
  const tg = target();
  expectPass(t, zScores(rmhmc(tg.referenceTarget(), { ...RM, variant: "reference" }), m, RM_DRAWS, 12), "RMHMC reference");
  expectFail(t, zScores(rmhmc(withoutLogDet(tg, true), { ...RM, variant: "reference" }), m, RM_DRAWS, 12), "RMHMC reference without log|G|");
});

test("HMC with M^-1 = K on the same problem: matches quadrature; accepting on the potential energy alone fails", (t) => {
  const m = truth(1, false);
  const tg = target();
  const mass = massFromInverseCholesky(new Cholesky(lowerCholesky2(K)));
  const opts = { stepSize: 0.5, leapfrogSteps: 8, randomiseSteps: true, mass };
  expectPass(t, zScores(hmc(tg, opts), m, 6000, 13), "HMC M^-1 = K");
  expectFail(t, zScores(hmc(tg, { ...opts, broken: "potential-only" }), m, 6000, 13), "HMC potential-only");
});

test("RMHMC (fast) at beta = 0.3 with an EP-style q: matches quadrature of exp(L_beta); without 1/2 log|G| it fails", (t) => {
  const m = truth(0.3, true);
  // at beta = 0.3 the metric varies less with x (Lambda is scaled by beta): twice the draws
  expectPass(t, zScores(rmhmc(target(0.3, true), RM), m, 2 * RM_DRAWS, 14), "RMHMC fast, beta 0.3");
  expectFail(t, zScores(rmhmc(withoutLogDet(target(0.3, true)), RM), m, 2 * RM_DRAWS, 14), "RMHMC fast, beta 0.3, without log|G|");
});

/** The 2 x 2 lower Cholesky factor, by hand. */
function lowerCholesky2(a: Matrix): Matrix {
  const l00 = Math.sqrt(a.get(0, 0));
  const l10 = a.get(1, 0) / l00;
  return new Matrix(2, 2, Float64Array.of(l00, l10, 0, Math.sqrt(a.get(1, 1) - l10 * l10)));
}
