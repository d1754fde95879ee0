/**
 * Riemannian manifold HMC (Girolami & Calderhead 2011, Section 5; note Section 3 and
 * Algorithm 1) on any target that offers a local geometry. With a position-dependent metric G(x)
 * the Hamiltonian (note eq. 11, dropping the constant N/2 log 2 pi as Algorithm 2 does)
 *
 *   H(x, p) = -L(x) + 1/2 log|G(x)| + 1/2 p' G(x)^-1 p
 *
 * is not separable, and each step of the generalised leapfrog (note eqs. 13-15; G&C eqs. 22-24)
 *
 *   p'    = p - e/2 dH/dx(x, p')                                  (13)  implicit in p'
 *   x_new = x + e/2 [G(x)^-1 p' + G(x_new)^-1 p']                 (14)  implicit in x_new
 *   p_new = p' - e/2 dH/dx(x_new, p')                             (15)  explicit
 *
 * solves two implicit equations by fixed-point iteration: Algorithm 1 lines 13-17 for (13),
 * lines 18-25 for (14), lines 26-27 for (15).
 *
 * Fixed points. By default each implicit equation is iterated until successive iterates agree to
 * `fixedPointTolerance` (max_j |a_j - b_j| / (1 + |a_j|)); a solve that has not converged after
 * `maxFixedPointIterations` rejects the proposal as a divergence, because only a converged solve
 * gives the reversible, volume-preserving map the accept step relies on. `fixedPointIterations`
 * instead runs a fixed count (the note's f_max = 5), which reproduces the note's chains but is
 * only approximately reversible. With a tolerance both iterations are Anderson-accelerated
 * (generalisedLeapfrog.ts): the test and the returned value stay those of the plain iteration,
 * only the points it is evaluated at change, so the roots are the same, reached in fewer
 * iterations, and solves whose plain iteration contracts too slowly for the cap no longer fail.
 *
 * Reversibility check. Convergence of each solve is not enough: where G(x) changes fast (GP
 * classification with a large prior scale, where Lambda(x) switches between ~beta and ~0 as a
 * label goes from misclassified to well classified) the fixed-point iteration from the reverse
 * end can converge to another root or to none, and accepting such a proposal breaks detailed
 * balance (Zappa, Holmes-Cerfon & Goodman 2018; Brofos & Lederman 2021). So a proposal that
 * passes the Metropolis test is integrated back from (x_L, -p_L) with the same number of steps
 * and accepted only if that returns to (x_0, -p_0) to `reversibilityTolerance`; otherwise the
 * transition is rejected as divergent ("irreversible"). Positions are compared in the relative
 * max-norm of the fixed points, momenta in the norm of G(x_0)^-1 over sqrt(n) (a momentum drawn
 * from N(0, G) has length about 1 in it). The solves' own errors come back amplified by the
 * trajectory when K is ill-conditioned (up to ~1e-3 on a 20-point problem with fixed points to
 * 1e-8), while another root shows as a difference of order 1 (at the USPS scale below, nothing
 * between 1e-4 and 1), hence the default 1e-2. It costs a second trajectory for each accepted
 * proposal. On by default with a fixed-point tolerance, off by default with a fixed count (the
 * note's chains); `false` turns it off. Without it, at the note's USPS prior scale (s = exp(5.1)) a transition started
 * from exact draws of the target moves the mean by many standard errors
 * (test/integration/gpInvarianceScale.test.ts).
 *
 * Two variants of the same integrator:
 * - "reference", Algorithm 1 as written: the momentum is drawn through chol(G^-1) of the dense
 *   inverse metric (lines 5-7), and every position fixed-point iteration recomputes the whole
 *   geometry at x_new (line 22).
 * - "fast": the momentum is drawn by the geometry's own sampler, and inside the position loop
 *   only G(x_new)^-1 p' is formed, through Target.inverseMetricAt when the target offers it;
 *   the full geometry (log|G|, dL/dx, what dH/dx needs) is computed once per leapfrog step, at
 *   the converged x_new. From the same position and momentum both give the same trajectory.
 *
 * The integrator (eqs. 13-15, Algorithm 1 lines 10-29) and the reversibility check live in
 * generalisedLeapfrog.ts; this file draws the momentum (lines 5-7), computes H at both ends
 * (lines 8 and 28) and makes the accept step (lines 30-35).
 */
