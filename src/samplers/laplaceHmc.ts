/**
 * HMC in coordinates whitened by Laplace's approximation to f | y, theta: the mass matrix is the
 * inverse of Laplace's covariance, M^-1 = Sigma = (K^-1 + W)^-1 at the mode (GPML eq. 3.20;
 * Girolami & Calderhead Section 3: a constant M equal to an approximate posterior precision).
 * Since f | y is close to Gaussian for log-concave likelihoods, this nearly whitens it: the
 * leapfrog runs on an almost standard normal, where a step of about 0.5 is stable in any
 * dimension and a few steps give a nearly independent draw.
 *
 * The chain runs on u with f = R u, R R' = Sigma (R lower triangular, from
 * `priorPlusDiagonalInverseCholesky`, which never forms K^-1), with the identity mass: HMC in u
 * with M = I is HMC in f with M^-1 = R R' (a linear change of variables). The density of u is
 *   log p(u) = beta log p(y | R u) - 1/2 u' R' K^-1 R u.
 * K^-1 need not be applied at each step: R' Sigma^-1 R = I and Sigma^-1 = K^-1 + W give
 *   R' K^-1 R = I - R' W R,  so  log p(u) = beta log p(y | f) - 1/2 |u|^2 + 1/2 f' W f,
 *   d log p / du = R' (beta d log p(y | f)/df + W f) - u,
 * with W the diagonal the mass was built from. One gradient costs two products with R (a
 * matrix-vector product each, O(n^2), through BLAS) and the likelihood's O(n) derivatives;
 * the one O(n^3) factorisation happens when the kernel is built.
 *
 * W is given: Laplace's W at the mode (approx/laplace.ts, which `runLatentGp` fills in as
 * the spec's `massDiagonal`, run/laplaceMass.ts). Without it, W is the expected Fisher
 * information at f = 0 times beta (HMC v1's choice). Either way the mass is a fixed positive
 * definite matrix: the chain is exact whatever W is; W only sets its efficiency. The Gaussian
 * part of the target must be the prior N(0, K).
 */
import { backendFor, type Cholesky } from "../linalg/cholesky.js";
import { opCounts } from "../linalg/counters.js";
import type { Target } from "../targets/types.js";
import { hmc, type HmcKernel, type HmcState } from "./hmc.js";
import { priorFisherDiagonal, priorPlusDiagonalInverseCholesky } from "./hmcGp.js";
import { type LatentGpTarget, requirePriorSplit } from "./latentTarget.js";
import { identityMass } from "./massMatrix.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "./types.js";

export interface LaplaceHmcOptions {
  stepSize: number;
  leapfrogSteps: number;
  /** Draw the number of leapfrog steps uniformly from 1..leapfrogSteps (default false). */
  randomiseSteps?: boolean;
  targetAcceptance?: number;
  divergenceThreshold?: number;
  /** The diagonal W of the mass (K^-1 + W), entries >= 0: Laplace's at the mode (default: the Fisher information at f = 0, times beta). */
  diagonal?: ArrayLike<number>;
  /**
   * Test-only negative controls: "drop-w" leaves out the 1/2 f' W f correction (so the chain
   * samples another density); "potential-only" accepts on the potential alone.
   * @internal
   */
  broken?: "drop-w" | "potential-only";
}

export interface LaplaceHmcState extends SamplerState {
  /** The state of the chain in the whitened coordinates u (f = R u). */
  readonly whitened: HmcState;
}

export interface LaplaceHmcKernel extends Kernel<LaplaceHmcState> {
  readonly tunable: Tunable;
  /** R with R R' = (K^-1 + W)^-1, the whitening factor. */
  readonly factor: Cholesky;
}

