// The samplers of f | y, theta piece by piece: HMC v1's factor of M^-1 against dense inverses and
// the paper's formula, the operation counts per transition (no O(n^3) work in an HMC v1/v2
// leapfrog step, exactly one factorisation per SMMALA step), SMMALA's acceptance ratio against a
// dense evaluation of Algorithm 2, ESS's evaluation counts, MH v2's alpha, tempered targets
// (beta < 1) against their closed form, and every registered sampler at work (registry.test.ts
// checks the registry's names and defaults).
import { test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { getBackend, setBackend } from "../../src/linalg/backend.js";
import { Cholesky } from "../../src/linalg/cholesky.js";
import { opCounts, snapshotOpCounts } from "../../src/linalg/counters.js";
import { Matrix } from "../../src/linalg/matrix.js";
import type { LinalgBackend } from "../../src/linalg/types.js";
import { probit } from "../../src/likelihoods/probit.js";
import { likelihoodByName } from "../../src/likelihoods/registry.js";
import { Rng } from "../../src/random/rng.js";
import type { RandomSource } from "../../src/random/types.js";
import { runChain, sample } from "../../src/samplers/chain/driver.js";
import { ellipticalSlice } from "../../src/samplers/kernels/ellipticalSlice.js";
import { hmcV1, hmcV2, priorPlusDiagonalInverseCholesky } from "../../src/samplers/kernels/hmcGp.js";
import { mhV2 } from "../../src/samplers/kernels/mhNeal.js";
import { defaultTargetAcceptance, LATENT_SAMPLER_NAMES, latentSampler } from "../../src/samplers/registry.js";
import { smmala } from "../../src/samplers/kernels/smmala.js";
import type { Kernel, SamplerState, StepInfo } from "../../src/samplers/types.js";
import { annealedLatentTarget, type AnnealedLatentTarget } from "../../src/targets/annealedLatent.js";
import { cholDense, cholInverse } from "./fixtures.js";
import { gaussianLikelihood, probitProblem, REG_K, REG_SD, REG_Y } from "./latentFixtures.js";
import { describe, maxAbsZ, momentZScores } from "./mcse.js";

// ---------- helpers ----------

/** A GP probit problem with n points in [0, 1]^2, K from the SE kernel, y drawn from the model. */
function probitGp(n: number, seed = 3): AnnealedLatentTarget {
  const rng = new Rng(seed);
  const x = new Matrix(n, 2);
  for (let i = 0; i < 2 * n; i++) x.data[i] = rng.uniform();
  const K = seKernel({ lengthscale: 0.4, signalSd: 1.5 }).matrix(x);
  for (let i = 0; i < n; i++) K.data[i + i * n] += 1e-6;
  const f = new Cholesky(new Matrix(n, n, cholDense(K.data, n))).multiplyLower(Float64Array.from({ length: n }, () => rng.normal()));
  const y = probit.sample(f, rng, new Float64Array(n));
  return annealedLatentTarget({ likelihood: probit, y, kernelMatrix: K });
}

function denseInverse(a: Float64Array, n: number): Float64Array {
  return cholInverse(cholDense(a, n), n);
}

function maxRelativeDifference(a: Float64Array, b: Float64Array): number {
  let scale = 0;
  for (const v of b) scale = Math.max(scale, Math.abs(v));
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d / scale;
}

/** R R' for a lower-triangular R (column-major). */
function lowerTimesTranspose(r: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let s = 0;
    for (let k = 0; k <= Math.min(i, j); k++) s += r[i + k * n] * r[j + k * n];
    out[i + j * n] = s;
  }
  return out;
}

