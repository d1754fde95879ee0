/**
 * The Tables 3-6 experiment (experiments/hyperTables.ts) at its --quick size. Each cell's
 * figures are recomputed here from the chains themselves (rerun by their identity) with a
 * Geyer ESS and a Gelman-Rubin R-hat written in this file, independently of src/diagnostics;
 * deliberately wrong variants of both (no monotone step; R-hat without the (m + 1) / m factor)
 * must disagree (negative controls). The O(n^3) counts are checked against the paper's Table 1
 * and Table 5, the seeds against SHA-256 of the chain's identity, and the UCI data sets of
 * Table 6 against the paper's sizes and the standardisation.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { compareHyperTables, mergeHyperResults, narrowHyperConfig, parseHyperTablesArgs, quickConfig } from "../../experiments/hyperTables.js";
import { uciProblem } from "../../experiments/hyperTablesData.js";
import { formatHyperTable } from "../../experiments/hyperTablesFormat.js";
import { PAPER_TABLE3, PAPER_TABLE4, PAPER_TABLE5, PAPER_TABLE6, TABLE6_DATA_SETS, paperHyperEss } from "../../experiments/hyperTablesPaper.js";
import { hyperChainSeed, problemsOf, runHyperTables, runOneChain } from "../../experiments/hyperTablesRun.js";
import type { HyperCell, HyperTablesConfig } from "../../experiments/hyperTablesTypes.js";

/** Single-chain ESS n / tau, tau = -1 + 2 sum of Geyer's pair sums (initial positive, made monotone), at least 1 / log10 n. */
function geyerEss(x: Float64Array, monotone = true): number {
  const n = x.length;
  const mu = x.reduce((a, b) => a + b, 0) / n;
  const acov = (t: number) => {
    let s = 0;
    for (let i = 0; i + t < n; i++) s += (x[i]! - mu) * (x[i + t]! - mu);
    return s / n;
  };
  const g0 = acov(0);
  let sum = 0;
  let previous = Infinity;
  for (let k = 0; k < Math.floor(n / 2); k++) {
    let g = (acov(2 * k) + acov(2 * k + 1)) / g0;
    if (!(g > 0)) break;
    if (monotone && g > previous) g = previous;
    previous = g;
    sum += g;
  }
  return n / Math.max(-1 + 2 * sum, 1 / Math.log10(n));
}

