/**
 * The joint samplers of (f, theta) (comparison paper, Section 2 and Table 5). Every iteration
 * first updates f | y, theta by a latent sampler of src/samplers (default HMC v2, at most 10
 * leapfrog steps), then theta:
 *
 * - "sa": theta | f. With an inverse-Gamma prior, sigma by its exact Gibbs step
 *   (./signalVarianceGibbs.ts) and psi by the theta sampler; otherwise all of theta by it.
 * - "aa": nu = L(theta)^-1 f, theta | y, nu by the theta sampler, f = L(theta) nu.
 * - "asis": the SA update of theta, then the AA one (Yu & Meng 2011's interweaving; paper eq. 6).
 * - "khr": theta and f jointly, f' from Laplace's approximation at theta' (./jointMoves.ts).
 * - "surr": surrogate-data slice sampling of theta (Murray & Adams 2010; ./jointMoves.ts).
 * - "pm": pseudo-marginal MH of theta on an importance estimate of p(y | theta) from Laplace's
 *   approximation, f among the importance draws (./pseudoMarginal.ts); no latent sampler.
 *
 * The tunables (the latent sampler's and the theta sampler's) are adapted during burn-in, then
 * frozen (`freeze`). K(theta) and its factor are kept for the last few theta evaluated, so the
 * latent update and the theta update at the same theta share one factorisation.
 */
import { annealedLatentTarget } from "../targets/annealedLatent.js";
import { positivePrior } from "../gp/hyperpriors.js";
import { opCountsSince, snapshotOpCounts } from "../linalg/counters.js";
import type { RandomSource } from "../random/types.js";
import { defaultTargetAcceptance, latentSampler, latentSamplerInfo, latentSamplerSpec, tunableValue, type LatentSamplerName, type LatentSamplerSpecInput } from "../samplers/registry.js";
import type { CountedStepInfo, StepInfo } from "../samplers/types.js";
import { hyperDimension, kernelAt, lengthscaleCount, rescaledKernelAt, storedKernelAt, type HyperSpace, type KernelAt } from "./covariance.js";
import { laplaceFromState, packJointState, unpackJointState } from "./jointChainState.js";
import { khrMove, logJoint, surrogateMove, surrogateNoise, type JointProblem, type LaplaceCache } from "./jointMoves.js";
import { gibbsSignalVariance } from "./signalVarianceGibbs.js";
import { thetaGivenF } from "./thetaGivenF.js";
import { thetaGivenNu } from "./thetaGivenNu.js";
import { AdaptedValue, thetaStep, thetaTunable, type ThetaSamplerName } from "./thetaSamplers.js";
import { thetaTarget } from "./thetaTargets.js";
import { faultOf, type FaultOf } from "../math/negativeControl.js";
import type { IterationInfo, JointChain } from "./jointChain.js";
import { pseudoMarginalChain } from "./pseudoMarginal.js";

export type { IterationInfo, JointChain } from "./jointChain.js";

/** The latent sampler of a scheme's f | theta updates unless one is given: the paper's (Filippone, Zhong & Girolami, Section 4). */
export const DEFAULT_HYPER_LATENT_SAMPLER: LatentSamplerName = "hmc-v2";

export const SCHEME_NAMES = ["sa", "aa", "asis", "khr", "surr", "pm"] as const;
export type SchemeName = (typeof SCHEME_NAMES)[number];

export function isSchemeName(name: string): name is SchemeName {
  return (SCHEME_NAMES as readonly string[]).includes(name);
}

export interface SchemeOptions {
  scheme: SchemeName;
  /** Default "mh". SURR slice-samples theta and takes none (its bracket width is adapted instead). */
  thetaSampler?: ThetaSamplerName;
  /** Default HMC v2 with at most 10 leapfrog steps (the paper's). */
  latent?: LatentSamplerName | LatentSamplerSpecInput;
  /** Updates of f per iteration (default 1; the paper's Section 5 uses 5 on the UCI data). */
  latentUpdates?: number;
  /**
   * Deliberately wrong variants, for the negative controls of the invariance tests only:
   * "gibbs-shape" draws sigma with the shape of a + 1 instead of a; "scheme-no-jacobian" drops the
   * Jacobian of the log transforms from the theta target; "no-proposal-density" drops q from
   * KHR's ratio.
   * @internal
   */
  broken?: FaultOf<"hyper-scheme" | "khr" | "pseudo-marginal">;
  /** pm: importance draws per estimate (default: chosen at the mode, ./pseudoMarginal.ts). */
  importanceSamples?: number;
  /** pm: the Gaussian approximation of the importance draws (default EP where the likelihood has EP sites). */
  approximation?: "ep" | "laplace";
}

