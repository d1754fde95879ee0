/**
 * Table 2 of the comparison paper (Filippone, Zhong & Girolami, Section 4.2.1): six samplers of
 * f | y, theta (MH v1, MH v2, SMMALA, ELL-SS, HMC v1, HMC v2) on data simulated from four models
 * (LRG logistic, LCX Poisson, VLT stochastic volatility, ORD ordinal; Section 4.1, src/run/
 * simulate.ts) at (n, d) in {100, 400} x {2, 10}, theta fixed at its true value.
 *
 * For each data set every sampler runs `chains` chains, each started from a draw of the prior
 * N(0, K) (the paper's "10 chains initialized from the prior"; chain c starts from the same
 * point for every sampler), adapting its tunable during burn-in by dual averaging towards the
 * registry's target acceptance (25% for the MH variants, 57% SMMALA, 65% HMC; the paper says only
 * "recommended acceptance rates (for example around 25% for MH)"); the HMC variants draw the
 * number of leapfrog steps uniformly from 1..10 (the paper's maximum of 10).
 *
 * Reported per cell, as the paper does:
 * - min ESS: per chain, the minimum over the n latent values of the single-chain Geyer ESS; the
 *   mean (sd) over chains x data sets;
 * - the convergence code at each checkpoint: classic R-hat over the chains of a data set (the
 *   maximum over the n latent values: a data set has converged when its worst variable has),
 *   the median over data sets, thresholded at 1.1, 1.3, 2 (src/diagnostics/convergence.ts);
 * - the ordering row: methods ordered by R-hat at the last checkpoint, "|" where a method is
 *   significantly faster than the next by a one-sided Mann-Whitney test at level 0.05. The paper
 *   tests "the value of R-hat at the last checkpoint for all the chains across 10 data sets";
 *   R-hat belongs to a data set, not a chain, so we test the R-hats of every latent value of every
 *   data set (n x data sets values per method).
 *
 *   node dist/experiments/table2.js [--quick] [--data-sets S] [--chains C] [--draws D]
 *     [--burn-in B] [--n 100,400] [--d 2,10] [--likelihoods logistic,poisson,volatility,ordinal]
 *     [--samplers mh-v1,...] [--checkpoints 1000,...] [--seed S] [--json FILE]
 *     [--grid-dir DIR] [--parallel P] [--queue redis://HOST:PORT] [--checkpoint-every K]
 *   node dist/experiments/table2.js --check FILE [--likelihoods ...] [--samplers ...] [--n ...] [--d ...]
 *
 * --check recomputes the cells of a committed run (experiments/results/table2/) that the
 * filters select, with the file's own sizes and seed, and exits 1 unless every number matches
 * the file bit for bit. Chain seeds come from each chain's identity (chainSeed), so one cell
 * alone reproduces its numbers from the full grid. The command runs OpenBLAS on one thread, as
 * bit-for-bit agreement needs.
 *
 * The chains run as the jobs of a grid (src/grid; table2GridSpec): on a pool of worker threads
 * here (--parallel), or on a BullMQ queue (--queue, run by `gpmcmc worker` processes sharing
 * --grid-dir); --grid-dir keeps the jobs' results, draws and checkpoints, so a run stopped and
 * started again runs only the chains it lacks, and a chain cut short resumes from its checkpoint
 * (every --checkpoint-every K transitions, default TABLE2_CHECKPOINT_EVERY; 0: none), drawing what
 * it would have drawn uninterrupted. A resumed chain's seconds are the sums over its attempts of
 * those of the transitions it kept. The table is computed from the chains' draws
 * afterwards, so it is the same whichever way and wherever the chains ran.
 *
 * Defaults are the paper's size (10 data sets, 10 chains, 20000 draws after 5000 burn-in,
 * checkpoints 1000, 2000, 5000, 10000, 20000). With fewer draws the checkpoints are the paper's
 * scaled by draws / 20000. --quick is a smoke-test size (n = 20, d = 2, 2 data sets, 4 chains,
 * 200 draws after 50 burn-in).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { rhatAtCheckpoints, rhatCode, medianOf, PAPER_CHECKPOINTS, RHAT_CODE_BOUNDS } from "../src/diagnostics/convergence.js";
import { drawsArray } from "../src/diagnostics/draws.js";
import { MIN_DRAWS } from "../src/diagnostics/errors.js";
import { orderMethods } from "../src/diagnostics/mannWhitney.js";
import { meanAndSd } from "../src/diagnostics/mcse.js";
import { minEssByChain } from "../src/diagnostics/summary.js";
import { arithmeticRecord, reportCheck, runAsCommand, writeResultFile } from "./experimentScript.js";
import { getBackend } from "../src/linalg/backend.js";
import { cellIdentity, seedOfIdentity } from "../src/grid/identity.js";
import { runGridJobs, withGridRoot, type GridPlace } from "../src/grid/runGrid.js";
import { readJobDraws, SIMULATED_LATENT_CHAIN, type GridJobResult } from "../src/grid/simulatedChainJob.js";
import { gridJobs, type GridSpec, type LoadedGrid } from "../src/grid/spec.js";
import { readJobResults } from "../src/grid/store.js";
import { compareTable2, narrowConfig } from "./table2Check.js";
import { PAPER_MODELS, PAPER_SAMPLER_LABELS, PAPER_SAMPLERS, PAPER_TABLE2, PAPER_SETTINGS, paperEss, type PaperModel, type PaperSampler } from "./table2Paper.js";
import type { Table2Cell, Table2Config, Table2Result } from "./table2Types.js";

export type { Table2Cell, Table2Config, Table2Result } from "./table2Types.js";


export const PAPER_CONFIG: Table2Config = {
  likelihoods: PAPER_MODELS.map((m) => m.likelihood),
  samplers: [...PAPER_SAMPLERS],
  settings: PAPER_SETTINGS.map((s) => ({ ...s })),
  dataSets: 10,
  chains: 10,
  draws: 20000,
  burnIn: 5000,
  checkpoints: [...PAPER_CHECKPOINTS],
  seed: 1,
};

export const QUICK_CONFIG: Table2Config = {
  ...PAPER_CONFIG,
  settings: [{ n: 20, d: 2 }],
  dataSets: 2,
  chains: 4,
  draws: 200,
  burnIn: 50,
  checkpoints: [50, 100, 200],
};

/** The paper's checkpoints scaled to `draws` (draws / 20000 of each), at least MIN_DRAWS, distinct. */
export function scaledCheckpoints(draws: number): number[] {
  const scaled = PAPER_CHECKPOINTS.map((c) => Math.max(MIN_DRAWS, Math.round((c * draws) / PAPER_CHECKPOINTS[PAPER_CHECKPOINTS.length - 1])));
  return [...new Set(scaled)].filter((c) => c <= draws);
}

