/**
 * Draws files in CmdStan's layout (CmdStan guide, "Stan CSV File Format"), one file per chain,
 * so that ArviZ's `from_cmdstan` and R's `cmdstanr::read_cmdstan_csv` (posterior draws
 * objects) read them without changes:
 *
 *   # key = value              configuration comments, CmdStan's indented tree
 *   lp__,accept_stat__,stepsize__,n_leapfrog__,divergent__,energy__,f.1,...,f.n
 *   # Adaptation terminated    after burn-in, before the first draw
 *   # Step size = 0.1
 *   -12.3,0.98,0.1,10,0,14.2,0.31,...      one row per kept draw
 *   #
 *   #  Elapsed Time: 1.2 seconds (Warm-up)
 *   #                3.4 seconds (Sampling)
 *   #                4.6 seconds (Total)
 *   #
 *
 * What the two readers need, and why each line looks as it does:
 * - cmdstanr requires `method = sample`, `save_warmup`, `thin`, `num_warmup`, `num_samples`
 *   and `id` among the comments (it splits each on "=" and trims; it errors without them);
 * - ArviZ takes `Step size = x`, the line after "inverse mass matrix" as comma-separated
 *   numbers, and the three "seconds (Warm-up|Sampling|Total)" lines as floats; so no other
 *   comment may contain those phrases;
 * - both split the header on "," (no trailing comma) and treat names ending in "__" as sampler
 *   columns, the rest as variables; `f.1` is element 1 of `f` (cmdstanr shows it as `f[1]`);
 * - numbers are plain decimals, and nan / inf / -inf as CmdStan spells them.
 * We write all digits needed to read the same double back (CmdStan's default is 6).
 */
import { DataError, quoteCell } from "./errors.js";
import { AtomicFile } from "./atomic.js";
import { formatNumber, readNumber } from "./numbers.js";
import { parseCsvRecords, readTextFile } from "./dataset.js";
import { VERSION } from "../version.js";
import type { StepInfo } from "../samplers/types.js";
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The sampler columns we write, in order, before the variables. */
export const SAMPLER_COLUMNS = ["lp__", "accept_stat__", "stepsize__", "n_leapfrog__", "divergent__", "energy__"] as const;

/** File name of chain `chain` (1-based) in an output directory. */
export function drawsFileName(chain: number): string {
  return `draws_${chain}.csv`;
}

/** CmdStan-style element names of a vector: `f.1 .. f.n`. */
export function vectorNames(name: string, n: number): string[] {
  checkVariableName(name);
  const out: string[] = [];
  for (let i = 1; i <= n; i++) out.push(`${name}.${i}`);
  return out;
}

const VARIABLE = /^[A-Za-z][A-Za-z0-9_]*(?:\.[0-9]+)*$/;

function checkVariableName(name: string): void {
  if (!VARIABLE.test(name) || name.endsWith("__")) {
    throw new Error(`not a CmdStan variable name: ${JSON.stringify(name)} (letters, digits, _ and .index; no trailing __)`);
  }
}

/** One row's sampler statistics. */
export interface DrawStats {
  /** Log density (up to a constant) at the draw. */
  lp: number;
  acceptStat: number;
  stepSize: number;
  nLeapfrog: number;
  divergent: boolean;
  energy: number;
}

/** The sampler statistics of a transition as the draws file records them. */
export function drawStatsFrom(info: StepInfo, logDensity: number): DrawStats {
  return {
    lp: logDensity,
    acceptStat: info.acceptanceProbability,
    stepSize: info.stepSize,
    nLeapfrog: info.leapfrogSteps,
    divergent: info.divergent,
    energy: info.energy,
  };
}

type SettingValue = string | number | bigint | boolean;

