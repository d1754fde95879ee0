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
import { DEFAULT_LATENT_SAMPLER, latentAdaptation, latentSamplerSpec, tunableValue, type LatentSamplerName, type LatentSamplerSpec, type LatentSamplerSpecInput } from "../samplers/registry.js";
import { LATENT_GP_DEFAULTS } from "../models/latentGpRun.js";
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

/** A run's counts where not given, for the library and `gpmcmc sample` alike. */
export const RUN_DEFAULTS = { draws: 1000, burnIn: 1000, thin: 1, chains: 4 } as const;

/**
 * A run as a caller describes it: every field but the seed may be left out and takes the default
 * `gpmcmc sample` takes (`latentGpRunSpec` fills them in): the model's `LATENT_GP_DEFAULTS`, the
 * sampler `DEFAULT_LATENT_SAMPLER` (a name alone, or a spec with fields left out, takes the
 * registry's defaults), `RUN_DEFAULTS`' counts, and burn-in adaptation as below. A complete
 * `LatentGpRunSpec` is one too.
 */
export interface LatentGpRunInput {
  model?: Partial<LatentGpModelSpec>;
  sampler?: LatentSamplerName | LatentSamplerSpecInput;
  draws?: number;
  burnIn?: number;
  thin?: number;
  chains?: number;
  seed: number;
  /**
   * Omitted: dual averaging of the sampler's tunable towards its `targetAcceptance` (the
   * registry's unless the spec gives one) when there is a burn-in and something to tune, as
   * `gpmcmc sample` does; `false`: none (`--no-adapt`).
   */
  adapt?: AdaptOptions | false;
  init?: InitName;
}

/** The complete spec of a run described with fields left out: the defaults that `gpmcmc sample` takes (see LatentGpRunInput). */
export function latentGpRunSpec(input: LatentGpRunInput): LatentGpRunSpec {
  const sampler = latentSamplerSpec(input.sampler ?? DEFAULT_LATENT_SAMPLER);
  const burnIn = input.burnIn ?? RUN_DEFAULTS.burnIn;
  const adapt = input.adapt === false ? undefined : input.adapt ?? latentAdaptation(sampler.sampler, true, burnIn, (sampler as { targetAcceptance?: number }).targetAcceptance);
  return {
    model: givenThenDefaults(LATENT_GP_DEFAULTS, input.model),
    sampler,
    draws: input.draws ?? RUN_DEFAULTS.draws,
    burnIn,
    thin: input.thin ?? RUN_DEFAULTS.thin,
    chains: input.chains ?? RUN_DEFAULTS.chains,
    seed: input.seed,
    adapt,
    ...(input.init !== undefined ? { init: input.init } : {}),
  };
}

/**
 * `given` over `defaults`, as withDefaults (a field given as undefined is not given), the fields
 * given keeping their order (as the run's record lists them) and the defaults of the others after them.
 */
export function givenThenDefaults<O extends object>(defaults: Readonly<O>, given: Partial<O> = {}): O {
  const set = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  return { ...set, ...Object.fromEntries(Object.entries(defaults).filter(([k]) => !(k in set))) } as O;
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
