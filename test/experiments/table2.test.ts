/**
 * The Table 2 experiment at its --quick size (the smoke test): every (likelihood, sampler) cell
 * is filled, the min ESS figures are those of the draws (1 <= ESS, finite), the convergence codes
 * are the median R-hat's classes, the table prints with the paper's numbers beside ours, and the
 * paper's transcription has every cell.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rhatCode } from "../../src/diagnostics/convergence.js";
import { formatTable2, parseTable2Args, QUICK_CONFIG, runTable2, scaledCheckpoints } from "../../experiments/table2.js";
import { PAPER_MODELS, PAPER_SAMPLERS, PAPER_TABLE2, paperEss } from "../../experiments/table2Paper.js";

test("table2 --quick: all 24 cells, codes from the median R-hat, the table with the paper's figures", () => {
  const { config } = parseTable2Args(["--quick"]);
  assert.deepEqual(config, QUICK_CONFIG);
  const r = runTable2(config);
  assert.equal(r.cells.length, 4 * 6);
  for (const c of r.cells) {
    assert.equal(c.minEss.length, config.dataSets * config.chains);
    assert.ok(Number.isFinite(c.essMean) && c.essMean > 0 && c.essMean <= config.draws * 3, `${c.likelihood} ${c.sampler} ESS ${c.essMean}`);
    assert.deepEqual(c.codes, c.medianRhat.map(rhatCode));
    assert.equal(c.lastRhats.length, config.dataSets * c.n);
    assert.ok(c.medianRhat.every((x) => x >= 0.9), `${c.likelihood} ${c.sampler} R-hat ${c.medianRhat}`);
  }
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
  assert.deepEqual(paperEss("logistic", "hmc-v2", 100, 2), [4004, 577]);
  assert.deepEqual(paperEss("ordinal", "smmala", 400, 10), [1, 0]);
  assert.equal(paperEss("logistic", "hmc-v2", 20, 2), undefined);
  assert.deepEqual(scaledCheckpoints(20000), [1000, 2000, 5000, 10000, 20000]);
  assert.deepEqual(scaledCheckpoints(1000), [50, 100, 250, 500, 1000]);
  assert.throws(() => parseTable2Args(["--samplers", "nuts"]), /--samplers: unknown "nuts"/);
  assert.throws(() => parseTable2Args(["--draws", "100", "--checkpoints", "200"]), /--checkpoints: 200 is outside/);
});
