/**
 * The No-U-Turn sampler with multinomial sampling of the trajectory's states, as Stan runs it
 * (Hoffman & Gelman 2014, Algorithm 3's doubling; Betancourt 2017, "A Conceptual Introduction
 * to Hamiltonian Monte Carlo", Section A.3.2: multinomial sampling of states weighted by
 * exp(-H), biased progressive sampling between a subtree and the trajectory it extends, and the
 * generalised no-U-turn criterion p_sharp(-)' rho > 0 and p_sharp(+)' rho > 0, with rho the sum
 * of the momenta; Stan's base_nuts.hpp adds the same criterion across the join of two subtrees).
 *
 * The tree is built over a `Dynamics` (integrators/dynamics.ts): how a point of phase space is
 * stored, one leapfrog step, H, and the two vectors of the criterion (the momentum, summed into
 * rho, and p_sharp, dotted with it). `nuts(target, options)` runs over the Euclidean dynamics
 * (integrators/euclideanDynamics.ts) with the identity mass (p_sharp = p); a
 * kernel that wants a metric runs on coordinates it has whitened, and may store its points in
 * other coordinates (laplaceDynamics.ts). The trajectory doubles in a random direction until
 * the criterion fails, a subtree diverges (H - H0 > `divergenceThreshold`, or a non-finite H),
 * or the tree reaches `maxTreeDepth` (2^maxTreeDepth - 1 leapfrog steps): the tree depth and
 * whether it saturated are in StepInfo, as Stan reports them. The acceptance statistic for step
 * size adaptation is Stan's: the mean over the new states of min(1, exp(H0 - H)).
 *
 * No array is allocated after construction except the state a transition moves to.
 */
import type { RandomSource } from "../../random/types.js";
import type { Target } from "../../targets/types.js";
import type { Dynamics, PhasePoint } from "../integrators/dynamics.js";
import { euclideanDynamics, type EuclideanState } from "../integrators/euclideanDynamics.js";
import { identityMass } from "../integrators/massMatrix.js";
import { checkPositive, isNumericalFailure } from "./metropolis.js";
import type { Kernel, NutsStepInfo, SamplerState, StepInfo, Tunable } from "../types.js";
import type { FaultOf } from "../../math/negativeControl.js";

export interface NutsOptions {
  stepSize: number;
  /** Largest tree depth (default 10, Stan's): at most 2^maxTreeDepth - 1 leapfrog steps. */
  maxTreeDepth?: number;
  /** Target of the acceptance statistic for step-size adaptation (default 0.8, Stan's adapt_delta). */
  targetAcceptance?: number;
  /** H - H0 above which a subtree is divergent (default 1000, Stan's). */
  divergenceThreshold?: number;
  /**
   * Test-only negative controls: "last-state" moves to the trajectory's last state instead of
   * the multinomial draw; "weights-potential" weighs states by exp(L) alone, leaving the kinetic
   * energy out.
   * @internal
   */
  broken?: FaultOf<"nuts">;
}

/** The position with L and dL/dx there (euclideanDynamics.ts). */
export type NutsState = EuclideanState;

export interface NutsKernel extends Kernel<NutsState, NutsStepInfo> {
  readonly tunable: Tunable;
}

export const NUTS_DEFAULT_MAX_TREE_DEPTH = 10;
export const NUTS_TARGET_ACCEPTANCE = 0.8;
const STAN_MAX_DELTA_H = 1000;

/**
 * The six no-U-turn tests of a merged subtree (buildTree) in one pass over its arrays: with
 * rho = rhoInit + rhoFinal, beg' rho, end' rho (over the merge), beg' (rhoInit + finalBeg.m),
 * finalBeg' (same) (across the join, from the start) and initEnd' (rhoFinal + initEnd.m), end'
 * (same) (across the join, from the end), the sharps dotted, each > 0. Each sum runs over i in
 * order, so it is the number a loop of its own gives; six loops, stopped at the first failure,
 * read the eight arrays up to six times.
 */
function noUTurn(beg: End, end: End, initEnd: End, finalBeg: End, rhoInit: Float64Array, rhoFinal: Float64Array): boolean {
  const bs = beg.s, es = end.s, is = initEnd.s, im = initEnd.m, fs = finalBeg.s, fm = finalBeg.m;
  let m1 = 0, m2 = 0, a1 = 0, a2 = 0, b1 = 0, b2 = 0;
  for (let i = 0; i < bs.length; i++) {
    const ri = rhoInit[i], rf = rhoFinal[i];
    const r = ri + rf, ra = ri + fm[i], rb = rf + im[i];
    m1 += bs[i] * r;
    m2 += es[i] * r;
    a1 += bs[i] * ra;
    a2 += fs[i] * ra;
    b1 += is[i] * rb;
    b2 += es[i] * rb;
  }
  return m1 > 0 && m2 > 0 && a1 > 0 && a2 > 0 && b1 > 0 && b2 > 0;
}

function logSumExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
}

/** NUTS on a target's log density with the identity mass. */
export function nuts(target: Target, options: NutsOptions): NutsKernel {
  return nutsOn(euclideanDynamics(target, identityMass(target.dim), "nuts"), options);
}

/** The momentum and p_sharp at one end of a subtree (copies). */
interface End {
  m: Float64Array;
  s: Float64Array;
}

/** NUTS over any dynamics (the module comment). */
export function nutsOn<P extends PhasePoint, S extends SamplerState>(dyn: Dynamics<P, S>, options: NutsOptions): Kernel<S, NutsStepInfo> & { readonly tunable: Tunable } {
  const n = dyn.dim;
  checkPositive("stepSize", options.stepSize);
  const maxDepth = options.maxTreeDepth ?? NUTS_DEFAULT_MAX_TREE_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 20) throw new RangeError(`nuts: maxTreeDepth must be an integer in 1..20, got ${maxDepth}`);
  const threshold = options.divergenceThreshold ?? STAN_MAX_DELTA_H;
  const targetAcceptance = options.targetAcceptance ?? NUTS_TARGET_ACCEPTANCE;
  const lastState = options.broken === "last-state";
  const potentialWeights = options.broken === "weights-potential";
  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance };
  const copyState = (dyn.copyState ?? dyn.copy).bind(dyn);
  const newEnd = (): End => ({ m: new Float64Array(n), s: new Float64Array(n) });
  function setEnd(end: End, pt: P): void {
    end.m.set(dyn.momentum(pt));
    end.s.set(dyn.sharp(pt));
  }
  function copyEnd(from: End, to: End): void {
    to.m.set(from.m);
    to.s.set(from.s);
  }

  // The trajectory's ends, the state sampled so far and the proposal of the subtree being built.
  // Stan's current point z_ is the end being extended itself (no copies in and out per doubling).
  const zFwd = dyn.newPoint(), zBck = dyn.newPoint(), zSample = dyn.newPoint(), zPropose = dyn.newPoint();
  let z = zFwd;
  // The ends of the forward and backward parts, and the summed momenta rho.
  const [fwdFwd, fwdBck, bckFwd, bckBck] = [newEnd(), newEnd(), newEnd(), newEnd()];
  const [rho, rhoFwd, rhoBck] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  // What build_tree keeps per level of recursion (level d uses levels[d], its children level d - 1).
  const levels = Array.from({ length: maxDepth + 1 }, () => ({
    initEnd: newEnd(), rhoInit: new Float64Array(n), finalBeg: newEnd(), rhoFinal: new Float64Array(n), proposeFinal: dyn.newPoint(),
  }));
  // Tallies of one transition.
  const run = { h0: 0, eps: 0, leapfrogs: 0, sumMetropolis: 0, divergent: false, failure: undefined as StepInfo["divergence"], rng: undefined as unknown as RandomSource };

  function energy(pt: P): number {
    return potentialWeights ? -pt.lp : dyn.energy(pt);
  }

  /**
   * Stan's build_tree: 2^depth leapfrog steps from z in the direction of run.eps; returns the
   * subtree's log sum of weights exp(H0 - H), or NaN when the subtree is invalid (divergent, or
   * it turned back on itself). `propose` receives the subtree's multinomial draw, beg and end its
   * end momenta, and rhoOut (added to) its summed momenta.
   */
  function buildTree(depth: number, propose: P, beg: End, end: End, rhoOut: Float64Array): number {
    if (depth === 0) {
      run.leapfrogs++;
      let failure: StepInfo["divergence"];
      try {
        failure = dyn.step(z, run.eps) || undefined;
      } catch (e) {
        if (!isNumericalFailure(e)) throw e;
        failure = "numerical-error";
      }
      if (failure) {
        run.divergent = true;
        run.failure = failure;
        return NaN;
      }
      let h = energy(z);
      if (Number.isNaN(h)) h = Infinity;
      if (h - run.h0 > threshold) {
        run.divergent = true;
        run.failure = Number.isFinite(h) ? "energy-error" : "non-finite";
      }
      const w = run.h0 - h;
      run.sumMetropolis += w > 0 ? 1 : Math.exp(w);
      copyState(z, propose);
      setEnd(beg, z);
      copyEnd(beg, end);
      const m = beg.m;
      for (let i = 0; i < n; i++) rhoOut[i] += m[i];
      return run.divergent ? NaN : w;
    }
    const lv = levels[depth];
    lv.rhoInit.fill(0);
    const lswInit = buildTree(depth - 1, propose, beg, lv.initEnd, lv.rhoInit);
    if (Number.isNaN(lswInit)) return NaN;
    lv.rhoFinal.fill(0);
    const lswFinal = buildTree(depth - 1, lv.proposeFinal, lv.finalBeg, end, lv.rhoFinal);
    if (Number.isNaN(lswFinal)) return NaN;
    // Uniform progressive sampling within the subtree (multinomial over its states).
    const lswSubtree = logSumExp(lswInit, lswFinal);
    if (lswFinal > lswSubtree || run.rng.uniform() < Math.exp(lswFinal - lswSubtree)) copyState(lv.proposeFinal, propose);
    const { rhoInit, rhoFinal, initEnd, finalBeg } = lv;
    for (let i = 0; i < n; i++) rhoOut[i] += rhoInit[i] + rhoFinal[i];
    // The criterion over the merged subtree, and across its join (Stan's extra checks).
    return noUTurn(beg, end, initEnd, finalBeg, rhoInit, rhoFinal) ? lswSubtree : NaN;
  }

  function step(state: S, rng: RandomSource): { state: S; info: NutsStepInfo } {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    dyn.start(state, rng, zFwd);
    dyn.copy(zFwd, zBck);
    copyState(zFwd, zSample);
    setEnd(fwdFwd, zFwd);
    copyEnd(fwdFwd, fwdBck);
    copyEnd(fwdFwd, bckFwd);
    copyEnd(fwdFwd, bckBck);
    rho.set(dyn.momentum(zFwd));
    run.h0 = energy(zFwd);
    run.leapfrogs = 0;
    run.sumMetropolis = 0;
    run.divergent = false;
    run.failure = undefined;
    run.rng = rng;
    let logSumWeight = 0; // log exp(H0 - H0)
    let depth = 0;
    let moved = false;
    while (depth < maxDepth) {
      rhoFwd.fill(0);
      rhoBck.fill(0);
      let lswSubtree: number;
      if (rng.uniform() > 0.5) {
        // Extend forward: the trajectory so far becomes the backward part.
        z = zFwd;
        rhoBck.set(rho);
        copyEnd(fwdFwd, bckFwd);
        run.eps = eps;
        lswSubtree = buildTree(depth, zPropose, fwdBck, fwdFwd, rhoFwd);
      } else {
        z = zBck;
        rhoFwd.set(rho);
        copyEnd(bckBck, fwdBck);
        run.eps = -eps;
        lswSubtree = buildTree(depth, zPropose, bckFwd, bckBck, rhoBck);
      }
      if (Number.isNaN(lswSubtree)) break;
      depth++;
      // Biased progressive sampling: the new subtree's draw replaces the current one with
      // probability min(1, w(subtree) / w(old trajectory)).
      if (lswSubtree > logSumWeight || rng.uniform() < Math.exp(lswSubtree - logSumWeight)) {
        copyState(zPropose, zSample);
        moved = true;
      }
      logSumWeight = logSumExp(logSumWeight, lswSubtree);
      for (let i = 0; i < n; i++) rho[i] = rhoBck[i] + rhoFwd[i];
      // The same tests over the whole trajectory (backward part, then forward part).
      if (!noUTurn(bckBck, fwdFwd, bckFwd, fwdBck, rhoBck, rhoFwd)) break;
    }
    if (lastState && depth > 0) {
      copyState(z, zSample);
      moved = true;
    }
    const acceptStat = run.leapfrogs > 0 ? run.sumMetropolis / run.leapfrogs : 0;
    const h = moved ? energy(zSample) : run.h0;
    const info: NutsStepInfo = {
      accepted: moved,
      acceptanceProbability: acceptStat,
      divergent: run.divergent,
      ...(run.failure ? { divergence: run.failure } : {}),
      energy: h,
      energyError: h - run.h0,
      stepSize: eps,
      leapfrogSteps: run.leapfrogs,
      gradientCalls: run.leapfrogs,
      metricCalls: 0,
      fixedPointIterations: 0,
      treeDepth: depth,
      treeDepthSaturated: depth >= maxDepth,
    };
    return { state: moved ? dyn.state(zSample) : state, info };
  }

  return { name: "nuts", tunable, init: (x0) => dyn.init(x0), step };
}
