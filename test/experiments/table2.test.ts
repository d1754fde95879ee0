/**
 * The Table 2 experiment at its --quick size (the smoke test). Every figure a cell reports is
 * checked against a computation written here independently of experiments/table2.ts and
 * src/diagnostics: the mean (sd) of the min ESS by the textbook formula, the median R-hat by
 * sorting, the codes by counting the class bounds a value reaches (checked first on hand-picked
 * values, with a broken classifier as negative control). The paper's transcription is checked
 * against figures copied from the paper.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatTable2, parseTable2Args, QUICK_CONFIG, runTable2, scaledCheckpoints } from "../../experiments/table2.js";
import { PAPER_MODELS, PAPER_SAMPLERS, PAPER_TABLE2, paperEss } from "../../experiments/table2Paper.js";

/** The paper's class of an R-hat value (sec. 4.1): how many of the bounds 1.1, 1.3, 2 it does not stay below (NaN: all). */
function paperClass(r: number): number {
  return [1.1, 1.3, 2].filter((bound) => !(r < bound)).length;
}

/** The same with the class bounds read as "<=": the kind of slip the codes check must catch. */
function brokenClass(r: number): number {
  return [1.1, 1.3, 2].filter((bound) => r >= bound && r !== bound).length + (Number.isNaN(r) ? 3 : 0);
}

