/**
 * Neal's (1999) scaled Metropolis proposals for latent GP variables (comparison paper, Section
 * 3.5), both built on a prior draw z = L_K e ~ N(0, K), e ~ N(0, I):
 *
 *   MH v1 (eq. 11):  f' = f + alpha z.
 *     A random walk with covariance alpha^2 K; symmetric, so accepted on the full posterior
 *     ratio W(f') - W(f), W = log p(y | f) + log N(f; 0, K).
 *
 *   MH v2 (eq. 12, whose square root the extracted text garbles): f' = sqrt(1 - alpha^2) f + alpha z.
 *     An autoregressive move that is reversible with respect to the prior N(0, K) itself:
 *     (f, f') is jointly Gaussian with both marginals N(0, K) and the symmetric cross covariance
 *     sqrt(1 - alpha^2) K, so N(f; 0, K) g(f' | f) = N(f'; 0, K) g(f | f'), and the prior cancels
 *     from the Hastings ratio: accepted on the likelihood ratio log p(y | f') - log p(y | f) alone.
 *     alpha is used as min(alpha, 1) (alpha = 1 proposes an independent prior draw).
 *
 * alpha is the tunable (named "alpha"), adapted during burn-in towards 25% acceptance by
 * default (paper, Section 4.1). Each transition costs one triangular product (n^2 flops) for z,
 * one likelihood evaluation, and (MH v1 always, MH v2 when it accepts) one triangular solve for
 * the prior term.
 */
import type { RandomSource } from "../../random/types.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import { requirePriorSplit, temperedLogLikelihood, type LatentGpTarget } from "../latentTarget.js";
import { lowerTimesInPlace } from "../integrators/massMatrix.js";
import { checkPositive, checkProbability, metropolisHastingsDecision, metropolisStepInfo, newMetropolisOutcome } from "./metropolis.js";
import { MH_TARGET_ACCEPTANCE } from "./metropolisRw.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

export interface NealMhOptions {
  /** alpha of eqs. (11)-(12) (adapted during burn-in through `tunable`). */
  alpha: number;
  /** Acceptance rate adaptation aims for (default 0.25). */
  targetAcceptance?: number;
  /**
   * Test-only negative controls: "likelihood-only" accepts MH v1's proposal on the likelihood
   * ratio (as if it were prior-reversible, like v2's); "full-posterior" accepts MH v2's proposal
   * on the full posterior ratio (counting the prior twice).
   * @internal
   */
  broken?: FaultOf<"mh-neal">;
}

export interface NealMhState extends SamplerState {
  /** beta log p(y | f) at the position (NaN for MH v1, whose ratio does not use it). */
  readonly logLikelihood: number;
}

export interface NealMhKernel extends Kernel<NealMhState> {
  readonly tunable: Tunable;
}

/** MH v1 (eq. 11): f' = f + alpha z, z ~ N(0, K), accepted on the full posterior ratio. */
export function mhV1(target: LatentGpTarget, options: NealMhOptions): NealMhKernel {
  return nealMh(target, options, 1);
}

/** MH v2 (eq. 12): f' = sqrt(1 - alpha^2) f + alpha z, z ~ N(0, K), accepted on the likelihood ratio. */
export function mhV2(target: LatentGpTarget, options: NealMhOptions): NealMhKernel {
  return nealMh(target, options, 2);
}

function nealMh(target: LatentGpTarget, options: NealMhOptions, version: 1 | 2): NealMhKernel {
  const name = version === 1 ? "mh-v1" : "mh-v2";
  const n = target.dim;
  checkPositive("alpha", options.alpha);
  const targetAcceptance = options.targetAcceptance ?? MH_TARGET_ACCEPTANCE;
  checkProbability("targetAcceptance", targetAcceptance);
  const broken = options.broken;
  if (broken === "likelihood-only" && version !== 1) throw new RangeError(`${name}: "likelihood-only" is MH v1's negative control`);
  if (broken === "full-posterior" && version !== 2) throw new RangeError(`${name}: "full-posterior" is MH v2's negative control`);
  // v2 and the v1 control need the prior/likelihood split; v1 itself is a symmetric random walk on any target
  if (version === 2 || broken === "likelihood-only") requirePriorSplit(target, name);
  const lk = target.kernelCholesky;
  if (lk.n !== n) throw new RangeError(`${name}: the Cholesky factor of K has order ${lk.n}, the target dimension is ${n}`);
  const l = lk.factor.data;
  const tunable: Tunable = { name: "alpha", value: options.alpha, targetAcceptance };
  const z = new Float64Array(n);
  const proposal = new Float64Array(n);
  const decision = newMetropolisOutcome();
  const needLikelihood = version === 2 || broken === "likelihood-only";

  function init(x0: Float64Array): NealMhState {
    const position = initialPosition(name, x0, n);
    const logDensity = finiteInitialLogDensity(name, target.logDensity(position));
    const logLikelihood = needLikelihood ? temperedLogLikelihood(target, position) : NaN;
    return { position, logDensity, logLikelihood };
  }

  function step(state: NealMhState, rng: RandomSource): { state: NealMhState; info: StepInfo } {
    const requested = tunable.value;
    // v2 takes any alpha > 0, Infinity included (adaptation can push it past 1 where the likelihood is weak)
    if (version === 2 ? !(requested > 0) : !(requested > 0 && Number.isFinite(requested))) checkPositive("alpha", requested);
    const alpha = version === 2 ? Math.min(requested, 1) : requested;
    // z = L_K e ~ N(0, K)
    rng.fillNormal(z);
    lowerTimesInPlace(l, n, z);
    const x = state.position;
    const shrink = version === 2 ? Math.sqrt(1 - alpha * alpha) : 1;
    for (let i = 0; i < n; i++) proposal[i] = shrink * x[i] + alpha * z[i];

    let lp = NaN;
    let ll = NaN;
    let logRatio: number;
    if (version === 1 && broken !== "likelihood-only") {
      lp = target.logDensity(proposal);
      logRatio = lp - state.logDensity; // symmetric proposal
    } else if (version === 2 && broken === "full-posterior") {
      lp = target.logDensity(proposal);
      ll = temperedLogLikelihood(target, proposal);
      logRatio = lp - state.logDensity;
    } else {
      ll = temperedLogLikelihood(target, proposal);
      logRatio = ll - state.logLikelihood; // the prior cancels (v2), or is wrongly dropped (v1's control)
    }
    metropolisHastingsDecision(logRatio, Math.log(rng.uniform()), decision);
    const info = metropolisStepInfo(decision, alpha);
    if (!decision.accepted) return { state, info };
    if (Number.isNaN(lp)) lp = target.logDensity(proposal); // lp__ of the new state
    return { state: { position: proposal.slice(), logDensity: lp, logLikelihood: ll }, info };
  }

  return { name, tunable, init, step };
}
