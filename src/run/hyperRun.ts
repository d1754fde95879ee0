/**
 * A run with sampled hyperparameters: chains of one joint scheme (src/hyper/jointKernel.ts),
 * described by plain data (`HyperRunSpec`) so that a worker thread rebuilds chain c and runs it
 * on the stream new Rng(seed, c) from the same starting point (theta = 0: unit lengthscales and
 * signal variance; f = 0), whichever thread runs it. The draws files hold
 * log_lengthscale.1..d, log_signal_sd and f.1..n; each chain's result carries the O(n^3)
 * operations of its transitions (Cholesky factorisations, triangular solves with n x n
 * right-hand sides, n x n products; src/linalg/counters.ts).
 */
import { positivePrior } from "../gp/hyperpriors.js";
import { DEFAULT_RELATIVE_JITTER } from "../gp/jitter.js";
import type { OutputDir } from "../io/atomic.js";
import type { CmdStanRunInfo } from "../io/cmdstan.js";
import type { OpCounts } from "../linalg/counters.js";
import { fromPlainMatrix, toPlainMatrix, type PlainMatrix } from "../linalg/matrix.js";
import { NotPositiveDefiniteError } from "../linalg/errors.js";
import { registerErrorType } from "../parallel/errors.js";
import type { StopFlag } from "../parallel/pool.js";
import { defineTaskKind, type TaskContext } from "../parallel/tasks.js";
import { Rng } from "../random/rng.js";
import { runChain, type ChainOptions, type ChainResult, type Progress } from "../samplers/chain/driver.js";
import type { ChainCheckpoint } from "../samplers/chain/chainCheckpoint.js";
import { checkpointWriter, isCheckpointMessage, type ChainCheckpointTarget } from "./checkpointWriter.js";
import { jointKernel, hyperVariableNames, lengthscalesOf, type HyperModelSpec, type HyperSamplerSpec } from "../hyper/jointKernel.js";
import type { LatentGpData } from "../targets/latentGpModel.js";
import { runChainTasks } from "./chainTasks.js";
import { chainRunFields, writeChainFile } from "./outputs.js";

export const HYPER_GP_CHAIN_TASK = "hyper-gp-chain";

/** Everything that determines the draws of a run with sampled hyperparameters. */
export interface HyperRunSpec {
  model: HyperModelSpec;
  sampler: HyperSamplerSpec;
  draws: number;
  burnIn: number;
  thin: number;
  chains: number;
  seed: number;
}

/** A chain's result with the O(n^3) operations of its transitions (burn-in included). */
export interface HyperChainResult extends ChainResult {
  linalg: OpCounts;
  transitions: number;
  /** The latent sampler's tunable after burn-in (undefined for ess). */
  latentTunedValue: number | undefined;
}

export interface HyperChainInput {
  X: PlainMatrix;
  y: Float64Array;
  spec: HyperRunSpec;
  chain: number;
  progressInterval?: number;
  /** Transitions between checkpoints, sent as messages `{ checkpoint }` to the thread that started the run (0: only on a stop and at the end). */
  checkpointEvery?: number;
  /** Continue the chain from this checkpoint. */
  resume?: ChainCheckpoint;
}

/** Chain `chain` of the run (any thread). */
export function hyperChain(X: PlainMatrix, y: Float64Array, spec: HyperRunSpec, chain: number, hooks: Pick<ChainOptions, "onProgress" | "shouldStop" | "progressInterval" | "checkpoint" | "resume"> = {}): HyperChainResult {
  const Xm = fromPlainMatrix(X);
  const kernel = jointKernel(Xm, y, spec.model, spec.sampler);
  const x0 = new Float64Array(lengthscalesOf(spec.model, Xm.cols) + 1 + Xm.rows);
  const result = runChain(kernel, new Rng(spec.seed, chain), {
    draws: spec.draws,
    burnIn: spec.burnIn,
    thin: spec.thin,
    init: x0,
    chainIndex: chain,
    ...hooks,
  });
  const tuned = kernel.tunables();
  return { ...result, tunedValue: tuned.theta, latentTunedValue: tuned.latent, linalg: { ...kernel.ops }, transitions: result.summary.transitions };
}

export function hyperChainTask(input: HyperChainInput, context: TaskContext): HyperChainResult {
  return hyperChain(input.X, input.y, input.spec, input.chain, {
    onProgress: (p) => context.progress(p),
    shouldStop: () => context.stopRequested(),
    progressInterval: input.progressInterval,
    checkpoint: input.checkpointEvery !== undefined ? { every: input.checkpointEvery, save: (checkpoint) => context.progress({ checkpoint }) } : undefined,
    resume: input.resume,
  });
}

