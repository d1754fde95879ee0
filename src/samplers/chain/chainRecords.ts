/**
 * What a chain records besides its draws: the per-draw statistics (CmdStan's names) and the
 * chain's summary of rates, divergences and operation counts; and views and copies of the
 * statistics columns.
 */
import type { OperationCounts } from "../../diagnostics/operationCounts.js";
import type { CountedStepInfo, DelayedRejectionStepInfo, NutsStepInfo, StepInfo } from "../types.js";

/** Per-draw statistics of one chain (or of all chains, chain after chain). */
export interface DrawStatColumns {
  /** lp__: log density at the draw (up to the target's constant). */
  lp: Float64Array;
  /** accept_stat__: the acceptance probability of the transition that produced the draw. */
  acceptStat: Float64Array;
  /** stepsize__. */
  stepSize: Float64Array;
  /** n_leapfrog__ (leapfrog steps taken; 0 for samplers without any). */
  nLeapfrog: Float64Array;
  /** divergent__: 1 when that transition was rejected as divergent. */
  divergent: Uint8Array;
  /** energy__: the Hamiltonian at the draw (NaN for samplers without one). */
  energy: Float64Array;
}

/** A chain's rates and divergences, and its operation counts over the whole chain, burn-in included. */
export interface ChainSummary extends OperationCounts {
  /** Transitions run: burnIn + draws * thin. */
  transitions: number;
  /** Over all sampling transitions (thinned-out ones included). */
  acceptanceRate: number;
  meanAcceptStat: number;
  divergences: number;
  burnInAcceptanceRate: number;
  burnInDivergences: number;
  /** NUTS: sampling transitions whose tree stopped at its largest depth (Stan's tree-depth warning); absent for other kernels. */
  treeDepthSaturations?: number;
}

export function allocateStats(size: number): DrawStatColumns {
  return {
    lp: new Float64Array(size),
    acceptStat: new Float64Array(size),
    stepSize: new Float64Array(size),
    nLeapfrog: new Float64Array(size),
    divergent: new Uint8Array(size),
    energy: new Float64Array(size),
  };
}

export function statsView(all: DrawStatColumns, from: number, to: number): DrawStatColumns {
  return {
    lp: all.lp.subarray(from, to),
    acceptStat: all.acceptStat.subarray(from, to),
    stepSize: all.stepSize.subarray(from, to),
    nLeapfrog: all.nLeapfrog.subarray(from, to),
    divergent: all.divergent.subarray(from, to),
    energy: all.energy.subarray(from, to),
  };
}

/** A copy of the first `to` rows of the columns. */
export function statsSlice(all: DrawStatColumns, to: number): DrawStatColumns {
  const v = statsView(all, 0, to);
  return {
    lp: v.lp.slice(), acceptStat: v.acceptStat.slice(), stepSize: v.stepSize.slice(), nLeapfrog: v.nLeapfrog.slice(),
    divergent: v.divergent.slice(), energy: v.energy.slice(),
  };
}

/** Adds one transition's operation counts to the chain's (the core's, and the counts a kernel reports beyond them). */
export function countOperations(summary: ChainSummary, info: CountedStepInfo): void {
  summary.gradientCalls += info.gradientCalls;
  summary.metricCalls += info.metricCalls;
  summary.inverseMetricCalls += info.inverseMetricCalls ?? 0;
  summary.fixedPointIterations += info.fixedPointIterations;
  summary.leapfrogSteps += info.leapfrogSteps;
  summary.densityEvaluations += info.densityEvaluations ?? 0;
}

/** Whether a transition reports a NUTS tree. */
export function reportsTree(info: StepInfo): info is NutsStepInfo {
  return (info as Partial<NutsStepInfo>).treeDepth !== undefined;
}

/** Counts a sampling transition whose tree stopped at its largest depth (ChainSummary.treeDepthSaturations; kernels without a tree: nothing). */
export function countTreeDepth(summary: ChainSummary, info: StepInfo): void {
  if (reportsTree(info)) summary.treeDepthSaturations = (summary.treeDepthSaturations ?? 0) + (info.treeDepthSaturated ? 1 : 0);
}

/** Whether delayed rejection's first stage diverged (then a second stage ran, whatever it did). */
export function firstStageDiverged(info: DelayedRejectionStepInfo): boolean {
  return info.firstStageDivergence !== undefined;
}
