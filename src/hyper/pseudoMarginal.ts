/**
 * The "pm" scheme: theta by pseudo-marginal Metropolis-Hastings on p^(y | theta) p(theta), with
 * p^ the importance estimate from EP's or Laplace's approximation (./gaussianImportance.ts), and f drawn
 * among the estimate's importance draws in proportion to their weights (Filippone & Girolami
 * 2014; Andrieu & Roberts 2009).
 *
 * The chain runs on the extended target
 *
 *   pi(theta, z, k) ∝ p(theta) (1/N) w_k(theta, z) prod_j N(z_j; 0, I),
 *
 * whose theta-marginal is p(theta | y) (the estimate is unbiased) and under which f_k(theta, z)
 * given theta is p(f | theta, y). Each iteration:
 *
 * 1. an independence proposal of theta, with fresh z': a mixture of multivariate t's with 4
 *    degrees of freedom (./tMixture.ts), half one t centred and shaped by the mode of Laplace's
 *    marginal posterior (./thetaMode.ts) and then by the burn-in draws, half one t at each local
 *    mode the search found, so that a chain proposes every mode it knows of;
 * 2. a random-walk proposal of theta, covariance s^2 Sigma, with fresh z';
 * 3. fresh z' at the current theta (an independence move of z given theta, ratio p^'/p^: it
 *    renews f without a factorisation);
 * 4. k drawn in proportion to the weights, f = f_k.
 *
 * Moves 1-3 are Metropolis-Hastings moves on (theta, z) that leave the k-marginal of pi
 * invariant, and 4 is k's exact conditional, so the composition leaves pi invariant. Burn-in
 * adapts s (Robbins-Monro towards 25% acceptance), Sigma and the independence proposal's centre
 * (the draws' mean and covariance); after burn-in they are fixed. The chain starts at the mode
 * (whatever t0 is). A proposal whose estimate is not finite (no usable importance weight, a K
 * that does not factorise) is rejected and counted as a divergent transition (the run's
 * summary reports them; `densityEvaluations` is 0 for it).
 */
import { cholesky, Cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";
import { Rng } from "../random/rng.js";
import type { RandomSource } from "../random/types.js";
import type { CountedStepInfo, StepInfo } from "../samplers/types.js";
import { hyperDimension, hyperLogPrior, kernelAt } from "./covariance.js";
import { gaussianProposal, importanceEstimate, logMeanExp, type ApproximationMethod, type GaussianProposal, type ImportanceEstimate } from "./gaussianImportance.js";
import { likelihoodTraits } from "../likelihoods/registry.js";
import { isSingular, logJoint, moveInfo, type JointProblem } from "./jointMoves.js";
import type { IterationInfo, JointChain } from "./jointChain.js";
import { laplaceThetaModes } from "./thetaMode.js";
import { drawMixture, logMixtureDensity, type TComponent } from "./tMixture.js";
import { packNumbers } from "../math/packNumbers.js";
import type { FaultOf } from "../math/negativeControl.js";
import { opCountsSince, snapshotOpCounts } from "../linalg/counters.js";

/** The estimate of p(y | theta) cannot be used where the chain starts: the model or its data, not a bug. */
export class MarginalEstimateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MarginalEstimateError";
  }
}

export interface PseudoMarginalOptions {
  /** The Gaussian approximation the importance draws come from (default EP where the likelihood has EP sites, Laplace otherwise). */
  approximation?: "ep" | "laplace";
  /** EP's sweeps from the mode's sites at each proposed theta (default SWEEPS_FROM_START of ./gaussianImportance.ts). */
  epSweeps?: number;
  /** Importance draws per estimate (default: the fewest, up to MAX_IMPORTANCE_SAMPLES, whose estimate at the mode has a variance of log p^ of at most ESTIMATE_VARIANCE). */
  importanceSamples?: number;
  /** Negative controls: the independence move's ratio without g(theta) / g(theta'); f the first importance draw. @internal */
  broken?: FaultOf<"pseudo-marginal">;
}

export const MAX_IMPORTANCE_SAMPLES = 256;
/** The variance of log p^ at the mode that the default number of importance draws aims below. */
const ESTIMATE_VARIANCE = 0.05;
/** The independence proposal's degrees of freedom. */
const T_DOF = 4;
const RW_TARGET_ACCEPTANCE = 0.25;
/** The range of the random-walk scale s (relative to Sigma) that burn-in adapts it in. */
const MIN_SCALE = 0.3, MAX_SCALE = 3;

/**
 * The random-walk scale, adapted in burn-in by a Robbins-Monro step on log s towards the target
 * acceptance rate, kept in [MIN_SCALE, MAX_SCALE]: the estimate's noise caps the acceptance rate
 * whatever the step, and must not shrink s to nothing.
 */