/** The seed of data set s at (n, d): the same for every likelihood, so X, theta and f are shared. */
export { dataSetSeed } from "../src/grid/simulatedChainJob.js";

/**
 * The seed of chain `chain` of `sampler` on data set `dataSet` of (likelihood, n, d): the first
 * 8 bytes (big-endian) of the SHA-256 of the chain's identity string
 *
 *   table2 seed=<base> likelihood=<likelihood> n=<n> d=<d> data-set=<s> sampler=<sampler> chain=<c>
 *
 * as an unsigned 64-bit integer, used on stream 0 — the identity of the chain's job in the
 * table's grid (table2GridSpec; src/grid/identity.ts), whose job kind seeds it so. The seed
 * names the chain, not its place in the grid: adding, removing or reordering samplers,
 * likelihoods or settings leaves every other chain's draws unchanged, and a cell run alone gives
 * the numbers it gives inside the full grid.
 */
export function chainSeed(base: number, likelihood: PaperModel, n: number, d: number, dataSet: number, sampler: PaperSampler, chain: number): bigint {
  return seedOfIdentity(cellIdentity(`table2 seed=${base}`, { likelihood, n, d, "data-set": dataSet, sampler, chain }));
}

export { seedOfIdentity } from "../src/grid/identity.js";

/**
 * Transitions between a chain's checkpoints by default: each checkpoint rewrites the draws kept so
 * far (n numbers a draw), so at the paper's size (25000 transitions, n up to 400) this keeps their
 * writing a small part of the chain's time while a killed worker loses at most that many.
 */
export const TABLE2_CHECKPOINT_EVERY = 1000;

/**
 * The grid of one (n, d) setting of the table: one job per chain (likelihood x data set x
 * sampler x chain), each a `simulated-latent-chain` job (src/grid/simulatedChainJob.ts: chain c
 * from the c-th prior draw of its data set, dual averaging during burn-in, seeded by chainSeed).
 */
