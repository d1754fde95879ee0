/**
 * Checkpoint and resume for `gpmcmc sample` (fixed or sampled hyperparameters) and `gpmcmc ais`:
 * the run record `run.json` (the command, the run's plain-data spec and its data file's SHA-256,
 * written before the first chain or annealing run starts), the per-chain (per-run) checkpoints
 * of run/checkpoint.ts, and the checks of `--resume DIR`: the directory holds an interrupted run
 * of this command, and the options given now ask for the same run (an option that differs is
 * named, from the command's table of spec fields and options). A finished run is left as it is.
 */
import { existsSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { prepareOutputDir, readOutputMarker, type OutputDir } from "../io/atomic.js";
import { removeOrphanTempFiles, resumeOutputDir } from "../io/resumeDir.js";
import type { StopFlag } from "../parallel/pool.js";
import { handleInterrupts } from "./sampleReport.js";
import { OutputError } from "../io/errors.js";
import { checkRunLock } from "../io/runLock.js";
import { drawsFileName } from "../io/cmdstan.js";
import { checkpointFileName, readCheckpoint } from "../run/checkpoint.js";
import type { LatentGpRunSpec } from "../run/runSpec.js";
import { chainCheckpointProblem, type ChainCheckpoint } from "../samplers/chain/chainCheckpoint.js";
import { OptionError } from "./options.js";

export const RUN_RECORD = "run.json";

/** The commands whose runs checkpoint and resume. */
export type LastingCommand = "sample" | "ais";

/** What a run directory records for a resume (the spec of a run with fixed or with sampled hyperparameters, or of an AIS computation). */
export interface RunRecord<S = LatentGpRunSpec> {
  /** The command that started the run (absent: sample, whose records came first). */
  command?: LastingCommand;
  spec: S;
  data: { file: string; sha256: string };
  /** --checkpoint-every of the run (a resume keeps it unless given anew). */
  checkpointEvery: number;
  /** The command's options, by Commander's names, and the directory it ran in (recordedOptions.ts: what a resume takes when they are not given); absent in the records of earlier versions and of ais. */
  options?: Record<string, string | boolean>;
  cwd?: string;
}

/** A run directory that `--resume` was given. */
export interface ResumableRun<S = LatentGpRunSpec> {
  dir: string;
  record: RunRecord<S>;
  /** The run ended with all its draws: a resume changes nothing. */
  finished: boolean;
}

/** Reads and checks the run in `dir` for a resume by `command` (OutputError when there is none to resume). */
export function readResumableRun<S = LatentGpRunSpec>(dir: string, command: LastingCommand = "sample"): ResumableRun<S> {
  const marker = readOutputMarker(dir);
  if (marker === undefined) throw new OutputError(dir, `is not a gpmcmc output directory; --resume takes the --out directory of an earlier ${command} run`);
  checkRunLock(dir); // in use: refused before any work (the lock is taken when the run starts)
  let record: RunRecord<S>;
  try {
    record = JSON.parse(readFileSync(join(dir, RUN_RECORD), "utf8")) as RunRecord<S>;
  } catch {
    throw new OutputError(dir, `cannot be resumed: it has no readable ${RUN_RECORD} (the run stopped before its ${command === "ais" ? "annealing runs" : "chains"} started, or is not a ${command} run); start it again with --out ${dir} --overwrite`);
  }
  const started = record.command ?? "sample";
  if (started !== command) throw new OutputError(dir, `holds a gpmcmc ${started} run; continue it with gpmcmc ${started} --resume ${dir}`);
  return { dir, record, finished: marker.complete && existsSync(join(dir, "summary.json")) };
}

/**
 * How a command's spec fields are named in a resume's message: the option that sets each field
 * (a field not listed is named as it is), and the fields whose own fields are compared one by one
 * (the others are compared whole).
 */
export interface ResumeFields {
  options: Record<string, string>;
  nested: string[];
}

/** The fields of a run of the latent model's own options, which `sample` and `ais` share. */
export const MODEL_FIELD_OPTIONS: Record<string, string> = {
  "model.likelihood": "--likelihood", "model.logLengthscale": "--lengthscale (or --log-lengthscale)",
  "model.logSignalSd": "--signal-sd (or --log-signal-sd)", "model.jitter": "--jitter",
  "model.likelihoodOptions": "--thresholds, --noise-sd or --exposure",
};

/** The option that sets each field of `sample`'s spec. */
const FIELD_OPTIONS: Record<string, string> = {
  ...MODEL_FIELD_OPTIONS,
  draws: "--draws", burnIn: "--burn-in", thin: "--thin", chains: "--chains", seed: "--seed", init: "--init",
  adapt: "--adapt/--no-adapt or --target-acceptance",
  "sampler.sampler": "--sampler",
  "sampler.stepSize": "--step-size", "sampler.leapfrogSteps": "--leapfrog-steps", "sampler.maxLeapfrogSteps": "--max-leapfrog-steps",
  "sampler.alpha": "--alpha", "sampler.proposalSd": "--scale", "sampler.targetAcceptance": "--target-acceptance",
  "sampler.fixedPoint": "--fixed-point-tolerance or --fixed-point-iterations", "sampler.reversibilityTolerance": "--reversibility-tolerance",
  "sampler.variant": "--integrator", "sampler.integrator": "--integrator", "sampler.mass": "--mass",
  // sampled hyperparameters (HyperRunSpec)
  "sampler.scheme": "--scheme", "sampler.thetaSampler": "--theta-sampler",
  "sampler.latent": "--sampler, --step-size, --leapfrog-steps, --max-leapfrog-steps or --max-tree-depth",
  "model.lengthscalePrior": "--prior-lengthscale", "model.variancePrior": "--prior-variance", "model.relativeJitter": "--jitter", "model.absoluteJitter": "--jitter",
  "model.sharedLengthscale": "--shared-lengthscale",
  // --model runs (cli/modelRunResume.ts)
  "model.name": "--model", "model.priorVariance": "--prior-variance", "model.polynomialDegree": "--polynomial-degree",
  "model.noiseSd": "--noise-sd", "model.priorSd": "--prior-sd", "model.initialState": "--initial-state", "model.start": "--start",
  "model.sigma2": "--sigma2", "model.beta": "--beta", "model.mu": "--mu", "model.covariance": "--covariance",
};

const SAMPLE_FIELDS: ResumeFields = { options: FIELD_OPTIONS, nested: ["model", "sampler"] };

function differences(a: unknown, b: unknown, path: string, nestedFields: string[], out: string[]): void {
  const nested = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (nested(a) && nested(b) && (path === "" || nestedFields.includes(path))) {
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    for (const k of keys) differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path === "" ? k : `${path}.${k}`, nestedFields, out);
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    out.push(path);
  }
}

