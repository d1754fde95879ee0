/**
 * Tables 3-6 of the comparison paper (Filippone, Zhong & Girolami, Sections 4.2.2-5): samplers
 * of the hyperparameters theta = (psi_1..psi_d, log sigma) of the squared-exponential ARD kernel.
 *
 * - Table 3: MH, HMC, SMMALA on theta | f (f fixed at its true value), simulated data.
 * - Table 4: MH, HMC, SMMALA on theta | y, nu (nu fixed at its true value), for the four
 *   likelihoods LRG, LCX, VLT, ORD.
 * - Table 5: the five schemes AA, ASIS, KHR, SA, SURR on (f, theta) | y, simulated LRG data.
 * - Table 6: the same schemes on the UCI data sets Pima, Wisconsin, SPECT, Ionosphere (features
 *   standardised, five HMC v2 updates of f per iteration, chains from the prior).
 *
 * Simulated data as in Section 4.1 (src/run/simulate.ts; data set s of (n, d) is Table 2's data
 * set s). The chains and their starting points are described in ./hyperTablesRun.ts. Reported
 * per cell, as the paper does: the min ESS over theta's sampled components (per chain; mean (sd)
 * over chains x data sets), the R-hat code at each checkpoint (classic R-hat over the chains of a
 * data set, max over theta's components, median over data sets, thresholded at 1.1, 1.3, 2),
 * the ordering row (one-sided Mann-Whitney tests at 0.05 on the R-hats of every component of
 * every data set at the last checkpoint), and, beside the paper's Table 1 / Table 5 counts, the
 * O(n^3) operations per iteration that the linear-algebra counters saw, with the time.
 *
 *   node dist/experiments/hyperTables.js --table 3|4|5|6 [--quick] [--groups a,b] [--methods a,b]
 *     [--n 100,400] [--d 2,10] [--data-sets S] [--chains C] [--draws D] [--burn-in B]
 *     [--checkpoints c1,...] [--latent-updates U] [--seed S] [--json FILE]
 *     [--grid-dir DIR] [--parallel P] [--queue redis://HOST:PORT] [--checkpoint-every K]
 *   node dist/experiments/hyperTables.js --check FILE [--groups ...] [--methods ...] [--n ...] [--d ...]
 *   node dist/experiments/hyperTables.js --show FILE...
 *
 * Defaults are the paper's protocol (10 data sets, 10 chains, 20000 draws after 5000 burn-in);
 * with fewer draws the checkpoints are the paper's scaled by draws / 20000. --check recomputes
 * the cells of a committed run (experiments/results/hyperTables/) that the filters select and
 * exits 1 unless every number but the timings matches the file bit for bit (chain seeds come
 * from each chain's identity, so a cell alone reproduces its numbers from the full grid; one
 * OpenBLAS thread, as bit-for-bit agreement needs). --show prints committed runs' tables (files
 * of one table with the same protocol as one table).
 *
 * The chains run as the jobs of a grid (src/grid, job kind "hyper-chain"; hyperGridSpec in
 * ./hyperTablesRun.ts), as Table 2's do: on a pool of worker threads here (--parallel), or on a
 * BullMQ queue (--queue, run by `gpmcmc worker` processes sharing --grid-dir); --grid-dir keeps
 * the jobs' results, draws and checkpoints, so a run stopped and started again runs only the
 * chains it lacks, and a chain cut short resumes from its checkpoint (every --checkpoint-every K
 * iterations, default HYPER_CHECKPOINT_EVERY; 0: none), drawing what it would have drawn
 * uninterrupted; its seconds are then the sums over its attempts of those of the iterations it kept.
 * The table is computed from the chains' draws afterwards, the same whichever way they ran.
 */
import { readFileSync } from "node:fs";
import { MIN_DRAWS } from "../src/diagnostics/errors.js";
import { arithmeticRecord, reportCheck, runAsCommand, sameFigures, writeResultFile } from "./experimentScript.js";
import { getBackend } from "../src/linalg/backend.js";
import { formatHyperTable } from "./hyperTablesFormat.js";
import { PAPER_HYPER_SETTINGS, SCHEME_METHODS, TABLE4_LIKELIHOODS, TABLE6_DATA_SETS, THETA_METHODS } from "./hyperTablesPaper.js";
import { orderingsOf, runHyperTables, type HyperTablesRunOptions } from "./hyperTablesRun.js";
import type { HyperCell, HyperTable, HyperTablesConfig, HyperTablesResult } from "./hyperTablesTypes.js";
import { scaledCheckpoints } from "./table2.js";

