/**
 * The options HMC and RMHMC share (step size, number of leapfrog steps, acceptance target,
 * divergence threshold), checked in one place.
 */
import type { RandomSource } from "../../random/types.js";
import { checkPositive, checkPositiveInteger, checkProbability, DEFAULT_DIVERGENCE_THRESHOLD } from "../kernels/metropolis.js";

/** The acceptance rate HMC's step-size adaptation aims for by default (Beskos et al. 2013's 0.651, the optimum the note cites), for f and for theta alike. */
export const HMC_TARGET_ACCEPTANCE = 0.65;

export interface TrajectoryOptions {
  /** Leapfrog step size epsilon (adapted during burn-in through `tunable`). */
  stepSize: number;
  /** Number of leapfrog steps, or the maximum when `randomiseSteps` is set. */
  leapfrogSteps: number;
  /** Draw the number of steps uniformly from 1..leapfrogSteps at each transition (G&C Appendix D; Filippone et al.'s "maximum of 10 leapfrog steps"). */
  randomiseSteps?: boolean;
  /**
   * Integration time e L: when given, a transition takes round(trajectoryLength / e) steps at the
   * step size e it runs with (at least 1, at most leapfrogSteps, which is then the cap), so that
   * step-size adaptation keeps e L where it is set instead of letting it drift with e. The count
   * depends on e alone, never on the state, and e is fixed after burn-in.
   */
  trajectoryLength?: number;
  /** Acceptance rate step-size adaptation aims for (default 0.65). */
  targetAcceptance?: number;
  /** Energy rise above which a trajectory is rejected as divergent (default 1000). */
  divergenceThreshold?: number;
}

export interface CheckedTrajectoryOptions {
  readonly targetAcceptance: number;
  readonly divergenceThreshold: number;
  readonly maxSteps: number;
  readonly randomiseSteps: boolean;
  readonly trajectoryLength?: number;
}

/** Checks the shared options (RangeError naming the bad one) and fills in their defaults. */
export function checkTrajectoryOptions(options: TrajectoryOptions): CheckedTrajectoryOptions {
  checkPositive("stepSize", options.stepSize);
  checkPositiveInteger("leapfrogSteps", options.leapfrogSteps);
  const targetAcceptance = options.targetAcceptance ?? HMC_TARGET_ACCEPTANCE;
  checkProbability("targetAcceptance", targetAcceptance);
  const divergenceThreshold = options.divergenceThreshold ?? DEFAULT_DIVERGENCE_THRESHOLD;
  checkPositive("divergenceThreshold", divergenceThreshold);
  const checked = { targetAcceptance, divergenceThreshold, maxSteps: options.leapfrogSteps, randomiseSteps: options.randomiseSteps ?? false };
  if (options.trajectoryLength === undefined) return checked;
  checkPositive("trajectoryLength", options.trajectoryLength);
  return { ...checked, trajectoryLength: options.trajectoryLength };
}

/**
 * The number of leapfrog steps of one transition at step size `stepSize`: the maximum (or, with a
 * trajectory length, round(length / stepSize) within 1..maximum), or uniform on 1..that when
 * randomised.
 */
export function leapfrogStepCount(o: CheckedTrajectoryOptions, rng: RandomSource, stepSize: number): number {
  const most = o.trajectoryLength === undefined ? o.maxSteps : stepsForLength(o.trajectoryLength, stepSize, o.maxSteps);
  return o.randomiseSteps ? 1 + rng.integer(most) : most;
}

/** round(length / stepSize), within 1..cap: the count of steps of a trajectory length. */
export function stepsForLength(length: number, stepSize: number, cap: number): number {
  return Math.min(cap, Math.max(1, Math.round(length / stepSize)));
}