/** The hyperparameter chain as a typed task (runChainTasks). */
export const HYPER_GP_CHAIN = defineTaskKind(HYPER_GP_CHAIN_TASK, import.meta.url, "hyperChainTask", hyperChainTask);
registerErrorType(NotPositiveDefiniteError);

export interface HyperRun {
  results: HyperChainResult[];
  seconds: number;
  workers: number;
  complete: boolean;
}

export interface HyperRunOptions {
  parallel?: number;
  inProcess?: boolean;
  stop?: StopFlag;
  progressInterval?: number;
  onProgress?: (p: Progress) => void;
  onChain?: (r: HyperChainResult) => void;
  /** Checkpoints of every chain into a directory (written by this thread, as for runs with fixed hyperparameters: ./chains.ts). */
  checkpoint?: ChainCheckpointTarget;
  /** Per chain, a checkpoint to continue from (undefined: the chain starts afresh). */
  resume?: (ChainCheckpoint | undefined)[];
}

/** Runs the chains of `spec` (on worker threads unless `inProcess`). */
export async function runHyperGp(data: LatentGpData, spec: HyperRunSpec, options: HyperRunOptions = {}): Promise<HyperRun> {
  jointKernel(data.X, data.y, spec.model, spec.sampler); // checks the spec before any thread starts
  const X = toPlainMatrix(data.X);
  const inputs: HyperChainInput[] = Array.from({ length: spec.chains }, (_, chain) => ({
    X, y: data.y, spec, chain, progressInterval: options.progressInterval, checkpointEvery: options.checkpoint?.every, resume: options.resume?.[chain],
  }));
  const target = options.checkpoint;
  const save = target && checkpointWriter(target, (out, partial) => void writeChainFile(out, partial, hyperDrawsFileInfo(spec, partial.chain, target.dataFile), hyperNames(spec, data.X.cols, partial.dim)));
  const onMessage = (m: Progress | { checkpoint: ChainCheckpoint }) => {
    if (isCheckpointMessage(m)) save?.(m.checkpoint);
    else options.onProgress?.(m);
  };
  return runChainTasks(HYPER_GP_CHAIN, inputs, { ...options, onProgress: save || options.onProgress ? onMessage as (p: Progress) => void : undefined });
}

function hyperNames(spec: HyperRunSpec, d: number, dim: number): string[] {
  const l = lengthscalesOf(spec.model, d);
  return hyperVariableNames(l, dim - l - 1);
}

/** O(n^3) operations per transition, over all chains. */
export function operationsPerIteration(results: readonly HyperChainResult[]): OpCounts {
  const total = results.reduce((a, r) => a + r.transitions, 0);
  const per = (k: keyof OpCounts) => results.reduce((a, r) => a + r.linalg[k], 0) / Math.max(1, total);
  return { cholesky: per("cholesky"), triangularSolveMatrix: per("triangularSolveMatrix"), symmetricProduct: per("symmetricProduct"), matrixProduct: per("matrixProduct"), flops: per("flops") };
}

/** The configuration comments of chain `chain` (0-based). */
export function hyperDrawsFileInfo(spec: HyperRunSpec, chain: number, dataFile: string): CmdStanRunInfo {
  const { model, sampler } = spec;
  const priorText = (p: HyperModelSpec["lengthscalePrior"]) => positivePrior(p).toString();
  return {
    ...chainRunFields(spec, chain, dataFile),
    model: `gp_${model.likelihood}`,
    sampler: sampler.scheme,
    adapt: spec.burnIn > 0,
    stepSize: 0,
    settings: {
      likelihood: model.likelihood,
      scheme: sampler.scheme,
      theta_sampler: sampler.thetaSampler ?? "slice",
      latent_sampler: sampler.latent.sampler,
      prior_lengthscale: priorText(model.lengthscalePrior),
      prior_variance: priorText(model.variancePrior),
      relative_jitter: model.relativeJitter ?? DEFAULT_RELATIVE_JITTER,
      ...(model.absoluteJitter ? { absolute_jitter: model.absoluteJitter } : {}),
      shared_lengthscale: model.sharedLengthscale === true,
    },
  };
}

/** Writes one chain's draws file into `out` and returns its name (d: the data's input columns). */
export function writeHyperChainDraws(out: OutputDir, result: HyperChainResult, spec: HyperRunSpec, dataFile: string, d: number): string {
  return writeChainFile(out, result, hyperDrawsFileInfo(spec, result.chain, dataFile), hyperNames(spec, d, result.dim));
}
