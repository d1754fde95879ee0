// Each --model model's run in the model registry (src/models/modelRun.ts): its data reader, its
// defaults, its target and samplers build what the direct calls build (the same draws), an
// option given as undefined takes the default, and a sampler the model does not have is refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "../fixtures.js";
import { modelInfo } from "../../src/models/registry.js";
import { withDefaults } from "../../src/models/modelRun.js";
import { logisticRegression } from "../../src/models/logisticRegression.js";
import { paperMu } from "../../src/models/coxProcess/coxProcess.js";
import { simulateCoxProcess } from "../../src/models/coxProcess/simulate.js";
import { simulateVolatility } from "../../src/models/volatility/svSimulate.js";
import { runChain } from "../../src/samplers/chain/driver.js";
import { Rng } from "../../src/random/rng.js";
import { DataError } from "../../src/io/errors.js";
import { checkLatentGpResponses } from "../../src/models/latentGpRun.js";
import { latentSampler } from "../../src/samplers/registry.js";
import { latentGpTarget } from "../../src/targets/latentGpModel.js";

test("withDefaults: given options over the defaults, undefined ones left out", () => {
  assert.deepEqual(withDefaults({ a: 1, b: 2 }, { a: 5, b: undefined }), { a: 5, b: 2 });
  assert.deepEqual(withDefaults({ a: 1, b: 2 }), { a: 1, b: 2 });
});

test("logistic-regression: read data -> build target -> sampler, with the prior variance and degree of its defaults", () => {
  const s = scratchDir();
  try {
    const file = join(s.dir, "d.csv");
    writeFileSync(file, "x,y\n0,0\n1,1\n2,0\n3,1\n-1,0\n");
    const m = modelInfo["logistic-regression"];
    assert.deepEqual(m.defaults, { priorVariance: 100, polynomialDegree: 1 });
    const data = m.readData(file);
    const t = m.buildTarget(data, { polynomialDegree: 2, priorVariance: undefined });
    assert.deepEqual(t.design.terms, ["(intercept)", "x", "x^2"]);
    assert.equal(t.model.priorVariance, 100);
    assert.deepEqual(Array.from(t.init), [0, 0, 0]);
    // the same log density as the model built directly
    const direct = logisticRegression(t.design.matrix, data.y, { priorVariance: 100 });
    const beta = Float64Array.from([0.3, -0.2, 0.1]);
    assert.equal(t.model.logDensity(beta), direct.logDensity(beta));
    const other = m.buildTarget(data, { priorVariance: 2 });
    assert.notEqual(other.model.logDensity(Float64Array.from([0.3, -0.2])), m.buildTarget(data).model.logDensity(Float64Array.from([0.3, -0.2])));
    const { kernel, init, adapt } = m.sampler(t, "mala", { burnIn: 10 });
    assert.deepEqual(adapt, { method: "dual-averaging" });
    const r = runChain(kernel, new Rng(3), { draws: 5, burnIn: 10, init, adapt });
    assert.equal(r.samples.length, 15);
    assert.equal(m.sampler(t, "mala", { adapt: false }).adapt, undefined);
    assert.throws(() => m.sampler(t, "ess"), /logistic-regression has no sampler "ess"/);
    // a one-class data set is warned of, naming the file
    writeFileSync(file, "x,y\n0,1\n1,1\n");
    assert.match(m.buildTarget(m.readData(file)).warnings.join("\n"), /d\.csv: all 2 labels/);
    writeFileSync(file, "x,y\n0,1\n1,q\n");
    assert.throws(() => m.readData(file), DataError);
  } finally {
    s.cleanup();
  }
});

test("lgcp: mu follows sigma^2 unless given; the covariance defaults to euclidean; unknown samplers refused", () => {
  const m = modelInfo.lgcp;
  assert.equal(m.defaults.covariance, "euclidean");
  const sim = simulateCoxProcess(4, { sigma2: m.defaults.sigma2, beta: m.defaults.beta, mu: m.defaults.mu }, 1, undefined, "separable");
  const model = m.buildTarget({ side: 4, counts: sim.counts }, { sigma2: 1, covariance: "separable" });
  assert.equal(model.covariance, "separable");
  assert.equal(model.hyper.mu, paperMu(1));
  assert.equal(m.buildTarget({ side: 4, counts: sim.counts }, { sigma2: 1, mu: 0.5, covariance: "separable" }).hyper.mu, 0.5);
  const s = m.sampler(model, "mala-stationary", { adapt: false });
  assert.equal(s.adapt, undefined);
  assert.equal(s.init.length, 16);
  assert.throws(() => m.sampler(model, "hmc"), /lgcp has no sampler "hmc"/);
});