export function table2GridSpec(config: Table2Config, setting: { n: number; d: number }, out: string, checkpointEvery = TABLE2_CHECKPOINT_EVERY): GridSpec {
  const range = (k: number) => Array.from({ length: k }, (_, i) => i);
  return {
    grid: `table2 seed=${config.seed}`,
    kind: SIMULATED_LATENT_CHAIN,
    fixed: { draws: config.draws, burnIn: config.burnIn, dataSeed: config.seed },
    axes: { likelihood: [...config.likelihoods], n: [setting.n], d: [setting.d], "data-set": range(config.dataSets), sampler: [...config.samplers], chain: range(config.chains) },
    out,
    checkpointEvery,
  };
}

/** Where and how the table's grid runs, and who hears about each finished cell (progress). */
export interface Table2RunOptions extends GridPlace {
  onCell?: (cell: Table2Cell) => void;
  /** Transitions between a chain's checkpoints (default TABLE2_CHECKPOINT_EVERY; 0: none). */
  checkpointEvery?: number;
}

/** Runs the experiment through its grid (one spec per setting), then computes the table from the chains' draws. */
export async function runTable2(config: Table2Config, options: Table2RunOptions = {}): Promise<Table2Result> {
  const t0 = performance.now();
  const cells: Table2Cell[] = [];
  const orderings: Table2Result["orderings"] = [];
  await withGridRoot(options, "table2", async (root) => {
    for (const setting of config.settings) {
      const { n, d } = setting;
      const g: LoadedGrid = { spec: table2GridSpec(config, setting, `n${n}-d${d}`, options.checkpointEvery), path: join(root, "spec.json"), outDir: join(root, `n${n}-d${d}`) };
      const jobs = gridJobs(g);
      await runGridJobs(options, g.outDir, jobs);
      const results = new Map(readJobResults<GridJobResult>(g.outDir, jobs).map((r, i) => [jobs[i].identity, r!]));
      const job = (likelihood: string, s: number, sampler: string, c: number) => results.get(cellIdentity(g.spec.grid, { likelihood, n, d, "data-set": s, sampler, chain: c }))!;
      for (const likelihood of config.likelihoods) {
        const row: Table2Cell[] = [];
        for (const sampler of config.samplers) {
          const minEss: number[] = [];
          const rhat: number[][] = [];
          const lastRhats: number[] = [];
          let accepted = 0;
          let transitions = 0;
          let seconds = 0;
          for (let s = 0; s < config.dataSets; s++) {
            const all = new Float64Array(config.chains * config.draws * n);
            for (let c = 0; c < config.chains; c++) {
              const r = job(likelihood, s, sampler, c);
              all.set(readJobDraws(join(g.outDir, "draws"), r).samples, c * config.draws * n);
              accepted += r.acceptanceRate * config.draws;
              transitions += config.draws;
              seconds += r.seconds.burnIn + r.seconds.sampling;
            }
            const draws = drawsArray(all, config.chains, config.draws, n);
            minEss.push(...minEssByChain(draws));
            const atCheckpoints = rhatAtCheckpoints(draws, config.checkpoints);
            rhat.push(atCheckpoints.map((r) => r.reduce((m, x) => (Number.isNaN(x) ? Infinity : Math.max(m, x)), -Infinity)));
            lastRhats.push(...atCheckpoints[atCheckpoints.length - 1]);
          }
          // A chain that never moved has no finite ESS (zero variance); it counts as ESS 0.
          const { mean, sd } = meanAndSd([Float64Array.from(minEss, (x) => (Number.isFinite(x) ? x : 0))]);
          const medianRhat = config.checkpoints.map((_, k) => medianOf(rhat.map((r) => r[k])));
          const cell: Table2Cell = {
            likelihood, sampler, n, d, minEss, essMean: mean, essSd: sd, rhat, medianRhat, codes: medianRhat.map(rhatCode), lastRhats,
            acceptanceRate: accepted / transitions, seconds,
          };
          row.push(cell);
          cells.push(cell);
          options.onCell?.(cell);
        }
        const labels = config.samplers.map((_, i) => String(i + 1));
        const text = config.chains >= 2 ? orderMethods(row.map((c) => c.lastRhats.map((x) => (Number.isNaN(x) ? Infinity : x))), { better: "smaller", labels }).text : "n/a";
        orderings.push({ likelihood, n, d, text });
      }
    }
  });
  const b = getBackend().describe();
  return { config, backend: `${b.backend} (${b.library})`, cells, orderings, seconds: (performance.now() - t0) / 1000 };
}

/** The convergence code at each checkpoint as one glyph: R-hat < 1.1 "_", < 1.3 "o", < 2 "O", else "#". */
export const CODE_GLYPHS = ["_", "o", "O", "#"] as const;

