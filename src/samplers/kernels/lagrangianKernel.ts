/**
 * Riemannian manifold Lagrangian Monte Carlo (Lan, Stathopoulos, Shahbaba & Girolami 2015,
 * "Markov chain Monte Carlo from Lagrangian dynamics", J. Comput. Graph. Stat. 24, Section 3):
 * RMHMC's target and metric with an integrator that has no implicit equation, for Hessian
 * metrics (dG_ij/dx_k symmetric in all three indices): the latent GP target's K^-1 + diag(D(x))
 * with D_n a function of x_n alone (lagrangianMc.ts), logistic regression's X' Lambda X + I / alpha
 * (lagrangianDense.ts).
 *
 * Why. The generalised leapfrog's momentum equation (note eq. 13) is quadratic in the unknown
 * momentum, and at a given step it can lack a root near the start: RMHMC then rejects the
 * trajectory as divergent (rmhmc.ts). Here the dynamics are written in the velocity v = G^-1 p,
 *
 *   dx/dt = v,   dv/dt = -Gamma(x)(v, v) - G^-1 grad phi,   phi = -L + 1/2 log|G|,
 *
 * and each half step splits the quadratic Christoffel term between the old and the new velocity
 * (Lan et al., eqs. 15-17), which makes it linear in the new one. For a Hessian metric
 * Gamma^k_ij = 1/2 (G^-1 dG_i)_kj, so Omega(x, a) w = Gamma(x)(a, w) = 1/2 G^-1 dG[a] w with
 * dG[a] = sum_i a_i dG/dx_i, and a half step of h = e/2 at x from velocity a is
 *
 *   (G + e/4 dG[a]) v' = G a - e/2 grad phi:                                          (half step)
 *
 * one linear solve; a step is half step, x' = x + e v', half step at x'. The map is reversible
 * (negating the final velocity and integrating again returns to the start, because Omega(x, a) b
 * is symmetric in a and b) but does not preserve volume: the half step's Jacobian is
 * det(I - h Omega(x, v')) / det(I + h Omega(x, a)) = |G - e/4 dG[v']| / |G + e/4 dG[a]|, and the
 * accept step (Lan et al., Proposition 3.2) is
 *
 *   log u < E(x0, v0) - E(xL, vL) + sum log|Jacobian|,   E(x, v) = -L(x) - 1/2 log|G(x)| + 1/2 v' G(x) v,
 *
 * E being H(x, G v) less log|G|, the density of (x, v) when p ~ N(0, G). The reverse trajectory
 * factorises exactly the matrices the forward one does (in each half step the roles of the two
 * swap), so a trajectory that meets one that is not positive definite is rejected from either end
 * alike: the set of trajectories that are integrated is closed under reversal, which keeps
 * detailed balance (reported as divergence "numerical-error", as a target's numerical failure is).
 */
import type { RandomSource } from "../../random/types.js";
import type { LocalGeometry } from "../../targets/types.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import { checkPositive, isNumericalFailure, metropolisDecision, newMetropolisOutcome, rejectInto } from "./metropolis.js";
import { checkTrajectoryOptions, leapfrogStepCount, type TrajectoryOptions } from "../integrators/trajectoryOptions.js";
import type { DivergenceReason, Kernel, SamplerState, StepInfo, Tunable } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

export interface LagrangianOptions extends TrajectoryOptions {
  /**
   * Test-only negative control: "lagrangian-no-jacobian" drops the log-determinants from the accept step (as
   * if the map preserved volume).
   * @internal
   */
  broken?: FaultOf<"lagrangian">;
}

/** A trajectory that cannot go on (a matrix that is not positive definite, a non-finite point). */
export class LagrangianFailure extends Error {
  constructor(readonly reason: DivergenceReason) {
    super(reason);
  }
}

/** What the kernel needs of a metric family: the geometry, a half step, p carried to a new position. */
export interface LagrangianFamily<G extends LocalGeometry> {
  readonly dim: number;
  geometry(x: Float64Array): G;
  /** log|G(x)|, up to a constant of the target (the same at every x). */
  logDet(geo: G): number;
  /**
   * The half step at `geo` with step `eps`: on entry v = a and p = G a, gradPhi = grad phi; on
   * return v = v' and p = G v'. Returns the half step's log|Jacobian|; throws LagrangianFailure.
   */
  halfStep(geo: G, eps: number, v: Float64Array, p: Float64Array, gradPhi: Float64Array): number;
  /** p <- G(to) v, given p = G(from) v. */
  transport(from: G, to: G, v: Float64Array, p: Float64Array): void;
  /** out <- G v. */
  metricTimes(geo: G, v: Float64Array, out: Float64Array): void;
}

export interface LagrangianState<G extends LocalGeometry = LocalGeometry> extends SamplerState {
  readonly geometry: G;
}

export interface LagrangianKernel<G extends LocalGeometry = LocalGeometry> extends Kernel<LagrangianState<G>> {
  readonly tunable: Tunable;
  /**
   * `steps` steps from the state's position with the given velocity (p = G v formed by the
   * metric): the end position and velocity, the sum of the half steps' log-Jacobians, E at both
   * ends, and why it failed, if it did. For checks of the integrator.
   */
  trajectory(state: LagrangianState<G>, velocity: Float64Array, steps: number): {
    position: Float64Array; velocity: Float64Array; logJacobian: number; startEnergy: number; endEnergy: number; failure: DivergenceReason | undefined;
  };
}

