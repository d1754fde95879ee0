/**
 * Checkpoint and resume for `gpmcmc sample --model logistic-regression|volatility|lgcp|fitzhugh-nagumo`:
 * the run record (`run.json`: the run's options as a ModelRunSpec and its data file's SHA-256),
 * the checks of `--resume DIR` (the same model, data and options; a finished run is left as it is),
 * the directory's lock and refusal (./sampleResume.ts, as for the GP runs), and the chains run on
 * worker threads as the GP runs' (run/modelChains.ts), so that SIGINT and SIGTERM, handled in
 * this thread, stop them with a checkpoint. Each model's command builds its kernel and spec (the
 * checks, the starting point, the report's figures), describes the kernel as plain data for the
 * workers to rebuild, and hands its draws writer and report here. A run recorded under a sampler's former name (samplers/renamedSamplers.ts) resumes
 * under its present one.
 */
import { randomInt } from "node:crypto";
import { fileSha256 } from "../approx/approximationFile.js";
import { checkOutputDir, type OutputDir } from "../io/atomic.js";
import { StopFlag } from "../parallel/pool.js";
import { checkpointWriter } from "../run/checkpointWriter.js";
import { runModelChainTasks } from "../run/modelChains.js";
import type { ModelChainBuild, ModelChainResult, ModelCheckpointMessage } from "../run/modelChainTask.js";
import { latestCheckpointWriter } from "../run/checkpoint.js";
import type { AdaptOptions } from "../samplers/chain/adaptation.js";
import { currentSamplerName } from "../samplers/renamedSamplers.js";
import { parseLastingRunOptions, type LastingRunOptions, type RawLastingRunOptions } from "./lastingRunOptions.js";
import { checkDrawsFit } from "./memoryBudget.js";
import type { modelInfo, ModelName } from "../models/registry.js";
import { OptionError } from "./options.js";
import { recordOptions, type RecordedCommand } from "./recordedOptions.js";
import { checkResume, lastingRunInterrupts, readResumableRun, runCheckpoints, settleCheckpoints, takeRunDir, type ResumableRun } from "./sampleResume.js";

/** The --model models (the model registry's with a run of their own: models/modelRun.ts). */
export type RunModelName = Exclude<ModelName, "latent-gp">;

/** Each --model's options as a run records them (run.json), by option name (camelCase): the options of the model's run in the model registry. */
export type ModelRunModel = { [M in RunModelName]: { name: M } & OptionsOf<M> }[RunModelName];

/** The options of a model's run (the type of its registry entry's defaults). */
type OptionsOf<M extends RunModelName> = (typeof modelInfo)[M]["defaults"];

/** The sampler as a --model run records it: a parametric or Cox field sampler's given options, or the volatility model's two blocks. */
export type ModelRunSampler =
  | { sampler: string; stepSize?: number; leapfrogSteps?: number; targetAcceptance?: number; integrator?: "lagrangian" }
  | { sampler: `${string},${string}`; stepSize: (number | undefined)[]; leapfrogSteps: (number | undefined)[] };

/** What a --model run records and a resume compares: the model and its options, the sampler's, the chains'. */
export interface ModelRunSpec {
  /** `name` is the --model; the other fields are that model's options. */
  model: ModelRunModel;
  sampler: ModelRunSampler;
  draws: number;
  burnIn: number;
  thin: number;
  chains: number;
  seed: number;
  adapt: boolean;
}

/** A --model run's options for lasting runs, checked before its data is read. */
export interface ModelRunStart {
  lasting: LastingRunOptions;
  resumed?: ResumableRun<ModelRunSpec>;
  /** --out, or the directory resumed. */
  outPath?: string;
  given: { out?: string; force: boolean; checkpointEvery?: string };
  /** The command's options as the run's record keeps them. */
  recorded: RecordedCommand;
  /** The run's seed: --seed, else the resumed run's, else one drawn now. */
  seed: number;
}

/**
 * Checks --checkpoint-every, --resume, --overwrite and the --out directory (refused when it holds a
 * run), and reads the run to resume: a run of another --model is named as such.
 */
export function startModelRun(model: RunModelName, raw: RawLastingRunOptions & { checkpointEvery?: string }, o: { out?: string; force: boolean; seed?: number }): ModelRunStart {
  const lasting = parseLastingRunOptions(raw);
  if (o.out !== undefined) checkOutputDir(o.out, { force: o.force, existingRuns: "refuse", overwrite: lasting.overwrite });
  const resumed = lasting.resume !== undefined ? readResumableRun<ModelRunSpec>(lasting.resume) : undefined;
  if (resumed) {
    // a run recorded before its sampler was renamed resumes under the present name (--sampler smmala for "simplified-mmala")
    const recorded = resumed.record.spec.sampler;
    if (typeof recorded?.sampler === "string") recorded.sampler = currentSamplerName(recorded.sampler);
    const was = (resumed.record.spec.model as { name?: unknown } | undefined)?.name;
    if (was !== model) {
      throw new OptionError("--model", `the run in ${resumed.dir} is ${typeof was === "string" ? `a --model ${was}` : "a GP (latent-gp)"} run; resume it with the options it was started with`);
    }
  }
  const seed = o.seed ?? resumed?.record.spec.seed ?? randomInt(0, 2 ** 31);
  return { lasting, resumed, outPath: o.out ?? lasting.resume, given: { out: o.out, force: o.force, checkpointEvery: raw.checkpointEvery }, recorded: recordOptions(raw), seed };
}