class AdaptedScale {
  updates = 0;
  adapting = true;
  constructor(public value: number) {}
  record(acceptanceProbability: number): void {
    if (!this.adapting) return;
    this.updates++;
    const log = Math.log(this.value) + (acceptanceProbability - RW_TARGET_ACCEPTANCE) / this.updates ** 0.6;
    this.value = Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.exp(log)));
  }
}
/** Burn-in iterations between updates of Sigma and the centre from the draws (after the first 10 m). */
const SHAPE_EVERY = 50;
/** The generator of the pilot estimates that choose N: a constant, so that N is a function of the data. */
const PILOT_SEED = 20140;

/**
 * The fewest importance draws (a power of two up to MAX_IMPORTANCE_SAMPLES) whose estimate has a
 * variance of log p^ of at most ESTIMATE_VARIANCE on average over the approximations `qs` (the
 * mode and points a standard deviation from it: the estimate is noisier away from the mode), from
 * 8 x MAX_IMPORTANCE_SAMPLES pilot draws at each, in blocks. The pilot's generator has a constant
 * seed, so N is a function of the data.
 */
export function chooseImportanceSamples(problem: JointProblem, qs: readonly GaussianProposal[]): number {
  const n = qs[0]!.u.length;
  const total = 8 * MAX_IMPORTANCE_SAMPLES;
  const rng = new Rng(PILOT_SEED);
  const weights = qs.map((q) => importanceEstimate(problem, q, rng.fillNormal(new Float64Array(total * n))).logWeights);
  for (let N = 1; N < MAX_IMPORTANCE_SAMPLES; N *= 2) {
    const blocks = total / N;
    let variance = 0;
    for (const lw of weights) {
      const ests = Array.from({ length: blocks }, (_, b) => logMeanExp(lw.subarray(b * N, (b + 1) * N)));
      if (!ests.every(Number.isFinite)) { variance = Infinity; break; }
      const mean = ests.reduce((a, v) => a + v, 0) / blocks;
      variance += ests.reduce((a, v) => a + (v - mean) ** 2, 0) / (blocks - 1) / weights.length;
    }
    if (variance <= ESTIMATE_VARIANCE) return N;
  }
  return MAX_IMPORTANCE_SAMPLES;
}

/** The approximation at the mode (given) and at the points one standard deviation from it along each coordinate, where it can be made. */
function pilotPoints(mode: { t: Float64Array; covariance: Matrix }, atMode: GaussianProposal, at: (t: Float64Array) => GaussianProposal): GaussianProposal[] {
  const m = mode.t.length;
  const out = [atMode];
  for (let k = 0; k < m; k++) for (const sign of [-1, 1]) {
    const t = mode.t.slice();
    t[k] += sign * Math.sqrt(mode.covariance.data[k + k * m]!);
    try {
      out.push(at(t));
    } catch (e) {
      if (!isSingular(e)) throw e;
    }
  }
  return out;
}

/** Where the chain is: theta, Laplace's approximation there, the normals and their estimate. */
interface Current {
  t: Float64Array;
  q: GaussianProposal;
  z: Float64Array;
  est: ImportanceEstimate;
  logPrior: number;
}

/** Running mean and covariance (Welford) of the burn-in draws of theta. */
class RunningMoments {
  count = 0;
  readonly mean: Float64Array;
  readonly m2: Float64Array;
  constructor(readonly m: number) {
    this.mean = new Float64Array(m);
    this.m2 = new Float64Array(m * m);
  }
  add(x: Float64Array): void {
    const m = this.m;
    this.count++;
    const delta = Float64Array.from(x, (v, i) => v - this.mean[i]!);
    for (let i = 0; i < m; i++) this.mean[i] += delta[i]! / this.count;
    for (let j = 0; j < m; j++) for (let i = 0; i < m; i++) this.m2[i + j * m] += delta[i]! * (x[j]! - this.mean[j]!);
  }
  covariance(): Matrix {
    const m = this.m;
    const c = new Matrix(m, m, this.m2.map((v) => v / (this.count - 1)));
    for (let i = 0; i < m; i++) c.data[i + i * m] += 1e-8;
    return c;
  }
}

