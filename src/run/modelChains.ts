/**
 * The chains of a `--model` run (`gpmcmc sample --model ...`) on the worker pool, as the GP runs'
 * chains (chains.ts): one task per chain (modelChainTask.ts), each rebuilding the run's kernel
 * from plain data through the model registry, chain c on new Rng(seed, c) from the run's starting
 * point and initial tunable value, so that its draws are those of any other thread. Checkpoints
 * come back as messages and are saved here, in the thread that started the run; a stop request
 * (StopFlag, e.g. on SIGINT or SIGTERM, which this thread stays free to handle) ends every chain
 * at its next transition with a checkpoint.
 */
import type { StopFlag } from "../parallel/pool.js";
import type { ChainCheckpoint } from "../samplers/chain/chainCheckpoint.js";
import type { Progress } from "../samplers/chain/driver.js";
import { runChainTasks } from "./chainTasks.js";
import { isCheckpointMessage } from "./checkpointWriter.js";
import { MODEL_CHAIN, type ModelChainBuild, type ModelChainInput, type ModelChainResult, type ModelChainShape, type ModelCheckpointMessage } from "./modelChainTask.js";

export interface ModelChainsOptions extends ModelChainShape {
  chains: number;
  /** Worker threads running chains at once (default: the number of cores, at most the number of chains); the draws do not depend on it. */
  parallel?: number;
  /** Run the chains one after another in this thread instead (same draws; this thread then handles no signal until they are done). */
  inProcess?: boolean;
  /** Once requested, every chain ends at its next transition (with a checkpoint) and keeps its draws so far. */
  stop?: StopFlag;
  onProgress?: (progress: Progress) => void;
  progressInterval?: number;
  /** Checkpoints every `every` transitions (0: only on a stop and at each chain's end), each handed to `save` with the kernel's own summary at that transition. */
  checkpoint?: { every: number; save: (checkpoint: ChainCheckpoint, kernelSummary: unknown) => void };
  /** Per chain, the checkpoint to continue from (undefined: the chain starts afresh). */
  resume?: (ChainCheckpoint | undefined)[];
  /** Called with each chain's result as it ends (a stopped chain's too: `stopped: true`). */
  onChain?: (result: ModelChainResult) => void;
}

export interface ModelChainTasksRun {
  /** One per chain, in chain order. */
  results: ModelChainResult[];
  /** Wall-clock seconds of all chains. */
  seconds: number;
  /** Worker threads that ran the chains (0: they ran in this thread). */
  workers: number;
  /** False when a stop was requested and some chain ended early. */
  complete: boolean;
}

let runCounter = 0;

/** Runs the chains of the run whose kernel `build` describes (see ModelChainsOptions). */
export async function runModelChainTasks(build: ModelChainBuild, options: ModelChainsOptions): Promise<ModelChainTasksRun> {
  const runKey = `${process.pid}-${++runCounter}-${Date.now()}`;
  const { draws, burnIn, thin, seed, init, adapt } = options;
  const inputs: ModelChainInput[] = Array.from({ length: options.chains }, (_, chain) => ({
    runKey, build, chain, draws, burnIn, thin, seed, init, adapt, progressInterval: options.progressInterval,
    checkpointEvery: options.checkpoint?.every, resume: options.resume?.[chain],
  }));
  const save = options.checkpoint?.save;
  const onMessage = (m: Progress | ModelCheckpointMessage) => {
    if (isCheckpointMessage(m)) save?.(m.checkpoint, m.kernelSummary);
    else options.onProgress?.(m);
  };
  return runChainTasks(MODEL_CHAIN, inputs, {
    parallel: options.parallel, inProcess: options.inProcess, stop: options.stop, onChain: options.onChain,
    onProgress: save || options.onProgress ? onMessage as (p: Progress) => void : undefined,
  });
}
