// Invariance of the Cox process samplers on a 3 x 3 grid, for both grid covariances: the posterior
// moments of x (means, variances, and the covariances of neighbouring and diagonal cells) from each
// sampler against self-normalised importance sampling with a multivariate-t proposal around the
// mode, both with their own Monte Carlo standard errors. The reference's density is eq. 31 with
// Sigma written out densely (gridCovariance.ts) and factorised: independent of the Kronecker and
// circulant algebra the samplers run on. Negative controls, broken variants the same check must
// reject: a wrong acceptance, missing proposal densities, and the separable covariance sampled
// against the Euclidean posterior.
import { test } from "node:test";
import assert from "node:assert/strict";
import { batchMeans } from "../../../src/diagnostics/batchMeans.js";
import { cholesky } from "../../../src/linalg/cholesky.js";
import { Rng } from "../../../src/random/rng.js";
import { Matrix } from "../../../src/linalg/matrix.js";
import { coxProcessMetricTarget, coxProcessModel } from "../../../src/models/coxProcess/coxProcess.js";
import { coxFieldMode, coxFieldModel } from "../../../src/models/coxProcess/fieldModel.js";
import { denseGridCovariance, type GridDistance } from "../../../src/models/coxProcess/gridCovariance.js";
import { coxProcessSampler, type CoxProcessSamplerName } from "../../../src/models/coxProcess/samplers.js";
import { runChain } from "../../../src/samplers/chain/driver.js";
import { smmala } from "../../../src/samplers/kernels/smmala.js";
import type { Kernel } from "../../../src/samplers/types.js";
import type { AdaptOptions } from "../../../src/samplers/chain/adaptation.js";

const SIDE = 3;
const N = 9;
// beta = 0.5: a correlation length of 1.5 cells, so neighbours are correlated (beta = 1/33 would make them nearly independent)
const HYPER = { sigma2: 1.91, beta: 0.5, mu: Math.log(126) - 1.91 / 2 };
// counts with a zero and a large one, so that the posterior is visibly non-Gaussian
const COUNTS = [0, 3, 12, 7, 1, 25, 4, 9, 2];
const PASS_Z = 4.5;
const FAIL_Z = 6;

/** The functions of x whose expectations are compared: x_k, (x_k - c_k)^2, and (x_k - c_k)(x_l - c_l) for grid neighbours. */
function momentFunctions(centre: Float64Array): { name: string; f: (x: Float64Array) => number }[] {
  const out: { name: string; f: (x: Float64Array) => number }[] = [];
  for (let k = 0; k < N; k++) out.push({ name: `E[x${k}]`, f: (x) => x[k] });
  for (let k = 0; k < N; k++) out.push({ name: `E[(x${k} - c)^2]`, f: (x) => (x[k] - centre[k]) ** 2 });
  for (const [k, l] of [[0, 1], [1, 2], [0, 3], [4, 5], [4, 7], [5, 8], [0, 4], [4, 8], [2, 4]]) out.push({ name: `E[(x${k} - c)(x${l} - c)]`, f: (x) => (x[k] - centre[k]) * (x[l] - centre[l]) });
  return out;
}

interface Reference {
  centre: Float64Array;
  values: Float64Array;
  mcse: Float64Array;
}

const cachedReference = new Map<GridDistance, Reference>();

/** Self-normalised importance sampling, proposal: multivariate t_5 with scale (Sigma^-1 + W(mode))^-1 around the mode. */
function reference(covariance: GridDistance): Reference {
  const cached = cachedReference.get(covariance);
  if (cached) return cached;
  const { mode } = coxFieldMode(coxFieldModel(SIDE, COUNTS, HYPER, covariance));
  const sigma = cholesky(denseGridCovariance(SIDE, HYPER.sigma2, HYPER.beta, covariance));
  const eye = new Matrix(N, N);
  for (let k = 0; k < N; k++) eye.data[k + k * N] = 1;
  const a = sigma.solveMatrix(eye);
  const logDensity = (x: Float64Array) => {
    const r = x.map((v) => v - HYPER.mu);
    const s = sigma.solve(r);
    let lp = 0;
    for (let k = 0; k < N; k++) lp += COUNTS[k] * x[k] - Math.exp(x[k]) / N - 0.5 * r[k] * s[k];
    return lp;
  };
  for (let k = 0; k < N; k++) a.data[k + k * N] += Math.exp(mode[k]) / N;
  const ch = cholesky(a); // A = C C'; proposal x = mode + C'^-1 z sqrt(nu / chi2_nu)
  const nu = 5;
  const rng = new Rng(20261126);
  const draws = 200000;
  const fns = momentFunctions(mode);
  const sums = new Float64Array(fns.length);
  const fx = new Float64Array(draws * fns.length);
  const logw = new Float64Array(draws);
  const z = new Float64Array(N);
  const x = new Float64Array(N);
  for (let t = 0; t < draws; t++) {
    rng.fillNormal(z);
    const chi2 = 2 * rng.gamma(nu / 2);
    const s = Math.sqrt(nu / chi2);
    let zz = 0;
    for (let k = 0; k < N; k++) zz += z[k] * z[k];
    // t density (up to a constant) of x: (1 + |C'(x - mode)|^2 / nu)^-(nu + N)/2 with C'(x - mode) = z s
    const logq = (-(nu + N) / 2) * Math.log1p((zz * s * s) / nu);
    for (let k = 0; k < N; k++) x[k] = z[k] * s;
    ch.solveUpperInPlace(x);
    for (let k = 0; k < N; k++) x[k] += mode[k];
    logw[t] = logDensity(x) - logq;
    for (let j = 0; j < fns.length; j++) fx[t * fns.length + j] = fns[j].f(x);
  }
  let max = -Infinity;
  for (const v of logw) max = Math.max(max, v);
  let wsum = 0;
  const w = logw.map((v) => Math.exp(v - max));
  for (const v of w) wsum += v;
  for (let t = 0; t < draws; t++) for (let j = 0; j < fns.length; j++) sums[j] += (w[t] * fx[t * fns.length + j]) / wsum;
  const mcse = new Float64Array(fns.length);
  for (let t = 0; t < draws; t++) {
    const wt = w[t] / wsum;
    for (let j = 0; j < fns.length; j++) mcse[j] += wt * wt * (fx[t * fns.length + j] - sums[j]) ** 2;
  }
  const ref = { centre: mode, values: sums, mcse: mcse.map(Math.sqrt) };
  cachedReference.set(covariance, ref);
  return ref;
}

