/**
 * The No-U-Turn sampler with multinomial sampling of the trajectory's states, as Stan runs it
 * (Hoffman & Gelman 2014, Algorithm 3's doubling; Betancourt 2017, "A Conceptual Introduction
 * to Hamiltonian Monte Carlo", Section A.3.2: multinomial sampling of states weighted by
 * exp(-H), biased progressive sampling between a subtree and the trajectory it extends, and the
 * generalised no-U-turn criterion p_sharp(-)' rho > 0 and p_sharp(+)' rho > 0, with rho the sum
 * of the momenta; Stan's base_nuts.hpp adds the same criterion across the join of two subtrees).
 *
 * The mass is the identity: a kernel that wants a metric runs on coordinates it has whitened
 * (laplaceNuts.ts), so p_sharp = M^-1 p = p. The trajectory doubles in a random direction until
 * the criterion fails, a subtree diverges (H - H0 > `divergenceThreshold`, or a non-finite H),
 * or the tree reaches `maxTreeDepth` (2^maxTreeDepth - 1 leapfrog steps): the tree depth and
 * whether it saturated are in StepInfo, as Stan reports them. The acceptance statistic for step
 * size adaptation is Stan's: the mean over the new states of min(1, exp(H0 - H)).
 *
 * No array is allocated after construction except the state a transition moves to.
 */
import type { RandomSource } from "../random/types.js";
import type { Target } from "../targets/types.js";
import { finiteInitialLogDensity, initialPosition } from "./initialPoint.js";
import { checkPositive, isNumericalFailure } from "./metropolis.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "./types.js";

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
  broken?: "last-state" | "weights-potential";
}

export interface NutsState extends SamplerState {
  readonly gradient: Float64Array;
}

export interface NutsKernel extends Kernel<NutsState> {
  readonly tunable: Tunable;
}

export const NUTS_DEFAULT_MAX_TREE_DEPTH = 10;
export const NUTS_TARGET_ACCEPTANCE = 0.8;
const STAN_MAX_DELTA_H = 1000;

/** A point in phase space: position, momentum, gradient of L, L. */
interface Point {
  x: Float64Array;
  p: Float64Array;
  g: Float64Array;
  lp: number;
}

function newPoint(n: number): Point {
  return { x: new Float64Array(n), p: new Float64Array(n), g: new Float64Array(n), lp: NaN };
}

function copyPoint(from: Point, to: Point): void {
  to.x.set(from.x);
  to.p.set(from.p);
  to.g.set(from.g);
  to.lp = from.lp;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** a' (b + c) > 0. */
function positive(a: Float64Array, b: Float64Array, c: Float64Array): boolean {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * (b[i] + c[i]);
  return s > 0;
}

function logSumExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
}