/** Counts the backend routines called, by name. */
function countingBackend(inner: LinalgBackend): { backend: LinalgBackend; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const backend = { ...inner } as LinalgBackend;
  for (const name of ["potrf", "trsm", "trsv", "syrk", "gemm", "gemv", "symv"] as const) {
    const f = inner[name] as (...a: unknown[]) => unknown;
    (backend as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => {
      calls[name] = (calls[name] ?? 0) + 1;
      return f.apply(inner, a);
    };
  }
  return { backend, calls };
}

function withCountingBackend<T>(body: (calls: Record<string, number>) => T): T {
  const previous = getBackend();
  const { backend, calls } = countingBackend(previous);
  setBackend(backend);
  try {
    return body(calls);
  } finally {
    setBackend(previous);
  }
}

function steps<S extends SamplerState, I extends StepInfo>(kernel: Kernel<S, I>, state: S, rng: RandomSource, count: number): { state: S; infos: I[] } {
  const infos: I[] = [];
  for (let i = 0; i < count; i++) {
    const r = kernel.step(state, rng);
    state = r.state;
    infos.push(r.info);
  }
  return { state, infos };
}

// ---------- HMC v1's factor of M^-1 = (K^-1 + C)^-1 ----------

test("HMC v1's factor R: lower triangular with a positive diagonal, R R' = (K^-1 + C)^-1 = C^-1 - C^-1 (K + C^-1)^-1 C^-1 (Section 3.6)", () => {
  for (const n of [6, 48]) {
    const target = probitGp(n);
    const K = target.kernelMatrix.data;
    const rng = new Rng(5);
    const c = Float64Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 0 : 3 * rng.uniform()));
    const r = priorPlusDiagonalInverseCholesky(target.kernelCholesky, c).factor.data;
    for (let j = 0; j < n; j++) {
      assert.ok(r[j + j * n] > 0, `diagonal ${j}`);
      for (let i = 0; i < j; i++) assert.equal(r[i + j * n], 0, `(${i}, ${j}) above the diagonal`);
    }
    const precision = denseInverse(K, n);
    for (let i = 0; i < n; i++) precision[i + i * n] += c[i];
    const dense = denseInverse(precision, n);
    const err = maxRelativeDifference(lowerTimesTranspose(r, n), dense);
    assert.ok(err < 1e-8, `n = ${n}: R R' differs from the dense inverse by ${err}`);
    // the paper's form, where C > 0 everywhere
    const cPos = c.map((v) => v + 0.5);
    const r2 = priorPlusDiagonalInverseCholesky(target.kernelCholesky, cPos).factor.data;
    const kPlus = K.slice();
    for (let i = 0; i < n; i++) kPlus[i + i * n] += 1 / cPos[i];
    const inner = denseInverse(kPlus, n);
    const paper = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) paper[i + j * n] = (i === j ? 1 / cPos[i] : 0) - inner[i + j * n] / (cPos[i] * cPos[j]);
    const err2 = maxRelativeDifference(lowerTimesTranspose(r2, n), paper);
    assert.ok(err2 < 1e-8, `n = ${n}: R R' differs from the paper's C^-1 - C^-1 (K + C^-1)^-1 C^-1 by ${err2}`);
  }
});

test("HMC v1's factor with C = 0 is L_K itself (M^-1 = K, HMC v2's)", () => {
  const target = probitGp(10);
  const r = priorPlusDiagonalInverseCholesky(target.kernelCholesky, new Float64Array(10)).factor.data;
  assert.ok(maxRelativeDifference(r, target.kernelCholesky.factor.data) < 1e-12);
});

test("HMC v1's default C is beta times the Fisher information at f = 0 (2/pi for probit); HMC v2 applies M^-1 = K", () => {
  const n = 6;
  const target = probitGp(n);
  const K = target.kernelMatrix.data;
  const p = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1));
  const out = new Float64Array(n);
  for (const beta of [1, 0.3]) {
    const v1 = hmcV1(target.withBeta(beta), { stepSize: 0.1 });
    const precision = denseInverse(K, n);
    for (let i = 0; i < n; i++) precision[i + i * n] += (beta * 2) / Math.PI;
    const dense = denseInverse(precision, n);
    v1.mass.applyInverse(p, out);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += dense[i + j * n] * p[j];
      assert.ok(Math.abs(out[i] - s) < 1e-10, `beta ${beta}: (M^-1 p)_${i} = ${out[i]}, dense ${s}`);
    }
    assert.equal(v1.name, "hmc-v1");
  }
  const v2 = hmcV2(target, { stepSize: 0.1 });
  v2.mass.applyInverse(p, out);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += K[i + j * n] * p[j];
    assert.ok(Math.abs(out[i] - s) < 1e-10);
  }
  assert.equal(v2.name, "hmc-v2");
});

test("HMC v1/v2 draw the number of leapfrog steps uniformly from 1..maxLeapfrogSteps", () => {
  const target = probitGp(6);
  const k = hmcV2(target, { stepSize: 0.05, maxLeapfrogSteps: 4 });
  const { infos } = steps(k, k.init(new Float64Array(6)), new Rng(1), 400);
  const seen = new Map<number, number>();
  for (const i of infos) seen.set(i.leapfrogSteps, (seen.get(i.leapfrogSteps) ?? 0) + 1);
  assert.deepEqual([...seen.keys()].sort(), [1, 2, 3, 4]);
  for (const [, c] of seen) assert.ok(c > 60 && c < 140, `counts ${[...seen]}`);
});

