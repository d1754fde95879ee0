/**
 * One AIS run as a pool task (kind "ais-run"): the input is plain data (inputs, responses, the
 * AisSpec, the run index, and a checkpoint to continue from), so a worker thread rebuilds the target and runs run r on the stream
 * new Rng(seed, r) — the same weights as in any other thread. A worker that runs several runs of
 * one computation builds the target once (keyed by `runKey`).
 */
import { fromPlainMatrix, type PlainMatrix } from "../linalg/matrix.js";
import { NotPositiveDefiniteError } from "../linalg/errors.js";
import { registerErrorType } from "../parallel/errors.js";
import { defineTaskKind, type TaskContext } from "../parallel/tasks.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";
import { aisRunOn, aisTarget, type AisProgress, type AisRunResult, type AisSpec } from "./ais.js";
import type { AisRunCheckpoint } from "./aisCheckpoint.js";

export const AIS_RUN_TASK = "ais-run";

export interface AisRunInput {
  /** The same for every run of one computation (a worker reuses its target across them). */
  runKey: string;
  /** Inputs, n x d column-major. */
  X: PlainMatrix;
  y: Float64Array;
  spec: AisSpec;
  run: number;
  /** Temperatures between checkpoints, sent as messages `{ checkpoint }` to the thread that started the computation (0: only on a stop and at beta = 1; undefined: none). */
  checkpointEvery?: number;
  /** Continue the run from this checkpoint. */
  resume?: AisRunCheckpoint;
}

/** Milliseconds between a worker's progress messages (the command line shows one a second). */
const PROGRESS_MS = 200;

let cached: { runKey: string; target: AnnealedLatentTarget } | undefined;

/** Runs one AIS run; its progress messages are AisProgress objects. */
export function aisRunTask(input: AisRunInput, context: TaskContext): AisRunResult {
  if (cached?.runKey !== input.runKey) {
    cached = undefined; // let the previous computation's target go before building the next
    // The thread that started the computation has already said what there was to say (jitter added).
    const target = aisTarget({ X: fromPlainMatrix(input.X), y: input.y }, input.spec, () => {});
    cached = { runKey: input.runKey, target };
  }
  // At most a few progress messages a second: a run of thousands of quick temperatures would
  // otherwise queue messages faster than the starting thread reads them, and that thread's
  // SIGINT and SIGTERM handlers (which stop the runs) would wait behind them.
  let lastSent = -Infinity;
  return aisRunOn(cached.target, input.spec, input.run, {
    onProgress: (p: AisProgress) => {
      const now = performance.now();
      if (now - lastSent < PROGRESS_MS && p.temperature !== p.temperatures) return;
      lastSent = now;
      context.progress(p);
    },
    shouldStop: () => context.stopRequested(),
    // The thread that started the computation writes them (parallel/checkpointMessage.ts).
    checkpoint: input.checkpointEvery !== undefined ? { every: input.checkpointEvery, save: (checkpoint) => context.progress({ checkpoint }) } : undefined,
    resume: input.resume,
  });
}

/** One AIS run as a typed task. */
export const AIS_RUN = defineTaskKind(AIS_RUN_TASK, import.meta.url, "aisRunTask", aisRunTask);
registerErrorType(NotPositiveDefiniteError);
