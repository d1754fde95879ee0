/**
 * Checkpoint and resume for `gpmcmc sample` (fixed or sampled hyperparameters): the run record `run.json`
 * (the run's plain-data spec and its data file's SHA-256, written before the first chain
 * starts), the per-chain checkpoints of run/checkpoint.ts, and the checks of `--resume DIR`:
 * the directory holds an interrupted run, and the options given now ask for the same run (an
 * option that differs is named). A finished run is left as it is.
 */
import { existsSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { prepareOutputDir, readOutputMarker, type OutputDir } from "../io/atomic.js";
import { removeOrphanTempFiles, resumeOutputDir } from "../io/resumeDir.js";
import type { StopFlag } from "../parallel/pool.js";
import { handleInterrupts } from "./sampleReport.js";
import { OutputError } from "../io/errors.js";
import { drawsFileName } from "../io/cmdstan.js";
import { checkpointFileName, readCheckpoint } from "../run/checkpoint.js";
import type { LatentGpRunSpec } from "../run/runSpec.js";
import type { ChainCheckpoint } from "../samplers/chainCheckpoint.js";
import { OptionError } from "./options.js";

export const RUN_RECORD = "run.json";

/** What a run directory records for a resume (the spec of a run with fixed or with sampled hyperparameters). */
export interface RunRecord<S = LatentGpRunSpec> {
  spec: S;
  data: { file: string; sha256: string };
  /** --checkpoint-every of the run (a resume keeps it unless given anew). */
  checkpointEvery: number;
}

/** A run directory that `--resume` was given. */
export interface ResumableRun<S = LatentGpRunSpec> {
  dir: string;
  record: RunRecord<S>;
  /** The run ended with all its draws: a resume changes nothing. */
  finished: boolean;
}

/** Reads and checks the run in `dir` for a resume (OutputError when there is none to resume). */
export function readResumableRun<S = LatentGpRunSpec>(dir: string): ResumableRun<S> {
  const marker = readOutputMarker(dir);
  if (marker === undefined) throw new OutputError(dir, "is not a gpmcmc output directory; --resume takes the --out directory of an earlier sample run");
  let record: RunRecord<S>;
  try {
    record = JSON.parse(readFileSync(join(dir, RUN_RECORD), "utf8")) as RunRecord<S>;
  } catch {
    throw new OutputError(dir, `cannot be resumed: it has no readable ${RUN_RECORD} (the run stopped before its chains started, or is not a sample run); start it again with --out ${dir} --overwrite`);
  }
  return { dir, record, finished: marker.complete && existsSync(join(dir, "summary.json")) };
}

/** The option that sets each field of the spec (a field not listed is named as it is). */
const FIELD_OPTIONS: Record<string, string> = {
  draws: "--draws", burnIn: "--burn-in", thin: "--thin", chains: "--chains", seed: "--seed", init: "--init",
  adapt: "--adapt/--no-adapt or --target-acceptance",
  "model.likelihood": "--likelihood", "model.logLengthscale": "--lengthscale (or --log-lengthscale)",
  "model.logSignalSd": "--signal-sd (or --log-signal-sd)", "model.jitter": "--jitter",
  "model.likelihoodOptions": "--thresholds, --noise-sd or --exposure", "sampler.sampler": "--sampler",
  "sampler.stepSize": "--step-size", "sampler.leapfrogSteps": "--leapfrog-steps", "sampler.maxLeapfrogSteps": "--max-leapfrog-steps",
  "sampler.alpha": "--alpha", "sampler.proposalSd": "--scale", "sampler.targetAcceptance": "--target-acceptance",
  "sampler.fixedPoint": "--fixed-point-tolerance or --fixed-point-iterations", "sampler.reversibilityTolerance": "--reversibility-tolerance",
  "sampler.variant": "--integrator", "sampler.mass": "--mass",
  // sampled hyperparameters (HyperRunSpec)
  "sampler.scheme": "--scheme", "sampler.thetaSampler": "--theta-sampler",
  "sampler.latent": "--sampler, --step-size, --leapfrog-steps, --max-leapfrog-steps or --max-tree-depth",
  "model.lengthscalePrior": "--prior-lengthscale", "model.variancePrior": "--prior-variance", "model.relativeJitter": "--jitter",
  "model.sharedLengthscale": "--shared-lengthscale",
  // --model runs (cli/modelRunResume.ts)
  "model.name": "--model", "model.priorVariance": "--prior-variance", "model.polynomialDegree": "--polynomial-degree",
  "model.noiseSd": "--noise-sd", "model.priorSd": "--prior-sd", "model.initialState": "--initial-state", "model.start": "--start",
  "model.sigma2": "--sigma2", "model.beta": "--beta", "model.mu": "--mu",
};

function differences(a: unknown, b: unknown, path: string, out: string[]): void {
  const nested = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (nested(a) && nested(b) && (path === "" || path === "model" || path === "sampler")) {
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    for (const k of keys) differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path === "" ? k : `${path}.${k}`, out);
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
export function checkSameRun<S extends object>(run: ResumableRun<S>, spec: S, dataSha256: string): void {
  if (run.record.data.sha256 !== dataSha256) {
    throw new OptionError("--data", `is not the data the run in ${run.dir} was started on (${run.record.data.file}, SHA-256 ${run.record.data.sha256.slice(0, 12)}...); resume with the same data`);
  }
  const diff: string[] = [];
  differences(run.record.spec, spec, "", diff);
  if (diff.length === 0) return;
  const field = diff[0];
  const at = (s: S) => JSON.stringify(field.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], s) ?? null);
  throw new OptionError(FIELD_OPTIONS[field] ?? field, `differs from the run being resumed in ${run.dir} (it has ${at(run.record.spec)}, the options given ask for ${at(spec)}); resume with the options the run was started with`);
}

