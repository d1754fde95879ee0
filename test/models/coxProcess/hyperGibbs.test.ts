// Invariance of the Figure 9 sampler on the Euclidean covariance (models/coxProcess/hyperGibbs.ts), on a
// 2 x 2 grid in a 4 x 4 torus, with batch-means standard errors and a fixed seed:
// - the phi-update alone (RMHMC with D_theta) given a fixed torus field, against 2-D quadrature of
//   exp(L(phi)) over the support; negative control: the metric's derivative with the wrong sign;
// - the whole Gibbs sweep, against self-normalised importance sampling of (phi, x) | y written with
//   the grid's dense Sigma (gridCovariance.ts), independent of the torus: phi from its prior, x from
//   N(mu, Sigma_theta), weights the Poisson likelihood; negative control: nu not re-whitened after
//   theta changes; the same with the interweaved non-centred step phi | nu, y (negative control: that
//   step without the prior);
// - what the support does: a chain started next to the torus's limit on beta never leaves it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { batchMeans } from "../../../src/diagnostics/batchMeans.js";
import { cholesky } from "../../../src/linalg/cholesky.js";
import { Matrix } from "../../../src/linalg/matrix.js";
import { Rng } from "../../../src/random/rng.js";
import { euclideanHyperparameterModel, supportLimit, torusSupports, type PhiPrior } from "../../../src/models/coxProcess/euclideanHyperparameters.js";
import { denseGridCovariance } from "../../../src/models/coxProcess/gridCovariance.js";
import { euclideanHyperGibbs, type EuclideanHyperGibbsOptions } from "../../../src/models/coxProcess/hyperGibbs.js";
import { rmhmc } from "../../../src/samplers/kernels/rmhmc.js";
import { denseMetricTarget, type DenseMetricModel } from "../../../src/targets/denseMetric.js";

const SIDE = 2;
const M = 4;
const MU = Math.log(4);
const COUNTS = [1, 0, 3, 2];
const PRIOR_SMALL: PhiPrior = { mean: [0, Math.log(0.3)], sd: [0.4, 0.4] };
const PASS_Z = 4;
const FAIL_Z = 6;
const LIMIT = supportLimit(SIDE, M);

function zOf(series: Float64Array, truth: number, truthSe = 0): number {
  const { mean, mcse } = batchMeans([series]);
  return (mean - truth) / Math.hypot(mcse, truthSe);
}

/** phi's posterior means given the torus field w by quadrature on a fine grid over the support (7 prior sds below in log beta, where the field is nearly white and only the prior bounds it). */
function quadratureMeans(model: DenseMetricModel): [number, number] {
  const lo0 = -1.5, hi0 = 1.5, lo1 = PRIOR_SMALL.mean[1] - 7 * PRIOR_SMALL.sd[1], hi1 = Math.log(LIMIT);
  const k = 400;
  const lps: number[] = [];
  const pts: [number, number][] = [];
  for (let j = 0; j < k; j++) for (let i = 0; i < k; i++) {
    const phi = Float64Array.of(lo0 + ((hi0 - lo0) * (i + 0.5)) / k, lo1 + ((hi1 - lo1) * (j + 0.5)) / k);
    lps.push(model.logDensity(phi));
    pts.push([phi[0], phi[1]]);
  }
  const top = lps.reduce((a, b) => Math.max(a, b), -Infinity);
  let z = 0, m0 = 0, m1 = 0;
  lps.forEach((lp, q) => {
    const w = Math.exp(lp - top);
    z += w;
    m0 += w * pts[q][0];
    m1 += w * pts[q][1];
  });
  return [m0 / z, m1 / z];
}

/** The model with dG/dphi's sign flipped (negative control). */
function flippedDerivatives(model: DenseMetricModel): DenseMetricModel {
  return {
    dim: model.dim,
    logDensity: (x) => model.logDensity(x),
    logDensityAndGradient: (x, g) => model.logDensityAndGradient(x, g),
    denseMetric(x, derivatives) {
      const parts = model.denseMetric(x, derivatives);
      return { ...parts, metricDerivatives: parts.metricDerivatives?.map((d) => new Matrix(2, 2, d.data.map((v) => -v))) };
    },
  };
}

