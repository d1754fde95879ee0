/**
 * Writing draws files in CmdStan's layout (see cmdstan.ts for the layout and why each line
 * looks as it does): column names, the configuration comments, and a writer that fills one
 * chain's file row by row and renames it into place when complete.
 */
import { AtomicFile } from "./atomic.js";
import { formatNumber } from "./numbers.js";
import { VERSION } from "../version.js";
import type { StepInfo } from "../samplers/types.js";

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
  /** null: not recorded (written nan, as the other statistics are when NaN). */
  divergent: boolean | null;
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
    l[4] = stats.divergent === null ? formatNumber(NaN) : stats.divergent ? "1" : "0";
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
