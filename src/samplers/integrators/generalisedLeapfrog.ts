/**
 * The generalised leapfrog of RMHMC (note eqs. 13-15, Algorithm 1 lines 10-29; Girolami &
 * Calderhead 2011, eqs. 22-24) on a target's local geometry, and the reversibility check that
 * integrates a proposal back to its start. See rmhmc.ts for the sampler around it and for why
 * fixed points are iterated to a tolerance and proposals checked for reversibility.
 *
 * One integrator per kernel: its buffers are preallocated and the loops allocate nothing of their
 * own (the geometry objects a target returns are the target's). Positions passed to the target
 * are never written while a geometry computed at them is still in use, so a target's geometry
 * may keep a reference to its x.
 */
import type { RandomSource } from "../../random/types.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import type { InverseMetric, LocalGeometry } from "../../targets/types.js";
import { AndersonAcceleration } from "./andersonAcceleration.js";
import type { Dynamics } from "./dynamics.js";
import { copyGeneralisedPoint, newGeneralisedPoint, takePosition, type GeneralisedPoint } from "./generalisedPoint.js";
import { dot, kineticHamiltonianGradient, type KineticEnergy } from "./kineticEnergy.js";
import { stepTrajectory, type TrajectoryEnd } from "./staticTrajectory.js";
import type { DivergenceReason, SamplerState, TrajectoryCost } from "../types.js";

/** Where a trajectory starts: a position with its geometry. */
export interface GeometryState extends SamplerState {
  readonly geometry: LocalGeometry;
}

export interface LeapfrogSettings {
  /** G(x), everything (line 22 at a converged x_new). */
  readonly geometryAt: (x: Float64Array) => LocalGeometry;
  /** G(x)^-1 only, for the position loop (lines 22-23); undefined: use geometryAt. */
  readonly inverseAt: ((x: Float64Array) => InverseMetric) | undefined;
  /** A fixed number of fixed-point iterations (the note's f_max), or undefined: iterate to `tolerance`. */
  readonly fixedCount: number | undefined;
  readonly tolerance: number;
  /** Iterations after which a solve stops (f_max, or the cap on a converging one). */
  readonly iterationCap: number;
  /** Anderson acceleration of the momentum solve (with a tolerance; the position solve always has it then). */
  readonly accelerateMomentum: boolean;
  readonly kinetic?: KineticEnergy; // K(q), q = p' G^-1 p (undefined: Gaussian, K = q / 2)
}

/** Adds the work in `from` to `to`. */
export function addCost(to: TrajectoryCost, from: TrajectoryCost): void {
  to.gradientCalls += from.gradientCalls;
  to.metricCalls += from.metricCalls;
  to.inverseMetricCalls += from.inverseMetricCalls;
  to.fixedPointIterations += from.fixedPointIterations;
}

/** Whether a fixed-point solve goes on, has converged (or done its count), or failed. */
type Progress = "iterate" | "done" | "failed";

/** The integrator's n-vectors, preallocated once. */
function workspace(n: number) {
  const vector = () => new Float64Array(n);
  return {
    /** p' of eq. (13), the fixed-point iterate. */
    pHalf: vector(),
    /** The fixed-point candidate. */
    next: vector(),
    dHdx: vector(),
    /** G(x)^-1 p' (Algorithm 1 line 18) and G(x_new)^-1 p' (line 23). */
    v0: vector(),
    vNew: vector(),
    work: vector(),
    /** The reversibility check's momentum difference. */
    dp: vector(),
    /** sqrt(c) p' for a non-Gaussian kinetic energy (kineticEnergy.ts). */
    scaled: vector(),
  };
}

function allFinite(v: Float64Array): boolean {
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return false;
  return true;
}

/**
 * The integrator as a `Dynamics` (dynamics.ts): `step` is one generalised leapfrog step, which
 * returns "fixed-point" or "non-finite" when it cannot be completed; `run` is `stepTrajectory`
 * over it on the integrator's own point, which delayed rejection and the reversibility check
 * share with the first trajectory.
 */
export class GeneralisedLeapfrog implements Dynamics<GeneralisedPoint, GeometryState> {
  /** The momentum: a trajectory's start, then p_new after each step (eq. 15); the final momentum after `run`. */
  readonly p: Float64Array;
  private readonly w: ReturnType<typeof workspace>;
  private readonly acc: AndersonAcceleration;
  /** The point `run` integrates. */
  private readonly point: GeneralisedPoint;
  private readonly end: TrajectoryEnd = { steps: 0, failure: undefined };

