/**
 * What determines a run's draws, as plain data (`LatentGpRunSpec`: model, sampler, counts, seed,
 * adaptation), and chain c of it: new Rng(seed, c) from the starting point `initialPoint` gives,
 * on a kernel built from the spec, the same draws whichever process or thread runs it. Both the
 * pool task of one chain (chainTask.ts) and the run of all chains (chains.ts) use this module.
 */
import { laplace } from "../approx/laplace.js";
import { Rng } from "../random/rng.js";
import type { AdaptOptions } from "../samplers/chain/adaptation.js";
import { runChain, type ChainResult, type Progress } from "../samplers/chain/driver.js";
import { tunableValue, type LatentSamplerSpec } from "../samplers/registry.js";
import type { ChainCheckpoint, CheckpointOptions } from "../samplers/chain/chainCheckpoint.js";
import type { Kernel } from "../samplers/types.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";
import type { LatentGpModelSpec } from "../targets/latentGpModel.js";

/** Everything that determines a run's draws, as plain data. */
export interface LatentGpRunSpec {
  model: LatentGpModelSpec;
  sampler: LatentSamplerSpec;
  /** Draws kept per chain. */
  draws: number;
  /** Transitions before the first kept draw; adaptation runs during these only. */
  burnIn: number;
  /** Keep every thin-th transition after burn-in. */
  thin: number;
  chains: number;
  seed: number;
  /** Burn-in adaptation of the sampler's tunable; omitted: it stays as given. */
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

/** Hooks into one chain. */
export interface ChainHooks {
  /** Progress of the chain. */
  onProgress?: (progress: Progress) => void;
  /** Transitions between the chain's progress reports (default: about 20 per chain). */
  progressInterval?: number;
  /** Polled before each transition: true ends the chain there, keeping its draws so far. */
  shouldStop?: () => boolean;
  /** Checkpoints of the chain (see samplers/chain/chainCheckpoint.ts). */
  checkpoint?: CheckpointOptions;
  /** Continue the chain from this checkpoint instead of starting it at x0. */
  resume?: ChainCheckpoint;
}

/** Chain `chain` (0-based) of the run described by `spec`, on a kernel built from it, from x0 (see initialPoint). */
export function runLatentGpChain(kernel: Kernel, x0: Float64Array, spec: LatentGpRunSpec, chain: number, hooks: ChainHooks = {}): ChainResult {
  return runChain(kernel, new Rng(spec.seed, chain), {
    draws: spec.draws,
    burnIn: spec.burnIn,
    thin: spec.thin,
    init: x0,
    adapt: spec.adapt,
    initialTunableValue: tunableValue(spec.sampler),
    chainIndex: chain,
    onProgress: hooks.onProgress,
    progressInterval: hooks.progressInterval,
    shouldStop: hooks.shouldStop,
    checkpoint: hooks.checkpoint,
    resume: hooks.resume,
  });
}
