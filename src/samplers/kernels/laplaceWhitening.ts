/**
 * The latent GP posterior in coordinates whitened by Laplace's approximation to f | y, theta:
 * f = R u with R R' = Sigma = (K^-1 + W)^-1 (GPML eq. 3.20; R lower triangular, from
 * `priorPlusDiagonalInverseCholesky`, which never forms K^-1). Since f | y is close to Gaussian
 * for log-concave likelihoods, u is close to standard normal: samplers with the identity mass
 * (laplaceHmc.ts, laplaceNuts.ts) run on it, which is HMC in f with M^-1 = Sigma.
 *
 * The density of u is log p(u) = beta log p(y | R u) - 1/2 u' R' K^-1 R u. K^-1 need not be
 * applied: R' Sigma^-1 R = I and Sigma^-1 = K^-1 + W give
 *   R' K^-1 R = I - R' W R,  so  log p(u) = beta log p(y | f) - 1/2 |u|^2 + 1/2 f' W f,
 *   d log p / du = R' (beta d log p(y | f)/df + W f) - u,
 * with W the diagonal the whitening was built from. One gradient costs two products with R (a
 * matrix-vector product each, O(n^2), through BLAS) and the likelihood's O(n) derivatives; the
 * one O(n^3) factorisation happens here, once.
 *
 * W is given: Laplace's W at the mode (approx/laplace.ts) or EP's site precisions (approx/ep.ts),
 * which `runLatentGp` fills in as the spec's `massDiagonal` (run/whiteningMass.ts). Without it, W is the expected Fisher information
 * at f = 0 times beta (HMC v1's choice). Either way the change of variables is a fixed linear
 * map: a sampler exact in u is exact in f whatever W is; W only sets its efficiency. The Gaussian
 * part of the target must be the prior N(0, K).
 */
import { backendFor, type Cholesky } from "../../linalg/cholesky.js";
import { opCounts } from "../../linalg/counters.js";
import type { Target } from "../../targets/types.js";
import { priorFisherDiagonal, priorPlusDiagonalInverseCholesky } from "./hmcGp.js";
import { type LatentGpTarget, requirePriorSplit } from "../latentTarget.js";
import type { SamplerState } from "../types.js";
import { packNumbers } from "../../math/packNumbers.js";
import type { FaultOf } from "../../math/negativeControl.js";

export interface LaplaceWhitening {
  /** log p(u) up to a constant, with its gradient (and the gradient alone, where the likelihood has a `score`). */
  readonly target: Target;
  /** R with R R' = (K^-1 + W)^-1. */
  readonly factor: Cholesky;
  /** u = R^-1 f (a new array). */
  whiten(f: ArrayLike<number>): Float64Array;
  /**
   * The state in f of a state in u: f = R u (reusing the last product when it was at this u),
   * and the target's own log density (log p(u) plus the constant log p(f) - log p(u), fixed by `calibrate`).
   */
  latentState(u: Float64Array, logDensityU: number): SamplerState;
  /** Fixes the constant between log p(f) and log p(u) from a point u with its log p(u). */
  calibrate(u: Float64Array, logDensityU: number): void;
  /**
   * The terms of log p(u) that depend on f alone: writes a = beta d log p(y | f)/df + W f and
   * returns beta log p(y | f) + f' W f / 2 (so log p(u) = that - |u|^2 / 2, and d log p / du = R' a - u).
   */
  likelihoodTerms(f: Float64Array, a: Float64Array): number;
  /** W, the diagonal the whitening was built from. */
  readonly diagonal: Float64Array;
  /** A checkpoint's numbers for a state at u: the constant fixed by `calibrate`, then u itself (f = R u does not give u back bit for bit). */
  saveState(u: Float64Array): Float64Array;
  /** Restores the constant from such numbers; returns u. */
  restoreState(saved: Float64Array): Float64Array;
}

