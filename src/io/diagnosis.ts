/**
 * A run's diagnostics read back from its draws files (ours, or CmdStan's own): per-quantity
 * summaries like Stan's `print` and CmdStan's `stansummary` (mean, sd, MCSE, 5/50/95%
 * quantiles, bulk and tail ESS, rank-normalised R-hat), the run-level figures the `sample`
 * command reports (min / median / max Geyer ESS and the largest classic R-hat over the model's
 * variables), divergences, and warnings.
 *
 * Every number comes from src/diagnostics' `summarize` (which computes `essGeyer` and
 * `rhatClassic` itself), applied to the columns as read. Draws files hold every digit of each
 * double, so a run read back gives the very ESS and R-hat the run computed from its draws.
 *
 * lp__ is judged with the variables; the other sampler columns are not. The verdict is
 * diagnostics/verdict.ts's `judgeRun`, the same that every sampling command's summary gives;
 * what the files themselves warn of: diagnosisWarnings.ts.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { MIN_DRAWS } from "../diagnostics/errors.js";
import type { EssRhatExtremes } from "../diagnostics/runFigures.js";
import { summarize, type VariableSummary } from "../diagnostics/summary.js";
import { OUTPUT_MARKER, readOutputMarker } from "./atomic.js";
import { findDrawsFiles, readCmdStanCsv, type CmdStanCsv } from "./cmdstan.js";
import { DataError, quoteCell } from "./errors.js";
import { judgeRun, withRunWarnings, type Remedies, type Verdict } from "../diagnostics/verdict.js";
import { runFileWarnings } from "./diagnosisWarnings.js";

export { ESS_PER_CHAIN, formatRhat, RHAT_THRESHOLD } from "../diagnostics/verdict.js";

/** The summary of one column of the draws files. */
export interface DiagnosisRow extends VariableSummary {
  /** The column's name, e.g. "f.12" or "lp__". */
  readonly name: string;
  /** "sampler" for columns whose names end in "__" (lp__, accept_stat__, ...). */
  readonly kind: "sampler" | "variable";
}

/** One chain's file. */
export interface ChainFileInfo {
  /** The path as given (or as found in the directory given). */
  path: string;
  /** Post-burn-in rows in the file. */
  draws: number;
  /** Rows the run was set to keep (ceil(num_samples / thin)), when the file says. */
  expectedDraws: number | null;
  /** Divergent transitions among the rows summarised (null: no divergent__ column, or one of nan only: not recorded). */
  divergences: number | null;
  /** The file says the run stopped early (`incomplete = 1`). */
  incomplete: boolean;
  /** Seconds of sampling (after burn-in), from the file's timing block. */
  samplingSeconds: number | null;
}

export interface Diagnosis extends EssRhatExtremes {
  files: ChainFileInfo[];
  /** The `model` named in the first file, if any. */
  model: string | null;
  chains: number;
  /** Draws per chain summarised (the shortest chain's length with `truncate`). */
  draws: number;
  /** True when longer chains were cut to `draws`. */
  truncated: boolean;
  /** The model's variables (columns not ending in "__"), in file order. */
  variables: string[];
  /** The sampler's columns (ending in "__"), in file order. */
  samplerColumns: string[];
  /** One row per column, sampler columns first, each group in file order. */
  rows: DiagnosisRow[];

  // Over the model's variables: the sample command's figures (EssRhatExtremes).

  /** Divergent transitions in the rows summarised, all chains (null: no divergent__ column, or one of nan only: not recorded). */
  divergences: number | null;
  /** Rows summarised, all chains. */
  transitions: number;
  /** The chains' sampling times added up: chain-seconds, not wall-clock (null unless every file has one). */
  samplingSeconds: number | null;
  /** minEss / samplingSeconds: min ESS per chain-second of sampling (ESS_PER_SECOND_BASIS). */
  minEssPerSecond: number | null;

  /** The verdict on the draws, as every sampling command's summary gives it (diagnostics/verdict.ts), with what the files warn of. */
  verdict: Verdict;
}

export interface DiagnoseOptions {
  /**
   * Chains of different lengths (a run stopped early) are an error unless this is set; then
   * every chain is cut to the shortest, with a warning.
   */
  truncate?: boolean;
}

/**
 * Diagnoses a run from paths: run directories (all their draws_k.csv files) and draws files,
 * CSV in CmdStan's layout. Throws DataError naming the file (and line) of the first problem:
 * a missing path, a directory without draws files, a malformed file, files from different
 * runs (different columns), chains of different lengths (see `truncate`), too few draws.
 */
