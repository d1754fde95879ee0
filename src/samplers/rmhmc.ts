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
 * only approximately reversible.
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
 * Buffers are preallocated per kernel; the leapfrog loop allocates nothing of its own (the
 * geometry objects a target returns are the target's). Positions passed to the target are never
 * written while a geometry computed at them is still in use, so a target's geometry may keep a
 * reference to its x.
 */
import { cholesky } from "../linalg/cholesky.js";
import type { RandomSource } from "../random/types.js";
import type { LocalGeometry, Target } from "../targets/types.js";
import {
  checkPositive,
  checkPositiveInteger,
  checkProbability,
  DEFAULT_DIVERGENCE_THRESHOLD,
  isNumericalFailure,
  metropolisDecision,
  type MetropolisOutcome,
} from "./metropolis.js";
import type { DivergenceReason, Kernel, SamplerState, StepInfo, Tunable } from "./types.js";

export type RmhmcVariant = "fast" | "reference";

/** The default relative tolerance of the fixed-point iterations. */
export const DEFAULT_FIXED_POINT_TOLERANCE = 1e-8;
/** The default relative tolerance of the reversibility check (with a fixed-point tolerance). */
export const DEFAULT_REVERSIBILITY_TOLERANCE = 1e-2;

function releaseGeometry(geometry: LocalGeometry): void {
  geometry.release?.();
}

export interface RmhmcOptions {
  /** Leapfrog step size epsilon (adapted during burn-in through `tunable`). */
  stepSize: number;
  /** Number of generalised leapfrog steps l_max, or the maximum when `randomiseSteps` is set. */
  leapfrogSteps: number;
  /** Draw the number of steps uniformly from 1..leapfrogSteps at each transition (G&C Appendix D: "Randomise N"). */
  randomiseSteps?: boolean;
  /** Iterate each implicit equation until successive iterates agree to this (default 1e-8, when `fixedPointIterations` is not given). */
  fixedPointTolerance?: number;
  /** Run exactly this many fixed-point iterations per implicit equation (the note's f_max = 5). Excludes `fixedPointTolerance`. */
  fixedPointIterations?: number;
  /** With a tolerance: the iteration count after which an unconverged solve is a divergence (default 50). */
  maxFixedPointIterations?: number;
  /** "fast" (default) or "reference" (Algorithm 1 as written). */
  variant?: RmhmcVariant;
  /** Acceptance rate step-size adaptation aims for (default 0.65). */
  targetAcceptance?: number;
  /** Energy rise above which a trajectory is rejected as divergent (default 1000). */
  divergenceThreshold?: number;
  /**
   * Accept only proposals from which the integrator returns to the start (see the module
   * comment), to this tolerance; `false`: no check. Default 1e-2 with a fixed-point tolerance,
   * `false` with `fixedPointIterations`.
   */
  reversibilityTolerance?: number | false;
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

export interface RmhmcKernel extends Kernel<RmhmcState> {
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
   * steps: what `step` does after drawing them (Algorithm 1 lines 8-35).
   */
  transition(state: RmhmcState, momentum: Float64Array, logUniform: number, steps: number): { state: RmhmcState; info: StepInfo };
}

export function rmhmc(target: Target, options: RmhmcOptions): RmhmcKernel {
  const n = target.dim;
  const geometryAt = target.geometry?.bind(target);
  if (!geometryAt) throw new Error("rmhmc: the target has no local geometry (Target.geometry)");
  const variant: RmhmcVariant = options.variant ?? "fast";
  if (variant !== "fast" && variant !== "reference") throw new RangeError(`rmhmc: variant must be "fast" or "reference", got ${String(variant)}`);
  const inverseAt = variant === "fast" ? target.inverseMetricAt?.bind(target) : undefined;
  checkPositive("stepSize", options.stepSize);
  checkPositiveInteger("leapfrogSteps", options.leapfrogSteps);
  const targetAcceptance = options.targetAcceptance ?? 0.65;
  checkProbability("targetAcceptance", targetAcceptance);
  const threshold = options.divergenceThreshold ?? DEFAULT_DIVERGENCE_THRESHOLD;
  checkPositive("divergenceThreshold", threshold);

  if (options.fixedPointIterations !== undefined && options.fixedPointTolerance !== undefined) {
    throw new RangeError("rmhmc: give fixedPointTolerance or fixedPointIterations, not both");
  }
  const fixedCount = options.fixedPointIterations;
  if (fixedCount !== undefined) checkPositiveInteger("fixedPointIterations", fixedCount);
  const tolerance = options.fixedPointTolerance ?? DEFAULT_FIXED_POINT_TOLERANCE;
  checkPositive("fixedPointTolerance", tolerance);
  const maxIterations = options.maxFixedPointIterations ?? 50;
  checkPositiveInteger("maxFixedPointIterations", maxIterations);
  // In fixed-count mode the loops stop at the count; with a tolerance, at convergence or the maximum.
  const iterationCap = fixedCount ?? maxIterations;
  const maxSteps = options.leapfrogSteps;
  const randomise = options.randomiseSteps ?? false;
  const reversibility = options.reversibilityTolerance ?? (fixedCount === undefined ? DEFAULT_REVERSIBILITY_TOLERANCE : false);
  if (reversibility !== false) checkPositive("reversibilityTolerance", reversibility);

  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance };

  // Preallocated per kernel.
  const p = new Float64Array(n); // momentum: the start of a leapfrog step, then p_new (eq. 15)
  const pHalf = new Float64Array(n); // p' of eq. (13), the fixed-point iterate
  const dHdx = new Float64Array(n);
  const v0 = new Float64Array(n); // G(x)^-1 p'      (Algorithm 1 line 18)
  const vNew = new Float64Array(n); // G(x_new)^-1 p' (line 23)
  const work = new Float64Array(n);
  const drawn = new Float64Array(n);
  const dpBuffer = new Float64Array(n); // the reversibility check's momentum difference
  const pEnd = new Float64Array(n); // the proposal's momentum, while the check integrates back
  // Positions of successive leapfrog steps alternate between two buffers, so the buffer written by
  // step l + 1 is the one whose geometry (from step l - 1) is no longer used. The final one is
  // handed to the caller and replaced.
  const pool = [new Float64Array(n), new Float64Array(n)];
  const decision: MetropolisOutcome = { accepted: false, acceptanceProbability: 0, divergence: undefined };

  // What the last `run` produced.
  const last = {
    geometry: undefined as LocalGeometry | undefined,
    position: pool[0] as Float64Array,
    poolIndex: -1,
    divergence: undefined as DivergenceReason | undefined,
    steps: 0,
    fixedPointIterations: 0,
    gradientCalls: 0,
    metricCalls: 0,
    inverseMetricCalls: 0,
  };

  function hamiltonianAt(geo: LocalGeometry, momentum: Float64Array): number {
    // Algorithm 2: H = 1/2 p' G^-1 p + 1/2 log|G| - L
    geo.applyInverse(momentum, work);
    let s = 0;
    for (let i = 0; i < n; i++) s += momentum[i] * work[i];
    return 0.5 * s + 0.5 * geo.logDetMetric - geo.logDensity;
  }

  /** Eq. (13) by fixed-point iteration from p' = p (Algorithm 1 lines 13-17). Returns false on divergence. */
  function momentumHalfStep(geo: LocalGeometry, h: number): boolean {
    pHalf.set(p);
    for (let it = 1; ; it++) {
      geo.hamiltonianGradient(pHalf, dHdx);
      last.gradientCalls++;
      last.fixedPointIterations++;
      let change = 0;
      let finite = true;
      for (let i = 0; i < n; i++) {
        const next = p[i] - h * dHdx[i]; // line 14
        const d = Math.abs(next - pHalf[i]) / (1 + Math.abs(next));
        if (d > change) change = d;
        if (!Number.isFinite(next)) finite = false;
        pHalf[i] = next;
      }
      if (!finite) return fail("non-finite");
      if (it === iterationCap) return fixedCount !== undefined || change <= tolerance || fail("fixed-point");
      if (fixedCount === undefined && change <= tolerance) return true;
    }
  }

  /** out <- G(xNew)^-1 pHalf (Algorithm 1 lines 22-23): the cheap inverse in the fast variant, the whole geometry otherwise. */
  function inverseMetricTimesMomentum(xNew: Float64Array, out: Float64Array): void {
    if (inverseAt) {
      inverseAt(xNew).applyInverse(pHalf, out);
      last.inverseMetricCalls++;
    } else {
      geometryAt!(xNew).applyInverse(pHalf, out);
      last.metricCalls++;
    }
  }

  /** Eq. (14) by fixed-point iteration from x_new = x (Algorithm 1 lines 18-25), into xNew. Returns false on divergence. */
  function positionStep(geo: LocalGeometry, x: Float64Array, xNew: Float64Array, h: number): boolean {
    geo.applyInverse(pHalf, v0); // line 18: dH/dp = G(x)^-1 p'
    vNew.set(v0); // line 19: the first iterate uses G(x)^-1 p' on both sides
    for (let it = 1; ; it++) {
      last.fixedPointIterations++;
      let change = 0;
      let finite = true;
      for (let i = 0; i < n; i++) {
        const next = x[i] + h * (v0[i] + vNew[i]); // line 21
        const prev = it === 1 ? x[i] : xNew[i];
        const d = Math.abs(next - prev) / (1 + Math.abs(next));
        if (d > change) change = d;
        if (!Number.isFinite(next)) finite = false;
        xNew[i] = next;
      }
      if (!finite) return fail("non-finite");
      if (it === iterationCap) return fixedCount !== undefined || change <= tolerance || fail("fixed-point");
      if (fixedCount === undefined && change <= tolerance) return true;
      inverseMetricTimesMomentum(xNew, vNew); // lines 22-23
    }
  }

  function fail(reason: DivergenceReason): false {
    last.divergence = reason;
    return false;
  }

  /**
   * `steps` generalised leapfrog steps from (start, p); p holds the final momentum on return and
   * `last` says where the trajectory ended. Numerical failures of the target end it as divergent.
   */
  function run(start: RmhmcState, steps: number, eps: number): void {
    const h = 0.5 * eps;
    last.geometry = start.geometry;
    last.position = start.position;
    last.poolIndex = -1;
    last.divergence = undefined;
    last.steps = 0;
    last.fixedPointIterations = 0;
    last.gradientCalls = 0;
    last.metricCalls = 0;
    last.inverseMetricCalls = 0;
    let geo = start.geometry;
    let x = start.position;
    let slot = 0;
    try {
      for (let l = 0; l < steps; l++) {
        const xNew = pool[slot];
        if (!momentumHalfStep(geo, h)) return;
        if (!positionStep(geo, x, xNew, h)) return;
        // Line 22 at the converged x_new: the whole geometry, once per leapfrog step.
        geo = geometryAt!(xNew);
        last.metricCalls++;
        if (!Number.isFinite(geo.logDensity) || !Number.isFinite(geo.logDetMetric)) {
          fail("non-finite");
          return;
        }
        // Eq. (15), lines 26-27: p_new = p' - e/2 dH/dx(x_new, p').
        geo.hamiltonianGradient(pHalf, dHdx);
        last.gradientCalls++;
        for (let i = 0; i < n; i++) p[i] = pHalf[i] - h * dHdx[i];
        x = xNew;
        last.geometry = geo;
        last.position = xNew;
        last.poolIndex = slot;
        last.steps = l + 1;
        slot ^= 1;
      }
    } catch (e) {
      if (!isNumericalFailure(e)) throw e;
      last.geometry = undefined;
      fail("numerical-error");
    }
  }

  /** Hands the final position buffer to the caller, replacing it in the pool. */
  function takeFinalPosition(): Float64Array {
    const x = last.position;
    if (last.poolIndex >= 0) pool[last.poolIndex] = new Float64Array(n);
    return x;
  }

  function init(x0: Float64Array): RmhmcState {
    if (x0.length !== n) throw new RangeError(`rmhmc: initial point has length ${x0.length}, the target dimension is ${n}`);
    const position = Float64Array.from(x0);
    const geometry = geometryAt!(position);
    if (!Number.isFinite(geometry.logDensity)) throw new RangeError(`rmhmc: the log density at the initial point is ${geometry.logDensity}`);
    if (!Number.isFinite(geometry.logDetMetric)) throw new RangeError(`rmhmc: log|G| at the initial point is ${geometry.logDetMetric}`);
    if (variant === "reference" && !geometry.inverseMetricMatrix) {
      throw new Error("rmhmc: the reference variant draws momentum through chol(G^-1) and needs LocalGeometry.inverseMetricMatrix");
    }
    return { position, logDensity: geometry.logDensity, geometry };
  }

  function sampleMomentum(state: RmhmcState, rng: RandomSource, out: Float64Array): void {
    const geo = state.geometry;
    if (variant === "fast") {
      geo.sampleMomentum(rng, out);
      return;
    }
    // Algorithm 1 lines 5-7: L = chol(G^-1), z ~ N(0, I), p = L' \ z, so cov(p) = (L L')^-1 = G.
    const inv = geo.inverseMetricMatrix!();
    const ch = cholesky(inv, { what: "G(x)^-1", skipFiniteCheck: true });
    for (let i = 0; i < n; i++) out[i] = rng.normal();
    ch.solveUpperInPlace(out);
  }

  function integrate(state: RmhmcState, momentum: Float64Array, steps: number): Trajectory {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    p.set(momentum);
    const startEnergy = hamiltonianAt(state.geometry, p);
    run(state, steps, eps);
    const endEnergy = last.divergence || !last.geometry ? NaN : hamiltonianAt(last.geometry, p);
    const position = last.divergence ? last.position.slice() : takeFinalPosition();
    return {
      position,
      momentum: p.slice(),
      geometry: last.divergence ? undefined : last.geometry,
      startEnergy,
      endEnergy,
      divergence: last.divergence,
      leapfrogSteps: last.steps,
      fixedPointIterations: last.fixedPointIterations,
      gradientCalls: last.gradientCalls,
      metricCalls: last.metricCalls,
      inverseMetricCalls: last.inverseMetricCalls,
    };
  }

  /**
   * Whether `steps` leapfrog steps from (end, -pEnd) return to (start, -p0) to the reversibility
   * tolerance (p0 the initial momentum). Overwrites p and `last`; `cost` gets the work done.
   */
  function returnsToStart(start: RmhmcState, p0: Float64Array, end: RmhmcState, pEnd: Float64Array, steps: number, eps: number, cost: Cost): boolean {
    for (let i = 0; i < n; i++) p[i] = -pEnd[i];
    run(end, steps, eps);
    addCost(cost);
    if (last.divergence || !last.geometry || last.steps !== steps) return false;
    // Positions: relative max-norm, as for the fixed points. Momenta: in the norm of G(x_0)^-1,
    // where a momentum drawn from N(0, G) has squared length about n, so that directions in which
    // G is large (and a tiny error in x makes a large one in p) weigh no more than others.
    const x0 = start.position;
    const xBack = last.position;
    let dx = 0;
    for (let i = 0; i < n; i++) {
      const d = Math.abs(xBack[i] - x0[i]) / (1 + Math.abs(x0[i]));
      if (!(d <= dx)) dx = Number.isNaN(d) ? Infinity : d;
    }
    for (let i = 0; i < n; i++) dpBuffer[i] = p[i] + p0[i];
    start.geometry.applyInverse(dpBuffer, work);
    let q = 0;
    for (let i = 0; i < n; i++) q += dpBuffer[i] * work[i];
    const dp = Math.sqrt(Math.max(q, 0) / n);
    const worst = Number.isNaN(dp) ? Infinity : Math.max(dx, dp);
    return worst <= (reversibility as number);
  }

  /** The work of a transition's trajectories (the reversibility check's included). */
  interface Cost { gradientCalls: number; metricCalls: number; inverseMetricCalls: number; fixedPointIterations: number }
  function addCost(cost: Cost): void {
    cost.gradientCalls += last.gradientCalls;
    cost.metricCalls += last.metricCalls;
    cost.inverseMetricCalls += last.inverseMetricCalls;
    cost.fixedPointIterations += last.fixedPointIterations;
  }

  function transition(state: RmhmcState, momentum: Float64Array, logUniform: number, steps: number): { state: RmhmcState; info: StepInfo } {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    p.set(momentum);
    const h0 = hamiltonianAt(state.geometry, p); // line 8
    run(state, steps, eps); // lines 10-29
    const cost: Cost = { gradientCalls: 0, metricCalls: 0, inverseMetricCalls: 0, fixedPointIterations: 0 };
    addCost(cost);
    const forwardSteps = last.steps;
    let h1 = NaN;
    let proposal: RmhmcState | undefined;
    if (!last.divergence && last.geometry) {
      h1 = hamiltonianAt(last.geometry, p); // line 28
      metropolisDecision(h1 - h0, logUniform, threshold, decision); // lines 30-35
      if (decision.accepted) {
        const geometry = last.geometry;
        proposal = { position: takeFinalPosition(), logDensity: geometry.logDensity, geometry };
        if (reversibility !== false && !returnsToStart(state, momentum, proposal, (pEnd.set(p), pEnd), steps, eps, cost)) {
          decision.accepted = false;
          decision.divergence = "irreversible";
          releaseGeometry(proposal.geometry);
          proposal = undefined;
        }
      }
    } else {
      decision.accepted = false;
      decision.acceptanceProbability = 0;
      decision.divergence = last.divergence ?? "numerical-error";
    }
    const info: StepInfo = {
      accepted: decision.accepted,
      acceptanceProbability: decision.acceptanceProbability,
      divergent: decision.divergence !== undefined,
      divergence: decision.divergence,
      energy: decision.accepted ? h1 : h0,
      energyError: h1 - h0,
      stepSize: eps,
      // the proposal's trajectory; the calls below include the reversibility check's
      leapfrogSteps: forwardSteps,
      gradientCalls: cost.gradientCalls,
      metricCalls: cost.metricCalls,
      inverseMetricCalls: cost.inverseMetricCalls,
      fixedPointIterations: cost.fixedPointIterations,
    };
    if (!proposal) return { state, info };
    return { state: proposal, info };
  }

  function step(state: RmhmcState, rng: RandomSource): { state: RmhmcState; info: StepInfo } {
    sampleMomentum(state, rng, drawn);
    const steps = randomise ? 1 + rng.integer(maxSteps) : maxSteps;
    const logUniform = Math.log(rng.uniform());
    return transition(state, drawn, logUniform, steps);
  }

  return {
    name: variant === "fast" ? "rmhmc" : "rmhmc-reference",
    tunable,
    variant,
    init,
    step,
    sampleMomentum,
    hamiltonian: (state, momentum) => hamiltonianAt(state.geometry, momentum),
    integrate,
    transition,
  };
}
