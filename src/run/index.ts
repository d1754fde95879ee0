/**
 * Runs of latent GP models from plain-data descriptions: what `gpmcmc sample` does, as functions.
 * A layer of its own, above targets, samplers, approx, annealing, diagnostics and io and below
 * cli, so that the library API and worker threads (which rebuild a chain from a LatentGpRunSpec)
 * use it without the command-line parser. The samplers a run can use, with their defaults, are
 * src/samplers/registry.ts's.
 */
export { INITS, initialPoint, latentGpRunSpec, RUN_DEFAULTS, runLatentGpChain } from "./runSpec.js";
export type { ChainHooks, InitName, LatentGpRunInput, LatentGpRunSpec } from "./runSpec.js";
export { runLatentGp, runLatentGpSpec } from "./chains.js";
export type { LatentGpRun, RunHooks, RunOptions } from "./chains.js";
export { LATENT_GP_CHAIN_TASK, latentGpChainTask } from "./chainTask.js";
export type { LatentGpChainInput } from "./chainTask.js";
export { summariseRun } from "./summary.js";
export type { ChainReport, RunSummary } from "./summary.js";
export { drawsFileInfo, writeChainDraws } from "./outputs.js";
export { DEFAULT_SCHEME, HYPER_MODEL_DEFAULTS, hyperRunSpec, runHyperGp, hyperChain, operationsPerIteration, writeHyperChainDraws, HYPER_GP_CHAIN_TASK } from "./hyperRun.js";
export type { HyperChainResult, HyperRun, HyperRunInput, HyperRunOptions, HyperRunSpec } from "./hyperRun.js";