/** Median by sorting a copy; JSON's null (a NaN or infinite R-hat) counts as +Infinity. */
function sortedMedian(values: readonly (number | null)[]): number {
  const v = values.map((x) => (x === null || Number.isNaN(x) ? Infinity : x)).sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 === 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// R-hat values at and around the paper's class bounds, with the class the paper assigns.
const HAND_CLASSES: [number, number][] = [[1, 0], [1.0999, 0], [1.1, 1], [1.2999, 1], [1.3, 2], [1.999, 2], [2, 3], [7, 3], [Infinity, 3], [NaN, 3]];

test("paper's R-hat classes: the independent classifier is right on hand-picked values, and a '<=' slip is caught", () => {
  for (const [r, code] of HAND_CLASSES) assert.equal(paperClass(r), code, `R-hat ${r}`);
  // Negative control: the broken classifier disagrees at the bounds themselves.
  const wrong = HAND_CLASSES.filter(([r, code]) => brokenClass(r) !== code);
  assert.deepEqual(wrong.map(([r]) => r), [1.1, 1.3, 2]);
  assert.equal(sortedMedian([3, 1, 2]), 2);
  assert.equal(sortedMedian([4, null, 1, 2]), 3);
});

test("table2 --quick: all 24 cells; ESS summary, median R-hat and codes agree with independent computations", async () => {
  const { config } = parseTable2Args(["--quick"]);
  assert.deepEqual(config, { ...QUICK_CONFIG, settings: [{ n: 20, d: 2 }], dataSets: 2, chains: 4, draws: 200, burnIn: 50, checkpoints: [50, 100, 200] });
  const r = await runTable2(config);
  assert.equal(r.cells.length, 4 * 6);
  let codeChecks = 0;
  let brokenMismatches = 0;
  for (const c of r.cells) {
    const name = `${c.likelihood} ${c.sampler}`;
    assert.equal(c.minEss.length, config.dataSets * config.chains);
    // Mean and sample sd (n - 1) of the min ESS, a chain that never moved counting as 0.
    const e = c.minEss.map((x) => (Number.isFinite(x) ? x : 0));
    const mean = e.reduce((a, b) => a + b, 0) / e.length;
    const sd = Math.sqrt(e.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (e.length - 1));
    assert.ok(Math.abs(c.essMean - mean) <= 1e-12 * mean, `${name} ESS mean ${c.essMean} vs ${mean}`);
    assert.ok(Math.abs(c.essSd - sd) <= 1e-9 * (sd + 1), `${name} ESS sd ${c.essSd} vs ${sd}`);
    // (NaN: a chain whose draws of some latent value never changed; it has no ESS.)
    assert.ok(c.minEss.every((x) => Number.isNaN(x) || (x >= 1 && x <= 3 * config.draws)), `${name} min ESS ${c.minEss}`);
    assert.ok(mean > 0, `${name} ESS mean ${mean}`);
    // Per checkpoint: the median over data sets of each data set's worst R-hat, and its class.
    assert.equal(c.rhat.length, config.dataSets);
    assert.equal(c.lastRhats.length, config.dataSets * c.n);
    for (let k = 0; k < config.checkpoints.length; k++) {
      assert.equal(c.medianRhat[k], sortedMedian(c.rhat.map((row) => row[k])), `${name} median R-hat at ${config.checkpoints[k]}`);
      assert.equal(c.codes[k], paperClass(c.medianRhat[k]), `${name} code at ${config.checkpoints[k]}`);
      codeChecks++;
      if (brokenClass(c.medianRhat[k]) !== c.codes[k]) brokenMismatches++;
    }
    // The worst R-hat of the last data set at the last checkpoint is the largest of its latent values.
    const last = c.lastRhats.slice(-c.n).map((x) => (Number.isNaN(x) ? Infinity : x));
    assert.equal(c.rhat[config.dataSets - 1][config.checkpoints.length - 1], Math.max(...last), name);
    assert.ok(c.medianRhat.every((x) => x >= 0.9), `${name} R-hat ${c.medianRhat}`);
  }
  assert.equal(codeChecks, 24 * 3);
  // (The broken classifier differs only at exact bounds, which real R-hats do not hit; its
  // failure is shown on the hand-picked values above.)
  assert.equal(brokenMismatches, 0);
  // HMC v2 mixes far better than MH v1 on the logistic model (the paper's LRG rows: 4004 vs 67).
  const ess = (s: string) => r.cells.find((c) => c.likelihood === "logistic" && c.sampler === s)!.essMean;
  assert.ok(ess("hmc-v2") > 3 * ess("mh-v1"), `hmc-v2 ${ess("hmc-v2")} vs mh-v1 ${ess("mh-v1")}`);
  const text = formatTable2(r);
  for (const m of PAPER_MODELS) assert.match(text, new RegExp(`^${m.label} \\(${m.likelihood}\\)$`, "m"));
  assert.match(text, /^HMC v2 /m);
  assert.equal(r.orderings.length, 4);
  for (const o of r.orderings) assert.match(o.text, /^[1-6]([|,][1-6]){5}$/);
});

test("table2: the paper's transcription has a figure for every model, sampler and setting; checkpoints scale with the draws", () => {
  for (const m of PAPER_MODELS) {
    for (const s of PAPER_SAMPLERS) assert.equal(PAPER_TABLE2[m.likelihood].ess[s].length, 4);
    assert.equal(PAPER_TABLE2[m.likelihood].orderingAsExtracted.length, 4);
  }
  // Figures copied from the paper's Table 2 (LRG HMC v2 at n = 100, d = 2; ORD SMMALA at n = 400, d = 10).
  assert.deepEqual(paperEss("logistic", "hmc-v2", 100, 2), [4004, 577]);
  assert.deepEqual(paperEss("ordinal", "smmala", 400, 10), [1, 0]);
  assert.equal(paperEss("logistic", "hmc-v2", 20, 2), undefined);
  // 1000, 2000, 5000, 10000, 20000 times draws / 20000, by hand.
  assert.deepEqual(scaledCheckpoints(20000), [1000, 2000, 5000, 10000, 20000]);
  assert.deepEqual(scaledCheckpoints(1000), [50, 100, 250, 500, 1000]);
  assert.throws(() => parseTable2Args(["--samplers", "nuts"]), /--samplers: unknown "nuts"/);
  assert.throws(() => parseTable2Args(["--draws", "100", "--checkpoints", "200"]), /--checkpoints: 200 is outside/);
});
