/**
 * Simplified manifold MALA (Girolami & Calderhead 2011, Section 5 with the Christoffel terms
 * dropped; comparison paper, Section 3.3, eq. 10 and Algorithm 2) on any target with a local
 * metric; for the latent GP posterior, the metric of the paper's Appendix A.1 (sigma Q = K):
 *
 *   G(f) = K^-1 + R(f),   R = beta diag(E_y[-d^2 log p(y_i | f_i) / df_i^2])  (expected Fisher information)
 *
 * The proposal is g(f' | f) = N(f'; mu(f), eps^2 G(f)^-1) with (eq. 10)
 *   mu(f) = f + eps^2/2 G(f)^-1 dW/df,
 * accepted with log r = W(f') - W(f) + log g(f | f') - log g(f' | f) (Algorithm 2 line 3), where
 *   log g(a | b) = 1/2 log|G(b)| - 1/(2 eps^2) (a - mu(b))' G(b) (a - mu(b)) + const,
 * so the metric enters at *both* ends: at f for the forward density, at f' for the reverse one.
 *
 * The sampler asks the target for the metric at a point (Target.fisherMetric, else
 * Target.geometry): log|G|, G^-1 v, v' G v and a draw p ~ N(0, G), so that xi = G^-1 p ~ N(0, G^-1).
 * Since f' - mu(f) = eps xi, the forward quadratic form is eps^2 xi' G xi = eps^2 p' xi. For the
 * latent GP target (targets/latentMetric.ts) that is one factorisation of B = I + S K S (n^3/3
 * flops, the Woodbury step of targets/woodbury.ts) per transition, at the proposal; the metric at
 * the current point is kept from the transition that reached it.
 *
 * Default target acceptance 0.574, the optimal MALA rate of Roberts & Rosenthal (1998). The
 * comparison paper only names 25% for MH (Section 4.1); Girolami & Calderhead tuned mMALA to
 * about 70% (Section 6).
 */
import type { RandomSource } from "../../random/types.js";
import type { LocalMetric, Target } from "../../targets/types.js";
import { initialPosition } from "../chain/initialPoint.js";
import { requirePriorSplit, type LatentGpTarget } from "../latentTarget.js";
import { checkPositive, checkProbability, isNumericalFailure, metropolisHastingsDecision, newMetropolisOutcome } from "./metropolis.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** Optimal MALA acceptance rate (Roberts & Rosenthal 1998). */
export const MALA_TARGET_ACCEPTANCE = 0.574;

export interface SmmalaOptions {
  /** eps of eq. (10) (adapted during burn-in through `tunable`, named "stepSize"). */
  stepSize: number;
  /** Acceptance rate adaptation aims for (default 0.574). */
  targetAcceptance?: number;
  /**
   * Test-only negative controls: "forward-metric" evaluates the reverse density g(f | f') with
   * the metric G(f) of the current point instead of G(f'); "smmala-no-hastings" drops the proposal
   * densities from the ratio altogether.
   * @internal
   */
  broken?: FaultOf<"smmala">;
  /**
   * Full manifold MALA (G&C Section 5, after eq. 13): the drift adds eps^2 c(f), c the Christoffel part of the
   * geometry's `christoffelDrift` (targets/denseMetric.ts). Needs Target.geometry with metric derivatives.
   */
  christoffel?: boolean;
  /**
   * Drift f + G^-1 dW/df (coefficient 1 instead of eps^2/2): with stepSize 1, the proposal
   * N(f + G^-1 dW/df, G^-1) of iterated weighted least squares (Gamerman 1997; samplers/kernels/iwls.ts).
   */
  newtonDrift?: boolean;
}

export interface SmmalaState extends SamplerState {
  /** dW/df at the position. */
  readonly gradient: Float64Array;
}

export interface SmmalaKernel extends Kernel<SmmalaState> {
  readonly tunable: Tunable;
}

/** What the sampler keeps about one point f: the metric there (with W and dW/df) and the drift G^-1 dW/df. */
interface MetricPoint {
  /** The state this slot describes (null: free). */
  owner: SmmalaState | null;
  metric: LocalMetric | undefined;
  /** G^-1 dW/df. */
  readonly drift: Float64Array;
  /** The Christoffel part c(f) of the full mMALA drift (zero unless `christoffel`). */
  readonly correction: Float64Array;
  logDensity: number;
  /** W finite and the metric factorised. */
  ok: boolean;
}

/** log|G| up to a constant of the target, for ratios (see LocalMetric.logDetMetricUpToConstant). */
function logDet(metric: LocalMetric): number {
  return metric.logDetMetricUpToConstant ?? metric.logDetMetric;
}

/** v' G v through the metric's own quadratic form, else through G v. */
function metricQuadraticForm(metric: LocalMetric, v: Float64Array, work: Float64Array): number {
  if (metric.metricQuadraticForm) return metric.metricQuadraticForm(v);
  metric.applyMetric!(v, work);
  let q = 0;
  for (let i = 0; i < v.length; i++) q += v[i] * work[i];
  return q;
}

