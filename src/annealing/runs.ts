/**
 * The R independent runs of an AIS computation and their estimate of log Z. The runs go to a
 * pool of worker threads (src/parallel; one OpenBLAS thread each), run r rebuilt from plain data
 * on the stream new Rng(seed, r), so the weights do not depend on how many run at once.
 */
import type { LatentGpData } from "../targets/latentGpModel.js";
import { toPlainMatrix } from "../linalg/matrix.js";
import { defaultParallelism, runTasks, type Task } from "../parallel/pool.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";
import { aisTarget, type AisHooks, type AisProgress, type AisRunResult, type AisSpec } from "./ais.js";
import { AIS_RUN_TASK, type AisRunInput } from "./aisTask.js";
import { aisEstimate, type AisEstimate } from "./estimate.js";

export interface AisResult extends AisEstimate {
  runs: AisRunResult[];
  logWeights: number[];
  /** Wall-clock seconds of all runs (target set-up excluded). */
  seconds: number;
  target: AnnealedLatentTarget;
  /** Worker threads used (0: all runs in this thread). */
  workers: number;
}

export interface AisRunOptions extends AisHooks {
  /** Runs at once on worker threads (default: the number of cores, at most the runs). */
  parallel?: number;
  /** Run every run in this thread, one after another (no workers). */
  inProcess?: boolean;
}

let computations = 0;

/** All R runs of `spec` on `data` and the estimate of log Z. */
export async function runAis(data: LatentGpData, spec: AisSpec, options: AisRunOptions = {}): Promise<AisResult> {
  if (!Number.isInteger(spec.runs) || spec.runs < 1) throw new RangeError(`runs must be a whole number >= 1, got ${spec.runs}`);
  // K is assembled and factorised here first, so a bad kernel fails before any thread starts.
  const target = aisTarget(data, spec, options.onWarning);
  const runKey = `${process.pid}-ais-${++computations}-${Date.now()}`;
  const X = toPlainMatrix(data.X);
  const tasks: Task<AisRunInput>[] = Array.from({ length: spec.runs }, (_, run) => ({ kind: AIS_RUN_TASK, input: { runKey, X, y: data.y, spec, run } }));
  const parallel = Math.min(options.parallel ?? defaultParallelism(spec.runs), spec.runs);
  const t0 = performance.now();
  const runs = await runTasks<AisRunResult, AisProgress>(tasks, {
    parallel,
    inProcess: options.inProcess,
    onProgress: options.onProgress && ((_, p) => options.onProgress!(p)),
    onResult: options.onRun && ((_, r) => options.onRun!(r)),
  });
  const logWeights = runs.map((r) => r.logWeight);
  return { ...aisEstimate(logWeights), runs, logWeights, seconds: (performance.now() - t0) / 1000, target, workers: options.inProcess ? 0 : parallel };
}
