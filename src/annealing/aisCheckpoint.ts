/**
 * An annealing run's full state at a temperature boundary, as plain data and typed arrays: what
 * `anneal` needs to continue the run so that it reaches exactly the log weight of the run never
 * stopped. After temperature k the run is x_k (moved at beta_1..beta_k, k < B), the log weight
 * sum_{j<=k} (beta_j - beta_{j-1}) h(x_{j-1}), its trace so far, and the generator's state (its words and the
 * held-back normal of the polar method). Nothing else carries over from one temperature to the
 * next: the transition kernel is built afresh at each temperature from the target there and
 * started at x (Kernel.init), draws a fresh momentum at each transition, and AIS adapts no step
 * size (the weights are only unbiased for transitions fixed in advance, Neal 2001, Section 3),
 * so there is no adaptation state to keep.
 */
import type { RngSnapshot } from "../random/rng.js";

/** Where one run stood after a temperature (also the run's trace). */
export interface AisPoint {
  /** Seconds of this run's computing so far. */
  seconds: number;
  temperature: number;
  logWeight: number;
}

/** The columns of a run's trace in its checkpoint. */
export const TRACE_COLUMNS = ["seconds", "temperature", "logWeight"] as const;

export interface AisRunCheckpoint {
  /** 0-based run index (the Rng stream). */
  run: number;
  dim: number;
  /** B, the run's number of temperatures, checked on resume. */
  temperatures: number;
  /** Temperatures done (0 to B): the increments of beta_1..beta_done are in logWeight. */
  done: number;
  /** x after the transitions at beta_done (the draw from the start when done = 0). */
  position: Float64Array;
  logWeight: number;
  rng: RngSnapshot;
  /** Transitions run so far, accepted ones and divergent ones. */
  tallies: { transitions: number; accepted: number; divergences: number };
  /** The trace so far by columns (AisPoint's fields), beta_0 first: done + 1 points. */
  trace: Record<(typeof TRACE_COLUMNS)[number], Float64Array>;
  /** Seconds of this run's computing so far. */
  seconds: number;
}

/** A checkpoint fits a run when it was made by run `run` of the same dimension and number of temperatures. */
export function checkAisResume(cp: AisRunCheckpoint, run: { run: number; dim: number; temperatures: number }): void {
  for (const key of ["run", "dim", "temperatures"] as const) {
    if (cp[key] !== run[key]) throw new RangeError(`anneal: the checkpoint is of a run with ${key} ${cp[key]}, this run has ${run[key]}`);
  }
  if (!Number.isInteger(cp.done) || cp.done < 0 || cp.done > run.temperatures) throw new RangeError(`anneal: checkpoint after temperature ${cp.done} of ${run.temperatures}`);
  if (cp.position.length !== run.dim || TRACE_COLUMNS.some((c) => cp.trace[c].length !== cp.done + 1)) throw new RangeError("anneal: the checkpoint's arrays do not fit its run");
}

/** Whether a checkpoint is of a run that reached beta = 1. */
export function aisCheckpointComplete(cp: AisRunCheckpoint): boolean {
  return cp.done === cp.temperatures;
}