  // What the last `run` produced (the point's geometry and position).
  get geometry(): LocalGeometry | undefined {
    return this.point.geometry;
  }
  get position(): Float64Array {
    return this.point.position;
  }
  divergence: DivergenceReason | undefined = undefined;
  steps = 0;
  /** The work since the last `place` (or `run`). */
  readonly cost: TrajectoryCost = { gradientCalls: 0, metricCalls: 0, inverseMetricCalls: 0, fixedPointIterations: 0 };

  constructor(private readonly n: number, private readonly settings: LeapfrogSettings) {
    this.w = workspace(n);
    this.acc = new AndersonAcceleration(n);
    this.point = this.newPoint();
    this.p = this.point.p;
  }

  get dim(): number {
    return this.n;
  }

  newPoint(): GeneralisedPoint {
    return newGeneralisedPoint(this.n);
  }

  copy(from: GeneralisedPoint, to: GeneralisedPoint): void {
    copyGeneralisedPoint(from, to);
  }

  /** The state with the momentum given (copied), as a trajectory's start; resets the work counts. */
  place(state: GeometryState, momentum: Float64Array, to: GeneralisedPoint): void {
    if (momentum !== to.p) to.p.set(momentum);
    to.position = state.position;
    to.geometry = to.origin = state.geometry;
    to.poolIndex = -1;
    to.lp = state.logDensity;
    this.cost.fixedPointIterations = 0;
    this.cost.gradientCalls = 0;
    this.cost.metricCalls = 0;
    this.cost.inverseMetricCalls = 0;
  }

  /** p ~ N(0, G(x)) by the geometry's own sampler (scaled for a non-Gaussian kinetic energy). */
  start(state: GeometryState, rng: RandomSource, to: GeneralisedPoint): void {
    state.geometry.sampleMomentum(rng, this.w.work);
    this.settings.kinetic?.scaleMomentum(rng, this.w.work);
    this.place(state, this.w.work, to);
  }

  energy(point: GeneralisedPoint): number {
    return this.hamiltonian(point.geometry!, point.p);
  }

  momentum(point: GeneralisedPoint): Float64Array {
    return point.p;
  }

  sharp(point: GeneralisedPoint): Float64Array {
    point.geometry!.applyInverse(point.p, point.v);
    this.toVelocity(point.p, point.v);
    return point.v;
  }

  /** The chain state at the point: its final position buffer handed out (and replaced) with its geometry. */
  state(point: GeneralisedPoint): GeometryState {
    const geometry = point.geometry!;
    return { position: takePosition(point), logDensity: geometry.logDensity, geometry };
  }

  init(x0: Float64Array): GeometryState {
    const position = initialPosition("generalised leapfrog", x0, this.n);
    const geometry = this.settings.geometryAt(position);
    return { position, logDensity: finiteInitialLogDensity("generalised leapfrog", geometry.logDensity), geometry };
  }

  /** The point's geometry goes back to the target, unless it is the start's. */
  release(point: GeneralisedPoint): void {
    if (point.geometry !== point.origin) point.geometry?.release?.();
  }

  /** H(x, p) = 1/2 p' G^-1 p + 1/2 log|G| - L (Algorithm 2; lines 8 and 28). */
  hamiltonian(geo: LocalGeometry, momentum: Float64Array): number {
    const w = this.w.work;
    geo.applyInverse(momentum, w);
    const s = dot(momentum, w);
    const kinetic = this.settings.kinetic;
    return (kinetic ? kinetic.energy(s) : 0.5 * s) + 0.5 * geo.logDetMetric - geo.logDensity;
  }

  /** out <- dH/dx(x, p) at geo, for the kinetic energy of the settings (kineticEnergy.ts). */
  private hamiltonianGradient(geo: LocalGeometry, p: Float64Array, out: Float64Array): void {
    kineticHamiltonianGradient(this.settings.kinetic, geo, p, this.w.scaled, out);
  }

  /** v <- c(q) v, where v = G^-1 p on entry (the velocity dH/dp; c = 1 for the Gaussian). */
  private toVelocity(p: Float64Array, v: Float64Array): void {
    const c = this.settings.kinetic?.velocityScale(dot(p, v)) ?? 1;
    if (c !== 1) for (let i = 0; i < this.n; i++) v[i] *= c;
  }


  private fail(reason: DivergenceReason): false {
    this.divergence = reason;
    return false;
  }

  /**
   * Iteration `it` of a fixed-point solve: iterate <- next, measuring the change from `previous` in
   * the relative max-norm. Stops after the fixed count (f_max, lines 13 and 20), or at convergence
   * to the tolerance; a non-finite iterate, or no convergence within the cap, is a divergence.
   */
  private settle(it: number, iterate: Float64Array, previous: Float64Array): Progress {
    const next = this.w.next;
    let change = 0;
    let finite = true;
    for (let i = 0; i < this.n; i++) {
      const d = Math.abs(next[i] - previous[i]) / (1 + Math.abs(next[i]));
      if (d > change) change = d;
      if (!Number.isFinite(next[i])) finite = false;
    }
    iterate.set(next);
    const { fixedCount, tolerance, iterationCap } = this.settings;
    if (!finite) {
      this.fail("non-finite");
      return "failed";
    }
    if (it === iterationCap) {
      if (fixedCount !== undefined || change <= tolerance) return "done";
      this.fail("fixed-point");
      return "failed";
    }
    return fixedCount === undefined && change <= tolerance ? "done" : "iterate";
  }