// ---------- operation counts ----------

test("HMC v1 and v2: after the one factorisation no O(n^3) operation happens in a transition; O(n^2) work per leapfrog step (n = 48)", () => {
  const n = 48;
  const target = probitGp(n);
  for (const make of [() => hmcV1(target, { stepSize: 0.1 }), () => hmcV2(target, { stepSize: 0.1 })]) {
    const before = snapshotOpCounts();
    const kernel = make();
    const built = snapshotOpCounts();
    if (kernel.name === "hmc-v1") {
      assert.equal(built.cholesky - before.cholesky, 1, "HMC v1 factorises once when built");
    } else {
      assert.deepEqual(built, before, "HMC v2 reuses L_K: no O(n^3) work at all");
    }
    withCountingBackend((calls) => {
      const state = kernel.init(new Float64Array(n));
      const { infos } = steps(kernel, state, new Rng(2), 30);
      const leapfrog = infos.reduce((s, i) => s + i.leapfrogSteps, 0);
      assert.ok(leapfrog > 30, "the trajectories took steps");
      assert.deepEqual(snapshotOpCounts(), built, `${kernel.name}: the O(n^3) counters moved during transitions`);
      for (const name of ["potrf", "trsm", "syrk", "gemm"]) assert.equal(calls[name] ?? 0, 0, `${kernel.name}: ${name} called in a transition`);
      // each gradient: L_K^-1 f and L_K^-T (.) (2 trsv, n^2 flops each); each momentum draw: one
      // trsv with R'; the products with R and R' are O(n^2) loops
      const vectorOps = (calls.trsv ?? 0) + (calls.symv ?? 0) + (calls.gemv ?? 0);
      assert.ok(vectorOps <= 2 * (leapfrog + infos.length + 1), `${kernel.name}: ${vectorOps} matrix-vector operations for ${leapfrog} leapfrog steps`);
    });
  }
});

test("SMMALA: exactly one O(n^3) factorisation per transition (n = 48)", () => {
  const n = 48;
  const target = probitGp(n);
  const kernel = smmala(target, { stepSize: 0.8 });
  let state = kernel.init(new Float64Array(n));
  withCountingBackend((calls) => {
    const before = opCounts.cholesky;
    assert.equal(kernel.name, "smmala");
    const r = steps(kernel, state, new Rng(4), 25);
    state = r.state;
    assert.ok(r.infos.some((i) => i.accepted) && r.infos.some((i) => !i.accepted), "some moves accepted, some rejected");
    assert.equal(opCounts.cholesky - before, 25);
    assert.equal(calls.potrf ?? 0, 25);
    for (const name of ["trsm", "syrk", "gemm"]) assert.equal(calls[name] ?? 0, 0, `${name} called in a transition`);
  });
});

// ---------- SMMALA's ratio against a dense Algorithm 2 ----------

/** A RandomSource with real normals and u close to 0 (every finite proposal is accepted, so each step shows f'). */
class AcceptAll implements RandomSource {
  private readonly inner = new Rng(8);
  uniform() { return 1e-300; }
  normal() { return this.inner.normal(); }
  fillNormal(out: Float64Array) { return this.inner.fillNormal(out); }
  exponential() { return this.inner.exponential(); }
  gamma(a: number) { return this.inner.gamma(a); }
  studentT(nu: number) { return this.inner.studentT(nu); }
  truncatedNormal(a: number, b: number) { return this.inner.truncatedNormal(a, b); }
  integer(k: number) { return this.inner.integer(k); }
}

