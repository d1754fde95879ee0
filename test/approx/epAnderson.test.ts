import { test } from "node:test";
import assert from "node:assert/strict";
import { expectationPropagation, probitSites, type EpResult } from "../../src/approx/index.js";
import { andersonCoefficients } from "../../src/approx/epAnderson.js";
import { inverse, matVec, seKernel } from "./fixtures.js";

const quiet = (): void => {};

/** A 1-D probit problem with large signal variance, where undamped parallel EP oscillates. */
function hardProblem(n: number, signalSd: number, lengthscale: number) {
  const xs = Array.from({ length: n }, (_, i) => -3 + (6 * i) / (n - 1) + 0.01 * Math.sin(7 * i));
  const y = Float64Array.from(xs.map((x, i) => (Math.sin(1.3 * x) + 0.3 * Math.cos(11 * i) > 0 ? 1 : -1)));
  return { k: seKernel(xs, signalSd, lengthscale, 1e-6 * signalSd * signalSd), y };
}

/**
 * The largest difference of two EP solutions in EP's own dimensionless units (EpOptions.siteTolerance):
 * |d tau~_i| Sigma_ii and |d nu~_i| sqrt(Sigma_ii), and of their posterior means relative to sqrt(Sigma_ii).
 */
function distance(a: EpResult, b: EpResult): number {
  const n = a.mean.length;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const s = b.covariance.get(i, i);
    m = Math.max(m, Math.abs(a.siteTau[i] - b.siteTau[i]) * s, Math.abs(a.siteNu[i] - b.siteNu[i]) * Math.sqrt(s),
      Math.abs(a.mean[i] - b.mean[i]) / Math.sqrt(s));
  }
  return m;
}

const TIGHT = { siteTolerance: 1e-9, logZTolerance: 1e-11, maxSweeps: 300, onWarning: quiet };

test("accelerated parallel EP reaches sequential EP's fixed point where undamped parallel EP oscillates", () => {
  for (const [n, sf, ell] of [[60, 20, 1], [60, 50, 2], [80, 100, 0.5]]) {
    const { k, y } = hardProblem(n, sf, ell);
    const seq = expectationPropagation(k, probitSites(y), TIGHT);
    assert.ok(seq.converged, `(${n}, ${sf}, ${ell}) sequential converged`);
    // Negative control: the plain undamped parallel iteration does not converge on these problems,
    // and a run stopped early is far from the fixed point by the measure used below.
    const undamped = expectationPropagation(k, probitSites(y), { ...TIGHT, schedule: "parallel", acceleration: "none", damping: 1 });
    assert.equal(undamped.converged, false, `(${n}, ${sf}, ${ell}) undamped parallel EP oscillates`);
    assert.ok(Math.abs(undamped.logZ - seq.logZ) > 1e-3, `(${n}, ${sf}, ${ell}) undamped log Z ${undamped.logZ} vs ${seq.logZ}`);
    const early = expectationPropagation(k, probitSites(y), { ...TIGHT, schedule: "parallel", maxSweeps: 3 });
    assert.ok(distance(early, seq) > 1e-3, `(${n}, ${sf}, ${ell}) 3 sweeps: distance ${distance(early, seq)}`);
    for (const parallelStart of ["sequential", "prior"] as const) {
      const par = expectationPropagation(k, probitSites(y), { ...TIGHT, schedule: "parallel", parallelStart });
      const what = `(${n}, ${sf}, ${ell}) from ${parallelStart}`;
      assert.ok(par.converged, `${what} converged`);
      assert.ok(par.sweeps < 60, `${what}: ${par.sweeps} sweeps`);
      assert.ok(Math.abs(par.logZ - seq.logZ) < 1e-8, `${what}: log Z ${par.logZ} vs ${seq.logZ}`);
      assert.ok(distance(par, seq) < 1e-6, `${what}: distance ${distance(par, seq)}`);
      let sigma = 0;
      for (let i = 0; i < n * n; i++) sigma = Math.max(sigma, Math.abs(par.covariance.data[i] - seq.covariance.data[i]));
      assert.ok(sigma < 1e-6 * sf * sf, `${what}: Sigma differs by ${sigma}`);
    }
  }
});