/** The run's configuration, written as comments at the top of each chain's file. */
export interface CmdStanRunInfo {
  /** Model name, e.g. "gp_probit" (cmdstanr checks it is the same in all files of a fit). */
  model: string;
  /** Sampler name, written as `algorithm`. */
  sampler: string;
  /** Iterations after burn-in (CmdStan's num_samples); the file holds ceil(draws / thin) rows. */
  draws: number;
  /** Burn-in iterations (num_warmup); their draws are not written. */
  burnIn: number;
  thin?: number;
  /** 1-based chain number (CmdStan's id). */
  chain: number;
  chains?: number;
  /** Whether the step size was adapted during burn-in. */
  adapt?: boolean;
  /** Initial step size (CmdStan's stepsize). */
  stepSize?: number;
  seed?: number | bigint | string;
  /** The data file. */
  dataFile?: string;
  /** Further settings (sampler, kernel, likelihood), written as `key = value` under the algorithm. */
  settings?: Record<string, SettingValue>;
}

const KEY = /^[A-Za-z_][A-Za-z0-9_.]*$/;

function settingLine(indent: number, key: string, value: SettingValue): string {
  if (!KEY.test(key)) throw new Error(`not a setting name: ${JSON.stringify(key)}`);
  let v: string;
  if (typeof value === "boolean") v = value ? "1" : "0";
  else if (typeof value === "number") v = formatNumber(value);
  else v = String(value);
  // One line per setting; "=" or the phrases ArviZ looks for would be misread.
  v = v.replace(/[\r\n]+/g, " ").replace(/=/g, ":");
  if (/inverse mass matrix|seconds \((?:Warm-up|Sampling|Total)\)/.test(v)) v = v.replace(/ /g, "_");
  return `#${" ".repeat(1 + indent)}${key} = ${v}`;
}

/** The comment block above the header. */
export function configComments(info: CmdStanRunInfo): string[] {
  const thin = info.thin ?? 1;
  const lines = [
    settingLine(0, "gpmcmc_version", VERSION),
    settingLine(0, "model", info.model),
    settingLine(0, "method", "sample"),
    "#   sample",
    settingLine(4, "num_samples", info.draws),
    settingLine(4, "num_warmup", info.burnIn),
    settingLine(4, "save_warmup", 0),
    settingLine(4, "thin", thin),
    "#     adapt",
    settingLine(6, "engaged", info.adapt ?? false),
    settingLine(4, "algorithm", info.sampler),
  ];
  if (info.stepSize !== undefined) lines.push(settingLine(6, "stepsize", info.stepSize));
  for (const [k, v] of Object.entries(info.settings ?? {})) lines.push(settingLine(6, k, v));
  if (info.chains !== undefined) lines.push(settingLine(4, "num_chains", info.chains));
  lines.push(settingLine(0, "id", info.chain));
  if (info.dataFile !== undefined) lines.push("# data", settingLine(2, "file", info.dataFile));
  if (info.seed !== undefined) lines.push("# random", settingLine(2, "seed", info.seed));
  return lines;
}

export interface Timing {
  warmupSeconds: number;
  samplingSeconds: number;
}

function seconds(x: number): string {
  return formatNumber(Number(x.toPrecision(6)));
}

/**
 * Writes one chain's draws file row by row into an AtomicFile: nothing appears under the
 * final name until `finish`, and `abort` (or a crash) leaves no file that looks complete.
 */
export class CmdStanWriter {
  readonly path: string;
  readonly columns: string[];
  private readonly file: AtomicFile;
  private readonly nVariables: number;
  private rows = 0;
  private adapted = false;
  private readonly line: string[];

  /**
   * @param target a path, or an AtomicFile (from OutputDir.open) to write into.
   * @param variables names of the variables, e.g. vectorNames("f", n).
   */
  constructor(target: string | AtomicFile, info: CmdStanRunInfo, variables: string[]) {
    for (const v of variables) checkVariableName(v);
    const seen = new Set<string>();
    for (const v of variables) {
      if (seen.has(v)) throw new Error(`variable name ${JSON.stringify(v)} is repeated`);
      seen.add(v);
    }
    this.file = typeof target === "string" ? new AtomicFile(target) : target;
    this.path = this.file.path;
    this.columns = [...SAMPLER_COLUMNS, ...variables];
    this.nVariables = variables.length;
    this.line = new Array<string>(this.columns.length);
    this.file.write(configComments(info).join("\n") + "\n" + this.columns.join(",") + "\n");
  }

