/**
 * Table 2's and Tables 3-6's scripts submit their grids with a checkpoint interval (by default
 * TABLE2_CHECKPOINT_EVERY, HYPER_CHECKPOINT_EVERY; --checkpoint-every K), and checkpointing leaves
 * every figure but the timings unchanged: a small table run with a checkpoint every 7 transitions
 * equals the same table run without. Negative control: the same table with another seed differs,
 * so the comparison can fail.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { hyperGridOptions, quickConfig } from "../../experiments/hyperTables.js";
import { HYPER_CHECKPOINT_EVERY, hyperGridSpec, runHyperTables } from "../../experiments/hyperTablesRun.js";
import { QUICK_CONFIG, runTable2, TABLE2_CHECKPOINT_EVERY, table2GridSpec, type Table2Config } from "../../experiments/table2.js";
import { getBackend } from "../../src/linalg/backend.js";
import { scratchDir } from "../fixtures.js";

getBackend().setThreads(1);

const withoutTimes = (cells: readonly object[]) => cells.map((c) => Object.fromEntries(Object.entries(c).filter(([k]) => k !== "seconds" && k !== "msPerIteration")));

test("table2: the grid checkpoints by default; a checkpoint every 7 transitions leaves the table as it is", async () => {
  const config: Table2Config = { ...QUICK_CONFIG, likelihoods: ["logistic"], samplers: ["mh-v1", "ess"], dataSets: 1, chains: 2, draws: 30, burnIn: 10, checkpoints: [15, 30] };
  assert.equal(table2GridSpec(config, { n: 20, d: 2 }, "x").checkpointEvery, TABLE2_CHECKPOINT_EVERY);
  assert.equal(table2GridSpec(config, { n: 20, d: 2 }, "x", 0).checkpointEvery, 0);
  const s = scratchDir();
  try {
    const plain = await runTable2(config, { checkpointEvery: 0 });
    const cut = await runTable2(config, { checkpointEvery: 7, gridDir: s.dir });
    assert.deepEqual(withoutTimes(cut.cells), withoutTimes(plain.cells));
    const other = await runTable2({ ...config, seed: 2 }, { checkpointEvery: 7 });
    assert.notDeepEqual(withoutTimes(other.cells), withoutTimes(plain.cells));
  } finally {
    s.cleanup();
  }
});

test("hyperTables: the grid checkpoints by default (--checkpoint-every); a checkpoint every 7 iterations leaves the table as it is", async () => {
  const cfg = { ...quickConfig(3), methods: ["mh"], dataSets: 1, chains: 2, draws: 30, burnIn: 10, checkpoints: [15, 30] };
  assert.equal(hyperGridSpec(cfg, { group: "f", n: 20, d: 2 }, "x").checkpointEvery, HYPER_CHECKPOINT_EVERY);
  assert.equal(hyperGridOptions(["--checkpoint-every", "7"]).checkpointEvery, 7);
  assert.equal(hyperGridOptions([]).checkpointEvery, undefined);
  const plain = await runHyperTables(cfg, { checkpointEvery: 0 });
  const cut = await runHyperTables(cfg, { checkpointEvery: 7 });
  assert.deepEqual(withoutTimes(cut.cells), withoutTimes(plain.cells));
  const other = await runHyperTables({ ...cfg, seed: 2 }, { checkpointEvery: 7 });
  assert.notDeepEqual(withoutTimes(other.cells), withoutTimes(plain.cells));
});