test("SMMALA: the acceptance probability is min(1, r) of Algorithm 2 line 3, with g(.|.) evaluated densely (metric at both ends)", () => {
  const n = 5;
  const target = probitGp(n, 11);
  const K = target.kernelMatrix.data;
  const kInv = denseInverse(K, n);
  const eps = 1.3;
  const kernel = smmala(target, { stepSize: eps });
  const dense = (f: Float64Array) => {
    const g = kInv.slice();
    const r = probit.fisherInformation(f, new Float64Array(n));
    for (let i = 0; i < n; i++) g[i + i * n] += r[i];
    const lg = cholDense(g, n);
    let logDet = 0;
    for (let i = 0; i < n; i++) logDet += 2 * Math.log(lg[i + i * n]);
    const grad = new Float64Array(n);
    const w = target.logDensityAndGradient(f, grad);
    const ginv = cholInverse(lg, n);
    const mu = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += ginv[i + j * n] * grad[j];
      mu[i] = f[i] + 0.5 * eps * eps * s;
    }
    /** log N(x; mu(f), eps^2 G(f)^-1) up to -n/2 log 2 pi */
    const logProposal = (x: Float64Array) => {
      let q = 0;
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) q += (x[i] - mu[i]) * g[i + j * n] * (x[j] - mu[j]);
      return 0.5 * logDet - n * Math.log(eps) - q / (2 * eps * eps);
    };
    return { w, logProposal };
  };
  let state = kernel.init(new Float64Array(n));
  const rng = new AcceptAll();
  let below = 0;
  for (let t = 0; t < 30; t++) {
    const { state: next, info } = kernel.step(state, rng);
    assert.ok(info.accepted);
    const a = dense(state.position);
    const b = dense(next.position);
    const logR = b.w - a.w + b.logProposal(state.position) - a.logProposal(next.position);
    const expected = Math.min(0, logR);
    assert.ok(Math.abs(Math.log(info.acceptanceProbability) - expected) < 1e-8 * (1 + Math.abs(expected)),
      `step ${t}: log acceptance ${Math.log(info.acceptanceProbability)}, dense ${expected}`);
    if (expected < -0.01) below++;
    state = next;
  }
  assert.ok(below >= 5, `only ${below} of 30 ratios below 1: the comparison says little`);
});

// ---------- elliptical slice sampling ----------

test("ESS: always moves, reports 1 + shrinks as densityEvaluations, and the driver sums them", () => {
  const target = probitGp(8);
  const kernel = ellipticalSlice(target);
  const { infos } = steps(kernel, kernel.init(new Float64Array(8)), new Rng(3), 200);
  assert.ok(infos.every((i) => i.accepted && i.acceptanceProbability === 1 && !i.divergent));
  assert.ok(infos.every((i) => Number.isInteger(i.densityEvaluations) && i.densityEvaluations! >= 1));
  assert.ok(infos.some((i) => i.densityEvaluations! > 1), "some transitions shrank the bracket");
  const r = runChain(kernel, new Rng(3), { draws: 100, burnIn: 50, init: new Float64Array(8) });
  assert.ok(r.summary.densityEvaluations >= 150);
  // with a flat likelihood (beta = 0) the first point on the ellipse is always on the slice
  const flat = ellipticalSlice(target.withBeta(0));
  const f = steps(flat, flat.init(new Float64Array(8)), new Rng(3), 50);
  assert.ok(f.infos.every((i) => i.densityEvaluations === 1));
});

test("ESS, MH v2 and SMMALA refuse a target whose Gaussian part is not the prior", () => {
  const t = annealedLatentTarget({
    likelihood: probit, y: [1, -1], kernelMatrix: new Matrix(2, 2, Float64Array.of(2, 1, 1, 2)),
    q: { mean: [0.1, 0.2], siteVariances: [1, 1] }, beta: 0.5,
  });
  assert.throws(() => ellipticalSlice(t), /not the prior/);
  assert.throws(() => mhV2(t, { alpha: 0.5 }), /not the prior/);
  assert.throws(() => smmala(t, { stepSize: 0.5 }), /not the prior/);
});

// ---------- MH v2's alpha ----------

test("MH v2 uses min(alpha, 1): alpha >= 1 (even Infinity, where adaptation may drift) proposes an independent prior draw", () => {
  const target = probitGp(4);
  const k = mhV2(target.withBeta(0), { alpha: 3 });
  const { infos } = steps(k, k.init(new Float64Array(4)), new Rng(1), 20);
  assert.ok(infos.every((i) => i.stepSize === 1 && i.accepted), "with a flat likelihood every prior draw is accepted");
  k.tunable.value = Infinity;
  assert.equal(k.step(k.init(new Float64Array(4)), new Rng(2)).info.stepSize, 1);
});

// ---------- tempered targets (beta < 1) ----------