export function lagrangianKernel<G extends LocalGeometry>(family: LagrangianFamily<G>, options: LagrangianOptions): LagrangianKernel<G> {
  const n = family.dim;
  const stepOptions = checkTrajectoryOptions(options);
  const { targetAcceptance, divergenceThreshold: threshold } = stepOptions;
  const noJacobian = options.broken === "lagrangian-no-jacobian";
  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance };
  const vector = () => new Float64Array(n);
  // zero: the momentum 0, so that dH/dx(x, 0) = grad phi (never written)
  const [v, p, gradPhi, zero] = [vector(), vector(), vector(), vector()];
  const positions: [Float64Array, Float64Array] = [vector(), vector()];
  const decision = newMetropolisOutcome();

  /** E(x, v) = -L - 1/2 log|G| + 1/2 v' p, p = G v. */
  function energy(geo: G): number {
    let vp = 0;
    for (let i = 0; i < n; i++) vp += v[i] * p[i];
    return -geo.logDensity - 0.5 * family.logDet(geo) + 0.5 * vp;
  }

  /** What `integrate` leaves: where it ended (x, its geometry; v and p in the kernel's buffers). */
  interface End { x: Float64Array; geo: G; logJacobian: number; steps: number; metricCalls: number; failure: DivergenceReason | undefined }

  /** `steps` steps of `eps` from (state, v) with p = G v in the buffers; geometries on the way are released. */
  function integrate(state: LagrangianState<G>, steps: number, eps: number): End {
    const geo0 = state.geometry;
    const end: End = { x: state.position, geo: geo0, logJacobian: 0, steps: 0, metricCalls: 0, failure: undefined };
    try {
      end.geo.hamiltonianGradient(zero, gradPhi);
      for (let l = 0; l < steps; l++) {
        end.logJacobian += family.halfStep(end.geo, eps, v, p, gradPhi);
        const xNew = positions[l & 1];
        for (let i = 0; i < n; i++) xNew[i] = end.x[i] + eps * v[i];
        const next = family.geometry(xNew);
        end.metricCalls++;
        if (!Number.isFinite(next.logDensity) || !Number.isFinite(next.logDetMetric)) throw new LagrangianFailure("non-finite");
        family.transport(end.geo, next, v, p);
        if (end.geo !== geo0) end.geo.release?.();
        end.geo = next;
        end.x = xNew;
        end.geo.hamiltonianGradient(zero, gradPhi);
        end.logJacobian += family.halfStep(end.geo, eps, v, p, gradPhi);
        end.steps = l + 1;
      }
    } catch (e) {
      if (e instanceof LagrangianFailure) end.failure = e.reason;
      else if (isNumericalFailure(e)) end.failure = "numerical-error";
      else throw e;
    }
    return end;
  }

  function init(x0: Float64Array): LagrangianState<G> {
    const position = initialPosition("rmhmc", x0, n);
    const geometry = family.geometry(position);
    finiteInitialLogDensity("rmhmc", geometry.logDensity);
    return { position, logDensity: geometry.logDensity, geometry };
  }

  function step(state: LagrangianState<G>, rng: RandomSource): { state: LagrangianState<G>; info: StepInfo } {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    const geo0 = state.geometry;
    // p ~ N(0, G(x0)), v = G^-1 p ~ N(0, G^-1)
    geo0.sampleMomentum(rng, p);
    geo0.applyInverse(p, v);
    const steps = leapfrogStepCount(stepOptions, rng, eps);
    const logUniform = Math.log(rng.uniform());
    const e0 = energy(geo0);
    const end = integrate(state, steps, eps);
    let e1 = NaN;
    let proposal: LagrangianState<G> | undefined;
    if (end.failure === undefined) {
      e1 = energy(end.geo);
      // log u < E0 - E1 + log|J|: metropolisDecision accepts on log u < -(energy error)
      metropolisDecision(e1 - e0 - (noJacobian ? 0 : end.logJacobian), logUniform, threshold, decision);
      if (decision.accepted) proposal = { position: end.x.slice(), logDensity: end.geo.logDensity, geometry: end.geo };
    } else {
      rejectInto(decision, end.failure);
    }
    if (!proposal && end.geo !== geo0) end.geo.release?.();
    const info: StepInfo = {
      accepted: decision.accepted,
      acceptanceProbability: decision.acceptanceProbability,
      divergent: decision.divergence !== undefined,
      divergence: decision.divergence,
      energy: decision.accepted ? e1 : e0,
      energyError: e1 - e0 - end.logJacobian,
      stepSize: eps,
      leapfrogSteps: end.steps,
      gradientCalls: 2 * end.steps,
      metricCalls: end.metricCalls,
      fixedPointIterations: 0,
    };
    return { state: proposal ?? state, info };
  }

  function trajectory(state: LagrangianState<G>, velocity: Float64Array, steps: number) {
    v.set(velocity);
    family.metricTimes(state.geometry, v, p);
    const e0 = energy(state.geometry);
    const end = integrate(state, steps, tunable.value);
    const out = { position: end.x.slice(), velocity: v.slice(), logJacobian: end.logJacobian, startEnergy: e0, endEnergy: end.failure ? NaN : energy(end.geo), failure: end.failure };
    if (end.geo !== state.geometry) end.geo.release?.();
    return out;
  }

  return { name: "rmhmc-lagrangian", tunable, init, step, trajectory };
}
