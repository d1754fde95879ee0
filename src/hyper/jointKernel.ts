/**
 * A joint chain of (theta, f) (./schemes.ts) as a `Kernel` the chain driver runs
 * (src/samplers/chain/driver.ts), built from plain data (`HyperModelSpec` and `HyperSamplerSpec`) so
 * that a worker thread rebuilds the same one. Its position is what the draws files hold:
 *
 *   (log_lengthscale.1 .. log_lengthscale.d, log_signal_sd, f.1 .. f.n),
 *
 * with log_signal_sd = log(sigma) / 2. A scheme has two tunables, the latent sampler's and the
 * theta sampler's, and adapts them inside its iteration (a later update of the iteration uses the
 * value an earlier one adapted), from the chain's start until the driver ends burn-in
 * (Kernel.adaptation's `end`, which freezes them; at once for a chain without burn-in); the
 * driver's single-tunable adaptation is not used. A transition reports the theta update's
 * acceptance and the theta tunable as its step size; it accumulates the O(n^3) operations
 * (src/linalg/counters.ts) of its transitions in `ops`.
 */
import { positivePrior, type PositivePriorSpec } from "../gp/hyperpriors.js";
import type { OpCounts } from "../linalg/counters.js";
import type { Matrix } from "../linalg/matrix.js";
import { likelihoodByName } from "../likelihoods/registry.js";
import type { LatentGpLikelihoodOptions } from "../targets/latentGpModel.js";
import type { LatentSamplerSpec } from "../samplers/registry.js";
import type { CountedStepInfo, Kernel, SamplerState } from "../samplers/types.js";
import { DEFAULT_RELATIVE_JITTER, lengthscaleCount, type HyperSpace } from "./covariance.js";
import { jointChain, type JointChain, type SchemeName } from "./schemes.js";
import type { ThetaSamplerName } from "./thetaSamplers.js";
import { packNumbers } from "../math/packNumbers.js";

/** The model with sampled hyperparameters, as plain data. */
export interface HyperModelSpec {
  likelihood: string;
  likelihoodOptions?: LatentGpLikelihoodOptions;
  /** The prior of every lengthscale exp(psi_r). */
  lengthscalePrior: PositivePriorSpec;
  /** The prior of the signal variance sigma. */
  variancePrior: PositivePriorSpec;
  /** j of K = sigma (C + j I) + a I (default DEFAULT_RELATIVE_JITTER). */
  relativeJitter?: number;
  /** a of K = sigma (C + j I) + a I (default 0): the pm scheme only (./covariance.ts). */
  absoluteJitter?: number;
  /** One lengthscale shared by every input column instead of one per column (ARD). */
  sharedLengthscale?: boolean;
}

export interface HyperSamplerSpec {
  scheme: SchemeName;
  /** Undefined for surr (slice sampling of theta). */
  thetaSampler?: ThetaSamplerName;
  /** The latent sampler of f | theta (not used by pm, which draws f among its importance draws). */
  latent: LatentSamplerSpec;
  /** pm: importance draws per estimate of p(y | theta) (default: chosen at the mode). */
  importanceSamples?: number;
}

/** The paper's default priors (Section 4.1): lengthscales Gamma(1, 1), sigma inverse-Gamma(1, 1). */
export const DEFAULT_LENGTHSCALE_PRIOR: PositivePriorSpec = { family: "gamma", shape: 1, rate: 1 };
export const DEFAULT_VARIANCE_PRIOR: PositivePriorSpec = { family: "invgamma", shape: 1, scale: 1 };

export function hyperSpace(X: Matrix, model: HyperModelSpec): HyperSpace {
  const ell = positivePrior(model.lengthscalePrior);
  return {
    x: X,
    lengthscalePriors: Array.from({ length: model.sharedLengthscale ? 1 : X.cols }, () => ell),
    variancePrior: positivePrior(model.variancePrior),
    relativeJitter: model.relativeJitter ?? DEFAULT_RELATIVE_JITTER,
    ...(model.absoluteJitter ? { absoluteJitter: model.absoluteJitter } : {}),
  };
}

/** The number of log lengthscales of the model on d input columns. */
export function lengthscalesOf(model: Pick<HyperModelSpec, "sharedLengthscale">, d: number): number {
  return model.sharedLengthscale ? 1 : d;
}

