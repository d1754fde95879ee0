import type { RandomSource } from "../random/types.js";

/** What every transition reports (Stan's sampler diagnostics plus operation counts). */
export interface StepInfo {
  accepted: boolean;
  /** min(1, exp(-dH)) or the sampler's equivalent (1 for always-accepting samplers). */
  acceptanceProbability: number;
  divergent: boolean;
  /** Hamiltonian at the accepted state (NaN for samplers without one). */
  energy: number;
  /** H(proposal) - H(start) (NaN for samplers without one). */
  energyError: number;
  stepSize: number;
  leapfrogSteps: number;
  gradientCalls: number;
  metricCalls: number;
  fixedPointIterations: number;
  /** Evaluations of the cheap G(x)^-1 (Target.inverseMetricAt) made in the transition, where counted apart from metricCalls. */
  inverseMetricCalls?: number;
  /**
   * Evaluations of the log density or log likelihood made in the transition, for samplers whose
   * cost is counted in them (elliptical slice sampling: 1 + the number of bracket shrinks).
   */
  densityEvaluations?: number;
  /** Why a divergent transition was rejected (undefined when it was not). */
  divergence?: DivergenceReason;
  /**
   * RMHMC with delayed rejection: why the first trajectory diverged, when a second stage was run
   * (then `divergent` says whether the second diverged too, `accepted` whether it moved).
   */
  firstStageDivergence?: DivergenceReason;
  /** How that second stage ended (samplers/kernels/delayedRejection.ts). */
  secondStage?: "moved" | "diverged" | "metropolis" | "ghost" | "irreversible";
  /** NUTS: the depth of the trajectory's tree (Stan's treedepth__). */
  treeDepth?: number;
  /** NUTS: the tree stopped at its largest depth before the no-U-turn criterion stopped it. */
  treeDepthSaturated?: boolean;
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
 * The outer shape every sampler has (BlackJAX-style functional kernels):
 *   const k = rmhmc(target, opts); let s = k.init(x0); ({ state: s, info } = k.step(s, rng));
 */
export interface Kernel<S extends SamplerState = SamplerState> {
  readonly name: string;
  init(x0: Float64Array): S;
  step(state: S, rng: RandomSource): { state: S; info: StepInfo };
  /** The parameter burn-in adaptation tunes, if any. */
  readonly tunable?: Tunable;
  /**
   * For a kernel whose state `init(state.position)` does not rebuild bit for bit (it moves in
   * other coordinates, or fixes a constant at init): the state as numbers, and the state those
   * numbers describe, so that a chain checkpointed and resumed draws exactly what it would have.
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