/** How many K(theta) and their factors the cache keeps (and a checkpoint with them). */
export const KERNEL_CACHE = 4;

/**
 * kernelAt with the last few results kept (keyed by theta's exact values); a theta that differs
 * from a kept one in sigma alone is rescaled from it (no factorisation).
 */
function cachedKernel(space: HyperSpace): CachedKernel {
  const cache: KernelAt[] = [];
  const d = lengthscaleCount(space);
  const lookup = (t: ArrayLike<number>): KernelAt => {
    let samePsi: KernelAt | undefined;
    for (let i = 0; i < cache.length; i++) {
      const at = cache[i]!;
      let same = true;
      for (let k = 0; same && k < d; k++) same = at.t[k] === t[k];
      if (same && at.t[d] === t[d]) {
        // most recently used first, so that the current theta outlives rejected proposals
        cache.splice(i, 1);
        cache.unshift(at);
        return at;
      }
      if (same) samePsi ??= at;
    }
    const at = samePsi ? rescaledKernelAt(space, samePsi, t) : kernelAt(space, t);
    cache.unshift(at);
    if (cache.length > KERNEL_CACHE) cache.pop();
    return at;
  };
  return Object.assign(lookup, { entries: cache });
}

/**
 * kernelAt through the cache, and the cache itself, most recently used first: a checkpoint keeps
 * its numbers, since a K rescaled from a kept one differs in its last bits from a fresh one, so a
 * resumed chain needs the cache the chain had to draw what it would have drawn.
 */
export type CachedKernel = ((t: ArrayLike<number>) => KernelAt) & { entries: KernelAt[] };

function withoutJacobian(space: HyperSpace): HyperSpace {
  // The Jacobian of t = log x is x; its log is t, removed by the flat-Jacobian density p_X(e^t).
  const strip = (p: HyperSpace["variancePrior"]) => ({ ...p, logDensityOfLog: (t: number) => {
    const v = p.logDensityOfLog(t);
    return { value: v.value - t, gradient: v.gradient - 1, hessian: v.hessian };
  } });
  return { ...space, lengthscalePriors: space.lengthscalePriors.map(strip), variancePrior: strip(space.variancePrior) };
}

