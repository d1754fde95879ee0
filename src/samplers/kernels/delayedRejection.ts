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
 */
import type { RandomSource } from "../../random/types.js";
import { addCost, type GeneralisedLeapfrog, type GeometryState } from "../integrators/generalisedLeapfrog.js";
import { checkPositiveInteger, metropolisDecision, rejectInto, type MetropolisOutcome } from "./metropolis.js";
import type { SecondStageOutcome, TrajectoryCost } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

export interface DelayedRejectionSettings {
  /** The second stage runs k L steps of e / k (an integer >= 2). */
  readonly factor: number;
  /** Energy rise above which a trajectory is divergent (the kernel's). */
  readonly threshold: number;
  /** The reversibility check's tolerance, or false (the kernel's). */
  readonly reversibility: number | false;
  /**
   * Test-only negative control: "no-ghost" accepts the second stage without asking whether the
   * first stage diverges from its end as well.
   * @internal
   */
  readonly broken?: FaultOf<"delayed-rejection">;
}

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

export class DelayedRejection {
  private readonly pEnd: Float64Array;
  private readonly ghost: Float64Array;

  constructor(private readonly leapfrog: GeneralisedLeapfrog, private readonly settings: DelayedRejectionSettings, n: number) {
    checkDelayedRejectionFactor(settings.factor);
    this.pEnd = new Float64Array(n);
    this.ghost = new Float64Array(n);
  }

  /**
   * beta(z): whether the first stage (`steps` steps of `eps`) diverges from (start, p), whose H is
   * `energy`; the same three outcomes that make the first stage divergent in rmhmc.ts: a solve or
   * the target failing, a non-finite energy, an energy rise above the threshold.
   */
  private diverges(start: GeometryState, p: Float64Array, energy: number, steps: number, eps: number, cost: TrajectoryCost): boolean {
    const lf = this.leapfrog;
    lf.p.set(p);
    lf.run(start, steps, eps);
    addCost(cost, lf.cost);
    const end = lf.geometry;
    if (lf.divergence || !end) return true;
    const rise = lf.hamiltonian(end, lf.p) - energy;
    if (end !== start.geometry) end.release?.();
    return !Number.isFinite(rise) || rise > this.settings.threshold;
  }

  /**
   * The second stage from (state, momentum), H there `h0`, after the first stage (`steps` of
   * `eps`) diverged; decides into `decision` with log u2 = `logUniform` and adds its work to `cost`.
   */
  run(state: GeometryState, momentum: Float64Array, h0: number, logUniform: number, steps: number, eps: number, cost: TrajectoryCost, decision: MetropolisOutcome): SecondStageResult {
    const { factor, threshold, reversibility } = this.settings;
    const lf = this.leapfrog;
    const eps2 = eps / factor;
    const steps2 = steps * factor;
    lf.p.set(momentum);
    lf.run(state, steps2, eps2);
    addCost(cost, lf.cost);
    const geometry = lf.geometry;
    if (lf.divergence || !geometry) {
      rejectInto(decision, lf.divergence ?? "numerical-error");
      return { proposal: undefined, energy: NaN, steps: steps2, outcome: "diverged" };
    }
    const energy = lf.hamiltonian(geometry, lf.p);
    metropolisDecision(energy - h0, logUniform, threshold, decision);
    if (!decision.accepted) {
      if (geometry !== state.geometry) geometry.release?.();
      return { proposal: undefined, energy, steps: steps2, outcome: decision.divergence ? "diverged" : "metropolis" };
    }
    const proposal: GeometryState = { position: lf.takeFinalPosition(), logDensity: geometry.logDensity, geometry };
    this.pEnd.set(lf.p);
    // the ghost: the first stage from z2 = (x2, -p2) must diverge too
    for (let i = 0; i < this.ghost.length; i++) this.ghost[i] = -this.pEnd[i];
    const reject = (why: "irreversible" | undefined, outcome: SecondStageOutcome): SecondStageResult => {
      decision.accepted = false;
      decision.divergence = why;
      geometry.release?.();
      return { proposal: undefined, energy, steps: steps2, outcome };
    };
    if (this.settings.broken !== "no-ghost" && !this.diverges(proposal, this.ghost, energy, steps, eps, cost)) return reject(undefined, "ghost");
    if (reversibility !== false && !lf.returnsToStart(state, momentum, proposal, this.pEnd, steps2, eps2, reversibility, cost)) return reject("irreversible", "irreversible");
    return { proposal, energy, steps: steps2, outcome: "moved" };
  }
}

/** log u for the second stage, drawn only when a first stage diverged. */
export function secondLogUniform(rng: RandomSource): () => number {
  return () => Math.log(rng.uniform());
}