function thetaChain(model: DenseMetricModel, draws: number, seed: number): [Float64Array, Float64Array] {
  const kernel = rmhmc(denseMetricTarget(model), { stepSize: 0.7, leapfrogSteps: 4 });
  const rng = new Rng(seed);
  let state = kernel.init(Float64Array.of(0, Math.log(0.3)));
  const out: [Float64Array, Float64Array] = [new Float64Array(draws), new Float64Array(draws)];
  for (let t = 0; t < draws; t++) {
    state = kernel.step(state, rng).state;
    out[0][t] = state.position[0];
    out[1][t] = state.position[1];
  }
  return out;
}

// a torus field drawn from the model at (sigma, beta) = (1, 0.3), so that phi | w is near that point
const W = (() => {
  const g = euclideanHyperGibbs({ side: SIDE, counts: COUNTS, mu: MU, torus: M, fieldStep: 0.5, fieldTransitions: 1, thetaStep: 0.5, thetaLeapfrogSteps: 3 });
  return g.init(Float64Array.of(0, Math.log(0.3)), new Rng(3)).w;
})();

test("the phi-update (RMHMC with D_theta) leaves phi | w invariant (quadrature); a wrong sign of dD/dphi is caught", () => {
  const model = euclideanHyperparameterModel(SIDE, M, W, MU, PRIOR_SMALL);
  const truth = quadratureMeans(model);
  const good = thetaChain(model, 3000, 101);
  const zs = good.map((s, i) => zOf(s, truth[i]));
  assert.ok(zs.every((z) => Math.abs(z) < PASS_Z), `z ${zs}`);
  const bad = thetaChain(flippedDerivatives(model), 3000, 101);
  const zb = bad.map((s, i) => zOf(s, truth[i]));
  assert.ok(zb.some((z) => Math.abs(z) > FAIL_Z), `negative control z ${zb}`);
});

/** E[phi_0], E[phi_1], E[x_0], E[x_3] | y by self-normalised importance sampling from the prior, with standard errors. */
function importanceReference(samples: number, seed: number): { mean: number[]; se: number[] } {
  const rng = new Rng(seed);
  const m = 1 / (SIDE * SIDE);
  const f: number[][] = [];
  const logW: number[] = [];
  const z = new Float64Array(SIDE * SIDE);
  for (let s = 0; s < samples; s++) {
    const phi = [PRIOR_SMALL.mean[0] + PRIOR_SMALL.sd[0] * rng.normal(), PRIOR_SMALL.mean[1] + PRIOR_SMALL.sd[1] * rng.normal()];
    rng.fillNormal(z);
    if (Math.exp(phi[1]) >= LIMIT) continue; // outside the support: weight 0
    const x = cholesky(denseGridCovariance(SIDE, Math.exp(2 * phi[0]), Math.exp(phi[1]), "euclidean")).multiplyLower(z).map((v) => v + MU);
    let lw = 0;
    for (let k = 0; k < x.length; k++) lw += COUNTS[k] * x[k] - m * Math.exp(x[k]);
    logW.push(lw);
    f.push([phi[0], phi[1], x[0], x[3]]);
  }
  const top = logW.reduce((a, b) => Math.max(a, b), -Infinity);
  const w = logW.map((v) => Math.exp(v - top));
  const total = w.reduce((a, b) => a + b, 0);
  const mean = [0, 1, 2, 3].map((j) => f.reduce((a, r, q) => a + w[q] * r[j], 0) / total);
  const se = [0, 1, 2, 3].map((j) => Math.sqrt(f.reduce((a, r, q) => a + (w[q] * (r[j] - mean[j])) ** 2, 0)) / total);
  return { mean, se };
}

let cachedReference: { mean: number[]; se: number[] } | undefined;
const reference = () => (cachedReference ??= importanceReference(100000, 7));

