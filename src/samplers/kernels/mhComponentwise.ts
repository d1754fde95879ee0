/**
 * Component-wise adaptive random-walk Metropolis-Hastings (Girolami & Calderhead 2011, Section
 * 7.1.1): one transition is a sweep over the coordinates, each updated on its own with a
 * proposal x_k' = x_k + s_k z; during the first `adaptIterations` transitions (burn-in) each s_k
 * is adapted every 100 transitions to an acceptance rate between 20% and 40% (the acceptance
 * window of adaptation.ts, one per coordinate), then fixed. The driver's single-tunable
 * adaptation does not apply (the kernel has no tunable): the per-coordinate windows do that work.
 *
 * Initial scales: 2.4 sqrt((G^-1)_kk) at the initial point when the target has a metric (the optimal
 * one-dimensional random-walk scale for a Gaussian of that variance, under the Laplace
 * approximation), else `initialScale`.
 */
import type { RandomSource } from "../../random/types.js";
import type { Target } from "../../targets/types.js";
import { AcceptanceWindow } from "../chain/adaptation.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import { checkPositive, metropolisStepInfo } from "./metropolis.js";
import type { Kernel, SamplerState, StepInfo } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

export interface ComponentwiseMhOptions {
  /** Transitions (sweeps) during which the scales adapt (the burn-in; default 0: fixed scales). */
  adaptIterations?: number;
  /** Starting scale where the target has no metric (default 1). */
  initialScale?: number;
  /** Iterations per adaptation window (default 100). */
  window?: number;
  /**
   * Test-only negative control: "skip-ratio" accepts every other proposal without the density
   * ratio. @internal
   */
  broken?: FaultOf<"mh-componentwise">;
}

export interface ComponentwiseMhKernel extends Kernel {
  /** The current per-coordinate scales (a copy). */
  scales(): Float64Array;
}

export function componentwiseMetropolis(target: Target, options: ComponentwiseMhOptions = {}): ComponentwiseMhKernel {
  const n = target.dim;
  const adaptIterations = options.adaptIterations ?? 0;
  const initialScale = options.initialScale ?? 1;
  checkPositive("initialScale", initialScale);
  const scales = new Float64Array(n).fill(initialScale);
  let windows: AcceptanceWindow[] = [];
  let transitions = 0;

  function init(x0: Float64Array): SamplerState {
    const x = initialPosition("mh-componentwise", x0, n);
    const logDensity = finiteInitialLogDensity("mh-componentwise", target.logDensity(x));
    const metric = target.fisherMetric?.(x);
    if (metric) {
      const e = new Float64Array(n);
      const col = new Float64Array(n);
      for (let k = 0; k < n; k++) {
        e.fill(0);
        e[k] = 1;
        metric.applyInverse(e, col);
        if (col[k] > 0 && Number.isFinite(col[k])) scales[k] = 2.4 * Math.sqrt(col[k]);
      }
      metric.release?.();
    }
    windows = Array.from(scales, windowAt);
    transitions = 0;
    return { position: x, logDensity };
  }

  function windowAt(scale: number): AcceptanceWindow {
    return new AcceptanceWindow(scale, 0.3, { window: options.window ?? 100, lower: 0.2, upper: 0.4 });
  }

  // The scales come from the metric at the chain's first point and adapt in its burn-in: a resumed
  // chain takes them, each window's counts and the transitions so far, not init(position)'s.
  // [transitions, log density, x (n), scales (n), windows (3 n)]
  const saveState = (state: SamplerState) => Float64Array.of(transitions, state.logDensity, ...state.position, ...scales, ...windows.flatMap((w) => w.snapshot()));
  function restoreState(saved: Float64Array): SamplerState {
    if (saved.length !== 2 + 5 * n) throw new RangeError(`mh-componentwise: a saved state has ${2 + 5 * n} numbers, got ${saved.length}`);
    transitions = saved[0];
    scales.set(saved.subarray(2 + n, 2 + 2 * n));
    windows = Array.from(scales, (s, k) => {
      const w = windowAt(s);
      w.restore(Array.from(saved.subarray(2 + 2 * n + 3 * k, 5 + 2 * n + 3 * k)));
      return w;
    });
    return { position: saved.slice(2, 2 + n), logDensity: saved[1] };
  }

  function step(state: SamplerState, rng: RandomSource): { state: SamplerState; info: StepInfo } {
    const x = state.position.slice();
    let logDensity = state.logDensity;
    let accepted = 0;
    const adapting = transitions < adaptIterations;
    // a target that moves one coordinate for less than a whole evaluation (logistic regression:
    // X beta updated in O(N)) does so; the proposals and decisions are the same either way
    const moves = target.coordinateDensity?.(x);
    for (let k = 0; k < n; k++) {
      const old = x[k];
      x[k] = old + scales[k] * rng.normal();
      const proposed = moves ? moves.logDensityWith(k, x[k]) : target.logDensity(x);
      const logU = Math.log(rng.uniform());
      const ok = options.broken === "skip-ratio" && k % 2 === 0 ? Number.isFinite(proposed) : logU < proposed - logDensity;
      if (ok) {
        logDensity = proposed;
        accepted++;
        moves?.set(k, x[k]);
      } else {
        x[k] = old;
      }
      if (adapting) scales[k] = windows[k].update(NaN, ok);
    }
    transitions++;
    // acceptance statistic: the fraction of coordinates moved; one density evaluation per coordinate
    const info: StepInfo = { ...metropolisStepInfo({ accepted: accepted > 0, acceptanceProbability: accepted / n, divergence: undefined }, NaN), densityEvaluations: n };
    return { state: accepted > 0 ? { position: x, logDensity } : state, info };
  }

  return { name: "mh-componentwise", init, step, saveState, restoreState, scales: () => scales.slice() };
}
