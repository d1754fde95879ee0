/**
 * Hamiltonian Monte Carlo with the Stormer-Verlet leapfrog (note eq. 9) and a constant mass
 * matrix M (note Section 2; Girolami & Calderhead Section 3, eqs. 5-7):
 *
 *   H(x, p) = -L(x) + 1/2 p' M^-1 p,   p ~ N(0, M),
 *   p(t + e/2) = p(t) + e/2 dL/dx(x(t))
 *   x(t + e)   = x(t) + e M^-1 p(t + e/2)
 *   p(t + e)   = p(t + e/2) + e/2 dL/dx(x(t + e))
 *
 * followed by the accept step of eq. (8). The closing half-step of one leapfrog step and the
 * opening half-step of the next are merged into one full step, so a trajectory of l steps costs
 * l gradient evaluations. A trajectory that meets a non-finite density, gradient or energy, or
 * whose energy error exceeds the divergence threshold, is rejected and reported as divergent.
 */
import type { RandomSource } from "../../random/types.js";
import type { Target } from "../../targets/types.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import { identityMass, type MassMatrix } from "../integrators/massMatrix.js";
import { checkPositive, hamiltonianStepInfo, isNumericalFailure, metropolisDecision, newMetropolisOutcome, rejectInto } from "./metropolis.js";
import { checkTrajectoryOptions, leapfrogStepCount, type TrajectoryOptions } from "../integrators/trajectoryOptions.js";
import type { DivergenceReason, Kernel, SamplerState, StepInfo, Tunable } from "../types.js";
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

export interface HmcState extends SamplerState {
  /** dL/dx at the position. */
  readonly gradient: Float64Array;
}

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
  const gradientOf = target.logDensityAndGradient?.bind(target);
  if (!gradientOf) throw new Error("hmc: the target has no logDensityAndGradient");
  const gradientAlone = target.gradient?.bind(target);
  const trajectory = checkTrajectoryOptions(options);
  const { targetAcceptance, divergenceThreshold: threshold } = trajectory;
  const mass = options.mass ?? identityMass(n);
  if (mass.dim !== n) throw new RangeError(`hmc: the mass matrix has dimension ${mass.dim}, the target ${n}`);
  const potentialOnly = options.broken === "potential-only";

  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance };
  // Preallocated per kernel: the leapfrog loop allocates nothing.
  // x, dL/dx, the momentum, M^-1 p and the drawn momentum.
  const [x, g, p, v, drawn] = Array.from({ length: 5 }, () => new Float64Array(n));
  const decision = newMetropolisOutcome();

  function init(x0: Float64Array): HmcState {
    const position = initialPosition("hmc", x0, n);
    const gradient = new Float64Array(n);
    const logDensity = finiteInitialLogDensity("hmc", gradientOf!(position, gradient));
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(gradient[i])) throw new RangeError(`hmc: the gradient at the initial point has ${gradient[i]} at ${i}`);
    }
    return { position, logDensity, gradient };
  }

  // What the last `run` produced.
  const last = { logDensity: NaN, steps: 0, failure: undefined as DivergenceReason | undefined };

  /** `steps` leapfrog steps (eq. 9) from (state, p) in x, g, p; `last` says how it ended. */
  function run(state: HmcState, steps: number, eps: number): void {
    x.set(state.position);
    g.set(state.gradient);
    let lp = state.logDensity;
    last.steps = 0;
    last.failure = undefined;
    try {
      // eq. (9), first line: half-step of the momentum (U = -L, so -dU/dx = dL/dx).
      for (let i = 0; i < n; i++) p[i] += 0.5 * eps * g[i];
      for (let l = 1; l <= steps; l++) {
        // eq. (9), second line: x <- x + e dK/dp = x + e M^-1 p.
        mass.applyInverse(p, v);
        for (let i = 0; i < n; i++) x[i] += eps * v[i];
        // Inside the trajectory only the gradient is needed; the density at its end.
        const inside = gradientAlone !== undefined && l < steps;
        if (inside) gradientAlone(x, g);
        else lp = gradientOf!(x, g);
        last.steps = l;
        // eq. (9), third line, merged with the next step's first line when one follows.
        const h = l === steps ? 0.5 * eps : eps;
        let sum = 0;
        for (let i = 0; i < n; i++) {
          p[i] += h * g[i];
          sum += g[i];
        }
        if (!Number.isFinite(inside ? sum : lp)) {
          last.failure = "non-finite";
          break;
        }
      }
    } catch (e) {
      if (!isNumericalFailure(e)) throw e;
      last.failure = "numerical-error";
    }
    last.logDensity = lp;
  }

  function integrate(state: HmcState, momentum: Float64Array, steps: number): HmcTrajectory {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    p.set(momentum);
    const startEnergy = -state.logDensity + mass.kineticEnergy(p);
    run(state, steps, eps);
    const endEnergy = last.failure ? NaN : -last.logDensity + mass.kineticEnergy(p);
    return { position: x.slice(), momentum: p.slice(), startEnergy, endEnergy, divergence: last.failure, leapfrogSteps: last.steps };
  }

  function transition(state: HmcState, momentum: Float64Array, logUniform: number, steps: number): { state: HmcState; info: StepInfo } {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    p.set(momentum);
    const h0 = -state.logDensity + mass.kineticEnergy(p);
    run(state, steps, eps);
    const lp = last.logDensity;
    const failure = last.failure;
    const h1 = failure ? NaN : -lp + mass.kineticEnergy(p);
    const energyError = h1 - h0;
    if (failure) {
      rejectInto(decision, failure);
    } else if (potentialOnly) {
      // The negative control: accept on -L alone, as if the momentum were not part of the state.
      metropolisDecision(state.logDensity - lp, logUniform, threshold, decision);
    } else {
      metropolisDecision(energyError, logUniform, threshold, decision);
    }
    const info = hamiltonianStepInfo(decision, h0, h1, eps, last.steps, { gradientCalls: last.steps, metricCalls: 0, fixedPointIterations: 0 });
    const next = decision.accepted ? { position: x.slice(), logDensity: lp, gradient: g.slice() } : state;
    return { state: next, info };
  }

  function step(state: HmcState, rng: RandomSource): { state: HmcState; info: StepInfo } {
    mass.sampleMomentum(rng, drawn);
    const steps = leapfrogStepCount(trajectory, rng, tunable.value);
    const logUniform = Math.log(rng.uniform());
    return transition(state, drawn, logUniform, steps);
  }

  return { name: "hmc", tunable, mass, init, step, transition, integrate };
}