/** The paper's protocol for table `table`. */
export function paperConfig(table: HyperTable): HyperTablesConfig {
  const base = { settings: PAPER_HYPER_SETTINGS.map((s) => ({ ...s })), dataSets: 10, chains: 10, draws: 20000, burnIn: 5000, checkpoints: [1000, 2000, 5000, 10000, 20000], latentUpdates: 1, seed: 1 };
  switch (table) {
    case 3: return { ...base, table, groups: ["f"], methods: [...THETA_METHODS] };
    case 4: return { ...base, table, groups: [...TABLE4_LIKELIHOODS], methods: [...THETA_METHODS] };
    case 5: return { ...base, table, groups: ["logistic"], methods: [...SCHEME_METHODS] };
    case 6: return { ...base, table, groups: TABLE6_DATA_SETS.map((e) => e.name), methods: [...SCHEME_METHODS], settings: [], dataSets: 1, latentUpdates: 5 };
  }
}

/** A smoke-test size: n = 20, d = 2, 2 data sets x 3 chains, 100 draws after 50 (Table 6: SPECT, 40 after 20). */
export function quickConfig(table: HyperTable): HyperTablesConfig {
  const p = paperConfig(table);
  if (table === 6) return { ...p, groups: ["spect"], chains: 3, draws: 40, burnIn: 20, checkpoints: [10, 20, 40] };
  return { ...p, settings: [{ n: 20, d: 2 }], dataSets: 2, chains: 3, draws: 100, burnIn: 50, checkpoints: [25, 50, 100] };
}

function listArg(args: string[], name: string): string[] | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  if (i + 1 >= args.length || args[i + 1]!.startsWith("--")) throw new Error(`${name} needs a value`);
  return args[i + 1]!.split(",").map((s) => s.trim());
}

function intsArg(args: string[], name: string, min: number): number[] | undefined {
  return listArg(args, name)?.map((s) => {
    const x = Number(s);
    if (!Number.isInteger(x) || x < min) throw new Error(`${name}: ${JSON.stringify(s)} is not a whole number >= ${min}`);
    return x;
  });
}

function intArg(args: string[], name: string, min: number): number | undefined {
  const v = intsArg(args, name, min);
  if (v && v.length !== 1) throw new Error(`${name} takes one number, got ${v.join(",")}`);
  return v?.[0];
}

const KNOWN = [
  "--table", "--quick", "--groups", "--methods", "--n", "--d", "--data-sets", "--chains", "--draws", "--burn-in",
  "--checkpoints", "--latent-updates", "--seed", "--json", "--check", "--show", "--grid-dir", "--parallel", "--queue", "--checkpoint-every",
];

/** The configuration the command-line arguments ask for. */
export function parseHyperTablesArgs(args: string[]): { config: HyperTablesConfig; json?: string } {
  for (const a of args) if (a.startsWith("--") && !KNOWN.includes(a)) throw new Error(`unknown option ${a} (known: ${KNOWN.join(" ")})`);
  const table = intArg(args, "--table", 3);
  if (table === undefined || table > 6) throw new Error("--table must be 3, 4, 5 or 6");
  const base = args.includes("--quick") ? quickConfig(table as HyperTable) : paperConfig(table as HyperTable);
  const choose = (name: string, known: readonly string[]): string[] | undefined => listArg(args, name)?.map((s) => {
    if (!known.includes(s)) throw new Error(`${name}: unknown ${JSON.stringify(s)} (known: ${known.join(", ")})`);
    return s;
  });
  const knownGroups = table === 3 ? ["f"] : table === 4 ? [...TABLE4_LIKELIHOODS] : table === 5 ? ["logistic"] : TABLE6_DATA_SETS.map((e) => e.name);
  const knownMethods = table <= 4 ? [...THETA_METHODS] : [...SCHEME_METHODS];
  const draws = intArg(args, "--draws", MIN_DRAWS) ?? base.draws;
  const ns = intsArg(args, "--n", 1);
  const ds = intsArg(args, "--d", 1);
  if (table === 6 && (ns || ds)) throw new Error("--n/--d: Table 6's data sets have their own sizes (choose them with --groups)");
  const settings = ns || ds
    ? (ns ?? [...new Set(base.settings.map((s) => s.n))]).flatMap((n) => (ds ?? [...new Set(base.settings.map((s) => s.d))]).map((d) => ({ n, d })))
    : base.settings;
  const checkpoints = intsArg(args, "--checkpoints", MIN_DRAWS) ?? (draws === base.draws ? base.checkpoints : scaledCheckpoints(draws));
  for (const c of checkpoints) if (c > draws) throw new Error(`--checkpoints: ${c} is more than the ${draws} draws per chain`);
  const config: HyperTablesConfig = {
    table: table as HyperTable,
    groups: choose("--groups", knownGroups) ?? base.groups,
    methods: choose("--methods", knownMethods) ?? base.methods,
    settings,
    dataSets: table === 6 ? 1 : intArg(args, "--data-sets", 1) ?? base.dataSets,
    chains: intArg(args, "--chains", 2) ?? base.chains,
    draws,
    burnIn: intArg(args, "--burn-in", 0) ?? base.burnIn,
    checkpoints,
    latentUpdates: intArg(args, "--latent-updates", 1) ?? base.latentUpdates,
    seed: intArg(args, "--seed", 0) ?? base.seed,
  };
  return { config, json: listArg(args, "--json")?.join(",") };
}