/** Variable names in the order of the kernel's position (d: the number of log lengthscales). */
export function hyperVariableNames(d: number, n: number): string[] {
  return [...Array.from({ length: d }, (_, r) => `log_lengthscale.${r + 1}`), "log_signal_sd", ...Array.from({ length: n }, (_, i) => `f.${i + 1}`)];
}

export interface JointKernel extends Kernel<SamplerState, CountedStepInfo> {
  /** O(n^3) operations of all transitions so far. */
  readonly ops: OpCounts;
  /** The tunables now (after burn-in: as frozen). */
  tunables(): { latent: number | undefined; theta: number };
}

/** The kernel of `sampler` on the model; its tunables adapt until the chain's burn-in ends. */
export function jointKernel(X: Matrix, y: Float64Array, model: HyperModelSpec, sampler: HyperSamplerSpec): JointKernel {
  const space = hyperSpace(X, model);
  const likelihood = likelihoodByName(model.likelihood, model.likelihoodOptions ?? {});
  const problem = { space, likelihood, y };
  const d = lengthscaleCount(space);
  const n = X.rows;
  let chain: JointChain | undefined;
  const ops: OpCounts = { cholesky: 0, triangularSolveMatrix: 0, symmetricProduct: 0, matrixProduct: 0, flops: 0 };
  const stateOf = (c: JointChain): SamplerState => {
    const position = new Float64Array(d + 1 + n);
    for (let r = 0; r < d; r++) position[r] = c.t[r]!;
    position[d] = c.t[d]! / 2;
    position.set(c.f, d + 1);
    return { position, logDensity: c.logDensity() };
  };
  const OPS = ["cholesky", "triangularSolveMatrix", "symmetricProduct", "matrixProduct", "flops"] as const;
  const makeChain = (t: Float64Array, f: Float64Array) => jointChain(problem, { scheme: sampler.scheme, thetaSampler: sampler.thetaSampler, latent: sampler.latent, ...(sampler.importanceSamples !== undefined ? { importanceSamples: sampler.importanceSamples } : {}) }, t, f);
  return {
    name: sampler.scheme,
    get ops() { return ops; },
    tunables: () => chain?.tunables() ?? { latent: undefined, theta: NaN },
    init(x0) {
      if (x0.length !== d + 1 + n) throw new RangeError(`the starting point has ${x0.length} entries, expected ${d + 1 + n}`);
      const t = Float64Array.from({ length: d + 1 }, (_, k) => (k < d ? x0[k]! : 2 * x0[d]!));
      chain = makeChain(t, x0.slice(d + 1));
      return stateOf(chain);
    },
    // the scheme adapts within its iterations (see above): nothing to do after one
    adaptation: { update() {}, end: () => chain!.freeze() },
    // A checkpoint's record: the operations so far, then the chain's own state (with its tunables' adaptation).
    saveState: () => packNumbers([OPS.map((k) => ops[k]!), chain!.saveState()]),
    restoreState(saved) {
      chain = makeChain(new Float64Array(d + 1), new Float64Array(n));
      chain.restoreState(saved.subarray(OPS.length));
      OPS.forEach((k, i) => (ops[k] = saved[i]!));
      return stateOf(chain);
    },
    step(_state, rng) {
      const c = chain!;
      const it = c.step(rng);
      for (const k of Object.keys(ops) as (keyof OpCounts)[]) ops[k] += it.ops[k];
      const last = it.theta[it.theta.length - 1]!;
      const all = [it.latent, ...it.theta];
      const sum = (f: (s: CountedStepInfo) => number) => all.reduce((a, s) => a + (Number.isFinite(f(s)) ? f(s) : 0), 0);
      const info: CountedStepInfo = {
        accepted: last.accepted,
        acceptanceProbability: last.acceptanceProbability,
        divergent: all.some((s) => s.divergent),
        energy: NaN,
        energyError: NaN,
        stepSize: c.tunables().theta,
        leapfrogSteps: sum((s) => s.leapfrogSteps),
        gradientCalls: sum((s) => s.gradientCalls),
        metricCalls: sum((s) => s.metricCalls),
        fixedPointIterations: 0,
        densityEvaluations: sum((s) => s.densityEvaluations ?? 0),
      };
      return { state: stateOf(c), info };
    },
  };
}
