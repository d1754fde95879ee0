/**
 * The hyperparameter chains of the comparison paper's Tables 3-6 (Filippone, Zhong & Girolami;
 * the protocol is in experiments/hyperTables.ts), one chain at a time, as the grid job kind
 * "hyper-chain" (hyperChainJob.ts) and the experiment's own tests run them.
 *
 * - Table 3, theta | f (Section 4.2.2): f at its true value, sigma at its true value, the
 *   lengthscales psi sampled by MH, HMC or SMMALA ("sampling only the length-scale parameters,
 *   as sigma can be efficiently sampled using exact Gibbs steps").
 * - Table 4, theta | y, nu (Section 4.2.3): nu = L(theta_true)^-1 f_true fixed, all of theta
 *   sampled (f = L(theta) nu moves with it).
 * - Tables 5, 6 (Sections 4.3, 5): (f, theta) by the five schemes, f by HMC v2 (at most 10
 *   leapfrog steps), theta by MH (SURR: slice sampling), both adapted in burn-in.
 *
 * Starting points (Section 4.1): psi_r ~ U[-3, -1] on simulated data (the paper's remedy for
 * the diffuse lengthscale prior), log sigma from its prior; on the UCI data (Section 5) all of
 * theta from the prior; f (Tables 5, 6) from N(0, K(theta_0)). A chain's start comes from its
 * identity without the method, so every method starts chain c of a data set at the same point.
 * A chain checkpoints and resumes through hyperChainLoop.ts.
 */
import { kernelAt } from "../hyper/covariance.js";
import { packJointState, unpackJointState } from "../hyper/jointChainState.js";
import { cachedKernel, jointChain, restoreKernelCache, type SchemeName } from "../hyper/schemes.js";
import { thetaGivenF } from "../hyper/thetaGivenF.js";
import { thetaGivenNu } from "../hyper/thetaGivenNu.js";
import { thetaStep, thetaTunable, type ThetaSamplerName } from "../hyper/thetaSamplers.js";
import { thetaTarget } from "../hyper/thetaTargets.js";
import { likelihoodByName } from "../likelihoods/registry.js";
import { Rng } from "../random/rng.js";
import { SIMULATION_LOG_LENGTHSCALE_RANGE } from "../run/simulate.js";
import { runHyperLoop, type ChainOutput, type HyperCheckpointing, type HyperStepper } from "./hyperChainLoop.js";
import type { HyperProblem } from "./hyperProblems.js";
import { seedOfIdentity } from "./identity.js";

export type { ChainOutput } from "./hyperChainLoop.js";

/** What a chain depends on besides its data set, method and index (a subset of the experiment's configuration). */
export interface HyperChainSettings {
  /** 3: theta | f; 4: theta | y, nu; 5, 6: (f, theta) | y by a scheme (6: real data, theta_0 all from the prior). */
  table: number;
  seed: number;
  draws: number;
  burnIn: number;
  /** Updates of f per iteration (Tables 5, 6). */
  latentUpdates: number;
}

/** The seed of chain `chain` of `method` on data set `dataSet` of a block: a hash of its identity (never of its place in the grid). */
export function hyperChainSeed(cfg: HyperChainSettings, group: string, n: number, d: number, dataSet: number, method: string, chain: number): bigint {
  return seedOfIdentity(`hyperTables table=${cfg.table} seed=${cfg.seed} group=${group} n=${n} d=${d} data-set=${dataSet} method=${method} chain=${chain}`);
}

/** The seed of chain `chain`'s starting point (the same for every method). */
export function hyperInitSeed(cfg: HyperChainSettings, group: string, n: number, d: number, dataSet: number, chain: number): bigint {
  return seedOfIdentity(`hyperTables init table=${cfg.table} seed=${cfg.seed} group=${group} n=${n} d=${d} data-set=${dataSet} chain=${chain}`);
}

/** theta_0 of a chain (see the module comment). */
export function initialTheta(cfg: HyperChainSettings, p: HyperProblem, rng: Rng): Float64Array {
  const [lo, hi] = SIMULATION_LOG_LENGTHSCALE_RANGE;
  const t = new Float64Array(p.d + 1);
  for (let r = 0; r < p.d; r++) t[r] = cfg.table === 6 ? Math.log(p.space.lengthscalePriors[r]!.sample(rng)) : lo + (hi - lo) * rng.uniform();
  t[p.d] = cfg.table === 3 ? p.tTrue![p.d]! : Math.log(p.space.variancePrior.sample(rng));
  return t;
}