/** A pseudo-marginal chain of (theta, f) from the mode of Laplace's marginal posterior found from t0. */
export function pseudoMarginalChain(problem: JointProblem, options: PseudoMarginalOptions, t0: ArrayLike<number>, f0?: Float64Array): JointChain {
  const space = problem.space;
  const m = hyperDimension(space);
  const n = space.x.rows;
  const how = approximationMethod(problem, options.approximation, options.epSweeps);
  const modes = laplaceThetaModes(problem, t0);
  const mode = modes[0]!;
  // Every approximation starts from the one at the mode, so that the estimate at theta is a function of theta and z.
  const fromMode = gaussianProposal(problem, kernelAt(space, mode.t), how).start;
  const approximationAt = (t2: Float64Array): GaussianProposal => gaussianProposal(problem, kernelAt(space, t2), how, fromMode);
  const start = approximationAt(mode.t);
  const N = options.importanceSamples ?? chooseImportanceSamples(problem, pilotPoints(mode, start, approximationAt));
  let centre: Float64Array = mode.t.slice();
  let shape = cholesky(mode.covariance, { what: "the proposal covariance" });
  const modeComponents = modeMixture(modes);
  const components = (): TComponent[] => [{ weight: 0.5, centre, shape }, ...modeComponents];
  let mixture = components();
  const scale = new AdaptedScale(2.38 / Math.sqrt(m));
  let moments: RunningMoments | undefined = new RunningMoments(m);
  let iteration = 0;
  let current: Current | undefined;
  let startQ: GaussianProposal | undefined = start;
  let t: Float64Array = mode.t.slice();
  let f: Float64Array = f0 ? f0.slice() : new Float64Array(n);

  const normals = (rng: RandomSource): Float64Array => rng.fillNormal(new Float64Array(N * n));

  /** The estimate at (t', z'), or undefined where it is not defined (counted as a rejection). */
  function propose(t2: Float64Array, rng: RandomSource): Current | undefined {
    const logPrior = hyperLogPrior(space, t2).value;
    if (!Number.isFinite(logPrior)) return undefined;
    try {
      const q = approximationAt(t2);
      const z = normals(rng);
      const est = importanceEstimate(problem, q, z);
      return Number.isFinite(est.logEstimate) ? { t: t2, q, z, est, logPrior } : undefined;
    } catch (e) {
      if (isSingular(e)) return undefined;
      throw e;
    }
  }

  /** One MH test of `next` against the current state; logQ: log q(t | t') - log q(t' | t). */
  function test(next: Current | undefined, logQ: number, rng: RandomSource, stepSize: number): CountedStepInfo {
    const c = current!;
    // no usable estimate (or K did not factorise): a rejection, counted as a divergent transition
    if (!next) return { ...moveInfo(false, 0, stepSize, 0), divergent: true };
    const logR = next.logPrior + next.est.logEstimate - c.logPrior - c.est.logEstimate + logQ;
    const p = Number.isNaN(logR) ? 0 : Math.min(1, Math.exp(logR));
    const accepted = Math.log(rng.uniform()) < logR;
    if (accepted) current = next;
    return moveInfo(accepted, p, stepSize);
  }

  function independenceMove(rng: RandomSource): CountedStepInfo {
    const t2 = drawMixture(mixture, T_DOF, rng);
    const c = current!;
    const logQ = options.broken === "pm-no-proposal-density" ? 0 : logMixtureDensity(mixture, T_DOF, c.t) - logMixtureDensity(mixture, T_DOF, t2);
    return test(propose(t2, rng), logQ, rng, 1);
  }

  function randomWalkMove(rng: RandomSource): CountedStepInfo {
    const step = shape.multiplyLower(rng.fillNormal(new Float64Array(m)));
    const c = current!;
    const t2 = Float64Array.from(c.t, (v, i) => v + scale.value * step[i]!);
    const info = test(propose(t2, rng), 0, rng, scale.value);
    scale.record(info.acceptanceProbability);
    return info;
  }

  function refreshMove(rng: RandomSource): StepInfo {
    const c = current!;
    const z = normals(rng);
    const est = importanceEstimate(problem, c.q, z);
    return test(Number.isFinite(est.logEstimate) ? { ...c, z, est } : undefined, 0, rng, NaN);
  }

  function begin(rng: RandomSource): void {
    const q = startQ!;
    const z = normals(rng);
    const est = importanceEstimate(problem, q, z);
    if (!Number.isFinite(est.logEstimate)) throw new MarginalEstimateError(`the importance estimate of p(y | theta) is ${est.logEstimate} at the mode of Laplace's marginal posterior (theta = ${Array.from(mode.t, (v) => v.toFixed(3)).join(", ")}): no importance draw has a usable weight, so the pm scheme cannot start; check the likelihood's responses and the priors, or use --scheme aa`);
    current = { t: mode.t.slice(), q, z, est, logPrior: hyperLogPrior(space, mode.t).value };
    startQ = undefined;
  }

  function adapt(): void {
    if (!moments) return;
    moments.add(current!.t);
    iteration++;
    if (moments.count >= Math.max(SHAPE_EVERY, 10 * m) && iteration % SHAPE_EVERY === 0) {
      try {
        shape = cholesky(moments.covariance(), { what: "the proposal covariance" });
        centre = moments.mean.slice();
        mixture = components();
      } catch { /* the draws so far span fewer than m directions: keep the shape */ }
    }
  }

  function drawF(rng: RandomSource): void {
    const lw = current!.est.logWeights;
    const max = Math.max(...lw);
    let total = 0;
    for (const v of lw) total += Math.exp(v - max);
    let u = rng.uniform() * total;
    let k = 0;
    for (; k < N - 1 && options.broken !== "pm-first-draw"; k++) {
      u -= Math.exp(lw[k]! - max);
      if (u <= 0) break;
    }
    f = current!.est.f.slice(k * n, (k + 1) * n);
    t = current!.t;
  }

  return {
    get t() { return t; },
    get f() { return f; },
    step(rng): IterationInfo {
      const before = snapshotOpCounts();
      if (!current) begin(rng);
      const theta = [independenceMove(rng), randomWalkMove(rng)];
      const latent = refreshMove(rng);
      drawF(rng);
      adapt();
      return { latent, theta, ops: opCountsSince(snapshotOpCounts(), before) };
    },
    freeze() {
      scale.adapting = false;
      moments = undefined;
    },
    logDensity: () => logJoint(problem, () => (current?.q ?? start).at, t, f),
    tunables: () => ({ latent: N, theta: scale.value }),
    saveState() {
      const c = current;
      return packNumbers([[m, n, N, c ? 1 : 0, iteration], t, f, centre, shape.factor.data, [scale.value, scale.updates, scale.adapting ? 1 : 0],
        moments ? [1, moments.count] : [0, 0], moments ? moments.mean : new Float64Array(m), moments ? moments.m2 : new Float64Array(m * m),
        ...(c ? [c.t, c.z] : [])]);
    },
    restoreState(saved) {
      let at = 0;
      const take = (k: number): Float64Array => {
        if (at + k > saved.length) throw new RangeError("the saved pseudo-marginal state is cut short");
        const v = saved.slice(at, at + k);
        at += k;
        return v;
      };
      const [sm, sn, sN, begun, it] = take(5);
      if (sm !== m || sn !== n || sN !== N) throw new RangeError(`the saved pseudo-marginal state is of theta, f and importance draws of sizes ${sm}, ${sn}, ${sN}; this chain's are ${m}, ${n}, ${N}`);
      iteration = it!;
      t = take(m);
      f = take(n);
      centre = take(m);
      shape = new Cholesky(new Matrix(m, m, take(m * m)));
      mixture = components();
      const [value, updates, adapting] = take(3);
      Object.assign(scale, { value, updates, adapting: adapting === 1 });
      const [shaping, count] = take(2);
      const mean = take(m), m2 = take(m * m);
      moments = shaping ? Object.assign(new RunningMoments(m), { count }) : undefined;
      if (moments) { moments.mean.set(mean); moments.m2.set(m2); }
      if (begun) {
        // the approximation at theta is a function of theta: recomputed, it is what the chain had
        const ct = take(m), z = take(N * n);
        const q = approximationAt(ct);
        current = { t: ct, q, z, est: importanceEstimate(problem, q, z), logPrior: hyperLogPrior(space, ct).value };
        startQ = undefined;
      }
      if (at !== saved.length) throw new RangeError("the saved pseudo-marginal state has numbers past its end");
    },
  };
}

