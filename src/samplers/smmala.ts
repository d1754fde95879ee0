/**
 * Simplified manifold MALA (Girolami & Calderhead 2011, Section 5 with the Christoffel terms
 * dropped; comparison paper, Section 3.3, eq. 10 and Algorithm 2) for the latent GP posterior,
 * with the metric of the paper's Appendix A.1 (sigma Q = K):
 *
 *   G(f) = K^-1 + R(f),   R = beta diag(E_y[-d^2 log p(y_i | f_i) / df_i^2])  (expected Fisher information)
 *
 * The proposal is g(f' | f) = N(f'; mu(f), eps^2 G(f)^-1) with (eq. 10)
 *   mu(f) = f + eps^2/2 G(f)^-1 dW/df,
 * accepted with log r = W(f') - W(f) + log g(f | f') - log g(f' | f) (Algorithm 2 line 3), where
 *   log g(a | b) = 1/2 log|G(b)| - 1/(2 eps^2) (a - mu(b))' G(b) (a - mu(b)) + const,
 * so the metric enters at *both* ends: at f for the forward density, at f' for the reverse one.
 *
 * Nothing here forms K^-1. With S = R^1/2 and B = I + S K S = L_B L_B' (eigenvalues >= 1),
 *   G^-1 v  = K v - K S B^-1 S K v                (Woodbury; 2 symv + 2 trsv, ~6 n^2 flops)
 *   log|G|  = log|B| - log|K|                      (log|K| cancels from the ratio and is dropped)
 *   v' G v  = |L_K^-1 v|^2 + sum_i R_i v_i^2        (one trsv)
 *   xi ~ N(0, G^-1):  xi = G^-1 p with p = L_K^-T z_1 + S z_2 ~ N(0, K^-1 + S^2) = N(0, G)
 * and since f' - mu(f) = eps xi, the forward quadratic form is eps^2 xi' G xi = eps^2 p' xi.
 * One factorisation of B (n^3/3 flops) per transition, at the proposal; the one at the current
 * point is kept from the transition that reached it. The two n x n factors live in two
 * preallocated slots that swap roles on acceptance.
 *
 * Default target acceptance 0.574, the optimal MALA rate of Roberts & Rosenthal (1998). The
 * comparison paper only names 25% for MH (Section 4.1); Girolami & Calderhead tuned mMALA to
 * about 70% (Section 6).
 */
import { backendFor } from "../linalg/cholesky.js";
import { opCounts } from "../linalg/counters.js";
import type { RandomSource } from "../random/types.js";
import { requirePriorSplit, type LatentGpTarget } from "./latentTarget.js";
import { checkPositive, checkProbability, isNumericalFailure, metropolisHastingsDecision, type MetropolisOutcome } from "./metropolis.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "./types.js";

/** Optimal MALA acceptance rate (Roberts & Rosenthal 1998). */
export const MALA_TARGET_ACCEPTANCE = 0.574;

export interface SmmalaOptions {
  /** eps of eq. (10) (adapted during burn-in through `tunable`, named "stepSize"). */
  stepSize: number;
  /** Acceptance rate adaptation aims for (default 0.574). */
  targetAcceptance?: number;
  /**
   * Test-only negative controls: "forward-metric" evaluates the reverse density g(f | f') with
   * the metric G(f) of the current point instead of G(f'); "no-hastings" drops the proposal
   * densities from the ratio altogether.
   * @internal
   */
  broken?: "forward-metric" | "no-hastings";
}

export interface SmmalaState extends SamplerState {
  /** dW/df at the position. */
  readonly gradient: Float64Array;
}

export interface SmmalaKernel extends Kernel<SmmalaState> {
  readonly tunable: Tunable;
}

/** What the sampler keeps about one point f: W, dW/df, R, the factor of B and the drift G^-1 dW/df. */
interface MetricPoint {
  /** The state this slot describes (null: free). */
  owner: SmmalaState | null;
  readonly x: Float64Array;
  readonly gradient: Float64Array;
  readonly r: Float64Array;
  readonly s: Float64Array;
  /** L_B in the lower triangle (column-major). */
  readonly factor: Float64Array;
  /** G^-1 dW/df. */
  readonly drift: Float64Array;
  logDensity: number;
  logDetB: number;
  /** W finite and B factorised. */
  ok: boolean;
}