  /**
   * Eq. (13), p' = p - e/2 dH/dx(x, p'), by fixed-point iteration from p' = p (Algorithm 1 lines
   * 13-17). With a tolerance (`accelerate`) the points at which dH/dx is evaluated are chosen by
   * Anderson acceleration, as in `positionStep`: the test stays that of the plain iteration
   * (g(p_k) within the tolerance of p_k) and the returned p' is g(p_k), so only the way to the root
   * changes. Why: where G(x) changes fast, the plain map's contraction factor |e/2 d(dH/dx)/dp'|
   * (dH/dx is quadratic in p' through 1/2 p' G^-1 dG G^-1 p') comes close to 1 at the step sizes dual
   * averaging settles on for GP classification, so that the plain iteration needed more than the
   * 50 allowed iterations and the transition was rejected as divergent (all the divergent
   * transitions after burn-in of BENCHMARKS.md's "RMHMC's divergences" were such solves, on the
   * way out or on the reversibility check's way back).
   */
  private momentumHalfStep(p: Float64Array, geo: LocalGeometry, h: number, accelerate: boolean): boolean {
    const { pHalf, next, dHdx } = this.w;
    const acc = this.acc;
    acc.count = 0;
    acc.point.set(p);
    this.hamiltonianGradient(geo, acc.point, dHdx); // line 15 at p' = p
    this.cost.gradientCalls++;
    for (let it = 1; ; it++) {
      this.cost.fixedPointIterations++;
      for (let i = 0; i < this.n; i++) next[i] = p[i] - h * dHdx[i]; // line 14: g(point)
      const progress = this.settle(it, pHalf, acc.point);
      if (progress !== "iterate") return progress === "done";
      if (accelerate && acc.extrapolate(pHalf)) {
        this.hamiltonianGradient(geo, acc.point, dHdx);
        this.cost.gradientCalls++;
        if (allFinite(dHdx)) continue;
        acc.count = 0; // the extrapolated momentum broke the gradient: plain step
      }
      acc.point.set(pHalf);
      this.hamiltonianGradient(geo, acc.point, dHdx); // line 15
      this.cost.gradientCalls++;
    }
  }

  /** out <- G(xNew)^-1 p' (Algorithm 1 lines 22-23): the cheap inverse where the target has one, else the whole geometry. */
  private inverseMetricTimesMomentum(xNew: Float64Array, out: Float64Array): void {
    if (this.settings.inverseAt) {
      this.settings.inverseAt(xNew).applyInverse(this.w.pHalf, out);
      this.cost.inverseMetricCalls++;
    } else {
      this.settings.geometryAt(xNew).applyInverse(this.w.pHalf, out);
      this.cost.metricCalls++;
    }
    this.toVelocity(this.w.pHalf, out);
  }

  /**
   * Eq. (14), x_new = x + e/2 [G(x)^-1 p' + G(x_new)^-1 p'], by fixed-point iteration from
   * x_new = x (Algorithm 1 lines 18-25), into xNew. With a tolerance (`accelerate`) the points at
   * which G(x_new)^-1 p' is evaluated are chosen by Anderson acceleration (andersonAcceleration.ts); the
   * convergence test and the returned x_new stay those of the plain iteration, so the root
   * and its tolerance are unchanged, only fewer factorisations are spent reaching it.
   */
  private positionStep(geo: LocalGeometry, x: Float64Array, xNew: Float64Array, h: number, accelerate: boolean): boolean {
    const { v0, vNew, next, pHalf } = this.w;
    geo.applyInverse(pHalf, v0); // line 18: dH/dp = G(x)^-1 p'
    this.toVelocity(pHalf, v0);
    vNew.set(v0); // line 19: the first iterate uses G(x)^-1 p' on both sides
    const acc = this.acc;
    acc.count = 0;
    acc.point.set(x);
    for (let it = 1; ; it++) {
      this.cost.fixedPointIterations++;
      for (let i = 0; i < this.n; i++) next[i] = x[i] + h * (v0[i] + vNew[i]); // line 21
      const progress = this.settle(it, xNew, it === 1 ? x : acc.point);
      if (progress !== "iterate") return progress === "done";
      // xNew = g(point), the plain iterate; accelerated, the next point evaluated is elsewhere
      if (accelerate && acc.extrapolate(xNew)) {
        this.inverseMetricTimesMomentum(acc.point, vNew);
        if (allFinite(vNew)) continue;
        acc.count = 0; // the extrapolated point left the region where G is finite: plain step
      }
      acc.point.set(xNew);
      this.inverseMetricTimesMomentum(xNew, vNew); // lines 22-23
    }
  }