/** A chain of `options.scheme` from (t0, f0) (f0 default 0). */
export function jointChain(problem: JointProblem, options: SchemeOptions, t0: ArrayLike<number>, f0?: Float64Array): JointChain {
  const broken = options.broken;
  const space = broken === "scheme-no-jacobian" ? withoutJacobian(problem.space) : problem.space;
  const prob: JointProblem = { ...problem, space };
  if (options.scheme === "pm") {
    if (options.thetaSampler !== undefined) throw new RangeError(`the pm scheme proposes theta by its own independence and random-walk moves; theta sampler ${options.thetaSampler} does not apply`);
    return pseudoMarginalChain(prob, { importanceSamples: options.importanceSamples, approximation: options.approximation, broken: faultOf("pseudo-marginal", broken) }, t0, f0);
  }
  if (space.absoluteJitter) throw new RangeError(`the ${options.scheme} scheme needs K = sigma (C + j I), linear in the signal variance; an absolute jitter needs the pm scheme`);
  const n = space.x.rows;
  const m = hyperDimension(space);
  const thetaName = options.thetaSampler ?? "mh";
  if (options.scheme === "khr" && thetaName !== "mh") throw new RangeError(`the khr scheme proposes theta by random-walk MH; theta sampler ${thetaName} does not apply`);
  const latentSpec = latentSamplerSpec(options.latent ?? { sampler: DEFAULT_HYPER_LATENT_SAMPLER });
  const tunableField = latentSamplerInfo[latentSpec.sampler].tunable;
  const latentInitial = tunableValue(latentSpec);
  const latentTuned = latentInitial === undefined ? undefined : new AdaptedValue(latentInitial, defaultTargetAcceptance(latentSpec.sampler)!);
  const thetaTuned = options.scheme === "surr" ? new AdaptedValue(1, 0.5) : thetaTunable(thetaName);
  const kernel = cachedKernel(space);
  const noise = surrogateNoise(problem.likelihood, n);
  const conjugate = space.variancePrior.spec.family === "invgamma" && space.variancePrior.spec.on === undefined;
  const gibbsSpace = broken === "gibbs-shape" && space.variancePrior.spec.family === "invgamma" && conjugate
    ? { ...space, variancePrior: positivePrior({ ...space.variancePrior.spec, shape: space.variancePrior.spec.shape + 1 }) }
    : space;
  const laplaceCache: LaplaceCache = {};
  let t: Float64Array = Float64Array.from(t0);
  let f: Float64Array = f0 ? f0.slice() : new Float64Array(n);

  function latentUpdate(rng: RandomSource): StepInfo {
    const at = kernel(t);
    const target = annealedLatentTarget({ likelihood: problem.likelihood, y: problem.y, kernelMatrix: at.K, kernelCholesky: at.chol });
    const spec = latentTuned && tunableField ? { ...latentSpec, [tunableField]: latentTuned.value } : latentSpec;
    const k = latentSampler(target, spec as LatentSamplerSpecInput);
    const { state, info } = k.step(k.init(f), rng);
    latentTuned?.record(info);
    f = Float64Array.from(state.position);
    return info;
  }

  function saUpdate(rng: RandomSource): StepInfo {
    let free = Array.from({ length: m }, (_, k) => k);
    if (conjugate) {
      t = gibbsSignalVariance(gibbsSpace, t, f, rng, kernel);
      free = free.slice(0, m - 1);
    }
    const density = thetaGivenF(space, f, kernel);
    const target = thetaTarget(density, t, free);
    const { x, info } = thetaStep(thetaName, target, Float64Array.from(free, (k) => t[k]!), thetaTuned, rng);
    const next = t.slice();
    free.forEach((k, i) => (next[k] = x[i]!));
    t = next;
    return info;
  }

  function aaUpdate(rng: RandomSource): StepInfo {
    const nu = kernel(t).chol.solveLowerInPlace(f.slice());
    // SMMALA's metric is AA's own (Appendix A.2: the Fisher information of y given theta at fixed nu).
    const target = thetaTarget(thetaGivenNu(space, problem.likelihood, problem.y, nu, kernel), t);
    const { x, info } = thetaStep(thetaName, target, t, thetaTuned, rng);
    t = x;
    f = kernel(t).chol.multiplyLower(nu);
    return info;
  }

  function jointUpdate(rng: RandomSource): CountedStepInfo {
    const move = options.scheme === "khr"
      ? khrMove(prob, kernel, t, f, thetaTuned.value, rng, faultOf("khr", broken), laplaceCache)
      : surrogateMove(prob, kernel, t, f, noise, thetaTuned.value, rng);
    // SURR's bracket width: adapted so that about half the first points land in the slice.
    thetaTuned.record(options.scheme === "surr" ? { ...move.info, accepted: move.info.densityEvaluations === 1, acceptanceProbability: move.info.densityEvaluations === 1 ? 1 : 0 } : move.info);
    t = move.t;
    f = move.f;
    return move.info;
  }

  return {
    get t() { return t; },
    get f() { return f; },
    step(rng) {
      const before = snapshotOpCounts();
      let latent = latentUpdate(rng);
      for (let u = 1; u < (options.latentUpdates ?? 1); u++) latent = latentUpdate(rng);
      const theta: CountedStepInfo[] = [];
      switch (options.scheme) {
        case "sa": theta.push(saUpdate(rng)); break;
        case "aa": theta.push(aaUpdate(rng)); break;
        case "asis": theta.push(saUpdate(rng), aaUpdate(rng)); break;
        case "khr": case "surr": theta.push(jointUpdate(rng)); break;
      }
      return { latent, theta, ops: opCountsSince(snapshotOpCounts(), before) };
    },
    freeze() {
      latentTuned?.freeze();
      thetaTuned.freeze();
    },
    logDensity: () => logJoint(prob, kernel, t, f),
    tunables: () => ({ latent: latentTuned?.value, theta: thetaTuned.value }),
    saveState: () => packJointState({ t, f, latent: latentTuned?.snapshot(), theta: thetaTuned.snapshot(), cache: kernel.entries, laplace: laplaceCache.t === t ? laplaceCache.q : undefined }),
    restoreState(saved) {
      const s = unpackJointState(saved, m, n);
      t = s.t;
      f = s.f;
      if (s.latent) latentTuned?.restore(s.latent);
      thetaTuned.restore(s.theta);
      restoreKernelCache(space, kernel, s.cache);
      laplaceCache.t = s.laplace ? t : undefined;
      laplaceCache.q = s.laplace ? laplaceFromState(s.laplace) : undefined;
    },
  };
}

/** K(t) with its factor, the last few kept (what the schemes use; also for the theta-only chains of the experiments). */
export { cachedKernel };

/** Puts back a cache's saved entries (jointChainState.ts), most recently used first. */
export function restoreKernelCache(space: HyperSpace, kernel: CachedKernel, saved: readonly { t: Float64Array; K: Float64Array; L: Float64Array }[]): void {
  kernel.entries.splice(0, kernel.entries.length, ...saved.map((e) => storedKernelAt(space, e.t, e.K, e.L)));
}
