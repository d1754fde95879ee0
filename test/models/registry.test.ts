// The model registry (src/models/registry.ts) is true of the program: every option it names is an
// option of `gpmcmc sample`, every grid job kind it names is registered by a grid job module (and
// every registered kind belongs to a model), each default sampler is one of the model's, and the
// scope of an option is derived from it as the command line reports it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Command } from "commander";
import { registerSampleCommand } from "../../src/cli/sample.js";
import { registerSimulateCommand } from "../../src/cli/simulate.js";
import "../../src/cli/grid.js"; // registers the grid job kinds
import { gridJobKinds } from "../../src/grid/spec.js";
import { MODEL_NAMES, modelInfo, modelsWithOption, optionOutsideModel, samplersOfModelWithField } from "../../src/models/registry.js";

test("every option the model registry names is an option of `gpmcmc sample`", () => {
  const sample = registerSampleCommand(new Command());
  const keys = new Set(sample.options.map((o) => o.attributeName()));
  for (const m of MODEL_NAMES) for (const o of modelInfo[m].options) assert.ok(keys.has(o.key), `${m}: ${o.key} is no option of sample`);
  // negative control: the same check on a misspelt key
  assert.equal(keys.has("interweaving"), false);
});

test("every simulate option the model registry names is an option of `gpmcmc simulate`, and only models that simulate have them", () => {
  const simulate = registerSimulateCommand(new Command());
  const keys = new Set(simulate.options.map((o) => o.attributeName()));
  for (const m of MODEL_NAMES) {
    for (const k of modelInfo[m].simulateOptions) assert.ok(keys.has(k), `${m}: ${k} is no option of simulate`);
    if (!modelInfo[m].simulate) assert.deepEqual(modelInfo[m].simulateOptions, [], m);
  }
  assert.deepEqual(optionOutsideModel("lgcp", { n: "4" }, "simulate"), { key: "n", models: ["latent-gp", "fitzhugh-nagumo"] });
  // simulate's --likelihood has no Commander default: "probit" is given, and refused with a --model
  assert.deepEqual(optionOutsideModel("volatility", { likelihood: "probit" }, "simulate"), { key: "likelihood", models: ["latent-gp"] });
  assert.equal(optionOutsideModel("latent-gp", { likelihood: "probit", n: "5", truth: "t.json" }, "simulate"), undefined);
});

test("the models' grid job kinds are the registered ones", () => {
  const named = MODEL_NAMES.flatMap((m) => modelInfo[m].gridJobs);
  assert.deepEqual([...named].sort(), [...gridJobKinds()].sort());
});

test("each model's default sampler is one of its samplers, and each sampler has its spec fields", () => {
  for (const m of MODEL_NAMES) {
    const e = modelInfo[m];
    assert.ok(e.samplers.includes(e.defaultSampler), m);
    for (const s of e.samplers) assert.ok(Array.isArray(e.samplerFields(s)), `${m} ${s}`);
  }
  assert.deepEqual(samplersOfModelWithField("fitzhugh-nagumo", "leapfrogSteps"), ["rmhmc", "hmc", "hmc-diagonal", "rmhmc-t"]);
  assert.deepEqual(samplersOfModelWithField("volatility", "leapfrogSteps"), ["rmhmc", "hmc"]);
  assert.equal(modelInfo["fitzhugh-nagumo"].samplers.includes("iwls"), false);
});

test("an option of other models is found, with the models it belongs to; a Commander default is no option given", () => {
  assert.deepEqual(optionOutsideModel("volatility", { polynomialDegree: "2" }), { key: "polynomialDegree", models: ["logistic-regression"] });
  assert.deepEqual(optionOutsideModel("lgcp", { priorVariance: "2" }), { key: "priorVariance", models: ["latent-gp", "logistic-regression"] });
  assert.equal(optionOutsideModel("latent-gp", { likelihood: "logistic", sigma2: undefined }), undefined);
  assert.equal(optionOutsideModel("volatility", { likelihood: "probit", init: "zero", draws: "10" }), undefined);
  assert.deepEqual(optionOutsideModel("volatility", { likelihood: "logistic" }), { key: "likelihood", models: ["latent-gp"] });
  assert.deepEqual(modelsWithOption("noiseSd"), ["latent-gp", "fitzhugh-nagumo"]);
});