function essText(mean: number, sd: number): string {
  const f = (x: number) => (Number.isFinite(x) ? String(Math.round(x)) : "n/a");
  return `${f(mean)} (${f(sd)})`;
}

/** The table in the paper's layout, ours beside the paper's, one block per likelihood. */
export function formatTable2(r: Table2Result): string {
  const cfg = r.config;
  const scale = PAPER_CHECKPOINTS[PAPER_CHECKPOINTS.length - 1] / cfg.draws;
  const lines: string[] = [];
  lines.push(`Table 2 (f | y, theta): ${cfg.dataSets} data set(s) x ${cfg.chains} chains, ${cfg.draws} draws after ${cfg.burnIn} burn-in, seed ${cfg.seed}; backend ${r.backend}; ${r.seconds.toFixed(1)} s`);
  lines.push(`min ESS: mean (sd) over chains x data sets; R-hat codes at checkpoints ${cfg.checkpoints.join(", ")}: median over data sets of max R-hat, ${CODE_GLYPHS[0]} < ${RHAT_CODE_BOUNDS[0]} <= ${CODE_GLYPHS[1]} < ${RHAT_CODE_BOUNDS[1]} <= ${CODE_GLYPHS[2]} < ${RHAT_CODE_BOUNDS[2]} <= ${CODE_GLYPHS[3]}`);
  if (scale !== 1) lines.push(`"x${+scale.toFixed(3)}": our ESS times 20000 / ${cfg.draws}, what ${cfg.draws} stationary draws would extrapolate to at the paper's length`);
  lines.push(`paper: 10 data sets x 10 chains, 20000 draws after 5000 burn-in (its R-hat codes did not survive the text extraction)`);
  for (const likelihood of cfg.likelihoods) {
    const label = PAPER_MODELS.find((m) => m.likelihood === likelihood)!.label;
    lines.push("", `${label} (${likelihood})`);
    const head = ["method".padEnd(8)];
    for (const { n, d } of cfg.settings) head.push(`n=${n} d=${d}: ours ESS`.padEnd(30), "R-hat".padEnd(cfg.checkpoints.length + 1), "paper ESS".padEnd(12));
    lines.push(head.join(" "));
    for (const sampler of cfg.samplers) {
      const parts = [PAPER_SAMPLER_LABELS[sampler].padEnd(8)];
      for (const { n, d } of cfg.settings) {
        const c = r.cells.find((x) => x.likelihood === likelihood && x.sampler === sampler && x.n === n && x.d === d)!;
        const ours = essText(c.essMean, c.essSd) + (scale !== 1 ? ` x${+scale.toFixed(3)}: ${Math.round(c.essMean * scale)}` : "");
        const p = paperEss(likelihood, sampler, n, d);
        parts.push(ours.padEnd(30), c.codes.map((k) => CODE_GLYPHS[k]).join("").padEnd(cfg.checkpoints.length + 1), (p ? essText(p[0], p[1]) : "-").padEnd(12));
      }
      lines.push(parts.join(" "));
    }
    const ord = ["ordering".padEnd(8)];
    for (const { n, d } of cfg.settings) {
      const o = r.orderings.find((x) => x.likelihood === likelihood && x.n === n && x.d === d)!;
      const k = PAPER_SETTINGS.findIndex((s) => s.n === n && s.d === d);
      const paper = k >= 0 ? PAPER_TABLE2[likelihood].orderingAsExtracted[k].replace("\t", " [tab] ") : "-";
      ord.push(`ours ${o.text}`.padEnd(30 + cfg.checkpoints.length + 2), `paper, as extracted: ${paper}`.padEnd(12));
    }
    lines.push(ord.join(" "));
  }
  lines.push("", `rows of the ordering: ${cfg.samplers.map((s, i) => `${i + 1} ${PAPER_SAMPLER_LABELS[s]}`).join(", ")}; best first, "|" significantly faster convergence than the next (Mann-Whitney, 0.05), "," not`);
  return lines.join("\n") + "\n";
}

function listArg(args: string[], name: string): string[] | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  if (i + 1 >= args.length) throw new Error(`${name} needs a value`);
  return args[i + 1].split(",").map((s) => s.trim());
}

function intArg(args: string[], name: string, min: number): number | undefined {
  const v = listArg(args, name);
  if (v === undefined) return undefined;
  const x = Number(v[0]);
  if (v.length !== 1 || !Number.isInteger(x) || x < min) throw new Error(`${name} must be a whole number >= ${min}, got ${v.join(",")}`);
  return x;
}