/** Each chain's checkpoint in the run's directory (undefined: that chain starts afresh). */
export function runCheckpoints(dir: string, chains: number): (ChainCheckpoint | undefined)[] {
  return Array.from({ length: chains }, (_, c) => readCheckpoint(dir, c));
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
 * The checks of a resume before anything runs: the run's kind (fixed or sampled
 * hyperparameters; `sampled` undefined: a --model run, whose model the caller checked), its data
 * and options. A finished run's report is printed as it was and returned (the command ends
 * there); undefined: the run goes on.
 */
export function checkResume<S extends object, R>(resumed: ResumableRun<S> | undefined, sampled: boolean | undefined, spec: S, dataSha256: string, print: { json: boolean; format: (r: R) => string; stdout: (s: string) => void; stderr: (s: string) => void }): R | undefined {
  if (!resumed) return undefined;
  if (sampled !== undefined) checkSameKind(resumed, sampled);
  checkSameRun(resumed, spec, dataSha256);
  if (!resumed.finished) return undefined;
  print.stderr(`gpmcmc: ${resumed.dir} holds a finished run; nothing to do\n`);
  const done = JSON.parse(readFileSync(join(resumed.dir, "summary.json"), "utf8")) as R;
  print.stdout(print.json ? JSON.stringify(done) + "\n" : print.format(done));
  return done;
}

/**
 * The run's directory: the resumed run's, taken up again, or a new --out (refused when it holds a
 * run, unless `overwrite`), with the run record written before the first chain starts.
 */
export function takeRunDir<S>(resumed: ResumableRun<S> | undefined, outDir: string | undefined, options: { force?: boolean; overwrite: boolean }, record: RunRecord<S> & { spec: { chains: number } }): OutputDir | undefined {
  if (resumed) {
    const out = resumeOutputDir(resumed.dir, "sample");
    out.adopt(RUN_RECORD);
    return out;
  }
  if (outDir === undefined) return undefined;
  const out = prepareOutputDir(outDir, { force: options.force, existingRuns: "refuse", overwrite: options.overwrite, command: "sample" });
  out.plan(runFileNames(record.spec.chains));
  out.writeJson(RUN_RECORD, record);
  return out;
}

/** Ctrl-C and SIGTERM for a run that checkpoints into `outPath` (sampleReport.ts's handleInterrupts). */
export function lastingRunInterrupts(stop: StopFlag, stderr: (s: string) => void, outPath: string | undefined): () => void {
  return handleInterrupts(stop, stderr, {
    onAbort: () => {
      if (outPath !== undefined) removeOrphanTempFiles(outPath, true);
    },
    sigterm: "gpmcmc: terminating: the draws so far are kept and checkpointed\n",
  });
}