/** A cell's reproducible content: everything but its timings, as JSON stores it. */
function cellNumbers(c: HyperCell): Record<string, unknown> {
  const { seconds: _s, msPerIteration: _m, ...rest } = c;
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
}

/** One line per difference between recomputed and committed cells (and orderings of whole rows), at `tolerance` (0: bit for bit; see sameFigures); empty: the same figures. */
export function compareHyperTables(committed: HyperTablesResult, recomputed: HyperTablesResult, tolerance = 0): string[] {
  const diffs: string[] = [];
  for (const c of recomputed.cells) {
    const name = `${c.group} n=${c.n} d=${c.d} ${c.method}`;
    const k = committed.cells.find((x) => x.group === c.group && x.method === c.method && x.n === c.n && x.d === c.d);
    if (!k) {
      diffs.push(`${name}: not in the committed file`);
      continue;
    }
    const a = cellNumbers(k);
    const b = cellNumbers(c);
    for (const key of Object.keys(a)) if (!sameFigures(a[key], b[key], tolerance)) diffs.push(`${name}: ${key} committed ${JSON.stringify(a[key])}, recomputed ${JSON.stringify(b[key])}`);
  }
  if (JSON.stringify(recomputed.config.methods) === JSON.stringify(committed.config.methods)) {
    for (const o of recomputed.orderings) {
      const k = committed.orderings.find((x) => x.group === o.group && x.n === o.n && x.d === o.d);
      if (k && k.text !== o.text) diffs.push(`ordering ${o.group} n=${o.n} d=${o.d}: committed ${k.text}, recomputed ${o.text}`);
    }
  }
  return diffs;
}

/** The committed run's configuration narrowed to the groups, methods and settings that `args` name. */
export function narrowHyperConfig(committed: HyperTablesConfig, args: string[]): HyperTablesConfig {
  const pick = (name: string, have: string[]): string[] => {
    const want = listArg(args, name);
    if (!want) return have;
    for (const w of want) if (!have.includes(w)) throw new Error(`${name}: ${w} is not in the committed run (it has ${have.join(", ")})`);
    return have.filter((h) => want.includes(h));
  };
  const ns = intsArg(args, "--n", 1);
  const ds = intsArg(args, "--d", 1);
  const settings = committed.settings.filter((s) => (!ns || ns.includes(s.n)) && (!ds || ds.includes(s.d)));
  if (committed.table !== 6 && settings.length === 0) throw new Error("--n/--d: no setting of the committed run matches");
  return { ...committed, groups: pick("--groups", committed.groups), methods: pick("--methods", committed.methods), settings };
}

function readResult(file: string): HyperTablesResult {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    return JSON.parse(text) as HyperTablesResult;
  } catch (e) {
    throw new Error(`${file}: not JSON (${(e as Error).message})`);
  }
}

/**
 * Runs of one table with the same protocol (all but groups, settings and methods), merged into
 * one result, so that `--show` prints one table for files made block by block or method by
 * method (each cell's numbers depend on its identity alone, so the merge is what one run of the
 * whole would give); the ordering rows are recomputed from the merged cells. Other runs stay apart.
 */
