/**
 * A second stage for RMHMC's divergent trajectories: delayed rejection (Tierney & Mira 1999;
 * Green & Mira 2001), as Modi, Barnett & Carpenter (2023) use it for HMC, triggered by a
 * divergence only.
 *
 * A divergent trajectory of the generalised leapfrog (rmhmc.ts) is one whose implicit momentum
 * equation (note eq. 13) has no root near the start at the chain's step size, or one that breaks
 * down numerically or whose energy rises above the divergence threshold. Rejecting it is correct
 * but leaves the chain where it is, and the regions where this happens are then visited less than
 * they should be. Here, when the first trajectory (step e, L steps) diverges, a second one is
 * integrated from the same position and momentum with step e / k and k L steps (the same
 * integration time), and its end z2 is accepted with probability
 *
 *   alpha2(z0, z2) = min(1, exp(H(z0) - H(z2))) * [the first stage diverges from z2],
 *
 * where "the first stage from z2" is the e, L trajectory from z2's position with its momentum
 * negated (the ghost trajectory of Modi et al.), and z2 must pass the reversibility check of the
 * second stage's own integrator. Why this keeps exp(-H) invariant: write z -> F(Leap(z)) for a
 * stage's map (F negates the momentum); it is a volume-preserving involution on the points where
 * its solves converge and its way back returns (rmhmc.ts). A move z0 -> z2 of the second stage
 * happens with density pi(z0) beta(z0) alpha2(z0, z2), beta(z) = [the first stage diverges from
 * z], which is beta(z0) beta(z2) min(pi(z0), pi(z2)): symmetric in z0 and z2, which is detailed
 * balance. Divergence of the first stage is a deterministic function of the position, the momentum,
 * e and L, all fixed within a transition (L is drawn before it, e is fixed after burn-in), so the
 * ghost decides it exactly as the first stage did. (Triggering the second stage on every rejection
 * would need min(1, .) of the first stage in place of beta, and a ghost trajectory for every
 * rejected proposal; triggered by divergence alone it costs nothing where no trajectory diverges.)
 *
 * The second stage and the ghost run over the first stage's dynamics (integrators/dynamics.ts;
 * the generalised leapfrog is one) on a point of their own, by `stepTrajectory`.
 */
import type { RandomSource } from "../../random/types.js";
import type { Dynamics, PhasePoint } from "../integrators/dynamics.js";
import { addCost, type GeometryState } from "../integrators/generalisedLeapfrog.js";
import { stepTrajectory, type TrajectoryEnd } from "../integrators/staticTrajectory.js";
import { checkPositiveInteger, metropolisDecision, rejectInto, type MetropolisOutcome } from "./metropolis.js";
import type { SecondStageOutcome, TrajectoryCost } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** The kernel's reversibility check of a proposal (end, pEnd) reached from (start, p0) in `steps` of `eps`, its work added to `cost`. */
export type ReversibilityCheck = (start: GeometryState, p0: Float64Array, end: GeometryState, pEnd: Float64Array, steps: number, eps: number, cost: TrajectoryCost) => boolean;

export interface DelayedRejectionSettings {
  /** The second stage runs k L steps of e / k (an integer >= 2). */
  readonly factor: number;
  /** Energy rise above which a trajectory is divergent (the kernel's). */
  readonly threshold: number;
  /** The kernel's reversibility check, or undefined: none. */
  readonly returnsToStart: ReversibilityCheck | undefined;
  /**
   * Test-only negative control: "no-ghost" accepts the second stage without asking whether the
   * first stage diverges from its end as well.
   * @internal
   */
  readonly broken?: FaultOf<"delayed-rejection">;
}

/**
 * The dynamics the second stage runs over (dynamics.ts): the first stage's, on positions with a
 * geometry (the generalised leapfrog, generalisedLeapfrog.ts), started from a given momentum,
 * counting their work and releasing the ends not kept.
 */
export type SecondStageDynamics<P extends PhasePoint> = Dynamics<P, GeometryState> & Required<Pick<Dynamics<P, GeometryState>, "place" | "cost" | "release">>;

/** What the second stage did: the proposal (when accepted), H at its end, its leapfrog steps, how it ended. */
export interface SecondStageResult {
  proposal: GeometryState | undefined;
  energy: number;
  steps: number;
  outcome: SecondStageOutcome;
}

