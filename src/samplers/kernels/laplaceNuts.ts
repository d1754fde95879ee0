/**
 * Multinomial NUTS (nuts.ts, Stan's algorithm) in coordinates whitened by Laplace's approximation
 * to f | y, theta (laplaceWhitening.ts): the metric is Laplace's precision K^-1 + W at the mode,
 * so the trajectory runs on an almost standard normal, and NUTS chooses its length per
 * transition, where laplace-hmc draws it from 1..L. Where f | y is far from Laplace's Gaussian
 * (a large signal variance: the step size adapts down), the dynamic length still reaches across
 * the posterior; where it is close, it stops after a few steps. The dynamics run in latent
 * coordinates at one product with Sigma per step (laplaceDynamics.ts), by default with the split
 * integrator, which moves along the whitening Gaussian exactly (a rotation about its mean, the
 * `center`) and integrates only the rest.
 */
import type { Cholesky } from "../../linalg/cholesky.js";
import { laplaceDynamics, type LaplaceIntegrator, type LaplaceState } from "../integrators/laplaceDynamics.js";
import { laplaceWhitening } from "./laplaceWhitening.js";
import type { LatentGpTarget } from "../latentTarget.js";
import { nutsOn } from "./nuts.js";
import type { Kernel, NutsStepInfo, Tunable } from "../types.js";
import { faultOf, type FaultOf } from "../../math/negativeControl.js";

export interface LaplaceNutsOptions {
  stepSize: number;
  /** Largest tree depth (default 10): at most 2^maxTreeDepth - 1 leapfrog steps per transition. */
  maxTreeDepth?: number;
  targetAcceptance?: number;
  divergenceThreshold?: number;
  /** The diagonal W of the metric K^-1 + W, entries >= 0: Laplace's at the mode (default: the Fisher information at f = 0, times beta). */
  diagonal?: ArrayLike<number>;
  /** "split" (default) or "leapfrog" (laplaceDynamics.ts). */
  integrator?: LaplaceIntegrator;
  /** The split integrator's centre: the mean of the Gaussian whose covariance whitens f (default 0). */
  center?: ArrayLike<number>;
  /**
   * Test-only negative controls: "drop-w" leaves out the 1/2 f' W f term of log p(u);
   * "last-state" and "weights-potential" break NUTS's own sampling of states (nuts.ts);
   * "center-precision" breaks the split integrator (laplaceDynamics.ts).
   * @internal
   */
  broken?: FaultOf<"laplace-whitening" | "nuts" | "laplace-dynamics">;
}

/** A state: f, with what the next transition reuses (laplaceDynamics.ts). */
export type LaplaceNutsState = LaplaceState;

export interface LaplaceNutsKernel extends Kernel<LaplaceNutsState, NutsStepInfo> {
  readonly tunable: Tunable;
  /** R with R R' = (K^-1 + W)^-1, the whitening factor. */
  readonly factor: Cholesky;
}

export function laplaceNuts(target: LatentGpTarget, options: LaplaceNutsOptions): LaplaceNutsKernel {
  const whitening = laplaceWhitening(target, "laplace-nuts", options.diagonal, faultOf("laplace-whitening", options.broken));
  const dynamics = laplaceDynamics(target, whitening, {
    integrator: options.integrator,
    center: options.center,
    broken: faultOf("laplace-dynamics", options.broken),
  });
  const kernel = nutsOn(dynamics, {
    stepSize: options.stepSize,
    maxTreeDepth: options.maxTreeDepth,
    targetAcceptance: options.targetAcceptance,
    divergenceThreshold: options.divergenceThreshold,
    broken: faultOf("nuts", options.broken),
  });
  return { ...kernel, name: "laplace-nuts", factor: whitening.factor, saveState: dynamics.saveState, restoreState: dynamics.restoreState };
}
