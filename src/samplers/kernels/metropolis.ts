/**
 * The accept step shared by the Hamiltonian samplers (note eq. 8, Algorithm 1 lines 30-35):
 * accept (x*, p*) with probability min(1, exp(H(x, p) - H(x*, p*))), and the rules that turn a
 * numerically broken trajectory into a rejection instead of an exception.
 */
import { NonFiniteError, NotPositiveDefiniteError } from "../../linalg/errors.js";
import type { CountedStepInfo, DivergenceReason, TrajectoryCost } from "../types.js";

/**
 * A trajectory whose energy rose by more than this is rejected and counted as divergent (Stan's
 * default). Only increases count: rejecting large decreases too would keep a chain started far
 * in the tails from ever moving towards the mode; the one-sided rule departs from detailed
 * balance by at most exp(-threshold).
 */
export const DEFAULT_DIVERGENCE_THRESHOLD = 1000;

export interface MetropolisOutcome {
  accepted: boolean;
  acceptanceProbability: number;
  divergence: DivergenceReason | undefined;
}

/** An outcome for a kernel to decide into, again and again (the decisions allocate nothing). */
export function newMetropolisOutcome(): MetropolisOutcome {
  return { accepted: false, acceptanceProbability: 0, divergence: undefined };
}

/**
 * What a Metropolis-Hastings transition without a trajectory reports (random walk, MH v1 and v2):
 * the decision, the scale it proposed with, and one density evaluation.
 */
export function metropolisStepInfo(decision: MetropolisOutcome, scale: number): CountedStepInfo {
  return {
    accepted: decision.accepted,
    acceptanceProbability: decision.acceptanceProbability,
    divergent: decision.divergence !== undefined,
    divergence: decision.divergence,
    energy: NaN,
    energyError: NaN,
    stepSize: scale,
    leapfrogSteps: 0,
    gradientCalls: 0,
    metricCalls: 0,
    fixedPointIterations: 0,
    densityEvaluations: 1,
  };
}

/** A rejection with acceptance probability 0, for the given reason (undefined: an ordinary one). Writes into and returns `out`. */
export function rejectInto(out: MetropolisOutcome, divergence: DivergenceReason | undefined): MetropolisOutcome {
  out.accepted = false;
  out.acceptanceProbability = 0;
  out.divergence = divergence;
  return out;
}

/**
 * What a Hamiltonian transition reports: the decision, H at its start (h0) and at the proposal
 * (h1; eq. 8), the step size, the proposal's leapfrog steps and the work done (inverseMetricCalls
 * only where the sampler counts them apart).
 */
export function hamiltonianStepInfo(
  decision: MetropolisOutcome, h0: number, h1: number, stepSize: number, leapfrogSteps: number,
  cost: Omit<TrajectoryCost, "inverseMetricCalls"> & { inverseMetricCalls?: number },
): CountedStepInfo {
  return {
    accepted: decision.accepted,
    acceptanceProbability: decision.acceptanceProbability,
    divergent: decision.divergence !== undefined,
    divergence: decision.divergence,
    energy: decision.accepted ? h1 : h0,
    energyError: h1 - h0,
    stepSize,
    leapfrogSteps,
    gradientCalls: cost.gradientCalls,
    metricCalls: cost.metricCalls,
    ...(cost.inverseMetricCalls === undefined ? {} : { inverseMetricCalls: cost.inverseMetricCalls }),
    fixedPointIterations: cost.fixedPointIterations,
  };
}

/**
 * Decides a Hamiltonian proposal given log u, u ~ U(0, 1). A non-finite energy error is a
 * rejection with reason "non-finite"; an energy rise above `threshold`, one with "energy-error".
 * Writes into and returns `out` (no allocation).
 */
export function metropolisDecision(energyError: number, logUniform: number, threshold: number, out: MetropolisOutcome): MetropolisOutcome {
  if (!Number.isFinite(energyError)) return rejectInto(out, "non-finite");
  out.acceptanceProbability = energyError <= 0 ? 1 : Math.exp(-energyError);
  if (energyError > threshold) {
    out.accepted = false;
    out.divergence = "energy-error";
    return out;
  }
  out.divergence = undefined;
  // log u < H(x, p) - H(x*, p*)  <=>  u < exp(-dH)   (eq. 8)
  out.accepted = logUniform < -energyError;
  return out;
}

/**
 * The Metropolis-Hastings accept step on a log acceptance ratio log r (comparison paper,
 * Section 3.1 and Algorithm 2 lines 3-6: accept when log r > -u with u ~ Exp(1), which is
 * log U < log r with U ~ U(0, 1)). A proposal of density zero (log r = -Infinity) is an ordinary
 * rejection; a NaN or +Infinity ratio (a density that broke down numerically) is a rejection
 * reported as "non-finite". Writes into and returns `out`.
 */
export function metropolisHastingsDecision(logRatio: number, logUniform: number, out: MetropolisOutcome): MetropolisOutcome {
  if (logRatio === -Infinity) return rejectInto(out, undefined);
  if (!Number.isFinite(logRatio)) return rejectInto(out, "non-finite");
  out.divergence = undefined;
  out.acceptanceProbability = logRatio >= 0 ? 1 : Math.exp(logRatio);
  out.accepted = logUniform < logRatio;
  return out;
}

/**
 * Failures of the linear algebra that mean "this point of the trajectory is numerically out of
 * reach" (a metric that lost positive definiteness, an overflow that reached a factorisation):
 * samplers reject the proposal instead of crashing. Anything else is a bug and propagates.
 */
export function isNumericalFailure(e: unknown): boolean {
  return e instanceof NotPositiveDefiniteError || e instanceof NonFiniteError;
}

export function checkPositive(name: string, v: number): void {
  if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`${name} must be a positive finite number, got ${v}`);
}

export function checkPositiveInteger(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer, got ${v}`);
}

export function checkProbability(name: string, v: number): void {
  if (!(v > 0 && v < 1)) throw new RangeError(`${name} must lie strictly between 0 and 1, got ${v}`);
}