test("accelerated parallel EP needs fewer sweeps than damped parallel EP on the same problem", () => {
  const { k, y } = hardProblem(60, 20, 1);
  const plain = expectationPropagation(k, probitSites(y), { ...TIGHT, schedule: "parallel", acceleration: "none" });
  const fast = expectationPropagation(k, probitSites(y), { ...TIGHT, schedule: "parallel" });
  assert.ok(plain.converged && fast.converged);
  assert.ok(fast.sweeps * 2 < plain.sweeps, `accelerated ${fast.sweeps} sweeps, damped ${plain.sweeps}`);
});

test("accelerated parallel EP's default stop: log Z within 3x logZTolerance of the fixed point's, sites within 20 residuals of it; the site test alone is not enough", () => {
  let siteOnlyWorst = 0;
  for (const [n, sf, ell] of [[60, 20, 1], [60, 50, 2], [80, 100, 0.5], [100, 5, 1], [60, 2, 1]]) {
    const { k, y } = hardProblem(n, sf, ell);
    const what = `(${n}, ${sf}, ${ell})`;
    const star = expectationPropagation(k, probitSites(y), { ...TIGHT, schedule: "parallel", siteTolerance: 1e-10, logZTolerance: 1e-13 });
    assert.ok(star.siteChange < 1e-9, `${what} reference: residual ${star.siteChange}`);
    const def = expectationPropagation(k, probitSites(y), { schedule: "parallel", onWarning: quiet });
    assert.ok(def.converged, `${what} converged`);
    assert.ok(def.siteChange < 1e-4 && def.logZError < 1e-8, `${what}: residual ${def.siteChange}, estimated log Z error ${def.logZError}`);
    const err = Math.abs(def.logZ - star.logZ);
    assert.ok(err < 3e-8, `${what}: log Z ${def.logZ} is ${err} from the fixed point's (estimate ${def.logZError})`);
    // the residual is what the result says about the sites: they are that near the fixed point
    // the residual is what the result says about the sites: their distance from the fixed point
    // is a small multiple of it (up to 11 here: the iteration contracts, not by much per sweep)
    assert.ok(distance(def, star) < 20 * def.siteChange, `${what}: distance ${distance(def, star)}, residual ${def.siteChange}`);
    const siteOnly = expectationPropagation(k, probitSites(y), { schedule: "parallel", logZTolerance: Infinity, onWarning: quiet });
    siteOnlyWorst = Math.max(siteOnlyWorst, Math.abs(siteOnly.logZ - star.logZ));
  }
  // negative control: stopping on the site tolerance 1e-4 alone leaves log Z measurably further off
  assert.ok(siteOnlyWorst > 3e-8, `the site test alone: worst log Z error ${siteOnlyWorst}`);
});

test("Anderson coefficients solve the weighted least-squares problem (normal equations) and drop collinear history", () => {
  const len = 12;
  const col = (c: number) => Float64Array.from({ length: len }, (_, t) => Math.sin(1.7 * t * (c + 1) + c) + 0.1 * t * (c === 1 ? 1 : 0));
  const dF = [col(0), col(1), col(2)];
  const f = Float64Array.from({ length: len }, (_, t) => Math.cos(0.9 * t) + 0.2);
  const w = Float64Array.from({ length: len }, (_, t) => 0.5 + (t % 3));
  const gamma = andersonCoefficients(dF, f, w);
  // direct: gamma = (A'A)^-1 A'b with A = W dF, b = W f
  const ata = dF.map((a) => dF.map((b) => a.reduce((s, v, t) => s + w[t] * w[t] * v * b[t], 0)));
  const atb = dF.map((a) => a.reduce((s, v, t) => s + w[t] * w[t] * v * f[t], 0));
  const direct = matVec(inverse(ata), atb);
  for (let j = 0; j < 3; j++) assert.ok(Math.abs(gamma[j] - direct[j]) < 1e-10, `gamma ${j}: ${gamma[j]} vs ${direct[j]}`);
  // a column repeating the newest one: the oldest columns are dropped until the rest are independent
  const collinear = [col(0), col(2), Float64Array.from(col(2), (v) => 2 * v)];
  const g2 = andersonCoefficients(collinear, f, w);
  assert.ok(g2.every(Number.isFinite));
  assert.equal(g2[0], 0);
  assert.equal(g2[1], 0);
  const a = collinear[2];
  const num = a.reduce((s, v, t) => s + w[t] * w[t] * v * f[t], 0);
  const den = a.reduce((s, v, t) => s + w[t] * w[t] * v * v, 0);
  assert.ok(Math.abs(g2[2] - num / den) < 1e-12, `single column ${g2[2]} vs ${num / den}`);
});
