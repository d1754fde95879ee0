/**
 * One chain of a `--model` run (logistic-regression, lgcp, volatility, fitzhugh-nagumo) as a pool
 * task (kind "model-chain"): the input is plain data (the model's name, its data file and the
 * options its target and sampler are built with, through the model registry: readData ->
 * buildTarget -> sampler), so a worker thread rebuilds the kernel and runs chain c on the stream
 * new Rng(seed, c) from the run's starting point — the same draws as in any other thread. A
 * worker that runs several chains of one run builds once (keyed by `runKey`); the driver restores
 * the kernel's initial tunable value at the start of each chain, so sharing changes no draw.
 */
import { fileSha256 } from "../approx/approximationFile.js";
import { DataError } from "../io/errors.js";
import { NotPositiveDefiniteError } from "../linalg/errors.js";
import type { ModelRun, ModelSampler } from "../models/modelRun.js";
import { modelInfo, type ModelName } from "../models/registry.js";
import { registerErrorType } from "../parallel/errors.js";
import { defineTaskKind, type TaskContext } from "../parallel/tasks.js";
import { Rng } from "../random/rng.js";
import type { AdaptOptions } from "../samplers/chain/adaptation.js";
import type { ChainCheckpoint } from "../samplers/chain/chainCheckpoint.js";
import { runChain, type ChainResult, type Progress } from "../samplers/chain/driver.js";
import type { Kernel } from "../samplers/types.js";

export const MODEL_CHAIN_TASK = "model-chain";

/** The models with a run of their own (models/modelRun.ts): the `--model` models. */
export type ChainModelName = Exclude<ModelName, "latent-gp">;

/** What a kernel of a model run is built from, as plain data: the registry's readData, buildTarget and sampler with these arguments. */
export interface ModelChainBuild {
  model: ChainModelName;
  dataFile: string;
  /** The data file's SHA-256 when the run started: a worker refuses a file that changed since. */
  dataSha256?: string;
  /** buildTarget's options. */
  targetOptions: object;
  sampler: string;
  /** sampler's options. */
  samplerOptions: object;
}

/** The chains of a run: their number, length, seed, starting point and burn-in adaptation (those of the sampler the run built). */
export interface ModelChainShape {
  draws: number;
  burnIn: number;
  thin: number;
  seed: number;
  init: Float64Array;
  adapt: AdaptOptions | undefined;
}

export interface ModelChainInput extends ModelChainShape {
  /** The same for every chain of one run (a worker reuses its kernel across them). */
  runKey: string;
  build: ModelChainBuild;
  chain: number;
  /** Transitions between progress messages (default: the driver's). */
  progressInterval?: number;
  /** Transitions between checkpoints, sent as messages ModelCheckpointMessage to the thread that started the run (0: only on a stop and at the end). */
  checkpointEvery?: number;
  /** Continue the chain from this checkpoint. */
  resume?: ChainCheckpoint;
}

/** A chain's result with its kernel's own summary where the kernel has one (the volatility blocks' step sizes and acceptance rates), read as the chain ended. */
export interface ModelChainResult extends ChainResult {
  kernelSummary?: unknown;
}

/** A checkpoint as a model chain task sends it: with the kernel's own summary at that transition, where it has one. */
export interface ModelCheckpointMessage {
  checkpoint: ChainCheckpoint;
  kernelSummary?: unknown;
}

/** A kernel with a summary of its own (blockGibbs.ts). */
function kernelSummary(kernel: Kernel): unknown {
  const summary = (kernel as { summary?: () => unknown }).summary;
  return typeof summary === "function" ? summary.call(kernel) : undefined;
}

/** Builds the kernel of `build` through the model registry, as the run's command built it. */
export function buildModelKernel(build: ModelChainBuild): Kernel {
  if (build.dataSha256 !== undefined && fileSha256(build.dataFile) !== build.dataSha256) {
    throw new DataError({ file: build.dataFile }, "changed while the run was starting its chains; run it again");
  }
  const m = modelInfo[build.model] as unknown as ModelRun<unknown, object, unknown, object, ModelSampler>;
  return m.sampler(m.buildTarget(m.readData(build.dataFile), build.targetOptions), build.sampler, build.samplerOptions).kernel;
}

let cached: { runKey: string; kernel: Kernel; initialTunableValue: number | undefined } | undefined;

/** Runs one chain; its progress messages are the driver's Progress objects and its checkpoints (ModelCheckpointMessage). */
export function modelChainTask(input: ModelChainInput, context: TaskContext): ModelChainResult {
  if (cached?.runKey !== input.runKey) {
    cached = undefined; // let the previous run's kernel go before building the next
    const kernel = buildModelKernel(input.build);
    cached = { runKey: input.runKey, kernel, initialTunableValue: kernel.tunable?.value };
  }
  const { kernel, initialTunableValue } = cached;
  const result = runChain(kernel, new Rng(input.seed, input.chain), {
    draws: input.draws, burnIn: input.burnIn, thin: input.thin, init: input.init, adapt: input.adapt, initialTunableValue, chainIndex: input.chain,
    onProgress: (p: Progress) => context.progress(p),
    shouldStop: () => context.stopRequested(),
    progressInterval: input.progressInterval,
    // The thread that started the run writes them: its writes are never cut by an abort (process.exit) half-way.
    checkpoint: input.checkpointEvery !== undefined
      ? { every: input.checkpointEvery, save: (checkpoint) => context.progress({ checkpoint, kernelSummary: kernelSummary(kernel) } satisfies ModelCheckpointMessage) }
      : undefined,
    resume: input.resume,
  });
  const summary = kernelSummary(kernel);
  return summary === undefined ? result : { ...result, kernelSummary: summary };
}

/** The chain of a --model run as a typed task (runChainTasks). */
export const MODEL_CHAIN = defineTaskKind(MODEL_CHAIN_TASK, import.meta.url, "modelChainTask", modelChainTask);
registerErrorType(DataError);
registerErrorType(NotPositiveDefiniteError);