export interface ModelChainsRun<R> {
  spec: ModelRunSpec;
  dataFile: string;
  /** The kernel as the workers rebuild it through the model registry: what the command built it from (the data file is `dataFile`). */
  build: Omit<ModelChainBuild, "dataFile" | "dataSha256">;
  /** Where every chain starts and the burn-in adaptation, from the sampler the command built. */
  init: Float64Array;
  adapt: AdaptOptions | undefined;
  /** Writes a chain's draws file (its draws so far when it is a checkpoint's, with the kernel's summary at that checkpoint); returns the file's name. */
  writeDraws(out: OutputDir, result: ModelChainResult): string;
  /** The report of the finished run (`files`: the draws files written); `complete: true` is added. */
  report(chains: ModelChainResult[], seconds: number, files: string[]): R;
  format(report: R): string;
  json: boolean;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Handle SIGINT and SIGTERM (the command line's behaviour): stop with a checkpoint. */
  handleSigint?: boolean;
  /** Chains run at once on worker threads (--parallel; default: the number of cores, at most the number of chains). */
  parallel?: number;
}

/**
 * Runs (or resumes) the chains and writes the run: the report, or undefined when the run was
 * stopped (its draws so far and checkpoints are kept, and a line on stderr says how to continue).
 * A resume of a finished run prints its report as it was and changes nothing.
 */
export async function runModelChains<R>(start: ModelRunStart, run: ModelChainsRun<R>): Promise<R | undefined> {
  const { spec, dataFile, stderr } = run;
  const { resumed, lasting, outPath } = start;
  const dataSha256 = fileSha256(dataFile);
  const done = checkResume<ModelRunSpec, R>(resumed, undefined, spec, dataSha256, { json: run.json, format: run.format, stdout: run.stdout, stderr });
  if (done) return done;
  checkDrawsFit({ draws: spec.draws, chains: spec.chains, variables: run.init.length, checkpoint: outPath !== undefined });
  const checkpointEvery = start.given.checkpointEvery === undefined && resumed ? resumed.record.checkpointEvery ?? 0 : lasting.checkpointEvery;
  // read (and checked) before the run's directory is taken up: a damaged checkpoint is named, nothing changed
  const resume = resumed ? runCheckpoints(resumed.dir, spec.chains, { ...spec, dim: run.init.length }) : undefined;
  const out = takeRunDir(resumed, start.given.out, { force: start.given.force, overwrite: lasting.overwrite }, { spec, data: { file: dataFile, sha256: dataSha256 }, checkpointEvery, ...start.recorded });
  const stop = new StopFlag();
  const stopHandling = run.handleSigint ? lastingRunInterrupts(stop, stderr, outPath) : undefined;
  const files: string[] = [];
  const t0 = performance.now();
  // a checkpoint's draws file is written with the kernel's summary at that checkpoint (the volatility blocks' step sizes)
  let summaryNow: unknown;
  const write = out && outPath !== undefined
    ? checkpointWriter({ dir: outPath, every: checkpointEvery, dataFile, dataSha256 }, (o, partial) => void run.writeDraws(o, { ...partial, kernelSummary: summaryNow }))
    : undefined;
  // the workers may checkpoint faster than files are written: the latest of each chain is written in a later turn, so that the signal handlers never wait behind a queue of them
  const checkpoints = write && latestCheckpointWriter((m: ModelCheckpointMessage) => ((summaryNow = m.kernelSummary), write(m.checkpoint)), (m) => m.checkpoint.chain);
  let result;
  try {
    result = await runModelChainTasks({ ...run.build, dataFile, dataSha256 }, {
      draws: spec.draws, burnIn: spec.burnIn, thin: spec.thin, chains: spec.chains, seed: spec.seed, init: run.init, adapt: run.adapt, stop, parallel: run.parallel,
      checkpoint: checkpoints && { every: checkpointEvery, save: (checkpoint, kernelSummary) => checkpoints.save({ checkpoint, kernelSummary }) },
      resume,
      onChain: (r) => {
        // a stopped chain's draws so far, marked incomplete; a finished chain's draws file
        if (out && r.stopped) run.writeDraws(out, r);
        else if (out) files[r.chain] = run.writeDraws(out, r);
      },
    });
    checkpoints?.flush();
  } catch (e) {
    out?.finish(false);
    throw e;
  } finally {
    stopHandling?.();
  }
  if (out) settleCheckpoints(out, spec.chains, result.complete);
  if (!result.complete) {
    out?.finish(false);
    stderr(outPath !== undefined
      ? `gpmcmc: stopped; the draws so far and the chains' checkpoints are in ${outPath}: continue with --resume ${outPath}\n`
      : "gpmcmc: stopped; nothing was written (no --out)\n");
    return undefined;
  }
  // `complete` as the GP runs' reports have it (a stopped run writes no report)
  const report = { ...run.report(result.results, (performance.now() - t0) / 1000, files), complete: true };
  if (out) {
    out.writeJson("summary.json", report);
    out.finish(true);
  }
  run.stdout(run.json ? JSON.stringify(report) + "\n" : run.format(report));
  return report;
}