export function diagnoseRun(paths: readonly string[], options: DiagnoseOptions = {}): Diagnosis {
  if (paths.length === 0) throw new RangeError("diagnoseRun: no paths given");
  const files: string[] = [];
  const dirs: string[] = [];
  const seen = new Map<string, string>();
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new DataError({ file: p }, code === "ENOENT" || code === "ENOTDIR" ? "no such file or directory" : `cannot be read: ${(e as Error).message}`);
    }
    let found = [p];
    if (isDir) {
      try {
        found = findDrawsFiles(p);
      } catch (e) {
        // CmdStan names its files after the model (bernoulli-20240115-1.csv): they are given one by one
        if (e instanceof DataError && e.line === undefined && /^no draws files/.test(e.reason)) {
          throw new DataError({ file: p }, `${e.reason}; give CmdStan's output files by name`);
        }
        throw e;
      }
    }
    if (isDir) dirs.push(p);
    for (const f of found) {
      const key = resolve(f);
      const before = seen.get(key);
      if (before !== undefined) {
        throw new DataError({ file: f }, `is given twice${before !== f ? ` (also as ${before})` : ""}: each chain's file once`);
      }
      seen.set(key, f);
      files.push(f);
    }
  }
  const csvs = files.map((f) => readCmdStanCsv(f));
  const d = diagnoseDraws(csvs, options);
  for (const dir of dirs) {
    const marker = readOutputMarker(dir);
    if (marker !== undefined && !marker.complete && !d.files.some((f) => f.incomplete)) {
      d.verdict = withRunWarnings(d.verdict, [`${dir}: the run did not complete (its ${OUTPUT_MARKER} marker says so): it is still running, or it stopped early`]);
    }
  }
  return d;
}

/**
 * Diagnoses draws files already read (one per chain). Throws DataError when they do not fit
 * together; see `diagnoseRun`.
 */
export function diagnoseDraws(csvs: readonly CmdStanCsv[], options: DiagnoseOptions = {}): Diagnosis {
  if (csvs.length === 0) throw new RangeError("diagnoseDraws: no draws files given");
  const first = csvs[0];
  for (const c of csvs.slice(1)) checkSameColumns(first, c);
  for (const c of csvs) {
    if (c.draws < MIN_DRAWS) {
      throw new DataError(
        { file: c.path },
        `${c.draws === 0 ? "has no draws" : `has ${c.draws} ${c.draws === 1 ? "draw" : "draws"}`}; the diagnostics need at least ${MIN_DRAWS} per chain`,
      );
    }
  }
  const lengths = csvs.map((c) => c.draws);
  const n = Math.min(...lengths);
  const truncated = lengths.some((l) => l !== n);
  if (truncated && !options.truncate) {
    const short = csvs[lengths.indexOf(n)];
    const long = csvs.find((c) => c.draws !== n) as CmdStanCsv;
    throw new DataError(
      { file: short.path },
      `has ${n} draws, but ${long.path} has ${long.draws}: the chains differ in length (a run stopped early?); ` +
        `use --truncate to summarise the first ${n} draws of each chain`,
    );
  }

  const m = csvs.length;
  const samplerColumns = first.samplerColumns;
  const variables = first.variables;
  const chainsOf = (name: string): Float64Array[] =>
    csvs.map((c) => {
      const x = c.values[c.columns.indexOf(name)];
      return x.length === n ? x : x.subarray(0, n);
    });
  const rows: DiagnosisRow[] = [...samplerColumns, ...variables].map((name) => ({
    name,
    kind: name.endsWith("__") ? "sampler" : "variable",
    ...summarize(chainsOf(name)),
  }));
  const variableRows = rows.filter((r) => r.kind === "variable");

  // The sample command's figures: Geyer ESS order statistics, largest classic R-hat.
  const geyer = orderStats(variableRows.map((r) => r.essGeyer));
  const classic = extreme(variableRows.map((r) => r.rhatClassic), "max");
  const nameOf = (i: number): string | null => (i >= 0 ? variableRows[i].name : null);

  const column = (c: CmdStanCsv, name: string): Float64Array | undefined => {
    const j = c.columns.indexOf(name);
    return j < 0 ? undefined : c.values[j].subarray(0, n);
  };
  const count = (x: Float64Array | undefined, hit: (v: number) => boolean): number | null => {
    if (x === undefined) return null;
    let k = 0;
    for (let i = 0; i < x.length; i++) if (hit(x[i])) k++;
    return k;
  };
  // a sampler column of nan only is one the sampler did not record (a grid job's draws)
  const recorded = (x: Float64Array | undefined): Float64Array | undefined => (x && !x.every((v) => Number.isNaN(v)) ? x : undefined);
  const files: ChainFileInfo[] = csvs.map((c) => ({
    path: c.path,
    draws: c.draws,
    expectedDraws: expectedDraws(c),
    divergences: count(recorded(column(c, "divergent__")), (v) => v !== 0 && !Number.isNaN(v)),
    incomplete: c.incomplete,
    samplingSeconds: c.timing?.samplingSeconds ?? null,
  }));
  const divergences = files.every((f) => f.divergences !== null) ? files.reduce((t, f) => t + (f.divergences as number), 0) : null;
  const seconds = files.every((f) => f.samplingSeconds !== null) ? files.reduce((t, f) => t + (f.samplingSeconds as number), 0) : null;

  // CmdStan's NUTS records treedepth__ and its max_depth; the energies give E-BFMI where they are finite.
  const maxDepth = Number(first.config["max_depth"]);
  const depths = Number.isInteger(maxDepth) ? csvs.map((c) => count(column(c, "treedepth__"), (v) => v >= maxDepth)) : [];
  const energies = csvs.map((c) => column(c, "energy__"));
  const target = Number(first.config["adapt_target_acceptance"] ?? first.config["delta"]);
  const remedies: Remedies = {
    targetAcceptance: { option: "--target-acceptance", value: Number.isFinite(target) ? target : null },
    stepSize: "--step-size",
    ...(depths.length > 0 ? { maxTreeDepth: { option: "--max-tree-depth", value: maxDepth } } : {}),
  };
  const verdict = judgeRun(
    {
      quantities: rows.filter((r) => r.kind === "variable" || (r.name === "lp__" && csvs.some((c) => recorded(column(c, "lp__")) !== undefined))),
      chains: m,
      draws: n,
      // the pm scheme's divergent__ marks proposals of theta rejected for want of a usable estimate, not divergent trajectories (run/summary.ts judges it so too)
      divergences: files.every((f) => f.divergences !== null) && first.config["scheme"] !== "pm" ? files.map((f) => f.divergences as number) : null,
      transitions: m * n,
      ...(depths.length > 0 && depths.every((k) => k !== null) ? { treeDepth: { saturated: depths as number[], maxDepth } } : {}),
      ...(energies.every((x) => x !== undefined) ? { energy: energies as Float64Array[] } : {}),
    },
    remedies,
  );
  const declared = Number(first.config["num_chains"]);
  const minEss = finite(geyer.min);
  return {
    files,
    model: first.config["model"] ?? null,
    chains: m,
    draws: n,
    truncated,
    variables,
    samplerColumns,
    rows,
    minEss,
    medianEss: finite(geyer.median),
    maxEss: finite(geyer.max),
    minEssVariable: nameOf(geyer.argMin),
    rhatMax: finite(classic.value),
    rhatMaxVariable: nameOf(classic.arg),
    divergences,
    transitions: m * n,
    samplingSeconds: seconds,
    minEssPerSecond: minEss !== null && seconds !== null && seconds > 0 ? minEss / seconds : null,
    verdict: withRunWarnings(verdict, runFileWarnings(files, { draws: n, truncated, lengths, declaredChains: Number.isInteger(declared) && declared >= 1 ? declared : null })),
  };
}

