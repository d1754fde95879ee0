/**
 * Table 2 cells are named, not numbered: a chain's seed is the SHA-256 of its identity, so a
 * cell's numbers do not depend on which other cells the grid holds or in what order, one cell
 * run alone reproduces its numbers from a larger grid, and the committed results
 * (experiments/results/table2/) can be checked cell by cell.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chainSeed, parseTable2Args, QUICK_CONFIG, runTable2, type Table2Config, type Table2Result } from "../../experiments/table2.js";
import { compareTable2, narrowConfig } from "../../experiments/table2Check.js";
import { CHECK_TOLERANCE, sameFigures } from "../../experiments/experimentScript.js";
import { getBackend } from "../../src/linalg/backend.js";
import { skipUnlessAvailable } from "../fixtures.js";

test("chainSeed is the first 8 bytes of the SHA-256 of the chain's identity", () => {
  // From coreutils: printf '%s' "table2 seed=1 likelihood=logistic n=20 d=2 data-set=0 sampler=mh-v1 chain=0" | sha256sum
  assert.equal(chainSeed(1, "logistic", 20, 2, 0, "mh-v1", 0), 0xbc67e59066b5ccf7n);
  // Every field of the identity changes the seed.
  const seeds = [
    chainSeed(1, "logistic", 20, 2, 0, "mh-v1", 0), chainSeed(2, "logistic", 20, 2, 0, "mh-v1", 0),
    chainSeed(1, "poisson", 20, 2, 0, "mh-v1", 0), chainSeed(1, "logistic", 21, 2, 0, "mh-v1", 0),
    chainSeed(1, "logistic", 20, 3, 0, "mh-v1", 0), chainSeed(1, "logistic", 20, 2, 1, "mh-v1", 0),
    chainSeed(1, "logistic", 20, 2, 0, "mh-v2", 0), chainSeed(1, "logistic", 20, 2, 0, "mh-v1", 1),
  ];
  assert.equal(new Set(seeds).size, seeds.length);
});

const small: Table2Config = { ...QUICK_CONFIG, dataSets: 2, chains: 3, draws: 100, burnIn: 30, checkpoints: [50, 100] };

function cellOf(r: Table2Result, likelihood: string, sampler: string) {
  const c = r.cells.find((x) => x.likelihood === likelihood && x.sampler === sampler)!;
  const { seconds: _s, ...numbers } = c;
  return numbers;
}

test("a cell's numbers do not depend on the grid around it; alone it reproduces them bit for bit", async () => {
  const grid = await runTable2({ ...small, likelihoods: ["logistic", "ordinal"], samplers: ["mh-v1", "ess", "hmc-v2"] });
  const reordered = await runTable2({ ...small, likelihoods: ["ordinal", "logistic"], samplers: ["hmc-v2", "mh-v2", "ess"] });
  const alone = await runTable2({ ...small, likelihoods: ["ordinal"], samplers: ["ess"] });
  const inGrid = cellOf(grid, "ordinal", "ess");
  assert.deepEqual(cellOf(reordered, "ordinal", "ess"), inGrid);
  assert.deepEqual(cellOf(alone, "ordinal", "ess"), inGrid);
  assert.deepEqual(cellOf(reordered, "logistic", "hmc-v2"), cellOf(grid, "logistic", "hmc-v2"));
  assert.deepEqual(compareTable2(grid, alone), []);
  assert.deepEqual(compareTable2(grid, reordered).filter((line) => !line.includes("mh-v2")), []);
  // Negative controls: another base seed changes the cell, and the comparison reports it; a cell
  // the committed run lacks is reported too.
  const otherSeed = await runTable2({ ...small, seed: 2, likelihoods: ["ordinal"], samplers: ["ess"] });
  assert.notDeepEqual(cellOf(otherSeed, "ordinal", "ess"), inGrid);
  assert.ok(compareTable2(grid, otherSeed).some((line) => line.startsWith("ordinal n=20 d=2 ess: minEss")));
  assert.deepEqual(compareTable2(grid, reordered).filter((line) => line.includes("mh-v2")), ["ordinal n=20 d=2 mh-v2: not in the committed file", "logistic n=20 d=2 mh-v2: not in the committed file"]);
});

test("--check narrows a committed run to the cells asked for and keeps its sizes and seed", () => {
  const committed: Table2Config = { ...small, settings: [{ n: 20, d: 2 }, { n: 20, d: 5 }] };
  const args = ["--likelihoods", "poisson", "--samplers", "hmc-v1,mh-v1", "--d", "5"];
  const c = narrowConfig(committed, args, parseTable2Args(args).config);
  assert.deepEqual(c, { ...committed, likelihoods: ["poisson"], samplers: ["mh-v1", "hmc-v1"], settings: [{ n: 20, d: 5 }] });
  assert.throws(() => narrowConfig({ ...committed, samplers: ["mh-v1"] }, ["--samplers", "ess"], parseTable2Args(["--samplers", "ess"]).config), /--samplers: ess is not in the committed run/);
});

const RESULTS = fileURLToPath(new URL("../../../experiments/results/table2/", import.meta.url));
const COMMITTED = join(RESULTS, "n100.json");

test("every committed Table 2 file records the command that made it, with its own sizes, seed and file name", () => {
  const files = readdirSync(RESULTS).filter((f) => f.endsWith(".json"));
  assert.ok(files.includes("n100.json"), `committed files: ${files.join(", ")}`);
  for (const name of files) {
    const file = JSON.parse(readFileSync(join(RESULTS, name), "utf8")) as Table2Result & { command: string };
    const args = file.command.replace(/^node dist\/experiments\/table2\.js /, "").split(" ");
    const { config, json } = parseTable2Args(args);
    assert.deepEqual(config, file.config, name);
    assert.equal(json, `experiments/results/table2/${name}`);
    // One cell per (likelihood, sampler, setting) of the configuration.
    assert.equal(file.cells.length, config.likelihoods.length * config.samplers.length * config.settings.length, name);
  }
});

const committedFile = JSON.parse(readFileSync(COMMITTED, "utf8")) as Table2Result & { command: string };
const backendNow = getBackend().describe();
// The committed numbers are the native backend's; the js backend's sums round differently.
const otherBackend = skipUnlessAvailable(committedFile.backend === `${backendNow.backend} (${backendNow.library})` ? false : `the committed Table 2 run used ${committedFile.backend}, this process ${backendNow.backend} (${backendNow.library})`);

test("a cell of the committed run recomputes its first R-hat, to the check's tolerance on any BLAS kernel; another seed or sampler is outside it", { skip: otherBackend }, async () => {
  const file = committedFile;
  // R-hat at the first checkpoint uses only the first draws of each chain, and data set 0's
  // chains do not depend on how many data sets there are: one data set and draws up to the first
  // checkpoint reproduce rhat[0][0] of the committed cell at a fraction of the cost.
  const first = file.config.checkpoints[0];
  // One BLAS thread, as the experiment's command runs (a threaded BLAS changes the last bits).
  const threads = getBackend().getThreads();
  getBackend().setThreads(1);
  const firstRhat = async (seed: number) => {
    const part = await runTable2({ ...file.config, seed, likelihoods: ["logistic"], samplers: ["mh-v1"], settings: [file.config.settings[0]], dataSets: 1, draws: first, checkpoints: [first] });
    return part.cells[0].rhat[0][0];
  };
  let recomputed: number;
  let otherSeed: number;
  try {
    recomputed = await firstRhat(file.config.seed);
    otherSeed = await firstRhat(file.config.seed + 1);
  } finally {
    getBackend().setThreads(threads);
  }
  const cell = file.cells.find((c) => c.likelihood === "logistic" && c.sampler === "mh-v1" && c.n === file.config.settings[0].n && c.d === file.config.settings[0].d)!;
  // Bit for bit where OpenBLAS runs the file's kernels; another kernel's order of summation changes
  // the last bits (2.442086305432312 against 2.4420864118521712 with Haswell's), within CHECK_TOLERANCE.
  assert.ok(sameFigures(recomputed, cell.rhat[0][0], CHECK_TOLERANCE), `recomputed ${recomputed}, committed ${cell.rhat[0][0]}`);
  // Negative controls: another seed, and the committed cell of another sampler, are far outside it.
  assert.ok(!sameFigures(otherSeed, cell.rhat[0][0], CHECK_TOLERANCE), `another seed gave ${otherSeed}, committed ${cell.rhat[0][0]}`);
  const mhV2 = file.cells.find((c) => c.likelihood === "logistic" && c.sampler === "mh-v2" && c.n === cell.n && c.d === cell.d)!.rhat[0][0];
  assert.ok(!sameFigures(recomputed, mhV2, CHECK_TOLERANCE), `mh-v2's ${mhV2}`);
});

test("sameFigures: bit for bit at tolerance 0; to |a - b| <= tol max(1, |a|, |b|) otherwise, through arrays and objects", () => {
  assert.ok(sameFigures({ a: [1, 2.5], b: "x" }, { a: [1, 2.5], b: "x" }, 0));
  assert.ok(!sameFigures(2.442086305432312, 2.4420864118521712, 0));
  assert.ok(sameFigures(2.442086305432312, 2.4420864118521712, 1e-6));
  assert.ok(sameFigures({ m: [1e-9, 3] }, { m: [2e-9, 3] }, 1e-6), "near 0 the tolerance is absolute");
  assert.ok(!sameFigures({ m: [1000] }, { m: [1000.01] }, 1e-6), "far from 0 it is relative");
  assert.ok(!sameFigures([1, 2], [1, 2, 3], 1e-6));
  assert.ok(!sameFigures({ a: 1 }, { a: 1, b: 2 }, 1e-6));
  assert.ok(!sameFigures({ a: "x" }, { a: "y" }, 1e-6));
  assert.ok(sameFigures(null, null, 1e-6) && !sameFigures(null, 0, 1e-6));
});