test("at beta = 1/2 (likelihood^(1/2): the noise variance doubles) ESS, MH v2, SMMALA and HMC v1 match the closed form", (t) => {
  const n = 3;
  const k = new Float64Array(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) k[i + j * 3] = REG_K[i][j];
  const target = annealedLatentTarget({ likelihood: gaussianLikelihood(REG_SD), y: REG_Y, kernelMatrix: new Matrix(3, 3, k) }).withBeta(0.5);
  const prec = denseInverse(k, n);
  for (let i = 0; i < n; i++) prec[i + i * n] += 0.5 / (REG_SD[i] * REG_SD[i]);
  const cov = denseInverse(prec, n);
  const mean: number[] = [];
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += (cov[i + j * n] * 0.5 * REG_Y[j]) / (REG_SD[j] * REG_SD[j]);
    mean.push(s);
  }
  const kernels: [string, Kernel<SamplerState>, number][] = [
    ["ess", ellipticalSlice(target), 10000],
    ["mh-v2", mhV2(target, { alpha: 0.7 }), 20000],
    ["smmala", smmala(target, { stepSize: 1.2 }), 10000],
    ["hmc-v1", hmcV1(target, { stepSize: 0.5 }), 5000],
  ];
  for (const [label, kernel, draws] of kernels) {
    const r = sample(kernel, { draws, burnIn: 300, chains: 2, seed: 7, init: mean });
    const c = momentZScores(r, mean, (i, j) => cov[i + j * n]);
    t.diagnostic(`${label} at beta = 1/2: max |z| = ${maxAbsZ(c).toFixed(2)}`);
    assert.ok(maxAbsZ(c) < 4, `${label}: a moment is off\n${describe(c)}`);
  }
});

// ---------- the registry ----------

test("burn-in adaptation brings each tunable sampler near its default target acceptance (n = 48 probit)", (t) => {
  const target = probitGp(48);
  for (const name of ["mh", "mh-v1", "mh-v2", "hmc-v1", "hmc-v2", "smmala"] as const) {
    const kernel = latentSampler(target, name);
    const r = runChain(kernel, new Rng(9), { draws: 1500, burnIn: 1500, init: new Float64Array(48), adapt: { method: "dual-averaging" } });
    const goal = defaultTargetAcceptance(name)!;
    t.diagnostic(`${name}: tuned ${kernel.tunable!.name} ${r.tunedValue!.toPrecision(3)}, mean acceptance ${r.summary.meanAcceptStat.toFixed(3)} (target ${goal})`);
    // dual averaging keeps the averaged step (Hoffman & Gelman's x-bar), which lands on the cautious
    // side of the iterates: HMC v2 runs at about 0.74 for 0.65 here. 0.15 still separates 0.25 from 0.57-0.65.
    assert.ok(Math.abs(r.summary.meanAcceptStat - goal) < 0.15, `${name}: mean acceptance ${r.summary.meanAcceptStat} vs ${goal}`);
  }
});

test("every registered sampler runs on every built-in likelihood (n = 12, data drawn from the model)", () => {
  const n = 12;
  const rng = new Rng(21);
  const x = new Matrix(n, 1);
  for (let i = 0; i < n; i++) x.data[i] = rng.uniform();
  const K = seKernel({ lengthscale: 0.3, signalSd: 1.2 }).matrix(x);
  for (let i = 0; i < n; i++) K.data[i + i * n] += 1e-6;
  const f = new Cholesky(new Matrix(n, n, cholDense(K.data, n))).multiplyLower(Float64Array.from({ length: n }, () => rng.normal()));
  const cases: [string, Parameters<typeof likelihoodByName>[1]][] = [
    ["probit", {}], ["logistic", {}], ["poisson", { exposure: 2 }], ["volatility", {}], ["ordinal", { thresholds: [-0.5, 0.5], noiseSd: 0.5 }],
  ];
  for (const [likName, likOptions] of cases) {
    const likelihood = likelihoodByName(likName, likOptions);
    const y = likelihood.sample(f, rng, new Float64Array(n));
    const target = annealedLatentTarget({ likelihood, y, kernelMatrix: K });
    for (const name of LATENT_SAMPLER_NAMES) {
      if (name === "exact-hmc" && likName !== "probit") {
        // its truncated-Gaussian form is the probit model's alone
        assert.throws(() => latentSampler(target, name), new RegExp(`^RangeError: exact-hmc: applies only to the probit likelihood .*, not ${likName}$`));
        continue;
      }
      const kernel = latentSampler(target, name);
      const r = runChain(kernel, new Rng(4), { draws: 100, burnIn: 100, init: new Float64Array(n), adapt: { method: "dual-averaging" } });
      assert.ok(r.samples.every(Number.isFinite), `${name} on ${likName}: non-finite draws`);
      assert.ok(r.stats.lp.every(Number.isFinite), `${name} on ${likName}: non-finite lp__`);
      const moved = r.samples.some((v, i) => i >= n && v !== r.samples[i - n]);
      assert.ok(moved, `${name} on ${likName}: the chain never moved`);
    }
  }
});
