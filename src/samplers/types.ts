import type { RandomSource } from "../random/types.js";

/**
 * What every transition reports (Stan's sampler diagnostics plus operation counts). A kernel that
 * reports more declares it in its info's type (the extensions below), `Kernel<S, I>`.
 */
export interface StepInfo {
  accepted: boolean;
  /** min(1, exp(-dH)) or the sampler's equivalent (1 for always-accepting samplers). */
  acceptanceProbability: number;
  divergent: boolean;
  /** Why a divergent transition was rejected (undefined when it was not, or the kernel does not say). */
  divergence?: DivergenceReason;
  /** Hamiltonian at the accepted state (NaN for samplers without one). */
  energy: number;
  /** H(proposal) - H(start) (NaN for samplers without one). */
  energyError: number;
  stepSize: number;
  leapfrogSteps: number;
  gradientCalls: number;
  metricCalls: number;
  fixedPointIterations: number;
}

/** The counts a kernel reports beyond the core's, where its cost is counted in them (absent: none). */
export interface CountedStepInfo extends StepInfo {
  /** Evaluations of the cheap G(x)^-1 (Target.inverseMetricAt) made in the transition, where counted apart from metricCalls. */
  inverseMetricCalls?: number;
  /**
   * Evaluations of the log density or log likelihood made in the transition, for samplers whose
   * cost is counted in them (elliptical slice sampling: 1 + the number of bracket shrinks).
   */
  densityEvaluations?: number;
}

/**
 * How the second stage of delayed rejection ended (samplers/kernels/delayedRejection.ts): it moved;
 * its trajectory diverged; the Metropolis test rejected it; the first stage did not diverge from
 * its end (the ghost trajectory's test); or the way back did not return (the reversibility check).
 */
export type SecondStageOutcome = "moved" | "diverged" | "metropolis" | "ghost" | "irreversible";

/** RMHMC's transition, with delayed rejection's stages where a second one was run. */
export interface DelayedRejectionStepInfo extends CountedStepInfo {
  /**
   * Why the first trajectory diverged, when a second stage was run (then `divergent` says whether
   * the second diverged too, `accepted` whether it moved).
   */
  firstStageDivergence?: DivergenceReason;
  /** How that second stage ended. */
  secondStage?: SecondStageOutcome;
}

/** NUTS's transition: the tree it built. */
export interface NutsStepInfo extends StepInfo {
  /** The depth of the trajectory's tree (Stan's treedepth__). */
  treeDepth: number;
  /** The tree stopped at its largest depth before the no-U-turn criterion stopped it. */
  treeDepthSaturated: boolean;
}

/**
 * Why a transition was rejected as divergent:
 * - "non-finite": the log density, a gradient or the energy was NaN or infinite;
 * - "energy-error": H(proposal) - H(start) exceeded the divergence threshold;
 * - "fixed-point": an implicit step of the generalised leapfrog did not converge to its tolerance;
 * - "numerical-error": the target raised a numerical failure (a metric that is not positive definite, ...);
 * - "irreversible": integrating back from the proposal with the momentum negated did not return to
 *   the start (RMHMC's reversibility check: the implicit solves found another root, or none).
 */
export type DivergenceReason = "non-finite" | "energy-error" | "fixed-point" | "numerical-error" | "irreversible";

/** The state a kernel carries from one transition to the next: a position plus cached quantities. */
export interface SamplerState {
  readonly position: Float64Array;
  readonly logDensity: number;
}

/** A scalar tuning parameter the chain driver may adapt during burn-in (step size, MH scale, ...). */
export interface Tunable {
  readonly name: string;
  value: number;
  /** Acceptance rate the adaptation aims for by default. */
  readonly targetAcceptance: number;
}

/**
 * A kernel's own burn-in adaptation (per-block step sizes, per-coordinate scales, several
 * tunables), run by the chain driver as it runs the single tunable's: `update` after each burn-in
 * transition, with what the transition reported, and `end` once when burn-in ends (at the chain's
 * start when it has none; not again on a resume after it). The kernel keeps no count of
 * transitions: the driver says which phase the chain is in.
 */
export interface KernelAdaptation<I extends StepInfo = StepInfo> {
  update(info: I): void;
  /** The adapted values are kept from here on. */
  end(): void;
}

/**
 * The outer shape every sampler has (BlackJAX-style functional kernels):
 *   const k = rmhmc(target, opts); let s = k.init(x0); ({ state: s, info } = k.step(s, rng));
 * `I` is what a transition reports: the core StepInfo or an extension of it.
 */
export interface Kernel<S extends SamplerState = SamplerState, I extends StepInfo = StepInfo> {
  readonly name: string;
  init(x0: Float64Array): S;
  step(state: S, rng: RandomSource): { state: S; info: I };
  /** The parameter burn-in adaptation tunes, if any. */
  readonly tunable?: Tunable;
  /** The kernel's own burn-in adaptation, if it has one (the driver runs it whatever ChainOptions.adapt says). */
  readonly adaptation?: KernelAdaptation<I>;
  /**
   * For a kernel whose state `init(state.position)` does not rebuild bit for bit (it moves in
   * other coordinates, or fixes a constant at init, or adapts its own parameters): the state as
   * numbers, and the state those numbers describe, so that a chain checkpointed and resumed draws
   * exactly what it would have.
   */
  saveState?(state: S): Float64Array;
  restoreState?(saved: Float64Array): S;
}

/** The work of a trajectory (or of several): calls into the target and fixed-point iterations. */
export interface TrajectoryCost {
  gradientCalls: number;
  metricCalls: number;
  inverseMetricCalls: number;
  fixedPointIterations: number;
}

/** Operation counts over a chain (a TrajectoryCost plus leapfrog steps and density evaluations). */
export type { OperationCounts } from "../diagnostics/operationCounts.js";