export function mergeHyperResults(results: HyperTablesResult[]): HyperTablesResult[] {
  const protocol = (r: HyperTablesResult) => JSON.stringify({ ...r.config, groups: [], settings: [], methods: [] });
  const out: HyperTablesResult[] = [];
  for (const r of results) {
    const into = out.find((o) => protocol(o) === protocol(r));
    if (!into) {
      out.push({ config: { ...r.config, groups: [...r.config.groups], settings: [...r.config.settings], methods: [...r.config.methods] }, backend: r.backend, cells: [...r.cells], orderings: [], seconds: r.seconds });
      continue;
    }
    for (const g of r.config.groups) if (!into.config.groups.includes(g)) into.config.groups.push(g);
    for (const s of r.config.settings) if (!into.config.settings.some((x) => x.n === s.n && x.d === s.d)) into.config.settings.push(s);
    for (const m of r.config.methods) if (!into.config.methods.includes(m)) into.config.methods.push(m);
    into.cells.push(...r.cells);
    into.seconds += r.seconds;
  }
  // The paper's order of blocks (Table 4's likelihoods, Table 6's data sets), settings and methods.
  for (const r of out) {
    const paper = paperConfig(r.config.table);
    const rank = (list: string[]) => (a: string, b: string) => list.indexOf(a) - list.indexOf(b);
    r.config.groups.sort(rank(paper.groups));
    r.config.methods.sort(rank(paper.methods));
    r.config.settings.sort((a, b) => a.n - b.n || a.d - b.d);
    r.cells.sort((a, b) => a.n - b.n || a.d - b.d || paper.methods.indexOf(a.method) - paper.methods.indexOf(b.method));
    r.orderings = orderingsOf(r.config.methods, r.cells);
  }
  return out;
}

/** --grid-dir, --parallel, --queue and --checkpoint-every: where and how the experiment's grid runs. */
export function hyperGridOptions(args: string[]): HyperTablesRunOptions {
  for (const a of args) if (a.startsWith("--") && !KNOWN.includes(a)) throw new Error(`unknown option ${a} (known: ${KNOWN.join(" ")})`);
  const queue = listArg(args, "--queue")?.join(",");
  if (queue !== undefined && !queue.startsWith("redis://")) throw new Error(`--queue: ${JSON.stringify(queue)} is not a redis:// URL (expected redis://HOST:PORT)`);
  const parallel = intArg(args, "--parallel", 1);
  if (queue !== undefined && parallel !== undefined) throw new Error("--parallel applies to a local run; with --queue each `gpmcmc worker` sets its own --concurrency");
  const checkpointEvery = intArg(args, "--checkpoint-every", 0);
  return { gridDir: listArg(args, "--grid-dir")?.join(","), parallel, queue, ...(checkpointEvery !== undefined ? { checkpointEvery } : {}) };
}

async function main(argv: string[]): Promise<number> {
  // One BLAS thread: a cell's numbers then depend on its identity alone (see --check).
  getBackend().setThreads(1);
  const showAt = argv.indexOf("--show");
  if (showAt >= 0) {
    const files = argv.slice(showAt + 1);
    if (files.length === 0) throw new Error("--show needs at least one file");
    for (const r of mergeHyperResults(files.map(readResult))) process.stdout.write(formatHyperTable(r) + "\n");
    return 0;
  }
  const checkAt = argv.indexOf("--check");
  if (checkAt >= 0) {
    const file = argv[checkAt + 1];
    if (!file || file.startsWith("--")) throw new Error("--check needs a file");
    const committed = readResult(file);
    const rest = argv.filter((_, i) => i !== checkAt && i !== checkAt + 1);
    const config = narrowHyperConfig(committed.config, rest);
    const recomputed = await runHyperTables(config, { ...hyperGridOptions(rest), onCell: (c) => process.stderr.write(`recomputed ${c.group} n=${c.n} d=${c.d} ${c.method} (${c.seconds.toFixed(1)} s)\n`) });
    return reportCheck(file, committed, { ...recomputed, ...arithmeticRecord() }, (tolerance) => compareHyperTables(committed, recomputed, tolerance));
  }
  const { config, json } = parseHyperTablesArgs(argv);
  const result = await runHyperTables(config, {
    ...hyperGridOptions(argv),
    onCell: (c) => process.stderr.write(`table ${config.table} ${c.group} n=${c.n} d=${c.d} ${c.method}: min ESS ${c.essMean.toFixed(1)}, R-hat ${c.medianRhat.map((x) => x.toFixed(2)).join(" ")}, ${c.seconds.toFixed(1)} s\n`),
  });
  process.stdout.write(formatHyperTable(result));
  if (json) writeResultFile(json, "hyperTables", argv, result);
  return 0;
}

await runAsCommand(import.meta.url, "hyperTables", main);