export function laplaceWhitening(target: LatentGpTarget, name: string, diagonal: ArrayLike<number> | undefined, broken?: FaultOf<"laplace-whitening">): LaplaceWhitening {
  const dropW = broken === "drop-w";
  requirePriorSplit(target, name);
  const n = target.dim;
  const w = diagonal ? Float64Array.from(diagonal) : priorFisherDiagonal(target);
  if (w.length !== n) throw new RangeError(`${name}: diagonal has ${w.length} entries, the target dimension is ${n}`);
  const factor = priorPlusDiagonalInverseCholesky(target.kernelCholesky, w);
  const r = factor.factor.data; // column-major, zero above the diagonal
  const be = backendFor(n);
  const { likelihood, y, beta } = target;
  const f = new Float64Array(n);
  const d1 = new Float64Array(n);
  const d2 = new Float64Array(n);
  const gradientOnly = likelihood.gradient?.bind(likelihood);
  const score = likelihood.score?.bind(likelihood);
  // u at which f = R u was last computed, so that a new state's f needs no product of its own.
  const lastU = new Float64Array(n).fill(NaN);

  /** f <- R u. */
  function toLatent(u: Float64Array, out: Float64Array): void {
    opCounts.flops += 2 * n * n;
    be.gemv("N", n, n, 1, r, n, u, 0, out);
    if (out === f) lastU.set(u);
  }

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
      gradientFromD1(u, grad);
      return lp;
    },
    // Inside a trajectory: the likelihood's first derivatives without its logarithms.
    gradient: score
      ? (u, grad) => {
          toLatent(u, f);
          score(y, f, d1);
          gradientFromD1(u, grad);
        }
      : undefined,
  };

  /** grad <- R' a - u, with a = beta d1 + W f, d1 = d log p(y | f) / df at f = R u. */
  function gradientFromD1(u: Float64Array, grad: Float64Array): void {
    for (let i = 0; i < n; i++) d1[i] = beta * d1[i] + (dropW ? 0 : w[i] * f[i]);
    opCounts.flops += 2 * n * n;
    be.gemv("T", n, n, 1, r, n, d1, 0, grad);
    for (let i = 0; i < n; i++) grad[i] -= u[i];
  }

  /** beta log p(y | f) - |u|^2/2 + f' W f / 2, leaving d log p(y | f) / df in d1. */
  function density(u: Float64Array): number {
    const ll = gradientOnly ? gradientOnly(y, f, d1) : likelihood.derivatives(y, f, d1, d2);
    let s = beta === 0 ? 0 : beta * ll;
    for (let i = 0; i < n; i++) s += 0.5 * ((dropW ? 0 : w[i] * f[i] * f[i]) - u[i] * u[i]);
    return s;
  }

  // beta log p(y | x) + x' W x / 2, and a = beta d log p(y | x)/dx + W x in one pass after the likelihood's.
  function likelihoodTerms(x: Float64Array, a: Float64Array): number {
    const ll = gradientOnly ? gradientOnly(y, x, a) : likelihood.derivatives(y, x, a, d2);
    let s = beta === 0 ? 0 : beta * ll;
    if (dropW) {
      for (let i = 0; i < n; i++) a[i] = beta * a[i];
      return s;
    }
    for (let i = 0; i < n; i++) {
      const xi = x[i];
      const wx = w[i] * xi;
      s += 0.5 * w[i] * xi * xi;
      a[i] = beta * a[i] + wx;
    }
    return s;
  }

  // log p(f) - log p(u) at the same point (a constant: -log|R| and the prior's normalisation).
  let offset = NaN;

  function latentState(u: Float64Array, logDensityU: number): SamplerState {
    const position = new Float64Array(n);
    let same = true;
    for (let i = 0; i < n && same; i++) same = u[i] === lastU[i];
    if (same) position.set(f);
    else toLatent(u, position);
    return { position, logDensity: logDensityU + offset };
  }

  function calibrate(u: Float64Array, logDensityU: number): void {
    const f0 = new Float64Array(n);
    toLatent(u, f0);
    offset = target.logDensity(f0) - logDensityU;
  }

  function whiten(x: ArrayLike<number>): Float64Array {
    if (x.length !== n) throw new RangeError(`${name}: the initial point has ${x.length} entries, the target dimension is ${n}`);
    const u = Float64Array.from(x);
    factor.solveLowerInPlace(u);
    return u;
  }

  const saveState = (u: Float64Array) => packNumbers([[offset], u]);
  function restoreState(saved: Float64Array): Float64Array {
    if (saved.length !== n + 1) throw new RangeError(`${name}: a saved state has ${n + 1} numbers, got ${saved.length}`);
    offset = saved[0]!;
    return saved.slice(1);
  }

  return { target: whitenedTarget, factor, whiten, latentState, calibrate, likelihoodTerms, diagonal: w, saveState, restoreState };
}