export function nuts(target: Target, options: NutsOptions): NutsKernel {
  const n = target.dim;
  const gradientOf = target.logDensityAndGradient?.bind(target);
  if (!gradientOf) throw new Error("nuts: the target has no logDensityAndGradient");
  checkPositive("stepSize", options.stepSize);
  const maxDepth = options.maxTreeDepth ?? NUTS_DEFAULT_MAX_TREE_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 20) throw new RangeError(`nuts: maxTreeDepth must be an integer in 1..20, got ${maxDepth}`);
  const threshold = options.divergenceThreshold ?? STAN_MAX_DELTA_H;
  const targetAcceptance = options.targetAcceptance ?? NUTS_TARGET_ACCEPTANCE;
  const lastState = options.broken === "last-state";
  const potentialWeights = options.broken === "weights-potential";
  const tunable: Tunable = { name: "stepSize", value: options.stepSize, targetAcceptance };

  // The current point (Stan's z_), the trajectory's ends, the state sampled so far and the
  // proposal of the subtree being built.
  const z = newPoint(n), zFwd = newPoint(n), zBck = newPoint(n), zSample = newPoint(n), zPropose = newPoint(n);
  // Momenta at the ends of the backward and forward parts, and the summed momenta rho.
  const [pFwdFwd, pFwdBck, pBckFwd, pBckBck, rho, rhoFwd, rhoBck] = Array.from({ length: 7 }, () => new Float64Array(n));
  // What build_tree keeps per level of recursion (level d uses levels[d], its children level d - 1).
  const levels = Array.from({ length: maxDepth + 1 }, () => ({
    pInitEnd: new Float64Array(n), rhoInit: new Float64Array(n), pFinalBeg: new Float64Array(n), rhoFinal: new Float64Array(n), proposeFinal: newPoint(n),
  }));
  // Tallies of one transition.
  const run = { h0: 0, eps: 0, leapfrogs: 0, sumMetropolis: 0, divergent: false, failure: undefined as StepInfo["divergence"], rng: undefined as unknown as RandomSource };

  function energy(pt: Point): number {
    return potentialWeights ? -pt.lp : -pt.lp + 0.5 * dot(pt.p, pt.p);
  }

  /** One leapfrog step of z with step `eps` (negative: backwards in time). */
  function leapfrog(eps: number): void {
    const { x, p, g } = z;
    for (let i = 0; i < n; i++) p[i] += 0.5 * eps * g[i];
    for (let i = 0; i < n; i++) x[i] += eps * p[i];
    z.lp = gradientOf!(x, g);
    for (let i = 0; i < n; i++) p[i] += 0.5 * eps * g[i];
  }

  /**
   * Stan's build_tree: 2^depth leapfrog steps from z in the direction of run.eps; returns the
   * subtree's log sum of weights exp(H0 - H), or NaN when the subtree is invalid (divergent, or
   * it turned back on itself). `propose` receives the subtree's multinomial draw, pBeg and pEnd its
   * end momenta, and rho (added to) its summed momenta.
   */
  function buildTree(depth: number, propose: Point, pBeg: Float64Array, pEnd: Float64Array, rhoOut: Float64Array): number {
    if (depth === 0) {
      try {
        leapfrog(run.eps);
      } catch (e) {
        if (!isNumericalFailure(e)) throw e;
        run.leapfrogs++;
        run.divergent = true;
        run.failure = "numerical-error";
        return NaN;
      }
      run.leapfrogs++;
      let h = energy(z);
      if (Number.isNaN(h)) h = Infinity;
      if (h - run.h0 > threshold) {
        run.divergent = true;
        run.failure = Number.isFinite(h) ? "energy-error" : "non-finite";
      }
      const w = run.h0 - h;
      run.sumMetropolis += w > 0 ? 1 : Math.exp(w);
      copyPoint(z, propose);
      pBeg.set(z.p);
      pEnd.set(z.p);
      for (let i = 0; i < n; i++) rhoOut[i] += z.p[i];
      return run.divergent ? NaN : w;
    }
    const lv = levels[depth];
    lv.rhoInit.fill(0);
    const lswInit = buildTree(depth - 1, propose, pBeg, lv.pInitEnd, lv.rhoInit);
    if (Number.isNaN(lswInit)) return NaN;
    lv.rhoFinal.fill(0);
    const lswFinal = buildTree(depth - 1, lv.proposeFinal, lv.pFinalBeg, pEnd, lv.rhoFinal);
    if (Number.isNaN(lswFinal)) return NaN;
    // Uniform progressive sampling within the subtree (multinomial over its states).
    const lswSubtree = logSumExp(lswInit, lswFinal);
    if (lswFinal > lswSubtree || run.rng.uniform() < Math.exp(lswFinal - lswSubtree)) copyPoint(lv.proposeFinal, propose);
    const { rhoInit, rhoFinal, pInitEnd, pFinalBeg } = lv;
    for (let i = 0; i < n; i++) rhoOut[i] += rhoInit[i] + rhoFinal[i];
    // The criterion over the merged subtree, and across its join (Stan's extra checks).
    const merged = positive(pBeg, rhoInit, rhoFinal) && positive(pEnd, rhoInit, rhoFinal);
    const acrossInit = positive(pBeg, rhoInit, pFinalBeg) && positive(pFinalBeg, rhoInit, pFinalBeg);
    const acrossFinal = positive(pInitEnd, rhoFinal, pInitEnd) && positive(pEnd, rhoFinal, pInitEnd);
    return merged && acrossInit && acrossFinal ? lswSubtree : NaN;
  }

  function init(x0: Float64Array): NutsState {
    const position = initialPosition("nuts", x0, n);
    const gradient = new Float64Array(n);
    const logDensity = finiteInitialLogDensity("nuts", gradientOf!(position, gradient));
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(gradient[i])) throw new RangeError(`nuts: the gradient at the initial point has ${gradient[i]} at ${i}`);
    }
    return { position, logDensity, gradient };
  }

  function step(state: NutsState, rng: RandomSource): { state: NutsState; info: StepInfo } {
    const eps = tunable.value;
    checkPositive("stepSize", eps);
    z.x.set(state.position);
    z.g.set(state.gradient);
    z.lp = state.logDensity;
    for (let i = 0; i < n; i++) z.p[i] = rng.normal();
    copyPoint(z, zFwd);
    copyPoint(z, zBck);
    copyPoint(z, zSample);
    for (const v of [pFwdFwd, pFwdBck, pBckFwd, pBckBck, rho]) v.set(z.p);
    Object.assign(run, { h0: energy(z), leapfrogs: 0, sumMetropolis: 0, divergent: false, failure: undefined, rng });
    let logSumWeight = 0; // log exp(H0 - H0)
    let depth = 0;
    let moved = false;
    while (depth < maxDepth) {
      rhoFwd.fill(0);
      rhoBck.fill(0);
      let lswSubtree: number;
      if (rng.uniform() > 0.5) {
        // Extend forward: the trajectory so far becomes the backward part.
        copyPoint(zFwd, z);
        rhoBck.set(rho);
        pBckFwd.set(pFwdFwd);
        run.eps = eps;
        lswSubtree = buildTree(depth, zPropose, pFwdBck, pFwdFwd, rhoFwd);
        copyPoint(z, zFwd);
      } else {
        copyPoint(zBck, z);
        rhoFwd.set(rho);
        pFwdBck.set(pBckBck);
        run.eps = -eps;
        lswSubtree = buildTree(depth, zPropose, pBckFwd, pBckBck, rhoBck);
        copyPoint(z, zBck);
      }
      if (Number.isNaN(lswSubtree)) break;
      depth++;
      // Biased progressive sampling: the new subtree's draw replaces the current one with
      // probability min(1, w(subtree) / w(old trajectory)).
      if (lswSubtree > logSumWeight || rng.uniform() < Math.exp(lswSubtree - logSumWeight)) {
        copyPoint(zPropose, zSample);
        moved = true;
      }
      logSumWeight = logSumExp(logSumWeight, lswSubtree);
      for (let i = 0; i < n; i++) rho[i] = rhoBck[i] + rhoFwd[i];
      const persist = positive(pBckBck, rhoBck, rhoFwd) && positive(pFwdFwd, rhoBck, rhoFwd)
        && positive(pBckBck, rhoBck, pFwdBck) && positive(pFwdBck, rhoBck, pFwdBck)
        && positive(pBckFwd, rhoFwd, pBckFwd) && positive(pFwdFwd, rhoFwd, pBckFwd);
      if (!persist) break;
    }
    if (lastState && depth > 0) {
      copyPoint(z, zSample);
      moved = true;
    }
    const acceptStat = run.leapfrogs > 0 ? run.sumMetropolis / run.leapfrogs : 0;
    const next: NutsState = moved ? { position: zSample.x.slice(), logDensity: zSample.lp, gradient: zSample.g.slice() } : state;
    const h = moved ? energy(zSample) : run.h0;
    const info: StepInfo = {
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
    return { state: next, info };
  }

  return { name: "nuts", tunable, init, step };
}