import { cholesky } from "../../linalg/cholesky.js";
import type { RandomSource } from "../../random/types.js";
import type { LocalGeometry, Target } from "../../targets/types.js";
import { DelayedRejection, secondLogUniform } from "./delayedRejection.js";
import { addCost, GeneralisedLeapfrog } from "../integrators/generalisedLeapfrog.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import type { KineticEnergy } from "../integrators/kineticEnergy.js";
import { checkPositive, checkPositiveInteger, hamiltonianStepInfo, metropolisDecision, newMetropolisOutcome, rejectInto } from "./metropolis.js";
import { checkTrajectoryOptions, leapfrogStepCount, type TrajectoryOptions } from "../integrators/trajectoryOptions.js";
import type { DelayedRejectionStepInfo, DivergenceReason, Kernel, SamplerState, TrajectoryCost, Tunable } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

export type RmhmcVariant = "fast" | "reference";

/** The default relative tolerance of the fixed-point iterations. */
export const DEFAULT_FIXED_POINT_TOLERANCE = 1e-8;
/** The default relative tolerance of the reversibility check (with a fixed-point tolerance). */
export const DEFAULT_REVERSIBILITY_TOLERANCE = 1e-2;

function releaseGeometry(geometry: LocalGeometry): void {
  geometry.release?.();
}

export interface RmhmcOptions extends TrajectoryOptions {
  /** Iterate each implicit equation until successive iterates agree to this (default 1e-8, when `fixedPointIterations` is not given). */
  fixedPointTolerance?: number;
  /** Run exactly this many fixed-point iterations per implicit equation (the note's f_max = 5). Excludes `fixedPointTolerance`. */
  fixedPointIterations?: number;
  /** With a tolerance: the iteration count after which an unconverged solve is a divergence (default 50). */
  maxFixedPointIterations?: number;
  /** "fast" (default) or "reference" (Algorithm 1 as written). */
  variant?: RmhmcVariant;
  /**
   * With a tolerance, how the momentum equation (13) is solved: "anderson" (default), its
   * fixed-point iteration with Anderson acceleration, as the position equation (14) always is;
   * "plain", the iteration of Algorithm 1 lines 13-17 (for comparison).
   */
  momentumSolve?: "anderson" | "plain";
  /**
   * Accept only proposals from which the integrator returns to the start (see the module
   * comment), to this tolerance; `false`: no check. Default 1e-2 with a fixed-point tolerance,
   * `false` with `fixedPointIterations`.
   */
  reversibilityTolerance?: number | false;
  /**
   * The kinetic energy (kineticEnergy.ts): undefined or Gaussian, p ~ N(0, G(x)); or Student-t,
   * p ~ t_nu(0, G(x)) (Girolami & Calderhead 2011, Section 7.3; kernel name "rmhmc-t").
   */
  kineticEnergy?: KineticEnergy;
  /**
   * Delayed rejection of divergent trajectories (delayedRejection.ts): when the first trajectory
   * diverges, a second one with step e / k and k L steps from the same start, accepted by the rule
   * that keeps the target invariant. k, an integer >= 2; undefined or false: off (default).
   */
  delayedRejection?: number | false;
  /** @internal Test-only negative control of the second stage (delayedRejection.ts). */
  broken?: FaultOf<"delayed-rejection">;
}

export interface RmhmcState extends SamplerState {
  /** The local geometry at the position (Algorithm 1 keeps it across iterations: lines 3, 9, 34). */
  readonly geometry: LocalGeometry;
}

/** A trajectory of the generalised leapfrog from a given position and momentum (copies, owned by the caller). */
export interface Trajectory {
  /** Final position (the start if no step completed). */
  readonly position: Float64Array;
  /** Final momentum. */
  readonly momentum: Float64Array;
  /** Geometry at the final position (undefined after a numerical failure). */
  readonly geometry: LocalGeometry | undefined;
  /** H at the start and at the end (NaN when the trajectory diverged). */
  readonly startEnergy: number;
  readonly endEnergy: number;
  /** Why the trajectory was abandoned, if it was. */
  readonly divergence: DivergenceReason | undefined;
  readonly leapfrogSteps: number;
  readonly fixedPointIterations: number;
  readonly gradientCalls: number;
  readonly metricCalls: number;
  readonly inverseMetricCalls: number;
}

export interface RmhmcKernel extends Kernel<RmhmcState, DelayedRejectionStepInfo> {
  readonly tunable: Tunable;
  readonly variant: RmhmcVariant;
  /** out <- a momentum draw from N(0, G(x)) the way this variant draws it. */
  sampleMomentum(state: RmhmcState, rng: RandomSource, out: Float64Array): void;
  /** H(x, p) at the state's position (Algorithm 2, without N/2 log 2 pi). */
  hamiltonian(state: RmhmcState, momentum: Float64Array): number;
  /** Integrates `steps` generalised leapfrog steps from (state.position, momentum). */
  integrate(state: RmhmcState, momentum: Float64Array, steps: number): Trajectory;
  /**
   * The transition from a given initial momentum and log u (u ~ U(0, 1)) with `steps` leapfrog
   * steps: what `step` does after drawing them (Algorithm 1 lines 8-35). With delayed rejection,
   * `secondLogUniform` gives log u of the second stage, asked for only when the first diverges.
   */
  transition(state: RmhmcState, momentum: Float64Array, logUniform: number, steps: number, secondLogUniform?: () => number): { state: RmhmcState; info: DelayedRejectionStepInfo };
}

