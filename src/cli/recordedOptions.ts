/**
 * `gpmcmc sample --resume DIR` without the run's options: a run records in its run.json the
 * options it was started with, as Commander gave them (defaults included), with the working
 * directory a relative --data is relative to. A resume without --data takes from that record every
 * option not given beside --resume; one given must still agree with the run (sampleResume.ts's
 * checks name the one that differs, comparing the spec the options make with the recorded spec),
 * and the recorded data file must be there with the bytes the run was started on (its SHA-256),
 * else one line names it. A resume with --data is given the run's options as before (and checked
 * as before).
 */
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileSha256 } from "../approx/approximationFile.js";
import { DataError } from "../io/errors.js";
import { parseLastingRunOptions, type RawLastingRunOptions } from "./lastingRunOptions.js";
import { OptionError } from "./options.js";
import { checkSameKind, readResumableRun, RUN_RECORD, type ResumableRun } from "./sampleResume.js";

/** The options a run's record holds: `sample`'s options (camelCase, as Commander names them) with their values. */
export type RecordedOptions = Record<string, string | boolean>;

/** What a run directory records of the command line (RunRecord's `options` and `cwd`). */
export interface RecordedCommand {
  options: RecordedOptions;
  /** The working directory the run was started in: a relative --data is relative to it. */
  cwd: string;
}

/**
 * Options that say where a run goes and how it is shown, not what it draws: not recorded, and
 * taken from the command line on a resume (--parallel included: the draws do not depend on it).
 */
const NOT_RECORDED = new Set(["out", "resume", "overwrite", "force", "checkpointEvery", "json", "quiet", "progress", "parallel"]);

/** The options that fix the kernel's hyperparameters (without them, they are sampled). */
const KERNEL_OPTIONS = ["lengthscale", "logLengthscale", "signalSd", "logSignalSd"];

/** Options that say one thing two ways: one given beside --resume replaces the other's recorded value. */
const ALTERNATIVES = [["lengthscale", "logLengthscale"], ["signalSd", "logSignalSd"], ["priorVariance", "priorSignalSd"], ["fixedPointTolerance", "fixedPointIterations"]];

/** The record of the options a run is started with (`raw`: Commander's options). */
export function recordOptions(raw: object): RecordedCommand {
  const options: RecordedOptions = {};
  for (const [k, v] of Object.entries(raw)) {
    if (NOT_RECORDED.has(k) || (typeof v !== "string" && typeof v !== "boolean")) continue;
    options[k] = v;
  }
  return { options, cwd: process.cwd() };
}

/**
 * The options of a `sample` command with --resume and without --data: those given (`given(key)`:
 * set on the command line, not by a default) over those the run records. Without --resume, or
 * with --data, `raw` as it is.
 */
export function withRecordedOptions<T extends RawLastingRunOptions & { data?: string }>(raw: T, given: (key: string) => boolean): T {
  if (raw.resume === undefined || raw.data !== undefined) return raw;
  // --resume with --out or --overwrite is refused before the directory is read
  const dir = parseLastingRunOptions(raw).resume!;
  const run = readResumableRun(dir);
  const recorded = run.record.options;
  if (recorded === undefined) throw new OptionError("--resume", `${join(dir, RUN_RECORD)} records no options (the run was started by an earlier gpmcmc): resume it with --data and the other options it was started with`);
  // another model, or the kernel's hyperparameters fixed for a run that samples them: named as a resume with --data names them
  const model = typeof recorded.model === "string" ? recorded.model : "latent-gp";
  if (given("model") && (raw as { model?: unknown }).model !== model) throw new OptionError("--model", `the run in ${dir} is ${model === "latent-gp" ? "a GP (latent-gp)" : `a --model ${model}`} run; resume it with --model ${model}, or without --model`);
  if (model === "latent-gp" && KERNEL_OPTIONS.some(given)) checkSameKind(run, false);
  const mine = Object.entries(raw).filter(([k, v]) => v !== undefined && (NOT_RECORDED.has(k) || given(k)));
  const replaced = new Set(mine.flatMap(([k]) => ALTERNATIVES.find((g) => g.includes(k)) ?? []));
  const merged: Record<string, unknown> = Object.fromEntries(Object.entries(recorded).filter(([k]) => !replaced.has(k) && !NOT_RECORDED.has(k)));
  for (const [k, v] of mine) merged[k] = v;
  if (typeof recorded.data === "string") merged.data = recordedDataFile(run, recorded.data, run.record.cwd);
  return merged as T;
}

/** The recorded data file, as the resume reads it (relative as recorded when run from the same directory), checked to be the run's. */
function recordedDataFile(run: ResumableRun<unknown>, file: string, cwd: string | undefined): string {
  const path = resolve(cwd ?? ".", file);
  const shown = cwd === undefined || resolve(cwd) === process.cwd() ? file : path;
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    // missing: said below
  }
  if (!isFile) throw new DataError({ file: shown }, `the data file the run in ${run.dir} was started on is missing; put it back, or resume with --data FILE and the other options the run was started with`);
  const sha256 = fileSha256(path);
  const recorded = run.record.data.sha256;
  if (sha256 !== recorded) throw new DataError({ file: shown }, `is not the data the run in ${run.dir} was started on (SHA-256 ${sha256.slice(0, 12)}..., the run's ${recorded.slice(0, 12)}...); resume with the run's own data`);
  return shown;
}
