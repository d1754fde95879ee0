/**
 * A run of a latent GP model: chains of one sampler from one seed, described by plain data
 * (`LatentGpRunSpec`, runSpec.ts) so that any chain can be rebuilt and rerun from (data, spec,
 * chain index) alone — chain c runs on the stream new Rng(seed, c) from the same x0 (0, or the
 * Laplace mode, which is a deterministic function of the data and the model), whichever process
 * or thread runs it. `runLatentGp` runs the chains as pool tasks
 * (chainTask.ts) on worker threads, or one after another in this thread; a thread running
 * several chains shares one target and kernel among them (the driver restores the kernel's
 * step size at the start of each chain, so sharing changes no draw).
 */
import { toPlainMatrix } from "../linalg/matrix.js";
import type { ChainResult, Progress } from "../samplers/chain/driver.js";
import { checkLatentSampler } from "../samplers/registry.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";
import { latentGpRun } from "../models/latentGpRun.js";
import type { LatentGpData } from "../targets/latentGpModel.js";
import type { StopFlag } from "../parallel/pool.js";
import { runChainTasks } from "./chainTasks.js";
import { LATENT_GP_CHAIN, type LatentGpChainInput } from "./chainTask.js";
import { checkpointWriter, isCheckpointMessage, type ChainCheckpointTarget } from "./checkpointWriter.js";
import type { ChainCheckpoint } from "../samplers/chain/chainCheckpoint.js";
import { withWhiteningMass, type WhiteningFit } from "./whiteningMass.js";
import { initialPoint, latentGpRunSpec, type LatentGpRunInput, type LatentGpRunSpec } from "./runSpec.js";

export interface RunHooks {
  /** Progress of each chain (from whichever thread runs it). */
  onProgress?: (progress: Progress) => void;
  /** Called with each chain's result as soon as the chain finishes (e.g. to write its draws). */
  onChain?: (result: ChainResult) => void;
  /** Told (one line) when jitter is added to K, when the Laplace mode did not converge, or when EP's whitening failed and Laplace's is used (default: stderr). */
  onWarning?: (message: string) => void;
  /** Called once the target and kernel are built (K assembled and factorised), before any chain runs. */
  onTargetReady?: (target: AnnealedLatentTarget) => void;
}

/** How `runLatentGp` runs the chains, and hooks into the run. */
export interface RunOptions extends RunHooks {
  /**
   * Worker threads running chains at once (default: the number of cores, at most the number of
   * chains). Each runs OpenBLAS on one thread; the draws do not depend on this number.
   */
  parallel?: number;
  /**
   * Run the chains one after another in this thread instead of on worker threads (same draws;
   * but this thread then handles no signal, e.g. Ctrl-C, until all chains are done).
   */
  inProcess?: boolean;
  /** A stop request (e.g. on Ctrl-C): each chain ends at its next transition and keeps its draws so far. */
  stop?: StopFlag;
  /** Transitions between a chain's progress reports (default: about 20 per chain). */
  progressInterval?: number;
  /** Checkpoints of every chain into a directory (chainTask.ts; written from the thread running the chain). */
  checkpoint?: ChainCheckpointTarget;
  /** Per chain, a checkpoint to continue from (undefined: the chain starts at x0). */
  resume?: (ChainCheckpoint | undefined)[];
}

export interface LatentGpRun {
  /** The run as run: the spec with every default filled in (what `gpmcmc sample` records as `run` in summary.json). */
  spec: LatentGpRunSpec;
  target: AnnealedLatentTarget;
  /** One per chain, in chain order. */
  results: ChainResult[];
  /** Wall-clock seconds of the whitening's fit and all chains (model set-up excluded). */
  seconds: number;
  /** laplace-hmc and laplace-nuts: what their whitening was fitted from, and its cost (before any chain, once for all). */
  whitening?: WhiteningFit;
  /** Worker threads that ran the chains (0: they ran in this thread). */
  workers: number;
  /** False when a stop was requested and some chain ended early. */
  complete: boolean;
}

let runCounter = 0;

/**
 * The run `input` describes, its fields left out taking the defaults of `gpmcmc sample`
 * (latentGpRunSpec): the same data, options and seed give the command's draws, bit for bit.
 * Builds the target in this thread (so a kernel matrix that is not positive definite fails before
 * any chain starts), then runs the chains on worker threads (see RunOptions), chain c on the
 * stream new Rng(seed, c) from the same starting point.
 */
export function runLatentGp(data: LatentGpData, input: LatentGpRunInput, options: RunOptions = {}): Promise<LatentGpRun> {
  return runLatentGpSpec(data, latentGpRunSpec(input), options);
}

/** The run of a complete spec, as given (e.g. `run` of a summary.json: an `adapt` left out there is none). */
export async function runLatentGpSpec(data: LatentGpData, spec: LatentGpRunSpec, options: RunOptions = {}): Promise<LatentGpRun> {
  const target = latentGpRun.buildTarget(data, spec.model, { onJitter: options.onWarning });
  checkLatentSampler(target, spec.sampler); // the sampler spec, checked before any thread starts (no kernel built)
  // The chains get laplace-hmc's and laplace-nuts' whitening as data (the caller's spec, and what it reports, stay as given).
  const whitened = withWhiteningMass(target, spec.sampler, { onWarning: options.onWarning });
  const chainSpec = { ...spec, sampler: whitened.spec };
  const x0 = initialPoint(target, spec.init, options.onWarning);
  options.onTargetReady?.(target);
  const runKey = `${process.pid}-${++runCounter}-${Date.now()}`;
  const inputs: LatentGpChainInput[] = Array.from({ length: spec.chains }, (_, chain) => ({
    runKey, X: toPlainMatrix(data.X), y: data.y, spec: chainSpec, x0, chain, progressInterval: options.progressInterval,
    checkpointEvery: options.checkpoint?.every, resume: options.resume?.[chain],
  }));
  const save = options.checkpoint && checkpointWriter(options.checkpoint, spec);
  const onMessage = (m: Progress | { checkpoint: ChainCheckpoint }) => {
    if (isCheckpointMessage(m)) save?.(m.checkpoint);
    else options.onProgress?.(m);
  };
  const run = await runChainTasks(LATENT_GP_CHAIN, inputs, { ...options, onProgress: save || options.onProgress ? onMessage as (p: Progress) => void : undefined });
  return { spec, target, ...run, seconds: run.seconds + (whitened.fit?.wallSeconds ?? 0), ...(whitened.fit ? { whitening: whitened.fit } : {}) };
}