export function rmhmc(target: Target, options: RmhmcOptions): RmhmcKernel {
  const n = target.dim;
  const geometryAt = target.geometry?.bind(target);
  if (!geometryAt) throw new Error("rmhmc: the target has no local geometry (Target.geometry)");
  const variant: RmhmcVariant = options.variant ?? "fast";
  if (variant !== "fast" && variant !== "reference") throw new RangeError(`rmhmc: variant must be "fast" or "reference", got ${String(variant)}`);
  const trajectory = checkTrajectoryOptions(options);
  const { targetAcceptance, divergenceThreshold: threshold } = trajectory;

  if (options.fixedPointIterations !== undefined && options.fixedPointTolerance !== undefined) {
    throw new RangeError("rmhmc: give fixedPointTolerance or fixedPointIterations, not both");
  }
  const fixedCount = options.fixedPointIterations;
  if (fixedCount !== undefined) checkPositiveInteger("fixedPointIterations", fixedCount);
  const tolerance = options.fixedPointTolerance ?? DEFAULT_FIXED_POINT_TOLERANCE;
  checkPositive("fixedPointTolerance", tolerance);
  const maxIterations = options.maxFixedPointIterations ?? 50;
  checkPositiveInteger("maxFixedPointIterations", maxIterations);
  const momentumSolve = options.momentumSolve ?? "anderson";
  if (momentumSolve !== "anderson" && momentumSolve !== "plain") throw new RangeError(`rmhmc: momentumSolve must be "anderson" or "plain", got ${String(momentumSolve)}`);
  const reversibility = options.reversibilityTolerance ?? (fixedCount === undefined ? DEFAULT_REVERSIBILITY_TOLERANCE : false);
  if (reversibility !== false) checkPositive("reversibilityTolerance", reversibility);

  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance };
  const leapfrog = new GeneralisedLeapfrog(n, {
    geometryAt,
    inverseAt: variant === "fast" ? target.inverseMetricAt?.bind(target) : undefined,
    fixedCount,
    tolerance,
    // In fixed-count mode the loops stop at the count; with a tolerance, at convergence or the maximum.
    iterationCap: fixedCount ?? maxIterations,
    accelerateMomentum: fixedCount === undefined && momentumSolve === "anderson",
    kinetic: options.kineticEnergy?.name === "student-t" ? options.kineticEnergy : undefined,
  });
  const kinetic = options.kineticEnergy;
  const p = leapfrog.p;
  const delayed = options.delayedRejection === undefined || options.delayedRejection === false ? undefined
    : new DelayedRejection(leapfrog, {
      factor: options.delayedRejection,
      threshold,
      returnsToStart: reversibility === false ? undefined : (s, p0, end, pEnd, steps, eps, cost) => leapfrog.returnsToStart(s, p0, end, pEnd, steps, eps, reversibility, cost),
      broken: options.broken,
    });
  const drawn = new Float64Array(n);
  const pEnd = new Float64Array(n); // the proposal's momentum, while the check integrates back
  const decision = newMetropolisOutcome();

  /** Line 3 (Algorithm 1): the geometry at x0. */
  function init(x0: Float64Array): RmhmcState {
    const position = initialPosition("rmhmc", x0, n);
    const geometry = geometryAt!(position);
    finiteInitialLogDensity("rmhmc", geometry.logDensity);
    if (!Number.isFinite(geometry.logDetMetric)) throw new RangeError(`rmhmc: log|G| at the initial point is ${geometry.logDetMetric}`);
    if (variant === "reference" && !geometry.inverseMetricMatrix) {
      throw new Error("rmhmc: the reference variant draws momentum through chol(G^-1) and needs LocalGeometry.inverseMetricMatrix");
    }
    return { position, logDensity: geometry.logDensity, geometry };
  }

  /** Lines 5-7: p ~ N(0, G(x)), by the geometry's own sampler or, as written, through chol(G^-1). */
  function sampleMomentum(state: RmhmcState, rng: RandomSource, out: Float64Array): void {
    const geo = state.geometry;
    if (variant === "fast") {
      geo.sampleMomentum(rng, out);
      kinetic?.scaleMomentum(rng, out);
      return;
    }
    // L = chol(G^-1), z ~ N(0, I), p = L' \ z, so cov(p) = (L L')^-1 = G.
    const inv = geo.inverseMetricMatrix!();
    const ch = cholesky(inv, { what: "G(x)^-1", skipFiniteCheck: true });
    for (let i = 0; i < n; i++) out[i] = rng.normal();
    ch.solveUpperInPlace(out);
    kinetic?.scaleMomentum(rng, out);
  }

  /** Lines 8-29 without the accept step: H at the start, the trajectory, H at the end. */
  function integrate(state: RmhmcState, momentum: Float64Array, steps: number): Trajectory {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    p.set(momentum);
    const startEnergy = leapfrog.hamiltonian(state.geometry, p);
    leapfrog.run(state, steps, eps);
    const end = leapfrog.geometry;
    const endEnergy = leapfrog.divergence || !end ? NaN : leapfrog.hamiltonian(end, p);
    const position = leapfrog.divergence ? leapfrog.position.slice() : leapfrog.takeFinalPosition();
    return {
      position,
      momentum: p.slice(),
      geometry: leapfrog.divergence ? undefined : end,
      startEnergy,
      endEnergy,
      divergence: leapfrog.divergence,
      leapfrogSteps: leapfrog.steps,
      ...leapfrog.cost,
    };
  }

  /**
   * Lines 8-35: H at the start (line 8), the trajectory (lines 10-29), H at its end (line 28) and
   * the accept step (lines 30-35), then the reversibility check of an accepted proposal.
   */
  function transition(state: RmhmcState, momentum: Float64Array, logUniform: number, steps: number, secondLogUniform?: () => number): { state: RmhmcState; info: DelayedRejectionStepInfo } {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    p.set(momentum);
    const h0 = leapfrog.hamiltonian(state.geometry, p); // line 8
    leapfrog.run(state, steps, eps); // lines 10-29
    const cost: TrajectoryCost = { gradientCalls: 0, metricCalls: 0, inverseMetricCalls: 0, fixedPointIterations: 0 };
    addCost(cost, leapfrog.cost);
    const forwardSteps = leapfrog.steps;
    let h1 = NaN;
    let proposal: RmhmcState | undefined;
    if (!leapfrog.divergence && leapfrog.geometry) {
      h1 = leapfrog.hamiltonian(leapfrog.geometry, p); // line 28
      metropolisDecision(h1 - h0, logUniform, threshold, decision); // lines 30-35
      if (decision.accepted) {
        const geometry = leapfrog.geometry;
        proposal = { position: leapfrog.takeFinalPosition(), logDensity: geometry.logDensity, geometry };
        pEnd.set(p);
        if (reversibility !== false && !leapfrog.returnsToStart(state, momentum, proposal, pEnd, steps, eps, reversibility, cost)) {
          decision.accepted = false;
          decision.divergence = "irreversible";
          releaseGeometry(proposal.geometry);
          proposal = undefined;
        }
      }
      // a rejected proposal's geometry is not kept
      else if (leapfrog.geometry !== state.geometry) releaseGeometry(leapfrog.geometry);
    } else {
      rejectInto(decision, leapfrog.divergence ?? "numerical-error");
    }
    // A divergence that is not the reversibility check's: the first stage diverged from z0.
    const first = decision.divergence;
    if (delayed && secondLogUniform && first !== undefined && first !== "irreversible") {
      const second = delayed.run(state, momentum, h0, secondLogUniform(), steps, eps, cost, decision);
      // The accept statistic (for adaptation and accept_stat__) is the first stage's, 0.
      const info: DelayedRejectionStepInfo = {
        ...hamiltonianStepInfo(decision, h0, second.energy, eps, forwardSteps + second.steps, cost),
        acceptanceProbability: 0,
        firstStageDivergence: first,
        secondStage: second.outcome,
      };
      return { state: second.proposal ?? state, info };
    }
    // the proposal's leapfrog steps; the work includes the reversibility check's
    const info = hamiltonianStepInfo(decision, h0, h1, eps, forwardSteps, cost);
    if (!proposal) return { state, info };
    return { state: proposal, info };
  }

  /** One iteration of Algorithm 1's loop (lines 5-35). */
  function step(state: RmhmcState, rng: RandomSource): { state: RmhmcState; info: DelayedRejectionStepInfo } {
    sampleMomentum(state, rng, drawn);
    const steps = leapfrogStepCount(trajectory, rng, tunable.value);
    const logUniform = Math.log(rng.uniform());
    return transition(state, drawn, logUniform, steps, delayed ? secondLogUniform(rng) : undefined);
  }

  return {
    name: (variant === "fast" ? "rmhmc" : "rmhmc-reference") + (kinetic?.name === "student-t" ? "-t" : ""),
    tunable,
    variant,
    init,
    step,
    sampleMomentum,
    hamiltonian: (state, momentum) => leapfrog.hamiltonian(state.geometry, momentum),
    integrate,
    transition,
  };
}
