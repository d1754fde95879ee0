// The moment comparison of two runs: its standard errors against closed forms for independent
// normal draws, z-scores near N(0, 1) for two runs of one law, and a shift or a scale change caught.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import { compareMoments, momentsWithErrors } from "../../experiments/compareRuns.js";

function normalChains(seed: number, chains: number, draws: number, mean = 0, sd = 1): Float64Array[] {
  const rng = new Rng(seed);
  return Array.from({ length: chains }, () => Float64Array.from({ length: draws }, () => mean + sd * rng.normal()));
}

test("for independent normal draws the MCSEs are sd / sqrt(n) and sd / sqrt(2 n)", () => {
  const n = 4 * 20000;
  const m = momentsWithErrors(normalChains(1, 4, 20000, 3, 2));
  assert.ok(Math.abs(m.mcse / (2 / Math.sqrt(n)) - 1) < 0.05, `mean's MCSE ${m.mcse}`);
  assert.ok(Math.abs(m.sdSe / (2 / Math.sqrt(2 * n)) - 1) < 0.05, `sd's MCSE ${m.sdSe}`);
});

test("two runs of one law give z-scores of spread about 1; a shift of the mean and a change of scale are flagged", () => {
  const a = new Map<string, Float64Array[]>();
  const b = new Map<string, Float64Array[]>();
  for (let v = 0; v < 200; v++) {
    a.set(`x.${v}`, normalChains(100 + v, 4, 1000));
    b.set(`x.${v}`, normalChains(1000 + v, 4, 1000));
  }
  const rows = compareMoments(a, b);
  const rms = (k: "meanZ" | "sdZ") => Math.sqrt(rows.reduce((s, r) => s + r[k] ** 2, 0) / rows.length);
  assert.ok(rms("meanZ") > 0.8 && rms("meanZ") < 1.2, `rms mean z ${rms("meanZ")}`);
  assert.ok(rms("sdZ") > 0.8 && rms("sdZ") < 1.2, `rms sd z ${rms("sdZ")}`);
  const shifted = compareMoments(new Map([["x", normalChains(7, 4, 1000, 0.15)]]), new Map([["x", normalChains(8, 4, 1000)]]));
  assert.ok(Math.abs(shifted[0].meanZ) > 4, `shift of 0.15 sd: z = ${shifted[0].meanZ}`);
  const scaled = compareMoments(new Map([["x", normalChains(7, 4, 1000, 0, 1.15)]]), new Map([["x", normalChains(8, 4, 1000)]]));
  assert.ok(Math.abs(scaled[0].sdZ) > 4, `scale 1.15: z = ${scaled[0].sdZ}`);
});
