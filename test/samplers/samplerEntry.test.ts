// Every sampler registry has the one entry shape (src/samplers/samplerEntry.ts) and keeps it:
// each entry's defaults name it, their fields are among its fields, the defaults complete to
// themselves, the tunable is one of the fields, and the kernel built from the defaults starts its
// tunable at the registry's value. A registry that breaks one of these is caught (negative
// controls below).
import { test } from "node:test";
import assert from "node:assert/strict";
import { coxFieldModel } from "../../src/models/coxProcess/fieldModel.js";
import { coxProcessSamplerInfo } from "../../src/models/coxProcess/samplers.js";
import { svLatentSamplerInfo } from "../../src/models/volatility/gibbs.js";
import { thetaSamplerInfo } from "../../src/hyper/thetaSamplers.js";
import { parametricSamplerInfo, parametricSamplerSpec, PARAMETRIC_PRESETS, PARAMETRIC_SAMPLER_NAMES } from "../../src/samplers/parametricRegistry.js";
import { checkLatentSampler, latentSampler, latentSamplerInfo, type LatentSamplerSpecInput } from "../../src/samplers/registry.js";
import { annealedLatentTarget } from "../../src/targets/annealedLatent.js";
import { logisticLikelihood } from "../../src/likelihoods/logistic.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { completeSpec, samplersWithField, type SamplerSpecBase } from "../../src/samplers/samplerEntry.js";
import type { Kernel } from "../../src/samplers/types.js";
import { denseMetricTarget } from "../../src/targets/denseMetric.js";
import { smallLogistic } from "../models/parametricFixtures.js";
import { probitProblem } from "./latentFixtures.js";

interface AnyEntry {
  defaults: SamplerSpecBase;
  fields: readonly string[];
  tunable: string | undefined;
  description: string;
}

/** What is wrong with a registry's entries, one line each (none: it has the shape). */
function shapeProblems(registry: { readonly [name: string]: AnyEntry }): string[] {
  const out: string[] = [];
  for (const [name, e] of Object.entries(registry)) {
    if (e.defaults.sampler !== name) out.push(`${name}: its defaults name ${e.defaults.sampler}`);
    for (const field of Object.keys(e.defaults)) if (field !== "sampler" && !e.fields.includes(field)) out.push(`${name}: default field ${field} is not among its fields`);
    if (e.tunable !== undefined && !e.fields.includes(e.tunable)) out.push(`${name}: its tunable ${e.tunable} is not among its fields`);
    if (e.description.trim() === "") out.push(`${name}: no description`);
    if (new Set(e.fields).size !== e.fields.length) out.push(`${name}: a field listed twice`);
    try {
      assert.deepEqual(completeSpec(registry as never, { sampler: name }), e.defaults);
    } catch (err) {
      out.push(`${name}: its defaults do not complete to themselves (${(err as Error).message.split("\n")[0]})`);
    }
  }
  return out;
}

const REGISTRIES = {
  latent: latentSamplerInfo,
  parametric: parametricSamplerInfo,
  "Cox field": coxProcessSamplerInfo,
  volatilities: svLatentSamplerInfo,
  theta: thetaSamplerInfo,
} as unknown as Record<string, { readonly [name: string]: AnyEntry }>;

test("every sampler registry has the one entry shape", () => {
  for (const [kind, registry] of Object.entries(REGISTRIES)) assert.deepEqual(shapeProblems(registry), [], kind);
});

test("negative controls: a default outside the fields, a tunable outside them, a misnamed entry are each caught", () => {
  const good = latentSamplerInfo.smmala as unknown as AnyEntry;
  assert.deepEqual(shapeProblems({ smmala: { ...good, fields: ["targetAcceptance"] } }), [
    "smmala: default field stepSize is not among its fields",
    "smmala: its tunable stepSize is not among its fields",
    "smmala: its defaults do not complete to themselves (Expected values to be strictly deep-equal:)",
  ]);
  assert.deepEqual(shapeProblems({ smmala: { ...good, tunable: "alpha" } }), ["smmala: its tunable alpha is not among its fields"]);
  assert.match(shapeProblems({ mala: good }).join("\n"), /mala: its defaults name smmala/);
});