/**
 * The modes' half of the independence proposal: a t per mode, weighted by Laplace's mass there,
 * exp(log p~) |Sigma|^1/2, each at least a tenth of the half so that a minor mode is proposed.
 */
function modeMixture(modes: readonly { t: Float64Array; logDensity: number; covariance: Matrix }[]): TComponent[] {
  const parts = modes.map((md) => {
    const shape = cholesky(md.covariance, { what: "the proposal covariance" });
    return { centre: md.t.slice(), shape, logMass: md.logDensity + 0.5 * shape.logDet() };
  });
  const top = Math.max(...parts.map((p) => p.logMass));
  const raw = parts.map((p) => Math.exp(p.logMass - top));
  const sum = raw.reduce((a, v) => a + v, 0);
  const floored = raw.map((v) => Math.max(0.1, v / sum));
  const total = floored.reduce((a, v) => a + v, 0);
  return parts.map((p, i) => ({ weight: (0.5 * floored[i]!) / total, centre: p.centre, shape: p.shape }));
}

/** EP on the likelihood's sites where it has them (unless Laplace is asked for), Laplace otherwise. */
export function approximationMethod(problem: JointProblem, asked?: "ep" | "laplace", sweepsFromStart?: number): ApproximationMethod {
  const sites = likelihoodTraits(problem.likelihood.name)?.epSites;
  if (asked === "ep" && !sites) throw new RangeError(`the ${problem.likelihood.name} likelihood has no EP sites; use the Laplace approximation`);
  return sites && asked !== "laplace" ? { method: "ep", sites: sites(problem.y), ...(sweepsFromStart !== undefined ? { sweepsFromStart } : {}) } : { method: "laplace" };
}