/** The configuration the command-line arguments ask for. */
export function parseTable2Args(args: string[]): { config: Table2Config; json?: string } {
  const base = args.includes("--quick") ? QUICK_CONFIG : PAPER_CONFIG;
  const ints = (name: string) => listArg(args, name)?.map((s) => {
    const x = Number(s);
    if (!Number.isInteger(x) || x < 1) throw new Error(`${name}: ${JSON.stringify(s)} is not a whole number >= 1`);
    return x;
  });
  const choose = <T extends string>(name: string, known: readonly T[]): T[] | undefined => listArg(args, name)?.map((s) => {
    if (!(known as readonly string[]).includes(s)) throw new Error(`${name}: unknown ${JSON.stringify(s)} (known: ${known.join(", ")})`);
    return s as T;
  });
  const draws = intArg(args, "--draws", MIN_DRAWS) ?? base.draws;
  const ns = ints("--n");
  const ds = ints("--d");
  const settings = ns || ds
    ? (ns ?? [...new Set(base.settings.map((s) => s.n))]).flatMap((n) => (ds ?? [...new Set(base.settings.map((s) => s.d))]).map((d) => ({ n, d })))
    : base.settings;
  const checkpoints = ints("--checkpoints") ?? (draws === base.draws ? base.checkpoints : scaledCheckpoints(draws));
  for (const c of checkpoints) if (c < MIN_DRAWS || c > draws) throw new Error(`--checkpoints: ${c} is outside ${MIN_DRAWS}..${draws} (the draws per chain)`);
  const config: Table2Config = {
    likelihoods: choose("--likelihoods", PAPER_MODELS.map((m) => m.likelihood)) ?? base.likelihoods,
    samplers: choose("--samplers", PAPER_SAMPLERS) ?? base.samplers,
    settings,
    dataSets: intArg(args, "--data-sets", 1) ?? base.dataSets,
    chains: intArg(args, "--chains", 2) ?? base.chains,
    draws,
    burnIn: intArg(args, "--burn-in", 0) ?? base.burnIn,
    checkpoints,
    seed: intArg(args, "--seed", 0) ?? base.seed,
  };
  const json = listArg(args, "--json")?.join(",");
  return { config, json };
}

/** --grid-dir, --parallel, --queue and --checkpoint-every: where and how the table's grid runs. */
function gridOptions(args: string[]): Table2RunOptions {
  return { gridDir: listArg(args, "--grid-dir")?.join(","), parallel: intArg(args, "--parallel", 1), queue: listArg(args, "--queue")?.join(","), checkpointEvery: intArg(args, "--checkpoint-every", 0) };
}

async function main(argv: string[]): Promise<number> {
  // One BLAS thread: a threaded OpenBLAS splits sums differently, which changes the draws in
  // their last bits and then the chains; with one thread a cell's numbers depend on its
  // identity alone (the committed runs were made so).
  getBackend().setThreads(1);
  const checkAt = argv.indexOf("--check");
  if (checkAt >= 0) {
    // Recompute the selected cells of a committed run and compare them with the file.
    const file = argv[checkAt + 1];
    if (!file) throw new Error("--check needs a file");
    const committed = JSON.parse(readFileSync(file, "utf8")) as Table2Result;
    const rest = argv.filter((_, i) => i !== checkAt && i !== checkAt + 1);
    const config = narrowConfig(committed.config, rest, parseTable2Args(rest).config);
    if (config.settings.length === 0) throw new Error("--n/--d: no setting of the committed run matches");
    const recomputed = await runTable2(config, { ...gridOptions(rest), onCell: (c) => process.stderr.write(`recomputed ${c.likelihood} n=${c.n} d=${c.d} ${c.sampler} (${c.seconds.toFixed(1)} s)\n`) });
    return reportCheck(file, committed, { ...recomputed, ...arithmeticRecord() }, (tolerance) => compareTable2(committed, recomputed, tolerance));
  }
  const { config, json } = parseTable2Args(argv);
  const result = await runTable2(config, {
    ...gridOptions(argv),
    onCell: (c) => process.stderr.write(`${c.likelihood} n=${c.n} d=${c.d} ${c.sampler}: min ESS ${c.essMean.toFixed(1)}, R-hat ${c.medianRhat.map((x) => x.toFixed(2)).join(" ")}, ${c.seconds.toFixed(1)} s\n`),
  });
  process.stdout.write(formatTable2(result));
  if (json) writeResultFile(json, "table2", argv, result);
  return 0;
}

await runAsCommand(import.meta.url, "table2", main);