test("volatility: the target's interweave adds the third block; P,V names the blocks' samplers", () => {
  const m = modelInfo.volatility;
  const y = simulateVolatility(60, 0.65, 0.15, 0.98, 2).y;
  const names = (interweave: boolean, sampler: string) => m.sampler(m.buildTarget(y, { interweave }), sampler, { adapt: false }).kernel.summary().map((b) => b.name);
  assert.deepEqual(names(true, "rmhmc"), ["parameters", "volatilities", "interweave"]);
  assert.deepEqual(names(false, "mala,hmc"), ["parameters", "volatilities"]);
  assert.equal(m.buildTarget(y).interweave, true);
  assert.equal(m.buildTarget(y).init.length, 63);
  assert.throws(() => m.sampler(m.buildTarget(y), "rmhmc,nuts"), /volatility: the sampler is P,V/);
  assert.throws(() => m.sampler(m.buildTarget(y), "rmhmc,hmc,mala"), /volatility: the sampler is P,V/);
});

test("every model's entry carries its run", () => {
  for (const name of ["latent-gp", "logistic-regression", "lgcp", "volatility", "fitzhugh-nagumo"] as const) {
    const e = modelInfo[name];
    for (const k of ["readData", "buildTarget", "sampler"] as const) assert.equal(typeof e[k], "function", `${name}.${k}`);
    assert.equal(typeof e.defaults, "object");
  }
});

test("latent-gp: read data -> build target -> sampler, the same target and kernel as latentGpTarget and latentSampler", () => {
  const s = scratchDir();
  try {
    const file = join(s.dir, "labels.csv");
    writeFileSync(file, "x,y\n" + Array.from({ length: 12 }, (_, i) => `${i / 2},${Math.sin(i / 2) > 0 ? 1 : 0}`).join("\n") + "\n");
    const m = modelInfo["latent-gp"];
    const data = m.readData(file);
    assert.deepEqual(Array.from(new Set(data.y)).sort(), [-1, 1]); // probit's coding
    assert.deepEqual(Array.from(new Set(m.readData(file, { likelihood: "logistic" }).y)).sort(), [0, 1]);
    const spec = { likelihood: "probit", logLengthscale: [0.3], logSignalSd: 0.2, jitter: 1e-8 };
    const target = m.buildTarget(data, spec);
    const direct = latentGpTarget(data.X, data.y, spec);
    const f = Float64Array.from({ length: 12 }, (_, i) => 0.1 * i - 0.5);
    assert.equal(target.logDensity(f), direct.logDensity(f));
    // the defaults: probit, unit lengthscale and signal sd, jitter 1e-6 x the signal variance (as `gpmcmc sample`)
    const defaults = m.buildTarget(data);
    assert.equal(defaults.jitter, 1e-6);
    assert.equal(defaults.logDensity(f), latentGpTarget(data.X, data.y, { likelihood: "probit", logLengthscale: [0], logSignalSd: 0, jitter: { relative: 1e-6 } }).logDensity(f));
    assert.notEqual(defaults.logDensity(f), latentGpTarget(data.X, data.y, { likelihood: "probit", logLengthscale: [0], logSignalSd: 0 }).logDensity(f));
    const { kernel, init, adapt } = m.sampler(target, "hmc", { burnIn: 10, stepSize: 0.2 });
    assert.deepEqual(init, new Float64Array(12));
    assert.equal(adapt?.method, "dual-averaging");
    assert.equal(m.sampler(target, "ess", { burnIn: 10 }).adapt, undefined);
    assert.equal(m.sampler(target, "hmc", { burnIn: 10, adapt: false }).adapt, undefined);
    const run = (k: typeof kernel) => runChain(k, new Rng(3, 0), { draws: 20, burnIn: 0, init }).samples;
    assert.deepEqual(run(kernel), run(latentSampler(direct, { sampler: "hmc", stepSize: 0.2 })));
    assert.throws(() => m.sampler(target, "iwls"), RangeError);
    writeFileSync(file, "x,y\n0,1\n1,4\n");
    assert.throws(() => checkLatentGpResponses(m.readData(file, { likelihood: "ordinal" }), "ordinal", { thresholds: [0, 1] }), (e: unknown) => e instanceof DataError && /data row 2/.test(e.message));
  } finally {
    s.cleanup();
  }
});
