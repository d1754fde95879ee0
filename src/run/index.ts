/**
 * Runs of latent GP models from plain-data descriptions: what `gpmcmc sample` does, as functions.
 * A layer of its own, above targets, samplers, diagnostics and io and below cli, so that the
 * library API and worker threads (which rebuild a chain from a LatentGpRunSpec) use it without
 * the command-line parser.
 */
export { firstRows, latentGpTarget } from "./model.js";
export type { LatentGpModelSpec } from "./model.js";
export { HMC_MASSES, LATENT_GP_SAMPLERS, SAMPLER_DEFAULTS, latentGpKernel, priorMass } from "./kernel.js";
export type { FixedPointSpec, HmcMassName, LatentGpSamplerName, LatentGpSamplerSpec } from "./kernel.js";
export { INITS, initialPoint, runLatentGp, runLatentGpChain } from "./chains.js";
export type { InitName, LatentGpData, LatentGpRun, LatentGpRunSpec, RunHooks, RunOptions } from "./chains.js";
export { LATENT_GP_CHAIN_TASK, latentGpChainTask } from "./chainTask.js";
export type { LatentGpChainInput } from "./chainTask.js";
export { summariseRun } from "./summary.js";
export type { ChainReport, RunSummary } from "./summary.js";
export { drawsFileInfo, writeChainDraws } from "./outputs.js";