function checkSameColumns(first: CmdStanCsv, other: CmdStanCsv): void {
  const a = new Set(first.columns);
  const b = new Set(other.columns);
  const missing = first.columns.filter((c) => !b.has(c));
  const extra = other.columns.filter((c) => !a.has(c));
  if (missing.length === 0 && extra.length === 0) return;
  const list = (xs: string[]) => (xs.length > 3 ? `${xs.slice(0, 3).map((x) => quoteCell(x)).join(", ")} and ${xs.length - 3} more` : xs.map((x) => quoteCell(x)).join(", "));
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`it lacks ${list(missing)}`);
  if (extra.length > 0) parts.push(`it has ${list(extra)}, which ${first.path} lacks`);
  throw new DataError(
    { file: other.path },
    `its columns differ from those of ${first.path} (${parts.join("; ")}): files from different runs cannot be summarised together`,
  );
}

function expectedDraws(c: CmdStanCsv): number | null {
  const s = Number(c.config["num_samples"]);
  const thin = c.config["thin"] === undefined ? 1 : Number(c.config["thin"]);
  if (!(Number.isInteger(s) && s >= 0 && Number.isInteger(thin) && thin >= 1)) return null;
  return Math.ceil(s / thin);
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Min (with its index), median and max of the finite entries; NaN when there are none. */
function orderStats(v: readonly number[]): { min: number; median: number; max: number; argMin: number } {
  const idx: number[] = [];
  for (let j = 0; j < v.length; j++) if (Number.isFinite(v[j])) idx.push(j);
  if (idx.length === 0) return { min: NaN, median: NaN, max: NaN, argMin: -1 };
  idx.sort((a, b) => v[a] - v[b] || a - b);
  const k = idx.length >> 1;
  const median = idx.length % 2 ? v[idx[k]] : 0.5 * (v[idx[k - 1]] + v[idx[k]]);
  return { min: v[idx[0]], median, max: v[idx[idx.length - 1]], argMin: idx[0] };
}

/** The first smallest (or largest) finite entry and its index; NaN and -1 when there is none. */
function extreme(v: readonly number[], which: "min" | "max"): { value: number; arg: number } {
  let value = NaN;
  let arg = -1;
  for (let j = 0; j < v.length; j++) {
    if (!Number.isFinite(v[j])) continue;
    if (arg < 0 || (which === "min" ? v[j] < value : v[j] > value)) {
      value = v[j];
      arg = j;
    }
  }
  return { value, arg };
}