function gibbsChain(sweeps: number, seed: number, extra: Partial<EuclideanHyperGibbsOptions> = {}): Float64Array[] {
  const g = euclideanHyperGibbs({ side: SIDE, counts: COUNTS, mu: MU, torus: M, prior: PRIOR_SMALL, fieldStep: 0.4, fieldTransitions: 2, fieldLeapfrogSteps: 6, thetaStep: 0.7, thetaLeapfrogSteps: 4, ...extra });
  const rng = new Rng(seed);
  let state = g.init(Float64Array.of(0, Math.log(0.3)), rng);
  const out = [0, 1, 2, 3].map(() => new Float64Array(sweeps));
  const x = new Float64Array(SIDE * SIDE);
  for (let t = 0; t < sweeps; t++) {
    state = g.sweep(state, rng).state;
    g.toGrid(state, x);
    out[0][t] = state.phi[0];
    out[1][t] = state.phi[1];
    out[2][t] = x[0];
    out[3][t] = x[3];
  }
  return out;
}

test("the Gibbs sweep leaves (phi, x) | y invariant (importance sampling with the dense Sigma); without re-whitening it does not", () => {
  const ref = reference();
  const good = gibbsChain(2500, 202);
  const zs = good.map((s, i) => zOf(s, ref.mean[i], ref.se[i]));
  const bad = gibbsChain(2500, 202, { broken: "keep-nu" });
  const zb = bad.map((s, i) => zOf(s, ref.mean[i], ref.se[i]));
  assert.ok(zs.every((z) => Math.abs(z) < PASS_Z), `z ${zs}`);
  assert.ok(zb.some((z) => Math.abs(z) > FAIL_Z), `negative control z ${zb}`);
});

test("with the interweaved non-centred step (phi | nu, y) the sweep still leaves (phi, x) | y invariant; without the prior in that step it does not", () => {
  const ref = reference();
  const good = gibbsChain(2000, 303, { nonCentredSteps: 8 });
  const zs = good.map((s, i) => zOf(s, ref.mean[i], ref.se[i]));
  assert.ok(zs.every((z) => Math.abs(z) < PASS_Z), `z ${zs}`);
  const bad = gibbsChain(2000, 303, { nonCentredSteps: 8, broken: "non-centred-without-prior" });
  const zb = bad.map((s, i) => zOf(s, ref.mean[i], ref.se[i]));
  assert.ok(zb.some((z) => Math.abs(z) > FAIL_Z), `negative control z ${zb}`);
});

test("the support: the torus fixes a largest beta; proposals beyond it are rejected, and a chain started outside is refused", () => {
  assert.ok(LIMIT > 1 && LIMIT < 1.05, `the 4 x 4 torus embeds the 2 x 2 grid's covariance up to beta ${LIMIT}`);
  assert.ok(torusSupports(SIDE, M, 0.99 * LIMIT) && !torusSupports(SIDE, M, 1.01 * LIMIT));
  // a field drawn next to the limit, and a prior that pushes beta beyond it
  const prior: PhiPrior = { mean: [0, Math.log(LIMIT) + 1], sd: [0.4, 1] };
  const near = Float64Array.of(0, Math.log(0.97 * LIMIT));
  const g = euclideanHyperGibbs({ side: SIDE, counts: COUNTS, mu: MU, torus: M, prior, fieldStep: 0.4, fieldTransitions: 1, fieldLeapfrogSteps: 4, thetaStep: 0.7, thetaLeapfrogSteps: 4 });
  const rng = new Rng(17);
  const kernel = rmhmc(denseMetricTarget(euclideanHyperparameterModel(SIDE, M, g.init(near, rng).w, MU, prior)), { stepSize: 0.7, leapfrogSteps: 4 });
  let state = kernel.init(near);
  let outside = 0;
  let largest = 0;
  for (let t = 0; t < 400; t++) {
    const s = kernel.step(state, rng);
    if (s.info.divergence === "non-finite") outside++;
    state = s.state;
    largest = Math.max(largest, Math.exp(state.position[1]));
  }
  assert.ok(outside > 0, "no proposal reached beyond the limit");
  assert.ok(largest < LIMIT, `a draw of beta ${largest} beyond the limit ${LIMIT}`);
  assert.throws(() => g.init(Float64Array.of(0, Math.log(1.1 * LIMIT)), rng), /outside the support/);
  // a torus too small to hold the grid's distances is refused
  assert.throws(() => euclideanHyperGibbs({ side: SIDE, counts: COUNTS, mu: MU, torus: 2, fieldStep: 0.4, fieldTransitions: 1, thetaStep: 0.7, thetaLeapfrogSteps: 4 }), /power of two >= 2n - 1/);
});