/** Gelman & Rubin's sqrt(V / W), V = (n - 1)/n W + (m + 1)/(m n) B; `broken` drops the (m + 1)/m. */
function gelmanRubin(chains: Float64Array[], broken = false): number {
  const m = chains.length;
  const n = chains[0]!.length;
  const means = chains.map((c) => c.reduce((a, b) => a + b, 0) / n);
  const w = chains.reduce((a, c, j) => a + c.reduce((s, v) => s + (v - means[j]!) ** 2, 0) / (n - 1), 0) / m;
  const grand = means.reduce((a, b) => a + b, 0) / m;
  const b = (n * means.reduce((a, v) => a + (v - grand) ** 2, 0)) / (m - 1);
  const v = ((n - 1) / n) * w + ((broken ? 1 : m + 1) / (m * n)) * b;
  return Math.sqrt(v / w);
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/**
 * Reruns every chain of `cell` and recomputes its min ESS and R-hats here; returns how many
 * figures differ from the cell's, for the right estimators and for the broken ones.
 */
function recheck(cfg: HyperTablesConfig, cell: HyperCell): { mismatches: number; brokenEss: number; brokenRhat: number; compared: number } {
  const problems = problemsOf(cfg, cell.group, cell.n, cell.d);
  let mismatches = 0, brokenEss = 0, brokenRhat = 0, compared = 0;
  problems.forEach((p, s) => {
    const outs = Array.from({ length: cfg.chains }, (_, c) => runOneChain(cfg, cell.group, p, s, cell.method, c));
    const m = outs[0]!.m;
    const column = (c: number, v: number, len: number) => Float64Array.from({ length: len }, (_, i) => outs[c]!.samples[i * m + v]!);
    outs.forEach((_, c) => {
      const ess = Math.min(...Array.from({ length: m }, (_, v) => geyerEss(column(c, v, cfg.draws))));
      const essNoMonotone = Math.min(...Array.from({ length: m }, (_, v) => geyerEss(column(c, v, cfg.draws), false)));
      const ours = cell.minEss[s * cfg.chains + c]!;
      compared++;
      if (!close(ours, ess)) mismatches++;
      if (!close(ours, essNoMonotone)) brokenEss++;
    });
    cfg.checkpoints.forEach((cp, k) => {
      const per = Array.from({ length: m }, (_, v) => outs.map((_, c) => column(c, v, cp)));
      const worst = Math.max(...per.map((chains) => gelmanRubin(chains)));
      const worstBroken = Math.max(...per.map((chains) => gelmanRubin(chains, true)));
      compared++;
      if (!close(cell.rhat[s]![k]!, worst)) mismatches++;
      if (!close(cell.rhat[s]![k]!, worstBroken)) brokenRhat++;
    });
  });
  return { mismatches, brokenEss, brokenRhat, compared };
}

test("hyperTables --quick, Table 3 (theta | f): figures recomputed from the chains agree; broken estimators do not; MH does one Cholesky per iteration (Table 1)", async () => {
  const { config } = parseHyperTablesArgs(["--table", "3", "--quick"]);
  assert.deepEqual(config, quickConfig(3));
  const r = await runHyperTables(config);
  assert.equal(r.cells.length, 3);
  let brokenEss = 0, brokenRhat = 0;
  for (const cell of r.cells) {
    // Table 3 samples the lengthscales only: d R-hats per data set.
    assert.equal(cell.lastRhats.length, config.dataSets * cell.d);
    assert.equal(cell.minEss.length, config.dataSets * config.chains);
    const e = cell.minEss;
    const mean = e.reduce((a, b) => a + b, 0) / e.length;
    const sd = Math.sqrt(e.reduce((a, b) => a + (b - mean) ** 2, 0) / (e.length - 1));
    assert.ok(close(cell.essMean, mean) && close(cell.essSd, sd), `${cell.method}: ${cell.essMean} (${cell.essSd}) vs ${mean} (${sd})`);
    const check = recheck(config, cell);
    assert.equal(check.mismatches, 0, `${cell.method}: ${check.mismatches} of ${check.compared} figures differ`);
    brokenEss += check.brokenEss;
    brokenRhat += check.brokenRhat;
  }
  // Negative controls: the broken estimators disagree somewhere in the table.
  assert.ok(brokenEss > 0, "an ESS without the monotone step agreed everywhere");
  assert.ok(brokenRhat > 0, "an R-hat without (m + 1) / m agreed everywhere");
  const mh = r.cells.find((c) => c.method === "mh")!;
  assert.deepEqual(mh.ops, { cholesky: 1, solves: 0, products: 0 }); // Table 1: theta | f by MH, #C = T
  assert.ok(mh.acceptanceRate > 0.05 && mh.acceptanceRate < 0.6, `MH acceptance ${mh.acceptanceRate}`);
  const hmc = r.cells.find((c) => c.method === "hmc")!;
  assert.ok(hmc.stepsPerUpdate >= 1 && hmc.stepsPerUpdate <= 10, `HMC leapfrog steps ${hmc.stepsPerUpdate}`);
  const text = formatHyperTable(r);
  assert.match(text, /^ {2}SMMALA /m);
  assert.match(text, /ordering: ours [1-3][|,][1-3][|,][1-3]/);
});

test("hyperTables --quick, Table 5: the five schemes' O(n^3) counts per iteration match Table 5 where the paper's are exact; cells recompute from the chains", async () => {
  const config = { ...quickConfig(5), methods: ["aa", "asis", "sa", "khr"] };
  const r = await runHyperTables(config);
  const ops = (m: string) => r.cells.find((c) => c.method === m)!.ops;
  // Table 5: AA #C T, ASIS #C 2T, SA #C T (sigma's Gibbs step rescales the factor), no inversions.
  assert.deepEqual(ops("aa"), { cholesky: 1, solves: 0, products: 0 });
  assert.deepEqual(ops("asis"), { cholesky: 2, solves: 0, products: 0 });
  assert.deepEqual(ops("sa"), { cholesky: 1, solves: 0, products: 0 });
  // KHR: (kappa + 2) T with kappa the Laplace iterations: at least 3 per iteration.
  assert.ok(ops("khr").cholesky >= 3, `KHR ${ops("khr").cholesky} Cholesky per iteration`);
  const aa = r.cells.find((c) => c.method === "aa")!;
  assert.equal(aa.lastRhats.length, config.dataSets * (aa.d + 1));
  const check = recheck(config, aa);
  assert.equal(check.mismatches, 0);
});

test("hyperTables: a cell's seed is the SHA-256 of its identity; a cell alone reproduces its numbers from a grid in another order (--check)", async () => {
  const cfg: HyperTablesConfig = { ...quickConfig(4), groups: ["logistic", "ordinal"], dataSets: 1, chains: 2, draws: 40, burnIn: 20, checkpoints: [20, 40] };
  const identity = "hyperTables table=4 seed=1 group=ordinal n=20 d=2 data-set=0 method=mh chain=1";
  assert.equal(hyperChainSeed(cfg, "ordinal", 20, 2, 0, "mh", 1), createHash("sha256").update(identity).digest().readBigUInt64BE(0));
  const grid = await runHyperTables(cfg);
  const alone = await runHyperTables(narrowHyperConfig({ ...cfg, groups: ["ordinal", "logistic"], methods: ["smmala", "mh", "hmc"] }, ["--groups", "ordinal", "--methods", "mh"]));
  assert.equal(alone.cells.length, 1);
  assert.deepEqual(compareHyperTables(grid, alone), []);
  // Negative control: the same cell from another seed differs, and the comparison says so.
  const other = await runHyperTables({ ...cfg, seed: 2, groups: ["ordinal"], methods: ["mh"] });
  assert.ok(compareHyperTables(grid, other).some((line) => /minEss/.test(line)));
  // --show: files of one protocol print as one table, in the paper's order of blocks; another seed stays apart.
  const part = (g: string) => ({ ...grid, config: { ...grid.config, groups: [g] }, cells: grid.cells.filter((c) => c.group === g), orderings: grid.orderings.filter((o) => o.group === g) });
  const merged = mergeHyperResults([part("ordinal"), part("logistic"), other]);
  assert.equal(merged.length, 2);
  assert.deepEqual(merged[0]!.config.groups, ["logistic", "ordinal"]);
  assert.equal(merged[0]!.cells.length, grid.cells.length);
  // Files of one method each merge into the grid's table, its ordering rows recomputed alike.
  const byMethod = mergeHyperResults(["smmala", "mh", "hmc"].map((m) => ({ ...grid, config: { ...grid.config, methods: [m] }, cells: grid.cells.filter((c) => c.method === m), orderings: [] })));
  assert.equal(byMethod.length, 1);
  assert.deepEqual(byMethod[0]!.config.methods, grid.config.methods);
  assert.deepEqual(byMethod[0]!.orderings, grid.orderings);
});

test("hyperTables Table 6 data: the paper's sizes, features standardised (Ionosphere's constant x2 stays 0)", () => {
  for (const e of TABLE6_DATA_SETS) {
    const p = uciProblem(e.name);
    assert.deepEqual([p.n, p.d], [e.n, e.d], e.name);
    assert.ok(p.y.every((v) => v === 0 || v === 1), `${e.name} labels`);
    const X = p.space.x;
    for (let j = 0; j < p.d; j++) {
      const col = X.data.subarray(j * p.n, (j + 1) * p.n);
      const mean = col.reduce((a, b) => a + b, 0) / p.n;
      const sd = Math.sqrt(col.reduce((a, b) => a + (b - mean) ** 2, 0) / (p.n - 1));
      assert.ok(Math.abs(mean) < 1e-12, `${e.name} column ${j + 1} mean ${mean}`);
      if (e.name === "ionosphere" && j === 1) assert.equal(sd, 0);
      else assert.ok(Math.abs(sd - 1) < 1e-12, `${e.name} column ${j + 1} sd ${sd}`);
    }
  }
});

test("hyperTables: the paper's figures as transcribed; bad options are one clear error", () => {
  // Figures copied from the paper (Table 3 HMC n = 100 d = 2; Table 4 ORD SMMALA n = 400 d = 10; Table 5 KHR n = 100 d = 2; Table 6 SPECT ASIS).
  assert.deepEqual(paperHyperEss(3, "f", "hmc", 100, 2), [11325, 915]);
  assert.deepEqual(paperHyperEss(4, "ordinal", "smmala", 400, 10), [19, 27]);
  assert.deepEqual(paperHyperEss(5, "logistic", "khr", 100, 2), [856, 360]);
  assert.deepEqual(paperHyperEss(6, "spect", "asis", 80, 22), [215, 23]);
  assert.equal(paperHyperEss(3, "f", "mh", 20, 2), undefined);
  for (const block of [PAPER_TABLE3, ...Object.values(PAPER_TABLE4), PAPER_TABLE5]) {
    for (const rows of Object.values(block.ess)) assert.equal(rows.length, 4);
    assert.equal(block.orderingAsExtracted.length, 4);
  }
  for (const e of TABLE6_DATA_SETS) assert.equal(Object.keys(PAPER_TABLE6[e.name]!).length, 5);
  assert.throws(() => parseHyperTablesArgs(["--quick"]), /--table must be 3, 4, 5 or 6/);
  assert.throws(() => parseHyperTablesArgs(["--table", "5", "--methods", "mh"]), /--methods: unknown "mh"/);
  assert.throws(() => parseHyperTablesArgs(["--table", "6", "--n", "100"]), /Table 6's data sets have their own sizes/);
  assert.throws(() => parseHyperTablesArgs(["--table", "3", "--draws", "100", "--checkpoints", "200"]), /--checkpoints: 200 is more than/);
  assert.throws(() => parseHyperTablesArgs(["--table", "3", "--chain", "2"]), /unknown option --chain/);
  // 400 draws: the paper's checkpoints times 400 / 20000.
  assert.deepEqual(parseHyperTablesArgs(["--table", "3", "--draws", "400"]).config.checkpoints, [20, 40, 100, 200, 400]);
});