/** Largest |z| of the chains' moments (batch means) against the reference, both errors combined. */
function maxZ(t: { diagnostic(m: string): void }, label: string, covariance: GridDistance, kernel: Kernel, init: Float64Array, adapt: AdaptOptions | undefined, toField: (d: Float64Array, out: Float64Array) => void, seed: number): number {
  const ref = reference(covariance);
  const fns = momentFunctions(ref.centre);
  const draws = 6000;
  const chains = [0, 1].map((c) => runChain(kernel, new Rng(seed, c), { draws, burnIn: 1000, init, adapt }));
  let worst = 0;
  let worstName = "";
  const x = new Float64Array(N);
  for (let j = 0; j < fns.length; j++) {
    const values = chains.map((r) => {
      const v = new Float64Array(draws);
      for (let i = 0; i < draws; i++) {
        toField(r.samples.subarray(i * r.dim, (i + 1) * r.dim), x);
        v[i] = fns[j].f(x);
      }
      return v;
    });
    const { mean, mcse } = batchMeans(values);
    const z = (mean - ref.values[j]) / Math.sqrt(mcse * mcse + ref.mcse[j] ** 2);
    if (Math.abs(z) > Math.abs(worst)) {
      worst = z;
      worstName = `${fns[j].name}: ${mean.toFixed(4)} vs ${ref.values[j].toFixed(4)}`;
    }
  }
  t.diagnostic(`${label}: max |z| = ${Math.abs(worst).toFixed(2)} (${worstName})`);
  return Math.abs(worst);
}

function runNamed(t: { diagnostic(m: string): void }, covariance: GridDistance, name: CoxProcessSamplerName, seed: number, against = covariance): number {
  const s = coxProcessSampler(coxFieldModel(SIDE, COUNTS, HYPER, covariance), name);
  return maxZ(t, `${name} (${covariance}${against === covariance ? "" : ` against ${against}`})`, against, s.kernel, s.init, s.adapt, s.toField, seed);
}

// The Euclidean posterior is more strongly correlated (diagonal neighbours are closer), so its weights vary more.
test("the importance-sampling references are precise (relative MCSE of the means below 3e-3)", () => {
  for (const covariance of ["separable", "euclidean"] as const) {
    const ref = reference(covariance);
    for (let k = 0; k < N; k++) assert.ok(ref.mcse[k] < 3e-3 * Math.max(1, Math.abs(ref.values[k])), `${covariance} E[x${k}] mcse ${ref.mcse[k]}`);
  }
});

for (const covariance of ["separable", "euclidean"] as const) {
  for (const [name, seed] of [["rmhmc", 101], ["mmala", 102], ["mala-stationary", 103], ["mala-transient", 104]] as const) {
    test(`${name} leaves the 3 x 3 Cox process posterior invariant (${covariance} covariance)`, (t) => {
      assert.ok(runNamed(t, covariance, name, covariance === "separable" ? seed : seed + 10) < PASS_Z);
    });
  }
}

test("negative control: RMHMC on the separable covariance is rejected against the Euclidean posterior", (t) => {
  assert.ok(runNamed(t, "separable", "rmhmc", 203, "euclidean") > FAIL_Z);
});

test("negative control: RMHMC accepting on the potential energy alone is rejected", (t) => {
  const s = coxProcessSampler(coxFieldModel(SIDE, COUNTS, HYPER, "euclidean"), "rmhmc", { broken: "potential-only" });
  assert.ok(maxZ(t, "rmhmc potential-only (euclidean)", "euclidean", s.kernel, s.init, s.adapt, s.toField, 201) > FAIL_Z);
});

test("negative control: mMALA without the proposal densities is rejected", (t) => {
  const model = coxProcessModel(SIDE, COUNTS, HYPER);
  const kernel = smmala(coxProcessMetricTarget(model), { stepSize: 1.2, broken: "smmala-no-hastings" });
  const init = new Float64Array(N).fill(HYPER.mu);
  assert.ok(maxZ(t, "mmala no-hastings (separable)", "separable", kernel, init, undefined, (d, out) => out.set(d), 202) > FAIL_Z);
});
