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
import { registerTaskKind, type TaskContext } from "../parallel/tasks.js";
import { OutputDir } from "../io/atomic.js";
import type { ChainCheckpoint, CheckpointOptions } from "../samplers/chainCheckpoint.js";
import type { ChainResult, Progress } from "../samplers/driver.js";
import type { Kernel } from "../samplers/types.js";
import { latentSampler } from "../samplers/registry.js";
import { latentGpTarget } from "../targets/latentGpModel.js";
import { checkpointComplete, writeCheckpoint } from "./checkpoint.js";
import { writeChainDraws } from "./outputs.js";
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
  /** Checkpoints of the chain into an output directory (checkpoint.ts), with its draws so far. */
  checkpoint?: ChainCheckpointTarget;
  /** Continue the chain from this checkpoint. */
  resume?: ChainCheckpoint;
}

/** Where a chain's checkpoints go, how often, and what its draws file records. */
export interface ChainCheckpointTarget {
  dir: string;
  /** Transitions between checkpoints (0: only on a stop and at the end). */
  every: number;
  dataFile: string;
  dataSha256?: string;
}

let cached: { runKey: string; kernel: Kernel } | undefined;

/** Runs one chain; its progress messages are the driver's Progress objects. */
export function latentGpChainTask(input: LatentGpChainInput, context: TaskContext): ChainResult {
  if (cached?.runKey !== input.runKey) {
    cached = undefined; // let the previous run's target go before building the next
    // The thread that started the run has already said what there was to say (jitter added).
    const target = latentGpTarget(fromPlainMatrix(input.X), input.y, input.spec.model, () => {});
    cached = { runKey: input.runKey, kernel: latentSampler(target, input.spec.sampler) };
  }
  return runLatentGpChain(cached.kernel, input.x0, input.spec, input.chain, {
    onProgress: (p: Progress) => context.progress(p),
    shouldStop: () => context.stopRequested(),
    progressInterval: input.progressInterval,
    checkpoint: input.checkpoint && checkpointWriter(input.checkpoint, input.spec),
    resume: input.resume,
  });
}

/**
 * Saves each checkpoint, then the chain's draws so far as its draws file marked incomplete (both
 * atomically), so that a run killed at any moment leaves a readable draws file of complete rows
 * and a checkpoint at least as far on. The last checkpoint, at the chain's end, is the complete
 * chain, whose draws file the run writes when it gets the result.
 */
function checkpointWriter(target: ChainCheckpointTarget, spec: LatentGpRunSpec): CheckpointOptions {
  const out = new OutputDir(target.dir);
  return {
    every: target.every,
    save: (cp) => {
      writeCheckpoint(target.dir, cp);
      if (checkpointComplete(cp)) return;
      const partial: ChainResult = {
        chain: cp.chain, dim: cp.dim, draws: cp.kept, samples: cp.samples, stats: cp.stats,
        tunedValue: cp.phase === "sampling" ? cp.tunableValue : undefined, summary: cp.summary,
        seconds: { ...cp.seconds, total: cp.seconds.burnIn + cp.seconds.sampling }, stopped: true,
      };
      writeChainDraws(out, partial, spec, target.dataFile, target.dataSha256);
    },
  };
}

registerTaskKind(LATENT_GP_CHAIN_TASK, import.meta.url, "latentGpChainTask");
registerErrorType(NotPositiveDefiniteError);