/**
 * A run with sampled hyperparameters (its spec names a scheme) is resumed only without the kernel
 * options, and one with fixed hyperparameters only with them: said so before any other difference.
 */
export function checkSameKind(run: ResumableRun<object>, sampled: boolean): void {
  const model = (run.record.spec as { model?: { name?: unknown } }).model?.name;
  if (typeof model === "string") throw new OptionError("--model", `the run in ${run.dir} is a --model ${model} run; resume it with --model ${model} and the options it was started with`);
  const wasSampled = (run.record.spec as { sampler?: { scheme?: unknown } }).sampler?.scheme !== undefined;
  if (wasSampled === sampled) return;
  throw new OptionError("--lengthscale", wasSampled
    ? `the run in ${run.dir} samples its kernel hyperparameters; resume it without --lengthscale, --signal-sd or their log forms`
    : `the run in ${run.dir} has fixed kernel hyperparameters; resume it with the --lengthscale and --signal-sd it was started with`);
}

/** Throws OptionError naming the first option whose value differs from the run being resumed. */
export function checkSameRun<S extends object>(run: ResumableRun<S>, spec: S, dataSha256: string, fields: ResumeFields = SAMPLE_FIELDS): void {
  if (run.record.data.sha256 !== dataSha256) {
    throw new OptionError("--data", `is not the data the run in ${run.dir} was started on (${run.record.data.file}, SHA-256 ${run.record.data.sha256.slice(0, 12)}...); resume with the same data`);
  }
  const diff: string[] = [];
  differences(run.record.spec, spec, "", fields.nested, diff);
  if (diff.length === 0) return;
  const field = diff[0];
  const at = (s: S) => JSON.stringify(field.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], s) ?? null);
  throw new OptionError(fields.options[field] ?? field, `differs from the run being resumed in ${run.dir} (it has ${at(run.record.spec)}, the options given ask for ${at(spec)}); resume with the options the run was started with`);
}

/**
 * Each chain's (or annealing run's) checkpoint in the run's directory (undefined: that one starts
 * afresh). Given the run's shape, a chain checkpoint is checked against it (chainCheckpointProblem):
 * a file that is damaged or of another run is a DataError naming it.
 */