export function smmala(target: LatentGpTarget, options: SmmalaOptions): SmmalaKernel {
  requirePriorSplit(target, "smmala");
  const n = target.dim;
  checkPositive("stepSize", options.stepSize);
  const targetAcceptance = options.targetAcceptance ?? MALA_TARGET_ACCEPTANCE;
  checkProbability("targetAcceptance", targetAcceptance);
  const broken = options.broken;
  const beta = target.beta;
  const K = target.kernelMatrix.data;
  const lk = target.kernelCholesky;
  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance };

  const newPoint = (): MetricPoint => ({
    owner: null,
    x: new Float64Array(n),
    gradient: new Float64Array(n),
    r: new Float64Array(n),
    s: new Float64Array(n),
    factor: new Float64Array(n * n),
    drift: new Float64Array(n),
    logDensity: NaN,
    logDetB: NaN,
    ok: false,
  });
  const slots: [MetricPoint, MetricPoint] = [newPoint(), newPoint()];
  const u = new Float64Array(n);
  const t = new Float64Array(n);
  const p = new Float64Array(n);
  const xi = new Float64Array(n);
  const d = new Float64Array(n);
  const decision: MetropolisOutcome = { accepted: false, acceptanceProbability: 0, divergence: undefined };

  /** out <- G^-1 v = K v - K S B^-1 S K v (out may be v). */
  function applyInverseMetric(pt: MetricPoint, v: Float64Array, out: Float64Array): void {
    const be = backendFor(n);
    be.symv("L", n, 1, K, n, v, 0, u); // u = K v
    const s = pt.s;
    for (let i = 0; i < n; i++) t[i] = s[i] * u[i];
    be.trsv("L", "N", "N", n, pt.factor, n, t);
    be.trsv("L", "T", "N", n, pt.factor, n, t); // t = B^-1 S K v
    for (let i = 0; i < n; i++) t[i] *= s[i];
    be.symv("L", n, -1, K, n, t, 1, u); // u = K v - K S B^-1 S K v
    out.set(u);
  }

  /** v' G v = |L_K^-1 v|^2 + sum R_i v_i^2 (uses t). */
  function metricQuadratic(pt: MetricPoint, v: Float64Array): number {
    t.set(v);
    lk.solveLowerInPlace(t);
    let q = 0;
    for (let i = 0; i < n; i++) q += t[i] * t[i] + pt.r[i] * v[i] * v[i];
    return q;
  }

  /** Fills `pt` at f: W and its gradient, R, B's factor (the one O(n^3) step), the drift. */
  function compute(pt: MetricPoint, f: Float64Array): void {
    pt.owner = null;
    pt.ok = false;
    pt.logDetB = NaN;
    pt.x.set(f);
    pt.logDensity = target.logDensityAndGradient(pt.x, pt.gradient);
    if (!Number.isFinite(pt.logDensity)) return;
    target.likelihood.fisherInformation(pt.x, pt.r);
    for (let i = 0; i < n; i++) {
      const ri = beta * pt.r[i];
      if (!(ri >= 0) || !Number.isFinite(ri)) return;
      pt.r[i] = ri;
      pt.s[i] = Math.sqrt(ri);
    }
    // B = I + S K S, lower triangle
    const b = pt.factor;
    const s = pt.s;
    for (let j = 0; j < n; j++) {
      const cj = j * n;
      const sj = s[j];
      for (let i = j; i < n; i++) b[i + cj] = s[i] * K[i + cj] * sj;
      b[j + cj] += 1;
    }
    opCounts.cholesky++;
    opCounts.flops += (n * n * n) / 3;
    if (backendFor(n).potrf("L", n, b, n) !== 0) return;
    let logDet = 0;
    for (let i = 0; i < n; i++) logDet += Math.log(b[i + i * n]);
    if (!Number.isFinite(logDet)) return;
    pt.logDetB = 2 * logDet;
    applyInverseMetric(pt, pt.gradient, pt.drift);
    for (let i = 0; i < n; i++) if (!Number.isFinite(pt.drift[i])) return;
    pt.ok = true;
  }

  function init(x0: Float64Array): SmmalaState {
    if (x0.length !== n) throw new RangeError(`smmala: initial point has length ${x0.length}, the target dimension is ${n}`);
    const pt = slots[0];
    compute(pt, x0);
    if (!pt.ok) throw new RangeError(`smmala: the log density, its gradient or the metric at the initial point is not finite (log density ${pt.logDensity})`);
    const state: SmmalaState = { position: pt.x.slice(), logDensity: pt.logDensity, gradient: pt.gradient.slice() };
    pt.owner = state;
    slots[1].owner = null;
    return state;
  }

  function currentSlot(state: SmmalaState): number {
    if (slots[0].owner === state) return 0;
    if (slots[1].owner === state) return 1;
    // a state this kernel did not just produce (or one whose slot was reused): recompute it
    compute(slots[0], state.position);
    if (!slots[0].ok) throw new RangeError("smmala: the state's log density or metric is not finite");
    slots[0].owner = state;
    slots[1].owner = null;
    return 0;
  }

  function step(state: SmmalaState, rng: RandomSource): { state: SmmalaState; info: StepInfo } {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    const ci = currentSlot(state);
    const cur = slots[ci];
    const prop = slots[1 - ci];
    const h = 0.5 * eps * eps;

    // Algorithm 2 line 2: f' = mu(f) + eps xi, xi ~ N(0, G(f)^-1)
    rng.fillNormal(p);
    lk.solveUpperInPlace(p);
    for (let i = 0; i < n; i++) p[i] += cur.s[i] * rng.normal();
    applyInverseMetric(cur, p, xi);
    for (let i = 0; i < n; i++) d[i] = cur.x[i] + h * cur.drift[i] + eps * xi[i];

    // A metric that cannot be factorised (or a likelihood that throws a numerical failure) where W
    // is finite is a numerical breakdown; a W of -Infinity is an ordinary rejection.
    let failure = false;
    try {
      compute(prop, d);
      failure = !prop.ok && Number.isFinite(prop.logDensity);
    } catch (e) {
      if (!isNumericalFailure(e)) throw e;
      failure = true;
    }
    let logRatio = prop.logDensity - cur.logDensity;
    if (failure) {
      logRatio = NaN;
    } else if (prop.ok && broken !== "no-hastings") {
      // log g(f' | f) = 1/2 log|B(f)| - 1/2 p' xi   (the log|K| terms cancel)
      let pxi = 0;
      for (let i = 0; i < n; i++) pxi += p[i] * xi[i];
      const logForward = 0.5 * cur.logDetB - 0.5 * pxi;
      // log g(f | f') = 1/2 log|B(f')| - 1/(2 eps^2) e' G(f') e,  e = f - mu(f')
      const back = broken === "forward-metric" ? cur : prop;
      for (let i = 0; i < n; i++) d[i] = cur.x[i] - prop.x[i] - h * prop.drift[i];
      const logReverse = 0.5 * back.logDetB - metricQuadratic(back, d) / (2 * eps * eps);
      logRatio += logReverse - logForward;
    }
    metropolisHastingsDecision(logRatio, Math.log(rng.uniform()), decision);
    const info: StepInfo = {
      accepted: decision.accepted,
      acceptanceProbability: decision.acceptanceProbability,
      divergent: decision.divergence !== undefined,
      divergence: failure ? "numerical-error" : decision.divergence,
      energy: NaN,
      energyError: NaN,
      stepSize: eps,
      leapfrogSteps: 0,
      gradientCalls: 1,
      metricCalls: 1,
      fixedPointIterations: 0,
    };
    if (!decision.accepted) {
      prop.owner = null;
      return { state, info };
    }
    const next: SmmalaState = { position: prop.x.slice(), logDensity: prop.logDensity, gradient: prop.gradient.slice() };
    prop.owner = next;
    cur.owner = null;
    return { state: next, info };
  }

  return { name: "smmala", tunable, init, step };
}
