/**
 * The R independent runs of an AIS computation and their estimate of log Z. The runs go to a
 * pool of worker threads (src/parallel; one OpenBLAS thread each), run r rebuilt from plain data
 * on the stream new Rng(seed, r), so the weights do not depend on how many run at once. A
 * computation can be stopped (each run ends at its next temperature), checkpointed and continued
 * from its runs' checkpoints (aisCheckpoint.ts) to the weights of the computation never stopped.
 */
import type { LatentGpData } from "../targets/latentGpModel.js";
import { toPlainMatrix } from "../linalg/matrix.js";
import { isCheckpointMessage } from "../parallel/checkpointMessage.js";
import { defaultParallelism, runTasks, type StopFlag, type Task } from "../parallel/pool.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";
import { aisTarget, type AisHooks, type AisProgress, type AisRunResult, type AisSpec } from "./ais.js";
import type { AisRunCheckpoint } from "./aisCheckpoint.js";
import { AIS_RUN, type AisRunInput } from "./aisTask.js";
import { aisEstimate, type AisEstimate } from "./estimate.js";

export interface AisResult extends AisEstimate {
  runs: AisRunResult[];
  logWeights: number[];
  /** Wall-clock seconds of all runs (target set-up excluded). */
  seconds: number;
  target: AnnealedLatentTarget;
  /** Worker threads used (0: all runs in this thread). */
  workers: number;
  /** False when a stop was requested and some run ended before beta = 1: the estimate is then NaN. */
  complete: boolean;
}

export interface AisRunOptions extends AisHooks {
  /** Runs at once on worker threads (default: the number of cores, at most the runs). */
  parallel?: number;
  /** Run every run in this thread, one after another (no workers). */
  inProcess?: boolean;
  /** A stop request (e.g. on Ctrl-C): each run ends at its next temperature. */
  stop?: StopFlag;
  /**
   * Checkpoints of every run, handed to `onCheckpoint` in this thread: after every `every`-th
   * temperature (0: none but these), on a stop, and at each run's end.
   */
  checkpoint?: { every: number; onCheckpoint: (checkpoint: AisRunCheckpoint) => void };
  /** Per run, a checkpoint to continue from (undefined: the run starts afresh). */
  resume?: (AisRunCheckpoint | undefined)[];
  /** Called once the target is built (K assembled and factorised), before any run starts. */
  onTargetReady?: (target: AnnealedLatentTarget) => void;
}

let computations = 0;

/** All R runs of `spec` on `data` and the estimate of log Z. */
export async function runAis(data: LatentGpData, spec: AisSpec, options: AisRunOptions = {}): Promise<AisResult> {
  if (!Number.isInteger(spec.runs) || spec.runs < 1) throw new RangeError(`runs must be a whole number >= 1, got ${spec.runs}`);
  // K is assembled and factorised here first, so a bad kernel fails before any thread starts.
  const target = aisTarget(data, spec, options.onWarning);
  options.onTargetReady?.(target);
  const runKey = `${process.pid}-ais-${++computations}-${Date.now()}`;
  const X = toPlainMatrix(data.X);
  const tasks: Task<AisRunInput>[] = Array.from({ length: spec.runs }, (_, run) => ({
    kind: AIS_RUN.kind,
    input: { runKey, X, y: data.y, spec, run, checkpointEvery: options.checkpoint?.every, resume: options.resume?.[run] },
  }));
  const parallel = Math.min(options.parallel ?? defaultParallelism(spec.runs), spec.runs);
  const onCheckpoint = options.checkpoint?.onCheckpoint;
  const onMessage = (m: AisProgress | { checkpoint: AisRunCheckpoint }) => {
    if (isCheckpointMessage(m)) onCheckpoint?.(m.checkpoint);
    else options.onProgress?.(m);
  };
  const t0 = performance.now();
  const runs = await runTasks<AisRunResult, AisProgress | { checkpoint: AisRunCheckpoint }>(tasks, {
    parallel,
    inProcess: options.inProcess,
    stop: options.stop,
    onProgress: onCheckpoint || options.onProgress ? (_, m) => onMessage(m) : undefined,
    onResult: options.onRun && ((_, r) => options.onRun!(r)),
  });
  const logWeights = runs.map((r) => r.logWeight);
  const complete = !runs.some((r) => r.stopped);
  const estimate = complete ? aisEstimate(logWeights) : { logZ: NaN, standardError: NaN, effectiveSampleSize: NaN };
  return { ...estimate, runs, logWeights, seconds: (performance.now() - t0) / 1000, target, workers: options.inProcess ? 0 : parallel, complete };
}
