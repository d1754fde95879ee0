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
import { DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR, jointKernel, hyperVariableNames, lengthscalesOf, type HyperModelSpec, type HyperSamplerSpec } from "../hyper/jointKernel.js";
import { DEFAULT_HYPER_LATENT_SAMPLER, type SchemeName } from "../hyper/schemes.js";
import { LATENT_GP_DEFAULTS } from "../models/latentGpRun.js";
import { latentSamplerSpec, type LatentSamplerName, type LatentSamplerSpecInput } from "../samplers/registry.js";
import { givenThenDefaults, RUN_DEFAULTS } from "./runSpec.js";
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

/** The scheme of a run with sampled hyperparameters where none is given, for the library and `gpmcmc sample` alike (why: BENCHMARKS.md, "Fully Bayesian GP classification: the pm scheme against Stan"). */
export const DEFAULT_SCHEME: SchemeName = "pm";

/**
 * The model with sampled hyperparameters where not given, as `gpmcmc sample` takes it: probit,
 * the paper's priors (lengthscales Gamma(1, 1), signal variance inverse-Gamma(1, 1)), a jitter of
 * 1e-6 x the signal variance.
 */
export const HYPER_MODEL_DEFAULTS: Readonly<HyperModelSpec> = {
  likelihood: LATENT_GP_DEFAULTS.likelihood, lengthscalePrior: DEFAULT_LENGTHSCALE_PRIOR, variancePrior: DEFAULT_VARIANCE_PRIOR, relativeJitter: DEFAULT_RELATIVE_JITTER,
};

/**
 * A run with sampled hyperparameters as a caller describes it: every field but the seed may be
 * left out and takes the default `gpmcmc sample` takes (`hyperRunSpec` fills them in):
 * `HYPER_MODEL_DEFAULTS`, the scheme `DEFAULT_SCHEME` (pm), theta by random-walk MH for the
 * schemes that take a theta sampler (sa, aa, asis, khr), the latent sampler
 * `DEFAULT_HYPER_LATENT_SAMPLER` (hmc-v2; a name, or a spec with fields left out, takes the
 * registry's defaults), `RUN_DEFAULTS`' counts. A complete `HyperRunSpec` is one too.
 */
export interface HyperRunInput {
  model?: Partial<HyperModelSpec>;
  sampler?: Partial<Omit<HyperSamplerSpec, "latent">> & { latent?: LatentSamplerName | LatentSamplerSpecInput };
  draws?: number;
  burnIn?: number;
  thin?: number;
  chains?: number;
  seed: number;
}

/** The complete spec of a run with sampled hyperparameters described with fields left out (see HyperRunInput). */
export function hyperRunSpec(input: HyperRunInput): HyperRunSpec {
  const given = input.sampler ?? {};
  const scheme = given.scheme ?? DEFAULT_SCHEME;
  const thetaSampler = given.thetaSampler ?? (scheme === "pm" || scheme === "surr" ? undefined : "mh");
  return {
    model: givenThenDefaults(HYPER_MODEL_DEFAULTS, input.model),
    sampler: {
      scheme, ...(thetaSampler ? { thetaSampler } : {}), latent: latentSamplerSpec(given.latent ?? DEFAULT_HYPER_LATENT_SAMPLER),
      ...(given.importanceSamples !== undefined ? { importanceSamples: given.importanceSamples } : {}),
    },
    draws: input.draws ?? RUN_DEFAULTS.draws,
    burnIn: input.burnIn ?? RUN_DEFAULTS.burnIn,
    thin: input.thin ?? RUN_DEFAULTS.thin,
    chains: input.chains ?? RUN_DEFAULTS.chains,
    seed: input.seed,
  };
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
  /** The run as run: the spec with every default filled in (what `gpmcmc sample` records as `run` in summary.json). */
  spec: HyperRunSpec;
  /** One per chain, in chain order. */
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

/**
 * Runs the chains of the run `input` describes (on worker threads unless `inProcess`), its fields
 * left out taking the defaults of `gpmcmc sample` (hyperRunSpec): the same data, options and seed
 * give the command's draws, bit for bit.
 */
export async function runHyperGp(data: LatentGpData, input: HyperRunInput, options: HyperRunOptions = {}): Promise<HyperRun> {
  const spec = hyperRunSpec(input);
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
  const run = await runChainTasks(HYPER_GP_CHAIN, inputs, { ...options, onProgress: save || options.onProgress ? onMessage as (p: Progress) => void : undefined });
  return { spec, ...run };
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