function checkDelayedRejectionFactor(factor: number): void {
  checkPositiveInteger("delayedRejection", factor);
  if (factor < 2) throw new RangeError(`rmhmc: delayedRejection must be an integer of at least 2 (the second stage's step is e / k), got ${factor}`);
}

export class DelayedRejection<P extends PhasePoint> {
  private readonly point: P;
  private readonly end: TrajectoryEnd = { steps: 0, failure: undefined };
  private readonly pEnd: Float64Array;
  private readonly ghost: Float64Array;

  constructor(private readonly dynamics: SecondStageDynamics<P>, private readonly settings: DelayedRejectionSettings) {
    checkDelayedRejectionFactor(settings.factor);
    this.point = dynamics.newPoint();
    this.pEnd = new Float64Array(dynamics.dim);
    this.ghost = new Float64Array(dynamics.dim);
  }

  /** `steps` steps of `eps` from (start, p) in the point, the work added to `cost`; whether none failed. */
  private integrate(start: GeometryState, p: Float64Array, steps: number, eps: number, cost: TrajectoryCost): boolean {
    this.dynamics.place(start, p, this.point);
    stepTrajectory(this.dynamics, this.point, eps, steps, this.end);
    addCost(cost, this.dynamics.cost);
    return this.end.failure === undefined;
  }

  /**
   * beta(z): whether the first stage (`steps` steps of `eps`) diverges from (start, p), whose H is
   * `energy`; the same three outcomes that make the first stage divergent in rmhmc.ts: a solve or
   * the target failing, a non-finite energy, an energy rise above the threshold.
   */
  private diverges(start: GeometryState, p: Float64Array, energy: number, steps: number, eps: number, cost: TrajectoryCost): boolean {
    if (!this.integrate(start, p, steps, eps, cost)) return true;
    const rise = this.dynamics.energy(this.point) - energy;
    this.dynamics.release(this.point);
    return !Number.isFinite(rise) || rise > this.settings.threshold;
  }

  /**
   * The second stage from (state, momentum), H there `h0`, after the first stage (`steps` of
   * `eps`) diverged; decides into `decision` with log u2 = `logUniform` and adds its work to `cost`.
   */
  run(state: GeometryState, momentum: Float64Array, h0: number, logUniform: number, steps: number, eps: number, cost: TrajectoryCost, decision: MetropolisOutcome): SecondStageResult {
    const { factor, threshold, returnsToStart } = this.settings;
    const dyn = this.dynamics;
    const eps2 = eps / factor;
    const steps2 = steps * factor;
    if (!this.integrate(state, momentum, steps2, eps2, cost)) {
      rejectInto(decision, this.end.failure!);
      return { proposal: undefined, energy: NaN, steps: steps2, outcome: "diverged" };
    }
    const energy = dyn.energy(this.point);
    metropolisDecision(energy - h0, logUniform, threshold, decision);
    if (!decision.accepted) {
      dyn.release(this.point);
      return { proposal: undefined, energy, steps: steps2, outcome: decision.divergence ? "diverged" : "metropolis" };
    }
    this.pEnd.set(dyn.momentum(this.point));
    const proposal = dyn.state(this.point);
    // the ghost: the first stage from z2 = (x2, -p2) must diverge too
    for (let i = 0; i < this.ghost.length; i++) this.ghost[i] = -this.pEnd[i];
    const reject = (why: "irreversible" | undefined, outcome: SecondStageOutcome): SecondStageResult => {
      decision.accepted = false;
      decision.divergence = why;
      proposal.geometry.release?.();
      return { proposal: undefined, energy, steps: steps2, outcome };
    };
    if (this.settings.broken !== "no-ghost" && !this.diverges(proposal, this.ghost, energy, steps, eps, cost)) return reject(undefined, "ghost");
    if (returnsToStart && !returnsToStart(state, momentum, proposal, this.pEnd, steps2, eps2, cost)) return reject("irreversible", "irreversible");
    return { proposal, energy, steps: steps2, outcome: "moved" };
  }
}

/** log u for the second stage, drawn only when a first stage diverged. */
export function secondLogUniform(rng: RandomSource): () => number {
  return () => Math.log(rng.uniform());
}