export function smmala(target: Target, options: SmmalaOptions): SmmalaKernel {
  // The latent GP target's Fisher metric K^-1 + R(f) is the comparison paper's, for q the prior.
  if ("qIsPrior" in target) requirePriorSplit(target as LatentGpTarget, "smmala");
  const n = target.dim;
  const christoffel = options.christoffel ?? false;
  const name = christoffel ? "mmala" : "smmala";
  const metricAt = christoffel ? target.geometry?.bind(target) : target.fisherMetric?.bind(target) ?? target.geometry?.bind(target);
  if (!metricAt) throw new Error(`${name}: the target has no metric (Target.fisherMetric or Target.geometry)`);
  checkPositive("stepSize", options.stepSize);
  const targetAcceptance = options.targetAcceptance ?? MALA_TARGET_ACCEPTANCE;
  checkProbability("targetAcceptance", targetAcceptance);
  const broken = options.broken;
  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance };

  const newPoint = (): MetricPoint => ({ owner: null, metric: undefined, drift: new Float64Array(n), correction: new Float64Array(n), logDensity: NaN, ok: false });
  const slots: [MetricPoint, MetricPoint] = [newPoint(), newPoint()];
  const p = new Float64Array(n);
  const xi = new Float64Array(n);
  const d = new Float64Array(n);
  const work = new Float64Array(n);
  const decision = newMetropolisOutcome();

  /** Fills `pt` at f: the metric (the one O(n^3) step), W and the drift. */
  function compute(pt: MetricPoint, f: Float64Array): void {
    pt.owner = null;
    pt.ok = false;
    pt.metric?.release?.();
    pt.metric = undefined;
    pt.logDensity = NaN;
    const m = metricAt!(f);
    pt.metric = m;
    pt.logDensity = m.logDensity;
    if (!Number.isFinite(pt.logDensity) || !Number.isFinite(m.logDetMetric)) return;
    if (!m.metricQuadraticForm && !m.applyMetric) throw new Error("smmala: the target's metric offers neither metricQuadraticForm nor applyMetric");
    m.applyInverse(m.gradient, pt.drift);
    if (christoffel) {
      const dense = m as LocalMetric & { christoffelDrift?: (out: Float64Array) => void };
      if (!dense.christoffelDrift) throw new Error("mmala: the target's geometry offers no christoffelDrift (a dense-metric target does)");
      dense.christoffelDrift(pt.correction);
    }
    for (let i = 0; i < n; i++) if (!Number.isFinite(pt.drift[i]) || !Number.isFinite(pt.correction[i])) return;
    pt.ok = true;
  }

  function init(x0: Float64Array): SmmalaState {
    const pt = slots[0];
    compute(pt, initialPosition("smmala", x0, n));
    if (!pt.ok) throw new RangeError(`smmala: the log density, its gradient or the metric at the initial point is not finite (log density ${pt.logDensity})`);
    const m = pt.metric!;
    const state: SmmalaState = { position: m.position.slice(), logDensity: pt.logDensity, gradient: m.gradient.slice() };
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
    const gc = cur.metric!;
    const x = gc.position;
    // mu(f) = f + h G^-1 dW/df + eps^2 c(f): h = eps^2 / 2 (eq. 10), or 1 for the Newton drift of IWLS
    const h = options.newtonDrift ? 1 : 0.5 * eps * eps;
    const e2 = eps * eps;

    // Algorithm 2 line 2: f' = mu(f) + eps xi, xi = G(f)^-1 p ~ N(0, G(f)^-1) with p ~ N(0, G(f))
    gc.sampleMomentum(rng, p);
    gc.applyInverse(p, xi);
    for (let i = 0; i < n; i++) d[i] = x[i] + h * cur.drift[i] + e2 * cur.correction[i] + eps * xi[i];

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
    } else if (prop.ok && broken !== "smmala-no-hastings") {
      const gp = prop.metric!;
      // log g(f' | f) = 1/2 log|G(f)| - 1/2 p' xi (log|G| up to the target's constant, which cancels)
      let pxi = 0;
      for (let i = 0; i < n; i++) pxi += p[i] * xi[i];
      const logForward = 0.5 * logDet(gc) - 0.5 * pxi;
      // log g(f | f') = 1/2 log|G(f')| - 1/(2 eps^2) e' G(f') e,  e = f - mu(f')
      const back = broken === "forward-metric" ? gc : gp;
      const xp = gp.position;
      const c = broken === "reverse-without-christoffel" ? 0 : e2;
      for (let i = 0; i < n; i++) d[i] = x[i] - xp[i] - h * prop.drift[i] - c * prop.correction[i];
      const logReverse = 0.5 * logDet(back) - metricQuadraticForm(back, d, work) / (2 * eps * eps);
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
    const gp = prop.metric!;
    const next: SmmalaState = { position: gp.position.slice(), logDensity: prop.logDensity, gradient: gp.gradient.slice() };
    prop.owner = next;
    cur.owner = null;
    return { state: next, info };
  }

  return { name, tunable, init, step };
}
