/**
 * One chain of a latent GP run as a pool task (kind "latent-gp-chain"): the input is plain data
 * (inputs, responses, the run's spec, the starting point, the chain index), so a worker thread
 * rebuilds the target and kernel and runs chain c on the stream new Rng(seed, c) — the same
 * draws as in any other thread. A worker that runs several chains of one run builds the target
 * once (keyed by `runKey`).
 */
import { fromPlainMatrix, type PlainMatrix } from "../linalg/matrix.js";
import { NotPositiveDefiniteError } from "../linalg/errors.js";
import { registerErrorType } from "../parallel/errors.js";
import { defineTaskKind, type TaskContext } from "../parallel/tasks.js";
import type { ChainCheckpoint } from "../samplers/chain/chainCheckpoint.js";
import type { ChainResult, Progress } from "../samplers/chain/driver.js";
import type { Kernel } from "../samplers/types.js";
import { latentGpRun } from "../models/latentGpRun.js";
import { runLatentGpChain, type LatentGpRunSpec } from "./runSpec.js";

export const LATENT_GP_CHAIN_TASK = "latent-gp-chain";

export interface LatentGpChainInput {
  /** The same for every chain of one run (a worker reuses its target and kernel across them). */
  runKey: string;
  /** Inputs, n x d column-major. */
  X: PlainMatrix;
  y: Float64Array;
  spec: LatentGpRunSpec;
  /** The starting point (see initialPoint), computed once for the run. */
  x0: Float64Array;
  chain: number;
  /** Transitions between progress messages (default: the driver's). */
  progressInterval?: number;
  /** Transitions between checkpoints, sent as messages `{ checkpoint }` to the thread that started the run (0: only on a stop and at the end). */
  checkpointEvery?: number;
  /** Continue the chain from this checkpoint. */
  resume?: ChainCheckpoint;
}


let cached: { runKey: string; kernel: Kernel } | undefined;

/** Runs one chain; its progress messages are the driver's Progress objects. */
export function latentGpChainTask(input: LatentGpChainInput, context: TaskContext): ChainResult {
  if (cached?.runKey !== input.runKey) {
    cached = undefined; // let the previous run's target go before building the next
    // The thread that started the run has already said what there was to say (jitter added).
    const target = latentGpRun.buildTarget({ X: fromPlainMatrix(input.X), y: input.y }, input.spec.model, { onJitter: () => {} });
    cached = { runKey: input.runKey, kernel: latentGpRun.sampler(target, input.spec.sampler.sampler, input.spec.sampler).kernel };
  }
  return runLatentGpChain(cached.kernel, input.x0, input.spec, input.chain, {
    onProgress: (p: Progress) => context.progress(p),
    shouldStop: () => context.stopRequested(),
    progressInterval: input.progressInterval,
    // The thread that started the run writes them: its writes are never cut by an abort (process.exit) half-way.
    checkpoint: input.checkpointEvery !== undefined ? { every: input.checkpointEvery, save: (checkpoint) => context.progress({ checkpoint }) } : undefined,
    resume: input.resume,
  });
}

/** The latent GP chain as a typed task (runChainTasks). */
export const LATENT_GP_CHAIN = defineTaskKind(LATENT_GP_CHAIN_TASK, import.meta.url, "latentGpChainTask", latentGpChainTask);
registerErrorType(NotPositiveDefiniteError);
