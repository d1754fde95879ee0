/**
 * The Hamiltonian dynamics the trajectory-based kernels run over: NUTS (kernels/nuts.ts, `nutsOn`)
 * builds its trees over a `Dynamics`, static HMC (kernels/hmc.ts) runs `staticTrajectory`
 * (staticTrajectory.ts) over one, and RMHMC's delayed rejection (kernels/delayedRejection.ts)
 * runs its second stage over one. The kernel owns the tree, the number of steps and the accept
 * step; the dynamics own the coordinates, the integrator and the Hamiltonian.
 *
 * A phase point P is a point (x, p) of phase space as the dynamics store it: its position and
 * momentum in whatever coordinates they integrate in (Euclidean x and p; f and R p in Laplace-
 * whitened coordinates, laplaceDynamics.ts; x with its local geometry and p for the generalised
 * leapfrog, generalisedLeapfrog.ts), with the log density L(x) at it and whatever else a step
 * reuses (the gradient, the geometry). Points are made once per kernel by `newPoint` and moved in
 * place: nothing is allocated per step.
 *
 * The contract of `step(point, eps)`: one step of a reversible, volume-preserving integrator of
 * H = -L(x) + K(x, p) for a time eps, in place. Reversible means that a step of -eps undoes a step
 * of eps (in exact arithmetic; for an implicit integrator, where its solves converge to the same
 * roots), so that a trajectory's end with its momentum negated runs back to the start with the
 * momentum negated; this and volume preservation are what make the accept step (or NUTS's
 * multinomial draw) leave exp(-H) invariant. A step that cannot be completed either throws a
 * numerical failure (metropolis.ts's `isNumericalFailure`) or returns why (a `DivergenceReason`);
 * kernels treat both as a divergence.
 *
 * `energy(point)` is H at the point; `start` draws a momentum from the dynamics' own distribution
 * (p ~ N(0, M), or N(0, G(x))); `momentum` and `sharp` give p and p_sharp = dK/dp, what NUTS's
 * no-U-turn criterion sums and dots.
 */
import type { RandomSource } from "../../random/types.js";
import type { DivergenceReason, SamplerState, TrajectoryCost } from "../types.js";

/** A point in phase space: what the dynamics store (see the module comment), and its log density L. */
export interface PhasePoint {
  lp: number;
}

/** A Hamiltonian system integrated one step at a time (see the module comment). */
export interface Dynamics<P extends PhasePoint, S extends SamplerState> {
  readonly dim: number;
  newPoint(): P;
  copy(from: P, to: P): void;
  /** Copies what `state` and `energy` read (default: `copy`): for the sampled points, which no step starts from. */
  copyState?(from: P, to: P): void;
  /** The state as a point of phase space, with a momentum drawn from the dynamics' distribution. */
  start(state: S, rng: RandomSource, to: P): void;
  /** The state as a point of phase space with the momentum given (copied): a trajectory from a given start. */
  place?(state: S, momentum: Float64Array, to: P): void;
  /**
   * One step of `eps` (negative: backwards in time), in place; a failure throws a numerical
   * failure or returns its reason.
   */
  step(point: P, eps: number): DivergenceReason | void;
  /** H = -L + kinetic energy (+ 1/2 log|G| for a position-dependent metric). */
  energy(point: P): number;
  /** The momentum (summed into NUTS's rho) and p_sharp = dK/dp (dotted with rho); may be one array. */
  momentum(point: P): Float64Array;
  sharp(point: P): Float64Array;
  /** The chain state at a point (a new object). */
  state(point: P): S;
  init(x0: Float64Array): S;
  /** Where the dynamics count their work: that of the steps since the last `start` or `place`. */
  readonly cost?: TrajectoryCost;
  /** A trajectory's end that is not kept: what the point holds beyond its start goes back to the target. */
  release?(point: P): void;
}

/**
 * Dynamics whose step is the leapfrog kick(e/2) drift(e) kick(e/2) of a separable H = -L(x) +
 * K(p), given in its parts so that a static trajectory merges the closing kick of one step with
 * the opening kick of the next (one kick of e): L steps are kick(e/2) [drift(e) kick(e)]^(L-1)
 * drift(e) kick(e/2), one force evaluation per step (staticTrajectory.ts).
 */
export interface SplitDynamics<P extends PhasePoint, S extends SamplerState> extends Dynamics<P, S> {
  /** p <- p + h F(x), F = dL/dx at the point; returns the sum of F's entries (finite exactly when F is). */
  kick(point: P, h: number): number;
  /**
   * x <- x + eps dK/dp, then F at the new x, and L there when `density` is asked for or the
   * dynamics have no cheaper way to F alone; returns whether `lp` was updated.
   */
  drift(point: P, eps: number, density: boolean): boolean;
}
