// The stochastic volatility Gibbs sampler (models/volatility/gibbs.ts) leaves the posterior invariant:
// on T = 8 returns (not fewer: the parameters' metric is positive definite on the whole support
// only from T = 7 on, svParameters.ts), with a proper exponential prior on beta (log p(beta) = -beta; the paper's
// exp(+beta) makes the posterior improper, see svModel.ts), M chains are started from exact
// posterior draws (resampled from a large importance sample from the prior) and run K sweeps with
// fixed step sizes; if the kernel leaves the posterior invariant, the M final states are again
// posterior draws, so their means of beta, sigma, phi, x_1, x_T and second moments agree with the
// importance-sampling reference within the two errors combined (M independent chains; the delta
// method for the weights). Starting from the target makes the check independent of how fast the
// Gibbs sweep mixes (the beta - x level ridge is slow for MALA); each pair is also required to
// move most chains. Negative control: the same check catches a latent block whose density gives
// x_1 the variance sigma^2 instead of the stationary sigma^2 / (1 - phi^2). The interweaving
// block (models/volatility/volatilityInterweave.ts) is checked the same way, alone and in the sweep, and
// its variant without the random walk's Jacobian is caught.
import { test } from "node:test";
import assert from "node:assert/strict";
import { simulateVolatility } from "../../../src/models/volatility/svSimulate.js";
import { SV_PRIOR } from "../../../src/models/volatility/svModel.js";
import { Rng } from "../../../src/random/rng.js";
import { svGibbsKernel, type SvSamplerName } from "../../../src/models/volatility/gibbs.js";
import { svNonCentredKernel } from "../../../src/models/volatility/interweave.js";
import type { SamplerState } from "../../../src/samplers/types.js";

const T = 8;
const RATE = -1;
const { y } = simulateVolatility(T, 0.65, 0.15, 0.98, 21);

/** The checked functions of (beta, sigma, phi, x). */
const FUNCTIONS: [string, (p: ArrayLike<number>) => number][] = [
  ["beta", (p) => p[0]],
  ["sigma", (p) => p[1]],
  ["phi", (p) => p[2]],
  ["x_1", (p) => p[3]],
  ["x_T", (p) => p[2 + T]],
  ["beta^2", (p) => p[0] * p[0]],
  ["x_1^2", (p) => p[3] * p[3]],
  ["x_T^2", (p) => p[2 + T] * p[2 + T]],
];

/** Self-normalised importance sampling from the prior, weights the likelihood of y. */
function importanceSample(n: number): { draws: Float64Array; weights: Float64Array; moments: { mean: number; se: number }[] } {
  const rng = new Rng(77, 0);
  const { nu, s2, a, b } = SV_PRIOR;
  const p = new Float64Array(3 + T);
  const logW = new Float64Array(n);
  const draws = new Float64Array(n * (3 + T));
  const values = FUNCTIONS.map(() => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    p[0] = rng.exponential() / -RATE;
    p[1] = Math.sqrt((nu * s2) / (2 * rng.gamma(nu / 2)));
    const ga = rng.gamma(a);
    p[2] = (2 * ga) / (ga + rng.gamma(b)) - 1;
    p[3] = (p[1] / Math.sqrt(1 - p[2] * p[2])) * rng.normal();
    for (let t = 1; t < T; t++) p[3 + t] = p[2] * p[2 + t] + p[1] * rng.normal();
    let lw = 0;
    for (let t = 0; t < T; t++) {
      const v = p[0] * p[0] * Math.exp(p[3 + t]);
      lw += -0.5 * Math.log(v) - (y[t] * y[t]) / (2 * v);
    }
    logW[i] = lw;
    draws.set(p, i * (3 + T));
    FUNCTIONS.forEach(([, f], k) => (values[k][i] = f(p)));
  }
  const max = logW.reduce((m, v) => Math.max(m, v), -Infinity);
  const w = Float64Array.from(logW, (v) => Math.exp(v - max));
  const sw = w.reduce((s, v) => s + v, 0);
  const moments = values.map((v) => {
    let m = 0;
    for (let i = 0; i < n; i++) m += w[i] * v[i];
    m /= sw;
    let s = 0;
    for (let i = 0; i < n; i++) s += w[i] * w[i] * (v[i] - m) * (v[i] - m);
    return { mean: m, se: Math.sqrt(s) / sw };
  });
  return { draws, weights: w, moments };
}

const pool = importanceSample(400000);
const reference = pool.moments;

/** Step sizes the burn-in adaptation reaches on this posterior (parameters, volatilities). */
const STEP_SIZES: { readonly [N in SvSamplerName]: [number, number] } = { rmhmc: [0.4, 0.9], mmala: [0.5, 0.95], hmc: [0.02, 0.17], mala: [0.06, 0.19] };
const CHAINS = 1000;
const SWEEPS = 4;
/** The interweaving random walk's scale on (log sigma, atanh phi) for this posterior. */
const INTERWEAVE_SCALE = 0.3;

/** Exact posterior draws: multinomial resampling of the importance sample by its weights. */
function exactStarts(m: number): Float64Array[] {
  const rng = new Rng(78, 0);
  const cdf = new Float64Array(pool.weights.length);
  let c = 0;
  pool.weights.forEach((w, i) => (cdf[i] = c += w));
  return Array.from({ length: m }, () => {
    const u = rng.uniform() * c;
    let lo = 0, hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return pool.draws.subarray(lo * (3 + T), (lo + 1) * (3 + T));
  });
}