  /**
   * The block CmdStan writes when burn-in ends: the adapted step size and, for a fixed
   * diagonal mass matrix, the diagonal of its inverse. Call before the first draw, or not at all.
   */
  adaptation(stepSize: number, inverseMetricDiagonal?: ArrayLike<number>): void {
    if (this.rows > 0 || this.adapted) throw new Error("CmdStanWriter: adaptation() must come once, before the first draw");
    this.adapted = true;
    const lines = ["# Adaptation terminated", `# Step size = ${formatNumber(stepSize)}`];
    if (inverseMetricDiagonal !== undefined) {
      lines.push("# Diagonal elements of inverse mass matrix:", "# " + Array.from(inverseMetricDiagonal, formatNumber).join(", "));
    }
    this.file.write(lines.join("\n") + "\n");
  }

  /** Appends one draw: its sampler statistics and the variables' values. */
  draw(stats: DrawStats, values: ArrayLike<number>): void {
    if (values.length !== this.nVariables) {
      throw new Error(`CmdStanWriter: a draw has ${values.length} values, expected ${this.nVariables}`);
    }
    const l = this.line;
    l[0] = formatNumber(stats.lp);
    l[1] = formatNumber(stats.acceptStat);
    l[2] = formatNumber(stats.stepSize);
    l[3] = formatNumber(stats.nLeapfrog);
    l[4] = stats.divergent ? "1" : "0";
    l[5] = formatNumber(stats.energy);
    for (let j = 0; j < values.length; j++) l[6 + j] = formatNumber(values[j]);
    this.file.write(l.join(",") + "\n");
    this.rows++;
  }

  get drawsWritten(): number {
    return this.rows;
  }

  /**
   * Writes the timing block and renames the file into place. With `incomplete` (a run
   * stopped early) the file says so in `incomplete = 1` and `completed_draws = k` comments.
   */
  finish(timing: Timing, options: { incomplete?: boolean } = {}): void {
    const lines: string[] = [];
    if (options.incomplete) lines.push(settingLine(0, "incomplete", 1), settingLine(0, "completed_draws", this.rows));
    const total = timing.warmupSeconds + timing.samplingSeconds;
    lines.push(
      "# ",
      `#  Elapsed Time: ${seconds(timing.warmupSeconds)} seconds (Warm-up)`,
      `#                ${seconds(timing.samplingSeconds)} seconds (Sampling)`,
      `#                ${seconds(total)} seconds (Total)`,
      "# ",
    );
    this.file.write(lines.join("\n") + "\n");
    this.file.commit();
  }

  /** Discards the file. */
  abort(): void {
    this.file.abort();
  }
}

/** One chain's draws in memory, for writing in one go. */
export interface ChainDraws {
  variables: string[];
  stats: DrawStats[];
  /** stats.length x variables.length, row-major (draw t, variable j at t * variables.length + j). */
  values: Float64Array;
  /** Adapted step size (and diagonal inverse mass matrix), if any. */
  adaptation?: { stepSize: number; inverseMetricDiagonal?: ArrayLike<number> };
  timing: Timing;
  incomplete?: boolean;
}

