/**
 * Random-walk Metropolis (comparison paper, Section 3.1): the proposal
 *   f' = f + s L z,   z ~ N(0, I),
 * i.e. g(f' | f) = N(f'; f, s^2 L L'), with s an isotropic scale (adapted during burn-in) and L an
 * optional lower Cholesky factor of a proposal covariance (default: the identity). The proposal is
 * symmetric, so f' is accepted with probability min{1, exp(W(f') - W(f))}.
 *
 * Default target acceptance 0.25: the paper adapts its MH samplers to "around 25%" (Section
 * 4.1), near the 0.234 optimum of Roberts, Gelman & Gilks (1997) for random-walk proposals in
 * high dimension.
 */
import { Cholesky } from "../../linalg/cholesky.js";
import type { Matrix } from "../../linalg/matrix.js";
import type { RandomSource } from "../../random/types.js";
import type { Target } from "../../targets/types.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import { lowerTimesInPlace } from "../integrators/massMatrix.js";
import { checkPositive, checkProbability, metropolisHastingsDecision, metropolisStepInfo, newMetropolisOutcome } from "./metropolis.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** The MH family's default target acceptance rate (comparison paper, Section 4.1: "around 25% for MH"). */
export const MH_TARGET_ACCEPTANCE = 0.25;

export interface RandomWalkOptions {
  /** The isotropic scale s (adapted during burn-in through `tunable`, named "scale"). */
  scale: number;
  /** Lower Cholesky factor L of the proposal covariance (the proposal is N(f, s^2 L L')); default the identity. */
  proposalCholesky?: Cholesky | Matrix;
  /** Acceptance rate adaptation aims for (default 0.25). */
  targetAcceptance?: number;
  /**
   * Test-only negative control: "stale-log-density" keeps the proposal's log density in the state
   * after a rejection (a cache bug), so later ratios compare against the wrong value.
   * @internal
   */
  broken?: FaultOf<"metropolis-rw">;
}

export interface RandomWalkKernel extends Kernel<SamplerState> {
  readonly tunable: Tunable;
}

export function randomWalkMetropolis(target: Target, options: RandomWalkOptions): RandomWalkKernel {
  const n = target.dim;
  checkPositive("scale", options.scale);
  const targetAcceptance = options.targetAcceptance ?? MH_TARGET_ACCEPTANCE;
  checkProbability("targetAcceptance", targetAcceptance);
  let factor: Float64Array | undefined;
  if (options.proposalCholesky) {
    const ch = options.proposalCholesky instanceof Cholesky ? options.proposalCholesky : new Cholesky(options.proposalCholesky);
    if (ch.factor.rows !== n || ch.factor.cols !== n) {
      throw new RangeError(`randomWalkMetropolis: the proposal factor is ${ch.factor.rows} x ${ch.factor.cols}, the target dimension is ${n}`);
    }
    factor = ch.factor.data;
  }
  const stale = options.broken === "stale-log-density";
  const tunable: Tunable = { name: "scale", value: options.scale, targetAcceptance };
  const proposal = new Float64Array(n);
  const step = new Float64Array(n);
  const decision = newMetropolisOutcome();

  function init(x0: Float64Array): SamplerState {
    const position = initialPosition("randomWalkMetropolis", x0, n);
    const logDensity = finiteInitialLogDensity("randomWalkMetropolis", target.logDensity(position));
    return { position, logDensity };
  }

  function transition(state: SamplerState, rng: RandomSource): { state: SamplerState; info: StepInfo } {
    const s = tunable.value;
    checkPositive("scale", s);
    rng.fillNormal(step);
    if (factor) lowerTimesInPlace(factor, n, step);
    const x = state.position;
    for (let i = 0; i < n; i++) proposal[i] = x[i] + s * step[i];
    const lp = target.logDensity(proposal);
    // symmetric proposal: log r = W(f') - W(f)
    metropolisHastingsDecision(lp - state.logDensity, Math.log(rng.uniform()), decision);
    const info = metropolisStepInfo(decision, s);
    if (decision.accepted) return { state: { position: proposal.slice(), logDensity: lp }, info };
    if (stale && Number.isFinite(lp)) return { state: { position: state.position, logDensity: lp }, info };
    return { state, info };
  }

  return { name: "mh", tunable, init, step: transition };
}