test("completeSpec fills in defaults, keeps the registry's field order and refuses what an entry does not have", () => {
  const spec = completeSpec(latentSamplerInfo as never, { sampler: "hmc", targetAcceptance: 0.7, stepSize: 0.3 });
  assert.deepEqual(Object.keys(spec), ["sampler", "stepSize", "leapfrogSteps", "mass", "targetAcceptance"]);
  assert.deepEqual(spec, { sampler: "hmc", stepSize: 0.3, leapfrogSteps: 10, mass: "prior", targetAcceptance: 0.7 });
  assert.throws(() => completeSpec(latentSamplerInfo as never, { sampler: "ess", stepSize: 0.1 }), { name: "RangeError", message: "stepSize does not apply to sampler ess (it has none)" });
  assert.throws(() => completeSpec(thetaSamplerInfo as never, { sampler: "nuts" }, "sampler of theta"), { name: "RangeError", message: 'unknown sampler of theta "nuts" (known: mh, hmc, smmala)' });
  // a name that is an Object.prototype property is no entry
  assert.throws(() => completeSpec(latentSamplerInfo as never, { sampler: "toString" }), /unknown sampler "toString"/);
});

test("the kernel each entry builds from its defaults starts its tunable at the registry's value", () => {
  const check = (kind: string, name: string, entry: AnyEntry, kernel: Kernel) => {
    if (entry.tunable === undefined) return;
    const value = (entry.defaults as unknown as Record<string, number | undefined>)[entry.tunable];
    if (value !== undefined) assert.equal(kernel.tunable?.value, value, `${kind} ${name}`);
    const target = (entry.defaults as { targetAcceptance?: number }).targetAcceptance;
    if (target !== undefined && kernel.tunable?.targetAcceptance !== undefined) assert.equal(kernel.tunable.targetAcceptance, target, `${kind} ${name}: target acceptance`);
  };
  const latent = probitProblem().target;
  for (const [name, e] of Object.entries(latentSamplerInfo)) check("latent", name, e as unknown as AnyEntry, (e as { build(t: unknown, s: unknown, c: unknown): Kernel }).build(latent, e.defaults, undefined));
  const dense = denseMetricTarget(smallLogistic());
  for (const name of PARAMETRIC_SAMPLER_NAMES) {
    const e = parametricSamplerInfo[name];
    check("parametric", name, e as unknown as AnyEntry, e.build(dense, e.defaults, { init: new Float64Array(dense.dim), burnIn: 10 }));
  }
  const field = coxFieldModel(4, Float64Array.from({ length: 16 }, (_, i) => i % 3), { sigma2: 1.91, beta: 1 / 33, mu: 4 }, "separable");
  for (const [name, e] of Object.entries(coxProcessSamplerInfo)) check("Cox field", name, e as unknown as AnyEntry, e.build(field, e.defaults, {}));
});

test("which samplers have a field is read from the entries (what an option's scope is derived from)", () => {
  assert.deepEqual(samplersWithField(parametricSamplerInfo, "leapfrogSteps"), ["rmhmc", "hmc", "hmc-diagonal", "rmhmc-t"]);
  assert.deepEqual(samplersWithField(coxProcessSamplerInfo, "leapfrogSteps"), ["rmhmc"]);
  assert.deepEqual(samplersWithField(latentSamplerInfo, "alpha"), ["mh-v1", "mh-v2"]);
});

