/**
 * A run of a latent GP model: chains of one sampler from one seed, described by plain data
 * (`LatentGpRunSpec`: model, sampler, counts, seed, adaptation) so that any chain can be rebuilt
 * and rerun from (data, spec, chain index) alone — chain c runs on the stream new Rng(seed, c)
 * from the same x0 (0, or the Laplace mode, which is a deterministic function of the data and
 * the model), whichever process or thread runs it. `runLatentGp` runs the chains one after
 * another in this thread, sharing one target and kernel (the driver restores the kernel's step
 * size at the start of each chain, so sharing changes no draw).
 */
import { laplace } from "../approx/laplace.js";
import type { Matrix } from "../linalg/matrix.js";
import { Rng } from "../random/rng.js";
import type { AdaptOptions } from "../samplers/adaptation.js";
import { runChain, type ChainResult, type Progress } from "../samplers/driver.js";
import type { Kernel } from "../samplers/types.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";
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
  onProgress?: (progress: Progress) => void;
  /** Called with each chain's result as soon as the chain finishes (e.g. to write its draws). */
  onChain?: (result: ChainResult) => void;
  /** Told (one line) when jitter is added to K, or when the Laplace mode did not converge (default: stderr). */
  onWarning?: (message: string) => void;
  /** Called once the target and kernel are built (K assembled and factorised), before any chain runs. */
  onTargetReady?: (target: AnnealedLatentTarget) => void;
}

export interface LatentGpRun {
  target: AnnealedLatentTarget;
  results: ChainResult[];
  /** Wall-clock seconds of all chains (model set-up excluded). */
  seconds: number;
}

/** Chain `chain` (0-based) of the run described by `spec`, on a kernel built from it, from x0 (see initialPoint). */
export function runLatentGpChain(kernel: Kernel, x0: Float64Array, spec: LatentGpRunSpec, chain: number, hooks: Pick<RunHooks, "onProgress"> = {}): ChainResult {
  return runChain(kernel, new Rng(spec.seed, chain), {
    draws: spec.draws,
    burnIn: spec.burnIn,
    thin: spec.thin,
    init: x0,
    adapt: spec.adapt,
    initialTunableValue: spec.sampler.stepSize,
    chainIndex: chain,
    onProgress: hooks.onProgress,
  });
}

/** Builds the target and kernel of `spec` on `data` and runs its chains one after another. */
export function runLatentGp(data: LatentGpData, spec: LatentGpRunSpec, hooks: RunHooks = {}): LatentGpRun {
  const target = latentGpTarget(data.X, data.y, spec.model, hooks.onWarning);
  const kernel = latentGpKernel(target, spec.sampler);
  const x0 = initialPoint(target, spec.init, hooks.onWarning);
  hooks.onTargetReady?.(target);
  const t0 = performance.now();
  const results: ChainResult[] = [];
  for (let c = 0; c < spec.chains; c++) {
    const r = runLatentGpChain(kernel, x0, spec, c, hooks);
    results.push(r);
    hooks.onChain?.(r);
  }
  return { target, results, seconds: (performance.now() - t0) / 1000 };
}
