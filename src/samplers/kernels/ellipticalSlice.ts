/**
 * Elliptical slice sampling (Murray, Adams & MacKay 2010, Figure 2; comparison paper, Section
 * 3.4 and Algorithm 3) for a target prior N(0, K) x likelihood:
 *
 *   1: z ~ N(0, K)                                   (z = L_K e)
 *   2: eta = log L(f) - u, u ~ Exp(1)                 (the slice: a threshold on the log likelihood)
 *   3: a ~ U[0, 2 pi]; [a_min, a_max] = [a - 2 pi, a] (the bracket)
 *   4: f' = f cos(a) + z sin(a)
 *   5: if log L(f') > eta: return f'
 *   6-9: else shrink the bracket towards a = 0 (the current point) and draw a ~ U[a_min, a_max]:
 *        if a < 0 then a_min = a else a_max = a; go to 4.
 *
 * Lines 7-8 of the extracted Algorithm 3 read "a_min = 0" / "a_max = 0"; Murray et al. shrink
 * the bracket to the rejected angle a, which is what keeps the move reversible (the bracket
 * sequence depends only on rejected points, each of which lies off the slice from either end),
 * and what is done here. Setting the edge to 0 would cut away the whole side of the ellipse that
 * held the rejected point, not just the part beyond it.
 *
 * The transition always moves (there is no accept step: rejection is inside line 5), so the
 * StepInfo says accepted = true with probability 1, and its cost is reported as
 * `densityEvaluations` = 1 + the number of shrinks. There is nothing to tune.
 *
 * Each transition: one triangular product for z (n^2 flops), one likelihood evaluation per
 * bracket point (O(n) for a factorising likelihood), and one triangular solve for the prior term
 * of the reported log density (n^2 flops). The shrinkage loop allocates nothing.
 */
import type { RandomSource } from "../../random/types.js";
import { finiteInitialLogDensity, initialPosition } from "../chain/initialPoint.js";
import { requirePriorSplit, temperedLogLikelihood, type LatentGpTarget } from "../latentTarget.js";
import { lowerTimesInPlace } from "../integrators/massMatrix.js";
import type { CountedStepInfo, Kernel, SamplerState } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

/**
 * Shrinks after which a transition stays put. Each shrink keeps a uniform fraction of the
 * bracket (e^-1 on average in log), so by then the bracket has collapsed onto a = 0, the current
 * point; only a likelihood that is NaN near f gets here.
 */
const MAX_SHRINKS = 200;

export interface EllipticalSliceOptions {
  /**
   * Test-only negative controls: "full-density-threshold" puts the slice on the full log density
   * (prior included, so the prior counts twice); "bracket-to-zero" shrinks the bracket edge to 0 as
   * the extracted Algorithm 3 lines 7-8 read; "prior-scale" draws z ~ N(0, 2K) instead of N(0, K).
   * @internal
   */
  broken?: FaultOf<"elliptical-slice">;
}

export interface EllipticalSliceState extends SamplerState {
  /** beta log p(y | f) at the position. */
  readonly logLikelihood: number;
}

export function ellipticalSlice(target: LatentGpTarget, options: EllipticalSliceOptions = {}): Kernel<EllipticalSliceState, CountedStepInfo> {
  requirePriorSplit(target, "ellipticalSlice");
  const n = target.dim;
  const l = target.kernelCholesky.factor.data;
  const broken = options.broken;
  const fullThreshold = broken === "full-density-threshold";
  const priorScale = broken === "prior-scale" ? Math.SQRT2 : 1;
  const z = new Float64Array(n);
  const proposal = new Float64Array(n);
  const logSlice = (f: Float64Array) => (fullThreshold ? target.logDensity(f) : temperedLogLikelihood(target, f));

  function init(x0: Float64Array): EllipticalSliceState {
    const position = initialPosition("ellipticalSlice", x0, n);
    const logDensity = finiteInitialLogDensity("ellipticalSlice", target.logDensity(position));
    return { position, logDensity, logLikelihood: temperedLogLikelihood(target, position) };
  }

  function step(state: EllipticalSliceState, rng: RandomSource): { state: EllipticalSliceState; info: CountedStepInfo } {
    const f = state.position;
    // line 1: z = L_K e ~ N(0, K)
    rng.fillNormal(z);
    lowerTimesInPlace(l, n, z);
    if (priorScale !== 1) for (let i = 0; i < n; i++) z[i] *= priorScale;
    // line 2: the slice threshold
    const current = fullThreshold ? state.logDensity : state.logLikelihood;
    const eta = current - rng.exponential();
    // line 3: the initial angle and bracket
    let a = 2 * Math.PI * rng.uniform();
    let aMin = a - 2 * Math.PI;
    let aMax = a;
    let evaluations = 0;
    let found = false;
    let ll = NaN;
    for (;;) {
      // line 4
      const c = Math.cos(a);
      const s = Math.sin(a);
      for (let i = 0; i < n; i++) proposal[i] = f[i] * c + z[i] * s;
      ll = logSlice(proposal);
      evaluations++;
      // line 5
      if (ll > eta) {
        found = true;
        break;
      }
      if (evaluations > MAX_SHRINKS) break;
      // lines 6-9: shrink towards the current point a = 0
      if (broken === "bracket-to-zero") {
        if (a < 0) aMin = 0;
        else aMax = 0;
        if (aMin === aMax) {
          // both edges at 0: the bracket is the current point
          break;
        }
      } else if (a < 0) aMin = a;
      else aMax = a;
      a = aMin + (aMax - aMin) * rng.uniform();
    }
    const info: CountedStepInfo = {
      accepted: true,
      acceptanceProbability: 1,
      divergent: false,
      energy: NaN,
      energyError: NaN,
      stepSize: NaN,
      leapfrogSteps: 0,
      gradientCalls: 0,
      metricCalls: 0,
      fixedPointIterations: 0,
      densityEvaluations: evaluations,
    };
    // A bracket shrunk to nothing means the current point (a = 0), which is always on the slice.
    if (!found) return { state, info };
    const position = proposal.slice();
    const logDensity = target.logDensity(position);
    const logLikelihood = fullThreshold ? temperedLogLikelihood(target, position) : ll;
    return { state: { position, logDensity, logLikelihood }, info };
  }

  return { name: "ess", init, step };
}
