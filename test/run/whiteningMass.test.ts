// The whitening of laplace-hmc and laplace-nuts (src/run/whiteningMass.ts): which approximation's W
// each spec gets by default, that the W filled in is EP's site precisions or Laplace's W at the
// mode as computed independently by approx/, and that a failed EP (no convergence, an error) falls
// back to Laplace's W with one warning; runLatentGp reports the fit and counts its time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { expectationPropagation } from "../../src/approx/ep.js";
import { laplace } from "../../src/approx/laplace.js";
import { probitSites } from "../../src/likelihoods/epSites.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";
import { runLatentGp } from "../../src/run/chains.js";
import type { LatentGpRunSpec } from "../../src/run/runSpec.js";
import { defaultWhitening, withWhiteningMass, WHITENING_EP_OPTIONS } from "../../src/run/whiteningMass.js";
import { latentSamplerSpec, type LatentSamplerSpec } from "../../src/samplers/registry.js";
import { latentGpTarget } from "../../src/targets/latentGpModel.js";

function problem(n: number) {
  const rng = new Rng(8);
  const X = new Matrix(n, 2, Float64Array.from({ length: 2 * n }, () => 3 * rng.uniform()));
  const y = Float64Array.from({ length: n }, (_, i) => (Math.sin(2 * X.get(i, 0)) + Math.cos(X.get(i, 1)) > 0 ? 1 : -1));
  return { X, y };
}

const { X, y } = problem(20);
const probitTarget = latentGpTarget(X, y, { likelihood: "probit", logLengthscale: [0], logSignalSd: Math.log(3) });
const massOf = (spec: LatentSamplerSpec) => (spec.sampler === "laplace-nuts" || spec.sampler === "laplace-hmc" ? spec.massDiagonal : undefined);
const centerOf = (spec: LatentSamplerSpec) => (spec.sampler === "laplace-nuts" ? spec.center : undefined);

function assertClose(a: readonly number[] | undefined, b: ArrayLike<number>, label: string): void {
  assert.ok(a !== undefined && a.length === b.length, `${label}: missing, or the wrong length`);
  for (let i = 0; i < b.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= 1e-12 * (1 + Math.abs(b[i])), `${label}: entry ${i} ${a[i]} vs ${b[i]}`);
}

test("defaults: EP's whitening for laplace-nuts on probit, Laplace's otherwise", () => {
  assert.equal(defaultWhitening("laplace-nuts", "probit"), "ep");
  assert.equal(defaultWhitening("laplace-nuts", "logistic"), "laplace");
  assert.equal(defaultWhitening("laplace-hmc", "probit"), "laplace");
});

test("laplace-nuts on probit gets EP's site precisions as W; --whitening laplace and laplace-hmc get Laplace's W at the mode", () => {
  const ep = expectationPropagation(probitTarget.kernelMatrix, probitSites(y), { ...WHITENING_EP_OPTIONS, onWarning: () => undefined });
  const lap = laplace(probitTarget.kernelMatrix, probitTarget.y, probitTarget.likelihood, { onWarning: () => undefined });
  const warnings: string[] = [];
  const onWarning = (m: string) => void warnings.push(m);
  const byDefault = withWhiteningMass(probitTarget, latentSamplerSpec("laplace-nuts"), { onWarning });
  assert.equal(byDefault.fit?.used, "ep");
  assert.equal(byDefault.fit?.epSweeps, ep.sweeps);
  assert.ok(byDefault.fit!.cpuSeconds >= 0 && byDefault.fit!.wallSeconds >= 0);
  assertClose(massOf(byDefault.spec), ep.siteTau, "EP");
  const asked = withWhiteningMass(probitTarget, latentSamplerSpec({ sampler: "laplace-nuts", whitening: "laplace" }), { onWarning });
  assert.equal(asked.fit?.used, "laplace");
  assertClose(massOf(asked.spec), lap.w, "Laplace");
  // laplace-nuts' split integrator is centred on the same Gaussian's mean: EP's mean, Laplace's mode
  assertClose(centerOf(byDefault.spec), ep.mean, "EP's mean");
  assertClose(centerOf(asked.spec), lap.mode, "Laplace's mode");
  const forHmc = withWhiteningMass(probitTarget, latentSamplerSpec("laplace-hmc"), { onWarning }).spec;
  assertClose(massOf(forHmc), lap.w, "laplace-hmc");
  assert.ok(!("center" in forHmc), "laplace-hmc has no centre");
  // The two really differ here (else the tests above could not tell them apart).
  assert.ok(ep.siteTau.some((t, i) => Math.abs(t - lap.w[i]) > 1e-3));
  assert.deepEqual(warnings, []);
  // A spec that has its W, or another sampler, is left as it is.
  const given = latentSamplerSpec({ sampler: "laplace-nuts", massDiagonal: Array.from(lap.w) });
  assert.equal(withWhiteningMass(probitTarget, given).spec, given);
  assert.equal(withWhiteningMass(probitTarget, latentSamplerSpec("hmc")).fit, undefined);
});

test("EP that does not converge, or fails, falls back to Laplace's W with one warning", () => {
  const lap = laplace(probitTarget.kernelMatrix, probitTarget.y, probitTarget.likelihood, { onWarning: () => undefined });
  const cases: [string, object, RegExp][] = [
    ["no convergence", { ...WHITENING_EP_OPTIONS, maxSweeps: 1, minSweeps: 1 }, /EP did not converge in 1 sweeps/],
    ["an error", { damping: 2 }, /EP failed: EP: damping must be in \(0, 1\]/],
  ];
  for (const [label, ep, why] of cases) {
    const warnings: string[] = [];
    const r = withWhiteningMass(probitTarget, latentSamplerSpec("laplace-nuts"), { onWarning: (m) => void warnings.push(m), ep });
    assert.equal(r.fit?.requested, "ep", label);
    assert.equal(r.fit?.used, "laplace", label);
    assert.match(r.fit?.fallback ?? "", why, label);
    assertClose(massOf(r.spec), lap.w, label);
    assert.equal(warnings.length, 1, label);
    assert.match(warnings[0], /^laplace-nuts: EP whitening not used \(.*\); whitened by Laplace's covariance at the mode instead$/, label);
  }
  // Asked for EP where the likelihood has no EP sites (the library; the CLI refuses it): Laplace, with the reason.
  const logistic = latentGpTarget(X, Float64Array.from(y, (v) => (v > 0 ? 1 : 0)), { likelihood: "logistic", logLengthscale: [0], logSignalSd: Math.log(3) });
  const warnings: string[] = [];
  const r = withWhiteningMass(logistic, latentSamplerSpec({ sampler: "laplace-nuts", whitening: "ep" }), { onWarning: (m) => void warnings.push(m) });
  assert.equal(r.fit?.used, "laplace");
  assert.match(warnings[0] ?? "", /the logistic likelihood has no EP sites/);
});

test("runLatentGp: the chains get EP's W, the run reports the fit, and its wall-clock time is part of the run's", async () => {
  const spec: LatentGpRunSpec = {
    model: { likelihood: "probit", logLengthscale: [0], logSignalSd: Math.log(3) },
    sampler: latentSamplerSpec("laplace-nuts"), draws: 5, burnIn: 5, thin: 1, chains: 1, seed: 3,
  };
  const run = await runLatentGp({ X, y }, spec, { inProcess: true });
  assert.equal(run.whitening?.used, "ep");
  assert.ok(run.whitening!.wallSeconds > 0 && run.seconds >= run.whitening!.wallSeconds);
  // The caller's spec is left as given.
  assert.equal(massOf(spec.sampler), undefined);
});