  /**
   * One generalised leapfrog step of `eps` from the point, in place (Algorithm 1 lines 10-29 for
   * one step); why it could not be completed, if it could not (a numerical failure of the target
   * throws).
   */
  step(point: GeneralisedPoint, eps: number): DivergenceReason | undefined {
    const h = 0.5 * eps;
    const geo = point.geometry!;
    const slot = point.poolIndex === 0 ? 1 : 0;
    const xNew = point.pool[slot];
    this.divergence = undefined;
    if (!this.momentumHalfStep(point.p, geo, h, this.settings.accelerateMomentum)) return this.divergence;
    // a fixed count is the note's plain iteration
    if (!this.positionStep(geo, point.position, xNew, h, this.settings.fixedCount === undefined)) return this.divergence;
    // Line 22 at the converged x_new: the whole geometry, once per leapfrog step. The previous
    // step's geometry is no longer used: its workspace goes back to the target (the start's
    // belongs to the caller).
    const next = this.settings.geometryAt(xNew);
    this.cost.metricCalls++;
    if (geo !== point.origin) geo.release?.();
    if (!Number.isFinite(next.logDensity) || !Number.isFinite(next.logDetMetric)) return "non-finite";
    // Eq. (15), lines 26-27: p_new = p' - e/2 dH/dx(x_new, p').
    const { pHalf, dHdx } = this.w;
    this.hamiltonianGradient(next, pHalf, dHdx);
    this.cost.gradientCalls++;
    const p = point.p;
    for (let i = 0; i < this.n; i++) p[i] = pHalf[i] - h * dHdx[i];
    point.geometry = next;
    point.position = xNew;
    point.poolIndex = slot;
    point.lp = next.logDensity;
    return undefined;
  }

  /**
   * `steps` generalised leapfrog steps from (start, p) (Algorithm 1 lines 10-29): `stepTrajectory`
   * over `step`; p holds the final momentum on return, and the fields above say where the
   * trajectory ended. Numerical failures of the target end it as divergent.
   */
  run(start: GeometryState, steps: number, eps: number): void {
    const point = this.point;
    this.place(start, point.p, point);
    stepTrajectory(this, point, eps, steps, this.end);
    this.steps = this.end.steps;
    this.divergence = this.end.failure;
    if (this.divergence === "numerical-error") point.geometry = undefined;
  }

  /** Hands the final position buffer to the caller, replacing it in the pool. */
  takeFinalPosition(): Float64Array {
    return takePosition(this.point);
  }

  /**
   * Whether `steps` leapfrog steps from (end, -pEnd) return to (start, -p0) to `tolerance` (p0 the
   * initial momentum; see rmhmc.ts). Overwrites p and the trajectory fields; adds the work to `cost`.
   */
  returnsToStart(start: GeometryState, p0: Float64Array, end: GeometryState, pEnd: Float64Array, steps: number, eps: number, tolerance: number, cost: TrajectoryCost): boolean {
    const n = this.n;
    const p = this.p;
    for (let i = 0; i < n; i++) p[i] = -pEnd[i];
    this.run(end, steps, eps);
    addCost(cost, this.cost);
    if (this.divergence || !this.geometry || this.steps !== steps) return false;
    // Positions: relative max-norm, as for the fixed points. Momenta: in the norm of G(x_0)^-1,
    // where a momentum drawn from N(0, G) has squared length about n, so that directions in which
    // G is large (and a tiny error in x makes a large one in p) weigh no more than others.
    const x0 = start.position;
    const xBack = this.position;
    let dx = 0;
    for (let i = 0; i < n; i++) {
      const d = Math.abs(xBack[i] - x0[i]) / (1 + Math.abs(x0[i]));
      if (!(d <= dx)) dx = Number.isNaN(d) ? Infinity : d;
    }
    const { dp, work } = this.w;
    for (let i = 0; i < n; i++) dp[i] = p[i] + p0[i];
    start.geometry.applyInverse(dp, work);
    let q = 0;
    for (let i = 0; i < n; i++) q += dp[i] * work[i];
    const dpNorm = Math.sqrt(Math.max(q, 0) / n);
    if (this.geometry !== end.geometry) this.geometry.release?.(); // the way back's end is not kept
    const worst = Number.isNaN(dpNorm) ? Infinity : Math.max(dx, dpNorm);
    return worst <= tolerance;
  }
}