export function laplaceHmc(target: LatentGpTarget, options: LaplaceHmcOptions): LaplaceHmcKernel {
  requirePriorSplit(target, "laplace-hmc");
  const n = target.dim;
  const w = options.diagonal ? Float64Array.from(options.diagonal) : priorFisherDiagonal(target);
  if (w.length !== n) throw new RangeError(`laplace-hmc: diagonal has ${w.length} entries, the target dimension is ${n}`);
  const factor = priorPlusDiagonalInverseCholesky(target.kernelCholesky, w);
  const r = factor.factor.data; // column-major, zero above the diagonal
  const be = backendFor(n);
  const { likelihood, y, beta } = target;
  const dropW = options.broken === "drop-w";
  const f = new Float64Array(n);
  const d1 = new Float64Array(n);
  const d2 = new Float64Array(n);
  const gradientOnly = likelihood.gradient?.bind(likelihood);

  /** f <- R u. */
  function toLatent(u: Float64Array, out: Float64Array): void {
    opCounts.flops += 2 * n * n;
    be.gemv("N", n, n, 1, r, n, u, 0, out);
  }

  // log p(u) up to a constant (module comment); the constant is restored in `offset`.
  const whitenedTarget: Target = {
    dim: n,
    logDensity(u) {
      toLatent(u, f);
      return density(u);
    },
    logDensityAndGradient(u, grad) {
      toLatent(u, f);
      const lp = density(u);
      if (!Number.isFinite(lp)) return lp;
      for (let i = 0; i < n; i++) d1[i] = beta * d1[i] + (dropW ? 0 : w[i] * f[i]);
      opCounts.flops += 2 * n * n;
      be.gemv("T", n, n, 1, r, n, d1, 0, grad); // R' (beta d log p + W f)
      for (let i = 0; i < n; i++) grad[i] -= u[i];
      return lp;
    },
  };

  /** beta log p(y | f) - |u|^2/2 + f' W f / 2, leaving d log p(y | f) / df in d1. */
  function density(u: Float64Array): number {
    const ll = gradientOnly ? gradientOnly(y, f, d1) : likelihood.derivatives(y, f, d1, d2);
    let s = beta === 0 ? 0 : beta * ll;
    for (let i = 0; i < n; i++) s += 0.5 * ((dropW ? 0 : w[i] * f[i] * f[i]) - u[i] * u[i]);
    return s;
  }

  const inner: HmcKernel = hmc(whitenedTarget, {
    stepSize: options.stepSize,
    leapfrogSteps: options.leapfrogSteps,
    randomiseSteps: options.randomiseSteps,
    targetAcceptance: options.targetAcceptance,
    divergenceThreshold: options.divergenceThreshold,
    mass: identityMass(n),
    brokenAcceptance: options.broken === "potential-only" ? "potential-only" : undefined,
  });
  // log p(f) - log p(u) at the same point, so that states report the target's own log density
  // (a constant: -log|R| and the prior's normalisation).
  let offset = NaN;

  function wrap(whitened: HmcState): LaplaceHmcState {
    const position = new Float64Array(n);
    toLatent(whitened.position, position);
    return { position, logDensity: whitened.logDensity + offset, whitened };
  }

  function init(x0: Float64Array): LaplaceHmcState {
    if (x0.length !== n) throw new RangeError(`laplace-hmc: the initial point has ${x0.length} entries, the target dimension is ${n}`);
    const u0 = Float64Array.from(x0);
    factor.solveLowerInPlace(u0); // u = R^-1 f
    const whitened = inner.init(u0);
    const f0 = new Float64Array(n);
    toLatent(whitened.position, f0);
    offset = target.logDensity(f0) - whitened.logDensity;
    return wrap(whitened);
  }

  function step(state: LaplaceHmcState, rng: Parameters<Kernel["step"]>[1]): { state: LaplaceHmcState; info: StepInfo } {
    const { state: next, info } = inner.step(state.whitened, rng);
    return { state: next === state.whitened ? state : wrap(next), info };
  }

  // A checkpoint keeps u itself (f = R u does not give u back bit for bit) and the offset fixed at init.
  const saveState = (state: LaplaceHmcState) => Float64Array.of(offset, ...state.whitened.position);
  function restoreState(saved: Float64Array): LaplaceHmcState {
    if (saved.length !== n + 1) throw new RangeError(`laplace-hmc: a saved state has ${n + 1} numbers, got ${saved.length}`);
    offset = saved[0];
    return wrap(inner.init(saved.slice(1)));
  }

  return { name: "laplace-hmc", tunable: inner.tunable, factor, init, step, saveState, restoreState };
}
