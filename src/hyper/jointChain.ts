/**
 * What every joint chain of (theta, f) offers (./schemes.ts, ./pseudoMarginal.ts): its state, one
 * iteration, the end of burn-in, and its whole state as numbers for a checkpoint.
 */
import type { OpCounts } from "../linalg/counters.js";
import type { RandomSource } from "../random/types.js";
import type { CountedStepInfo, StepInfo } from "../samplers/types.js";

/** What one iteration did: the latent transition, the theta transition(s), and its O(n^3) work. */
export interface IterationInfo {
  latent: StepInfo;
  theta: CountedStepInfo[];
  ops: OpCounts;
}

export interface JointChain {
  readonly t: Float64Array;
  readonly f: Float64Array;
  step(rng: RandomSource): IterationInfo;
  /** Ends burn-in: the adapted tunables keep their current values. */
  freeze(): void;
  /** log p(y, f, theta) at the current state (up to a constant; K's factor comes from the cache). */
  logDensity(): number;
  /** The current tunables (latent, theta). */
  tunables(): { latent: number | undefined; theta: number };
  /** The chain's whole state as numbers: theta, f, both tunables' adaptation, and the kernel cache (./jointChainState.ts). */
  saveState(): Float64Array;
  /** Continues from what saveState gave, on a chain made with the same problem and options. */
  restoreState(saved: Float64Array): void;
}