/** Writes a whole chain's draws file atomically. */
export function writeCmdStanCsv(target: string | AtomicFile, info: CmdStanRunInfo, chain: ChainDraws): void {
  const m = chain.variables.length;
  if (chain.values.length !== chain.stats.length * m) {
    throw new Error(`writeCmdStanCsv: ${chain.values.length} values for ${chain.stats.length} draws of ${m} variables`);
  }
  const w = new CmdStanWriter(target, info, chain.variables);
  try {
    if (chain.adaptation) w.adaptation(chain.adaptation.stepSize, chain.adaptation.inverseMetricDiagonal);
    for (let t = 0; t < chain.stats.length; t++) w.draw(chain.stats[t], chain.values.subarray(t * m, (t + 1) * m));
    w.finish(chain.timing, { incomplete: chain.incomplete });
  } catch (e) {
    w.abort();
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

/** A draws file read back: ours or CmdStan's own. */
export interface CmdStanCsv {
  path: string;
  /** `key = value` comments above the header ("(Default)" dropped); the first of repeated keys. */
  config: Record<string, string>;
  /** All comment lines, without the leading "#". */
  comments: string[];
  columns: string[];
  /** Columns whose names end in "__" (lp__ included), in file order. */
  samplerColumns: string[];
  /** The other columns (the model's variables), in file order. */
  variables: string[];
  /** Number of post-burn-in rows. */
  draws: number;
  /** One array per column (aligned with `columns`), post-burn-in rows. */
  values: Float64Array[];
  /** Saved burn-in rows (CmdStan's save_warmup = 1), one array per column; usually empty. */
  warmupValues: Float64Array[];
  stepSize?: number;
  /** Diagonal, or dense row-major, inverse mass matrix from the adaptation block. */
  inverseMetric?: number[];
  timing?: { warmupSeconds?: number; samplingSeconds?: number; totalSeconds?: number };
  /** True when the file says the run stopped early. */
  incomplete: boolean;
}

/** The values of one column. Throws when there is no such column. */
export function columnValues(csv: CmdStanCsv, name: string): Float64Array {
  const j = csv.columns.indexOf(name);
  if (j < 0) throw new DataError({ file: csv.path }, `no column ${quoteCell(name)}`);
  return csv.values[j];
}

/** Reads a draws file. Throws DataError naming the line and column of the first problem. */
export function readCmdStanCsv(path: string): CmdStanCsv {
  return parseCmdStanCsv(readTextFile(path), path);
}

/** Parses draws-file text; `path` names it in messages. */
export function parseCmdStanCsv(text: string, path: string): CmdStanCsv {
  if (text.replace(/^\uFEFF/, "").trim() === "") throw new DataError({ file: path }, "file is empty");
  // Comments with their line numbers (csv-parse skips them, so they are gathered here).
  const comments: { line: number; text: string }[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].replace(/^\uFEFF/, "");
    if (l.startsWith("#")) comments.push({ line: i + 1, text: l.slice(1) });
  }
  const records = parseCsvRecords(text, path, { comment: "#" });
  if (records.length === 0) throw new DataError({ file: path }, "no header line: the file has only comments");
  const header = records[0].record;
  const headerLine = records[0].info.lines;
  const seen = new Map<string, number>();
  for (let j = 0; j < header.length; j++) {
    const name = header[j];
    if (name === "") throw new DataError({ file: path, line: headerLine, column: j + 1 }, `column ${j + 1} of the header has no name`);
    const first = seen.get(name);
    if (first !== undefined) {
      throw new DataError({ file: path, line: headerLine, column: j + 1, columnName: name }, `column name ${quoteCell(name)} is repeated (first in column ${first + 1})`);
    }
    seen.set(name, j);
  }
  if (!seen.has("lp__")) {
    throw new DataError({ file: path, line: headerLine }, "no lp__ column: not a CmdStan draws file");
  }

  const config: Record<string, string> = {};
  let stepSize: number | undefined;
  let inverseMetric: number[] | undefined;
  const timing: { warmupSeconds?: number; samplingSeconds?: number; totalSeconds?: number } = {};
  let metricRowsLeft = 0; // rows of the inverse mass matrix still to read; -1: dense, count unknown
  for (const c of comments) {
    const t = c.text.replace(/\(Default\)\s*$/, "").trim();
    if (metricRowsLeft !== 0) {
      const row = t.split(",").map((s) => readNumber(s));
      if (row.some((r) => r.kind !== "number")) {
        throw new DataError({ file: path, line: c.line }, `inverse mass matrix row ${quoteCell(t)} is not a list of numbers`);
      }
      inverseMetric ??= [];
      for (const r of row) inverseMetric.push((r as { value: number }).value);
      // a dense matrix has as many rows as its first row has entries
      metricRowsLeft = metricRowsLeft < 0 ? row.length - 1 : metricRowsLeft - 1;
      continue;
    }
    if (/^Diagonal elements of inverse mass matrix:?$/.test(t)) {
      metricRowsLeft = 1;
      continue;
    }
    if (/^Elements of inverse mass matrix:?$/.test(t)) {
      metricRowsLeft = -1;
      continue;
    }
    const time = /^(?:Elapsed Time:\s*)?(\S+)\s+seconds\s+\((Warm-up|Sampling|Total)\)$/.exec(t);
    if (time) {
      const r = readNumber(time[1]);
      if (r.kind !== "number") throw new DataError({ file: path, line: c.line }, `elapsed time ${quoteCell(time[1])} is not a number`);
      if (time[2] === "Warm-up") timing.warmupSeconds = r.value;
      else if (time[2] === "Sampling") timing.samplingSeconds = r.value;
      else timing.totalSeconds = r.value;
      continue;
    }
    const kv = /^([^=]+?)\s*=\s*(.*)$/.exec(t);
    if (!kv) continue;
    const [, key, value] = kv;
    if (key === "Step size") {
      const r = readNumber(value);
      if (r.kind !== "number") throw new DataError({ file: path, line: c.line }, `step size ${quoteCell(value)} is not a number`);
      stepSize = r.value;
    } else if (c.line < headerLine || key === "incomplete" || key === "completed_draws") {
      if (!(key in config)) config[key] = value.trim();
    }
  }

  const m = header.length;
  const nRows = records.length - 1;
  const all = header.map(() => new Float64Array(nRows));
  for (let t = 0; t < nRows; t++) {
    const { record, info } = records[t + 1];
    if (record.length !== m) {
      throw new DataError({ file: path, line: info.lines }, `row has ${record.length} ${record.length === 1 ? "cell" : "cells"}, the header has ${m}`);
    }
    for (let j = 0; j < m; j++) {
      const r = readNumber(record[j]);
      let v: number;
      if (r.kind === "number" || r.kind === "infinite") v = r.value;
      else if (r.kind === "nan") v = NaN;
      else {
        const what = r.kind === "empty" ? `cell in column ${quoteCell(header[j])} is empty` : `cell ${quoteCell(record[j])} in column ${quoteCell(header[j])} is not a number`;
        throw new DataError({ file: path, line: info.lines, column: j + 1, columnName: header[j] }, what);
      }
      all[j][t] = v;
    }
  }

  // Saved burn-in rows come first (CmdStan writes ceil(num_warmup / thin) of them).
  let nWarm = 0;
  const save = config["save_warmup"];
  if (save === "1" || save === "true") {
    const w = Number(config["num_warmup"] ?? "0");
    const thin = Number(config["thin"] ?? "1");
    if (Number.isInteger(w) && w > 0 && Number.isInteger(thin) && thin > 0) nWarm = Math.min(nRows, Math.ceil(w / thin));
  }
  const warmupValues = all.map((a) => a.slice(0, nWarm));
  const values = nWarm === 0 ? all : all.map((a) => a.slice(nWarm));

  const samplerColumns = header.filter((h) => h.endsWith("__"));
  return {
    path,
    config,
    comments: comments.map((c) => c.text),
    columns: header,
    samplerColumns,
    variables: header.filter((h) => !h.endsWith("__")),
    draws: nRows - nWarm,
    values,
    warmupValues,
    stepSize,
    inverseMetric,
    timing: Object.keys(timing).length > 0 ? timing : undefined,
    incomplete: config["incomplete"] === "1",
  };
}

/**
 * The draws files of an output directory, `draws_1.csv, draws_2.csv, ...` in chain order.
 * Throws DataError when the directory cannot be read or holds none.
 */
export function findDrawsFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such directory" : code === "ENOTDIR" ? "not a directory" : `cannot be read: ${(e as Error).message}`;
    throw new DataError({ file: dir }, why);
  }
  const chains = names
    .map((n) => /^draws_([1-9][0-9]*)\.csv$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  if (chains.length === 0) throw new DataError({ file: dir }, "no draws files (draws_1.csv, draws_2.csv, ...) in this directory");
  return chains.map((k) => join(dir, drawsFileName(k)));
}
