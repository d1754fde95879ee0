/**
 * A run of a latent GP model: chains of one sampler from one seed, described by plain data
 * (`LatentGpRunSpec`: model, sampler, counts, seed, adaptation) so that any chain can be rebuilt
 * and rerun from (data, spec, chain index) alone — chain c runs on the stream new Rng(seed, c)
 * from the same x0 (0, or the Laplace mode, which is a deterministic function of the data and
 * the model), whichever process or thread runs it. `runLatentGp` runs the chains as pool tasks
 * (chainTask.ts) on worker threads, or one after another in this thread; a thread running
 * several chains shares one target and kernel among them (the driver restores the kernel's
 * step size at the start of each chain, so sharing changes no draw).
 */
import { laplace } from "../approx/laplace.js";
import { toPlainMatrix, type Matrix } from "../linalg/matrix.js";
import { Rng } from "../random/rng.js";
import type { AdaptOptions } from "../samplers/adaptation.js";
import { runChain, type ChainResult, type Progress } from "../samplers/driver.js";
import type { Kernel } from "../samplers/types.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";
import { defaultParallelism, runTasks, type StopFlag, type Task } from "../parallel/pool.js";
import { LATENT_GP_CHAIN_TASK, type LatentGpChainInput } from "./chainTask.js";
import { latentGpKernel, type LatentGpSamplerSpec } from "./kernel.js";
import { latentGpTarget, type LatentGpModelSpec } from "./model.js";

/** Inputs (n x d, column-major; row i is case i) and responses. */
export interface LatentGpData {
  X: Matrix;
  y: Float64Array;
}

/** Everything that determines a run's draws, as plain data. */
export interface LatentGpRunSpec {
  model: LatentGpModelSpec;
  sampler: LatentGpSamplerSpec;
  /** Draws kept per chain. */
  draws: number;
  /** Transitions before the first kept draw; adaptation runs during these only. */
  burnIn: number;
  /** Keep every thin-th transition after burn-in. */
  thin: number;
  chains: number;
  seed: number;
  /** Burn-in adaptation of the step size; omitted: the step size stays as given. */
  adapt?: AdaptOptions;
  /** Starting point of every chain: "zero" (the prior mean; the default) or "laplace" (the mode of the posterior). */
  init?: InitName;
}

/** Starting points a run can use. */
export const INITS = ["zero", "laplace"] as const;
export type InitName = (typeof INITS)[number];

/** The starting point `spec.init` names, for `target` (the posterior of the spec's model). */
export function initialPoint(target: AnnealedLatentTarget, init: InitName = "zero", onWarning?: (message: string) => void): Float64Array {
  if (init === "zero") return new Float64Array(target.dim);
  if (init === "laplace") return laplace(target.kernelMatrix, target.y, target.likelihood, { onWarning }).mode;
  throw new RangeError(`unknown init ${JSON.stringify(init)} (known: ${INITS.join(", ")})`);
}

export interface RunHooks {
  /** Progress of each chain (from whichever thread runs it). */
  onProgress?: (progress: Progress) => void;
  /** Called with each chain's result as soon as the chain finishes (e.g. to write its draws). */
  onChain?: (result: ChainResult) => void;
  /** Told (one line) when jitter is added to K, or when the Laplace mode did not converge (default: stderr). */
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
}

export interface LatentGpRun {
  target: AnnealedLatentTarget;
  /** One per chain, in chain order. */
  results: ChainResult[];
  /** Wall-clock seconds of all chains (model set-up excluded). */
  seconds: number;
  /** Worker threads that ran the chains (0: they ran in this thread). */
  workers: number;
  /** False when a stop was requested and some chain ended early. */
  complete: boolean;
}

/** Chain `chain` (0-based) of the run described by `spec`, on a kernel built from it, from x0 (see initialPoint). */
export function runLatentGpChain(
  kernel: Kernel,
  x0: Float64Array,
  spec: LatentGpRunSpec,
  chain: number,
  hooks: Pick<RunOptions, "onProgress" | "progressInterval"> & { shouldStop?: () => boolean } = {},
): ChainResult {
  return runChain(kernel, new Rng(spec.seed, chain), {
    draws: spec.draws,
    burnIn: spec.burnIn,
    thin: spec.thin,
    init: x0,
    adapt: spec.adapt,
    initialTunableValue: spec.sampler.stepSize,
    chainIndex: chain,
    onProgress: hooks.onProgress,
    progressInterval: hooks.progressInterval,
    shouldStop: hooks.shouldStop,
  });
}

let runCounter = 0;

/**
 * Builds the target of `spec` on `data` in this thread (so a kernel matrix that is not positive
 * definite fails before any chain starts), then runs the chains on worker threads (see
 * RunOptions), chain c on the stream new Rng(seed, c) from the same starting point.
 */
export async function runLatentGp(data: LatentGpData, spec: LatentGpRunSpec, options: RunOptions = {}): Promise<LatentGpRun> {
  const target = latentGpTarget(data.X, data.y, spec.model, options.onWarning);
  latentGpKernel(target, spec.sampler); // checks the sampler spec before any thread starts
  const x0 = initialPoint(target, spec.init, options.onWarning);
  options.onTargetReady?.(target);
  const runKey = `${process.pid}-${++runCounter}-${Date.now()}`;
  const tasks: Task<LatentGpChainInput>[] = Array.from({ length: spec.chains }, (_, chain) => ({
    kind: LATENT_GP_CHAIN_TASK,
    input: { runKey, X: toPlainMatrix(data.X), y: data.y, spec, x0, chain, progressInterval: options.progressInterval },
  }));
  const parallel = Math.min(options.parallel ?? defaultParallelism(spec.chains), spec.chains);
  const t0 = performance.now();
  const results = await runTasks<ChainResult, Progress>(tasks, {
    parallel,
    inProcess: options.inProcess,
    stop: options.stop,
    onProgress: options.onProgress && ((_, p) => options.onProgress!(p)),
    onResult: options.onChain && ((_, r) => options.onChain!(r)),
  });
  return {
    target,
    results,
    seconds: (performance.now() - t0) / 1000,
    workers: options.inProcess ? 0 : parallel,
    complete: !results.some((r) => r.stopped),
  };
}