export function runCheckpoints<C = ChainCheckpoint>(dir: string, chains: number, shape?: { draws: number; burnIn: number; thin: number; dim?: number }): (C | undefined)[] {
  return Array.from({ length: chains }, (_, c) => readCheckpoint<C>(dir, c, shape && ((v) => chainCheckpointProblem(v, c, shape))));
}

/** The files a run of `chains` chains may leave in its directory, so that --overwrite can remove them whenever it was stopped. */
export function runFileNames(chains: number): string[] {
  return [RUN_RECORD, "summary.json", ...Array.from({ length: chains }, (_, c) => [drawsFileName(c + 1), checkpointFileName(c)]).flat()];
}

/**
 * After the run: a complete run's checkpoints are removed (its draws files and summary are its
 * record); an interrupted run's are listed in the directory's marker (what --overwrite removes).
 */
export function settleCheckpoints(out: OutputDir, chains: number, complete: boolean): void {
  for (let c = 0; c < chains; c++) {
    const name = checkpointFileName(c);
    if (!existsSync(out.file(name))) continue;
    if (complete) unlinkSync(out.file(name));
    else out.adopt(name);
  }
}

/**
 * The checks of a resume before anything runs: the run's kind (`sample`: fixed or sampled
 * hyperparameters; undefined for a command with one kind of run, and for a --model run, whose
 * model the caller checked), its data and options (named
 * from `fields`, by default `sample`'s). A finished run's report is printed as it was and
 * returned (the command ends there); undefined: the run goes on.
 */
export function checkResume<S extends object, R>(resumed: ResumableRun<S> | undefined, sampled: boolean | undefined, spec: S, dataSha256: string, print: { json: boolean; format: (r: R) => string; stdout: (s: string) => void; stderr: (s: string) => void }, fields?: ResumeFields): R | undefined {
  if (!resumed) return undefined;
  if (sampled !== undefined) checkSameKind(resumed, sampled);
  checkSameRun(resumed, spec, dataSha256, fields);
  if (!resumed.finished) return undefined;
  print.stderr(`gpmcmc: ${resumed.dir} holds a finished run; nothing to do\n`);
  const done = JSON.parse(readFileSync(join(resumed.dir, "summary.json"), "utf8")) as R;
  print.stdout(print.json ? JSON.stringify(done) + "\n" : print.format(done));
  return done;
}

/**
 * The run's directory: the resumed run's, taken up again, or a new --out (refused when it holds a
 * run, unless `overwrite`), with the run record written before the first chain starts. `command`
 * (default sample) names the run in the lock and the record; `files` are those the run may write
 * (default: those of a sample run of `record.spec.chains` chains).
 */
export function takeRunDir<S>(resumed: ResumableRun<S> | undefined, outDir: string | undefined, options: { force?: boolean; overwrite: boolean; command?: LastingCommand; files?: string[] }, record: RunRecord<S>): OutputDir | undefined {
  const command = options.command ?? "sample";
  if (resumed) {
    const out = resumeOutputDir(resumed.dir, command);
    out.adopt(RUN_RECORD);
    return out;
  }
  if (outDir === undefined) return undefined;
  const out = prepareOutputDir(outDir, { force: options.force, existingRuns: "refuse", overwrite: options.overwrite, command });
  out.plan(options.files ?? runFileNames((record.spec as { chains: number }).chains));
  out.writeJson(RUN_RECORD, { command, ...record });
  return out;
}

/**
 * Ctrl-C and SIGTERM for a run that checkpoints into `outPath` (sampleReport.ts's handleInterrupts);
 * `kept` says what the first Ctrl-C and SIGTERM keep (default: a sample run's draws; the
 * default message of the first Ctrl-C is sampleReport.ts's).
 */
export function lastingRunInterrupts(stop: StopFlag, stderr: (s: string) => void, outPath: string | undefined, kept?: { sigint: string; sigterm: string }): () => void {
  return handleInterrupts(stop, stderr, {
    onAbort: () => {
      if (outPath !== undefined) removeOrphanTempFiles(outPath, true);
    },
    sigterm: `gpmcmc: terminating: ${kept?.sigterm ?? "the draws so far are kept and checkpointed"}\n`,
    ...(kept ? { sigint: `gpmcmc: stopping: ${kept.sigint} (Ctrl-C again to abort)\n` } : {}),
  });
}