function zScores(parameters: SvSamplerName, volatilities: SvSamplerName, seed: number, broken?: "x1-variance", interweave = false): { z: { name: string; z: number; text: string }[]; moved: number } {
  const kernel = svGibbsKernel(y, {
    parameters: { sampler: parameters, stepSize: STEP_SIZES[parameters][0], adapt: false },
    volatilities: { sampler: volatilities, stepSize: STEP_SIZES[volatilities][1], adapt: false },
    ...(interweave ? { interweave: { scale: INTERWEAVE_SCALE, adapt: false } } : {}),
    adapt: false, betaPriorRate: RATE, broken,
  });
  const rng = new Rng(seed, 0);
  return compare(exactStarts(CHAINS).map((start) => {
    let state = kernel.init(Float64Array.from(start));
    for (let k = 0; k < SWEEPS; k++) state = kernel.step(state, rng).state;
    return state.position;
  }), 0);
}

/** The interweaving block alone (beta fixed at each chain's start), `steps` steps per chain. */
function interweaveZScores(seed: number, steps: number, broken?: "interweave-no-jacobian"): ReturnType<typeof zScores> {
  const rng = new Rng(seed, 0);
  return compare(exactStarts(CHAINS).map((start) => {
    const kernel = svNonCentredKernel(y, start[0], { scale: INTERWEAVE_SCALE, betaPriorRate: RATE, broken });
    let state: SamplerState = kernel.init(start.slice(1));
    for (let k = 0; k < steps; k++) state = kernel.step(state, rng).state;
    return Float64Array.of(start[0], ...state.position);
  }), 1);
}

/** z-scores of the final states against the reference; `moved`: the fraction whose coordinate `watch` changed. */
function compare(finals: Float64Array[], watch: number): { z: { name: string; z: number; text: string }[]; moved: number } {
  const starts = exactStarts(CHAINS);
  const moved = finals.filter((f, i) => f[watch] !== starts[i][watch]).length / CHAINS;
  const z = FUNCTIONS.map(([name, f], k) => {
    const v = finals.map(f);
    const mean = v.reduce((a, b) => a + b, 0) / CHAINS;
    const se = Math.sqrt(v.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (CHAINS - 1) / CHAINS);
    const r = reference[k];
    const z = (mean - r.mean) / Math.sqrt(se * se + r.se * r.se);
    return { name, z, text: `${name}: ${mean.toFixed(4)} vs ${r.mean.toFixed(4)} (se ${se.toExponential(2)}, IS se ${r.se.toExponential(2)}, z ${z.toFixed(2)})` };
  });
  return { z, moved };
}

const PAIRS: [SvSamplerName, SvSamplerName][] = [["rmhmc", "rmhmc"], ["mmala", "mmala"], ["hmc", "hmc"], ["mala", "mala"]];

for (const [ps, vs] of PAIRS) {
  test(`SV Gibbs with ${ps} for the parameters and ${vs} for the volatilities leaves the T = 8 posterior invariant`, (t) => {
    const { z, moved } = zScores(ps, vs, 500 + ps.length * 10 + vs.length);
    const worst = Math.max(...z.map((c) => Math.abs(c.z)));
    t.diagnostic(`max |z| = ${worst.toFixed(2)}, beta moved in ${(100 * moved).toFixed(0)}% of the chains`);
    assert.ok(worst < 4, z.map((c) => c.text).join("\n"));
    assert.ok(moved > 0.5, `beta moved in only ${moved} of the chains`);
  });
}

test("negative control: a latent block with x_1 ~ N(0, sigma^2) is caught", (t) => {
  const { z } = zScores("mmala", "mmala", 900, "x1-variance");
  const worst = Math.max(...z.map((c) => Math.abs(c.z)));
  t.diagnostic(`max |z| = ${worst.toFixed(2)}`);
  assert.ok(worst > 6, z.map((c) => c.text).join("\n"));
});

test("the interweaving block alone leaves the T = 8 posterior invariant, and with rmhmc, rmhmc in the sweep", (t) => {
  for (const [label, { z, moved }] of [["alone", interweaveZScores(950, 10)], ["in the sweep", zScores("rmhmc", "rmhmc", 951, undefined, true)]] as const) {
    const worst = Math.max(...z.map((c) => Math.abs(c.z)));
    t.diagnostic(`${label}: max |z| = ${worst.toFixed(2)}, moved in ${(100 * moved).toFixed(0)}% of the chains`);
    assert.ok(worst < 4, z.map((c) => c.text).join("\n"));
    assert.ok(moved > 0.5, `${label}: moved in only ${moved} of the chains`);
  }
});

test("negative control: the interweaving block without the Jacobian of (log sigma, atanh phi) is caught", (t) => {
  const { z } = interweaveZScores(952, 10, "interweave-no-jacobian");
  const worst = Math.max(...z.map((c) => Math.abs(c.z)));
  t.diagnostic(`max |z| = ${worst.toFixed(2)}`);
  assert.ok(worst > 6, z.map((c) => c.text).join("\n"));
});
