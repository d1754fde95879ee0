/**
 * Hamiltonian Monte Carlo with the Stormer-Verlet leapfrog (note eq. 9) and a constant mass
 * matrix M (note Section 2; Girolami & Calderhead Section 3, eqs. 5-7):
 *
 *   H(x, p) = -L(x) + 1/2 p' M^-1 p,   p ~ N(0, M),
 *   p(t + e/2) = p(t) + e/2 dL/dx(x(t))
 *   x(t + e)   = x(t) + e M^-1 p(t + e/2)
 *   p(t + e)   = p(t + e/2) + e/2 dL/dx(x(t + e))
 *
 * followed by the accept step of eq. (8). The dynamics are euclideanDynamics.ts's, the trajectory
 * staticTrajectory.ts's: the closing half-step of one leapfrog step and the opening half-step of
 * the next are merged into one full step, so a trajectory of l steps costs l gradient
 * evaluations. A trajectory that meets a non-finite density, gradient or energy, or whose energy
 * error exceeds the divergence threshold, is rejected and reported as divergent.
 */
import type { RandomSource } from "../../random/types.js";
import type { Target } from "../../targets/types.js";
import { euclideanDynamics, type EuclideanState } from "../integrators/euclideanDynamics.js";
import { identityMass, type MassMatrix } from "../integrators/massMatrix.js";
import { staticTrajectory, type TrajectoryEnd } from "../integrators/staticTrajectory.js";
import { checkPositive, hamiltonianStepInfo, metropolisDecision, newMetropolisOutcome, rejectInto } from "./metropolis.js";
import { checkTrajectoryOptions, leapfrogStepCount, type TrajectoryOptions } from "../integrators/trajectoryOptions.js";
import type { DivergenceReason, Kernel, StepInfo, Tunable } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

export interface HmcOptions extends TrajectoryOptions {
  /** The mass matrix (default: identity). */
  mass?: MassMatrix;
  /**
   * Test-only negative control: "potential-only" drops the kinetic energy from the accept step
   * (a wrong Metropolis correction), so the chain no longer leaves the target invariant.
   * @internal
   */
  broken?: FaultOf<"hmc">;
}

/** The position with L and dL/dx there (euclideanDynamics.ts). */
export type HmcState = EuclideanState;

/** A leapfrog trajectory from a given position and momentum (copies, owned by the caller). */
export interface HmcTrajectory {
  readonly position: Float64Array;
  readonly momentum: Float64Array;
  /** H at the start and at the end (NaN when the trajectory failed). */
  readonly startEnergy: number;
  readonly endEnergy: number;
  readonly divergence: DivergenceReason | undefined;
  readonly leapfrogSteps: number;
}

export interface HmcKernel extends Kernel<HmcState> {
  readonly tunable: Tunable;
  readonly mass: MassMatrix;
  /**
   * The transition from a given initial momentum and log u (u ~ U(0, 1)), with `steps` leapfrog
   * steps: what `step` does after drawing them.
   */
  transition(state: HmcState, momentum: Float64Array, logUniform: number, steps: number): { state: HmcState; info: StepInfo };
  /** Integrates `steps` leapfrog steps from (state.position, momentum). */
  integrate(state: HmcState, momentum: Float64Array, steps: number): HmcTrajectory;
}

export function hmc(target: Target, options: HmcOptions): HmcKernel {
  const n = target.dim;
  const trajectory = checkTrajectoryOptions(options);
  const { targetAcceptance, divergenceThreshold: threshold } = trajectory;
  const mass = options.mass ?? identityMass(n);
  const dynamics = euclideanDynamics(target, mass, "hmc");
  const potentialOnly = options.broken === "potential-only";

  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance };
  // Preallocated per kernel: the leapfrog loop allocates nothing.
  // The trajectory's point, the drawn momentum and how the last trajectory ended.
  const point = dynamics.newPoint();
  const drawn = new Float64Array(n);
  const last: TrajectoryEnd = { steps: 0, failure: undefined };
  const decision = newMetropolisOutcome();

  /** H at (state, momentum) placed in `point`, then `steps` leapfrog steps (eq. 9) from there; `last` says how they ended. */
  function run(state: HmcState, momentum: Float64Array, steps: number, eps: number): number {
    dynamics.place(state, momentum, point);
    const h0 = dynamics.energy(point);
    staticTrajectory(dynamics, point, eps, steps, last);
    return h0;
  }

  function integrate(state: HmcState, momentum: Float64Array, steps: number): HmcTrajectory {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    const startEnergy = run(state, momentum, steps, eps);
    const endEnergy = last.failure ? NaN : dynamics.energy(point);
    return { position: point.x.slice(), momentum: point.p.slice(), startEnergy, endEnergy, divergence: last.failure, leapfrogSteps: last.steps };
  }

  function transition(state: HmcState, momentum: Float64Array, logUniform: number, steps: number): { state: HmcState; info: StepInfo } {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    const h0 = run(state, momentum, steps, eps);
    const failure = last.failure;
    const h1 = failure ? NaN : dynamics.energy(point);
    const energyError = h1 - h0;
    if (failure) {
      rejectInto(decision, failure);
    } else if (potentialOnly) {
      // The negative control: accept on -L alone, as if the momentum were not part of the state.
      metropolisDecision(state.logDensity - point.lp, logUniform, threshold, decision);
    } else {
      metropolisDecision(energyError, logUniform, threshold, decision);
    }
    const info = hamiltonianStepInfo(decision, h0, h1, eps, last.steps, { gradientCalls: last.steps, metricCalls: 0, fixedPointIterations: 0 });
    const next = decision.accepted ? dynamics.state(point) : state;
    return { state: next, info };
  }

  function step(state: HmcState, rng: RandomSource): { state: HmcState; info: StepInfo } {
    mass.sampleMomentum(rng, drawn);
    const steps = leapfrogStepCount(trajectory, rng, tunable.value);
    const logUniform = Math.log(rng.uniform());
    return transition(state, drawn, logUniform, steps);
  }

  return { name: "hmc", tunable, mass, init: dynamics.init, step, transition, integrate };
}
