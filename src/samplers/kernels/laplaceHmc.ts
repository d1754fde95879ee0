/**
 * HMC in coordinates whitened by Laplace's approximation to f | y, theta: the mass matrix is the
 * inverse of Laplace's covariance, M^-1 = Sigma = (K^-1 + W)^-1 at the mode (GPML eq. 3.20;
 * Girolami & Calderhead Section 3: a constant M equal to an approximate posterior precision).
 * Since f | y is close to Gaussian for log-concave likelihoods, this nearly whitens it: the
 * leapfrog runs on an almost standard normal, where a step of about 0.5 is stable in any
 * dimension and a few steps give a nearly independent draw.
 *
 * The chain runs on u with f = R u, R R' = Sigma (laplaceWhitening.ts, which also says what a
 * gradient costs), with the identity mass: HMC in u with M = I is HMC in f with M^-1 = R R' (a
 * linear change of variables).
 */
import type { Cholesky } from "../../linalg/cholesky.js";
import { hmc, type HmcKernel, type HmcState } from "./hmc.js";
import { laplaceWhitening } from "./laplaceWhitening.js";
import type { LatentGpTarget } from "../latentTarget.js";
import { identityMass } from "../integrators/massMatrix.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "../types.js";
import { faultOf, type FaultOf } from "../../math/negativeControl.js";

export interface LaplaceHmcOptions {
  stepSize: number;
  leapfrogSteps: number;
  /** Draw the number of leapfrog steps uniformly from 1..leapfrogSteps (default false). */
  randomiseSteps?: boolean;
  targetAcceptance?: number;
  divergenceThreshold?: number;
  /** The diagonal W of the mass (K^-1 + W), entries >= 0: Laplace's at the mode (default: the Fisher information at f = 0, times beta). */
  diagonal?: ArrayLike<number>;
  /**
   * Test-only negative controls: "drop-w" leaves out the 1/2 f' W f correction (so the chain
   * samples another density); "potential-only" accepts on the potential alone.
   * @internal
   */
  broken?: FaultOf<"laplace-whitening" | "hmc">;
}

export interface LaplaceHmcState extends SamplerState {
  /** The state of the chain in the whitened coordinates u (f = R u). */
  readonly whitened: HmcState;
}

export interface LaplaceHmcKernel extends Kernel<LaplaceHmcState> {
  readonly tunable: Tunable;
  /** R with R R' = (K^-1 + W)^-1, the whitening factor. */
  readonly factor: Cholesky;
}

export function laplaceHmc(target: LatentGpTarget, options: LaplaceHmcOptions): LaplaceHmcKernel {
  const whitening = laplaceWhitening(target, "laplace-hmc", options.diagonal, faultOf("laplace-whitening", options.broken));
  const n = target.dim;
  const inner: HmcKernel = hmc(whitening.target, {
    stepSize: options.stepSize,
    leapfrogSteps: options.leapfrogSteps,
    randomiseSteps: options.randomiseSteps,
    targetAcceptance: options.targetAcceptance,
    divergenceThreshold: options.divergenceThreshold,
    mass: identityMass(n),
    broken: faultOf("hmc", options.broken),
  });
  function wrap(whitened: HmcState): LaplaceHmcState {
    return { ...whitening.latentState(whitened.position, whitened.logDensity), whitened };
  }

  function init(x0: Float64Array): LaplaceHmcState {
    const whitened = inner.init(whitening.whiten(x0));
    whitening.calibrate(whitened.position, whitened.logDensity);
    return wrap(whitened);
  }

  function step(state: LaplaceHmcState, rng: Parameters<Kernel["step"]>[1]): { state: LaplaceHmcState; info: StepInfo } {
    const { state: next, info } = inner.step(state.whitened, rng);
    return { state: next === state.whitened ? state : wrap(next), info };
  }

  // A checkpoint keeps u itself and the constant fixed at init (laplaceWhitening.ts).
  const saveState = (state: LaplaceHmcState) => whitening.saveState(state.whitened.position);
  const restoreState = (saved: Float64Array): LaplaceHmcState => wrap(inner.init(whitening.restoreState(saved)));

  return { name: "laplace-hmc", tunable: inner.tunable, factor: whitening.factor, init, step, saveState, restoreState };
}
