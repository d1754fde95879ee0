/**
 * One name per kernel: SMMALA is "smmala" in every registry, and its former parametric name
 * "simplified-mmala" lives on only where it was recorded (samplers/renamedSamplers.ts): in the
 * seeds of the committed parametric runs, and in the records read back. The committed cells'
 * seeds are those of the present name through the mapping, and would be others without it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fitzhughNagumoSeed } from "../../src/grid/fitzhughNagumoRunJob.js";
import { fnvSeed, seedOfIdentity } from "../../src/grid/identity.js";
import { parametricSeed } from "../../src/grid/parametricChainJob.js";
import { MODEL_NAMES, modelInfo } from "../../src/models/registry.js";
import { PARAMETRIC_SAMPLER_NAMES, parametricSampler, parametricSamplerSpec, type ParametricSamplerName } from "../../src/samplers/parametricRegistry.js";
import type { DenseMetricTarget } from "../../src/targets/denseMetric.js";
import { LATENT_SAMPLER_NAMES } from "../../src/samplers/registry.js";
import { currentSamplerName, FORMER_SAMPLER_NAMES, parametricSeedName, renamedSampler } from "../../src/samplers/renamedSamplers.js";
import { THETA_SAMPLER_NAMES } from "../../src/hyper/thetaSamplers.js";
import { REPO_ROOT } from "../fixtures.js";

const RESULTS = join(REPO_ROOT, "experiments", "results");

test("one name per kernel: smmala in the latent, parametric and theta registries; no registry or model knows a former name", () => {
  for (const names of [LATENT_SAMPLER_NAMES, PARAMETRIC_SAMPLER_NAMES, THETA_SAMPLER_NAMES] as readonly (readonly string[])[]) assert.ok(names.includes("smmala"), names.join(", "));
  for (const former of Object.values(FORMER_SAMPLER_NAMES)) {
    for (const m of MODEL_NAMES) {
      assert.ok(!(modelInfo[m].samplers as readonly string[]).includes(former), `${m} lists ${former}`);
      assert.notEqual(modelInfo[m].defaultSampler, former, m);
    }
  }
  assert.equal(modelInfo["fitzhugh-nagumo"].defaultSampler, "smmala");
});

test("the former name: the word of a parametric seed, read back as the present name, refused naming it", () => {
  assert.equal(parametricSeedName("smmala"), "simplified-mmala");
  assert.equal(parametricSeedName("mmala"), "mmala");
  assert.equal(currentSamplerName("simplified-mmala"), "smmala");
  assert.equal(currentSamplerName("smmala"), "smmala");
  assert.equal(currentSamplerName("mala,mala"), "mala,mala");
  assert.equal(renamedSampler("simplified-mmala"), '"simplified-mmala" is now named "smmala"');
  assert.equal(renamedSampler("smmala"), undefined);
  assert.equal(renamedSampler("nuts"), undefined);
});

test("the library refuses the former name with the present one; an unknown name as before", () => {
  const former = "simplified-mmala" as ParametricSamplerName;
  assert.throws(() => parametricSamplerSpec(former), /^RangeError: sampler: "simplified-mmala" is now named "smmala"$/);
  assert.throws(() => parametricSampler({} as DenseMetricTarget, former, new Float64Array(2), 0), /^RangeError: sampler: "simplified-mmala" is now named "smmala"$/);
  assert.throws(() => parametricSamplerSpec("nope" as ParametricSamplerName), /^RangeError: unknown sampler "nope" \(known: rmhmc, mmala, smmala, /);
});

test("a committed logistic-regression cell of simplified-mmala has the seed of smmala's run (and another without the mapping)", () => {
  const file = JSON.parse(readFileSync(join(RESULTS, "logistic-regression", "tables4-8-synth_tr.json"), "utf8")) as { cells: { data: string; sampler: string; run: number; seed: number }[] };
  const cell = file.cells.find((c) => c.sampler === "simplified-mmala")!;
  const settings = { draws: 1000, burnIn: 500, thin: 1, start: "zero" as const };
  assert.equal(parametricSeed(cell.data, "smmala", cell.run, settings), cell.seed);
  // negative control: the present name hashed as it is gives another seed
  assert.notEqual(fnvSeed(cell.data, "smmala", cell.run), cell.seed);
});

test("the committed Fitzhugh-Nagumo cells of simplified-mmala have the seeds of smmala's runs (and others without the mapping)", () => {
  const file = JSON.parse(readFileSync(join(RESULTS, "fitzhugh-nagumo", "table14-first-order.json"), "utf8")) as { cells: { sampler: string; run: number; seed: string }[] };
  const cells = file.cells.filter((c) => c.sampler === "simplified-mmala");
  assert.ok(cells.length >= 2);
  for (const c of cells) {
    assert.equal(fitzhughNagumoSeed("smmala", c.run).toString(), c.seed);
    assert.notEqual(seedOfIdentity(`fitzhugh-nagumo sampler=smmala run=${c.run}`).toString(), c.seed);
  }
});