/** Tables 3, 4: a chain of theta sampler `name` on theta | f or theta | y, nu. */
export function thetaOnlyChain(cfg: HyperChainSettings, p: HyperProblem, name: ThetaSamplerName, t0: Float64Array, rng: Rng, ck?: HyperCheckpointing): ChainOutput & { stopped: boolean } {
  const kernel = cachedKernel(p.space);
  const tTrue = p.tTrue!;
  let target;
  let x: Float64Array;
  if (cfg.table === 3) {
    const free = Array.from({ length: p.d }, (_, r) => r);
    target = thetaTarget(thetaGivenF(p.space, p.fTrue!, kernel), tTrue, free);
    x = t0.slice(0, p.d);
  } else {
    const nu = kernelAt(p.space, tTrue).chol.solveLowerInPlace(p.fTrue!.slice());
    const lik = likelihoodByName(p.likelihood, p.likelihoodOptions);
    const zero = new Float64Array(p.n);
    // SMMALA's metric as in the AA scheme (src/hyper/schemes.ts): the Fisher information of f | theta.
    const density = { ...thetaGivenNu(p.space, lik, p.y, nu, kernel), metric: (t: ArrayLike<number>) => thetaGivenF(p.space, zero, kernel).metric(t) };
    target = thetaTarget(density, tTrue);
    x = t0.slice();
  }
  const tuned = thetaTunable(name);
  const m = x.length;
  // The saved state in the joint chains' layout: all of theta (sigma at its true value in Table 3), f fixed at f_true.
  const stepper: HyperStepper = {
    m,
    step(r) {
      const { x: next, info } = thetaStep(name, target, x, tuned, r);
      x = next;
      return { x, accepted: info.accepted, steps: info.leapfrogSteps };
    },
    freeze: () => tuned.freeze(),
    saveState: () => packJointState({ t: m === p.d ? Float64Array.of(...x, tTrue[p.d]!) : x, f: p.fTrue!, theta: tuned.snapshot(), cache: kernel.entries }),
    restoreState(saved) {
      const st = unpackJointState(saved, p.d + 1, p.n);
      x = st.t.slice(0, m);
      tuned.restore(st.theta);
      restoreKernelCache(p.space, kernel, st.cache);
    },
  };
  return runHyperLoop(cfg.draws, cfg.burnIn, stepper, rng, ck);
}

/** Tables 5, 6: a chain of `scheme` on (f, theta) | y. */
export function schemeChain(cfg: HyperChainSettings, p: HyperProblem, scheme: SchemeName, t0: Float64Array, f0: Float64Array, rng: Rng, ck?: HyperCheckpointing): ChainOutput & { stopped: boolean } {
  const likelihood = likelihoodByName(p.likelihood, p.likelihoodOptions);
  const chain = jointChain({ space: p.space, likelihood, y: p.y }, { scheme, thetaSampler: scheme === "surr" ? undefined : "mh", latentUpdates: cfg.latentUpdates }, t0, f0);
  const stepper: HyperStepper = {
    m: p.d + 1,
    step(r) {
      const info = chain.step(r);
      const last = info.theta[info.theta.length - 1]!;
      // SURR always moves; what its width is adapted to is the first slice point being accepted.
      return { x: chain.t, accepted: scheme === "surr" ? last.densityEvaluations === 1 : last.accepted, steps: scheme === "surr" ? last.densityEvaluations ?? 0 : 0 };
    },
    freeze: () => chain.freeze(),
    saveState: () => chain.saveState(),
    restoreState: (saved) => chain.restoreState(saved),
  };
  return runHyperLoop(cfg.draws, cfg.burnIn, stepper, rng, ck);
}

/** Chain c of `method` on problem p (data set s of the block). */
export function runOneChain(cfg: HyperChainSettings, group: string, p: HyperProblem, s: number, method: string, c: number, ck?: HyperCheckpointing): ChainOutput & { stopped: boolean } {
  const initRng = new Rng(hyperInitSeed(cfg, group, p.n, p.d, s, c));
  const t0 = initialTheta(cfg, p, initRng);
  const rng = new Rng(hyperChainSeed(cfg, group, p.n, p.d, s, method, c));
  if (cfg.table === 3 || cfg.table === 4) return thetaOnlyChain(cfg, p, method as ThetaSamplerName, t0, rng, ck);
  const z = Float64Array.from({ length: p.n }, () => initRng.normal());
  const f0 = kernelAt(p.space, t0).chol.multiplyLower(z);
  return schemeChain(cfg, p, method as SchemeName, t0, f0, rng, ck);
}
