/**
 * Component-wise adaptive random-walk Metropolis-Hastings (Girolami & Calderhead 2011, Section
 * 7.1.1): one transition is a sweep over the coordinates, each updated on its own with a
 * proposal x_k' = x_k + s_k z; during burn-in (with `adapt`) each s_k is adapted every 100
 * transitions to an acceptance rate between 20% and 40% (the acceptance window of adaptation.ts,
 * one per coordinate), then fixed. The kernel has no tunable: the per-coordinate windows are its
 * own adaptation (Kernel.adaptation), which the chain driver runs after each burn-in transition
 * with the coordinates it moved, and ends with burn-in. A transition uses the scales as they are:
 * it is a function of the state and the generator.
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
import type { CountedStepInfo, Kernel, SamplerState } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

export interface ComponentwiseMhOptions {
  /** Adapt the scales in the chain's burn-in (default false: fixed scales). */
  adapt?: boolean;
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

/** A sweep's outcome: which coordinates moved (what the scales adapt on). */
export interface ComponentwiseStepInfo extends CountedStepInfo {
  /** moved[k] = 1 when coordinate k's proposal was accepted. */
  moved: Uint8Array;
}

export interface ComponentwiseMhKernel extends Kernel<SamplerState, ComponentwiseStepInfo> {
  /** The current per-coordinate scales (a copy). */
  scales(): Float64Array;
}

export function componentwiseMetropolis(target: Target, options: ComponentwiseMhOptions = {}): ComponentwiseMhKernel {
  const n = target.dim;
  const initialScale = options.initialScale ?? 1;
  checkPositive("initialScale", initialScale);
  const scales = new Float64Array(n).fill(initialScale);
  let windows: AcceptanceWindow[] = [];

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
    return { position: x, logDensity };
  }

  function windowAt(scale: number): AcceptanceWindow {
    return new AcceptanceWindow(scale, 0.3, { window: options.window ?? 100, lower: 0.2, upper: 0.4 });
  }

  // The scales come from the metric at the chain's first point and adapt in its burn-in: a resumed
  // chain takes them and each window's counts, not init(position)'s.
  // [log density, x (n), scales (n), windows (3 n)]
  const saveState = (state: SamplerState) => Float64Array.of(state.logDensity, ...state.position, ...scales, ...windows.flatMap((w) => w.snapshot()));
  function restoreState(saved: Float64Array): SamplerState {
    if (saved.length !== 1 + 5 * n) throw new RangeError(`mh-componentwise: a saved state has ${1 + 5 * n} numbers, got ${saved.length}`);
    scales.set(saved.subarray(1 + n, 1 + 2 * n));
    windows = Array.from(scales, (s, k) => {
      const w = windowAt(s);
      w.restore(Array.from(saved.subarray(1 + 2 * n + 3 * k, 4 + 2 * n + 3 * k)));
      return w;
    });
    return { position: saved.slice(1, 1 + n), logDensity: saved[0] };
  }

  // Each coordinate's window takes whether its proposal moved; scale k is next used in the next
  // sweep, so adapting after the sweep gives the scales adapting within it gave.
  const adaptation = options.adapt
    ? {
        update(info: ComponentwiseStepInfo) {
          for (let k = 0; k < n; k++) scales[k] = windows[k].update(NaN, info.moved[k] === 1);
        },
        end() {
          for (let k = 0; k < n; k++) scales[k] = windows[k].final();
        },
      }
    : undefined;

  function step(state: SamplerState, rng: RandomSource): { state: SamplerState; info: ComponentwiseStepInfo } {
    const x = state.position.slice();
    const moved = new Uint8Array(n);
    let logDensity = state.logDensity;
    let accepted = 0;
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
        moved[k] = 1;
        moves?.set(k, x[k]);
      } else {
        x[k] = old;
      }
    }
    // acceptance statistic: the fraction of coordinates moved; one density evaluation per coordinate
    const info: ComponentwiseStepInfo = { ...metropolisStepInfo({ accepted: accepted > 0, acceptanceProbability: accepted / n, divergence: undefined }, NaN), densityEvaluations: n, moved };
    return { state: accepted > 0 ? { position: x, logDensity } : state, info };
  }

  return { name: "mh-componentwise", init, step, adaptation, saveState, restoreState, scales: () => scales.slice() };
}