test("per-model presets override the defaults; a given leapfrog count drops a preset's trajectory length", () => {
  assert.deepEqual(parametricSamplerSpec("rmhmc"), { sampler: "rmhmc", stepSize: 0.5, leapfrogSteps: 6, targetAcceptance: 0.8 });
  assert.deepEqual(parametricSamplerSpec("rmhmc", {}, "logistic-regression"), { sampler: "rmhmc", stepSize: 0.5, leapfrogSteps: 50, trajectoryLength: 2, targetAcceptance: 0.8 });
  assert.deepEqual(parametricSamplerSpec("rmhmc", { leapfrogSteps: 7 }, "logistic-regression"), { sampler: "rmhmc", stepSize: 0.5, leapfrogSteps: 7, targetAcceptance: 0.8 });
  assert.deepEqual(parametricSamplerSpec("hmc", {}, "volatility-parameters"), { sampler: "hmc", stepSize: 0.015, leapfrogSteps: 200, targetAcceptance: 0.65 });
  assert.equal(parametricSamplerSpec("smmala", {}, "logistic-regression").targetAcceptance, 0.5);
  // every preset names samplers and fields the registry has
  for (const [model, presets] of Object.entries(PARAMETRIC_PRESETS)) {
    for (const [name, preset] of Object.entries(presets)) {
      for (const f of Object.keys(preset!)) assert.ok(parametricSamplerInfo[name as keyof typeof parametricSamplerInfo].fields.includes(f), `${model} ${name} ${f}`);
    }
  }
});

test("checkLatentSampler checks a spec against the target without building a kernel, and refuses what building refuses", () => {
  const target = probitProblem().target;
  // building is made to fail: the check must not build
  const saved = new Map<string, unknown>();
  for (const [name, e] of Object.entries(latentSamplerInfo)) {
    saved.set(name, e.build);
    (e as { build: unknown }).build = () => assert.fail(`${name}: checkLatentSampler built a kernel`);
  }
  try {
    for (const name of Object.keys(latentSamplerInfo)) checkLatentSampler(target, name as keyof typeof latentSamplerInfo);
  } finally {
    for (const [name, e] of Object.entries(latentSamplerInfo)) (e as { build: unknown }).build = saved.get(name);
  }
  const bad: [LatentSamplerSpecInput, RegExp][] = [
    [{ sampler: "hmc", stepSize: -1 }, /^hmc: stepSize must be a positive finite number, got -1$/],
    [{ sampler: "hmc", mass: "diagonal" as never }, /^hmc: mass must be one of prior, identity, got "diagonal"$/],
    [{ sampler: "mh-v2", alpha: 1.5 }, /^mh-v2: alpha must lie in \(0, 1\], got 1\.5$/],
    [{ sampler: "smmala", targetAcceptance: 1 }, /^smmala: targetAcceptance must lie strictly between 0 and 1, got 1$/],
    [{ sampler: "hmc-v1", maxLeapfrogSteps: 2.5 }, /^hmc-v1: maxLeapfrogSteps must be a positive integer, got 2\.5$/],
    [{ sampler: "laplace-nuts", integrator: "euler" as never }, /^laplace-nuts: integrator must be one of split, leapfrog/],
    [{ sampler: "rmhmc", variant: "lagrangian", fixedPoint: { kind: "iterations", iterations: 5 } }, /lagrangian integrator solves no fixed points/],
    [{ sampler: "rmhmc", fixedPoint: { kind: "iterations", iterations: 0 } }, /fixedPoint\.iterations must be a positive integer/],
  ];
  for (const [spec, message] of bad) {
    assert.throws(() => checkLatentSampler(target, spec), { name: "RangeError", message }, JSON.stringify(spec));
    // building the kernel refuses it too: the check is no stricter than the kernels
    assert.throws(() => latentSampler(target, spec), RangeError, `building ${JSON.stringify(spec)}`);
  }
  const logistic = annealedLatentTarget({ likelihood: logisticLikelihood(), y: Float64Array.from([1, 0]), kernelMatrix: new Matrix(2, 2, Float64Array.from([1, 0.5, 0.5, 1])) });
  assert.throws(() => checkLatentSampler(logistic, "exact-hmc"), { name: "RangeError", message: "exact-hmc: applies only to the probit likelihood (y_i = sign(f_i + e_i)), not logistic" });
  assert.throws(() => latentSampler(logistic, "exact-hmc"), RangeError);
});
