/**
 * The kernel hyperparameters as the samplers of theta see them (Filippone, Zhong & Girolami,
 * eq. 1 and Section 4.1): an ARD squared-exponential kernel
 *
 *   k(x, x') = sigma exp(-1/2 sum_r (x_r - x'_r)^2 / exp(psi_r)^2),
 *
 * in the coordinates t = (psi_1, ..., psi_d, log sigma): the log lengthscales and the log signal
 * variance. (Output files name them log_lengthscale.r and log_signal_sd = log(sigma) / 2.)
 *
 * Jitter is part of the model: K = sigma (C + j I) with C the unit-variance correlation matrix and
 * j the relative jitter (default 1e-6), so that the target is one fixed density whatever theta
 * is, and f | sigma stays conjugate to an inverse-Gamma prior on sigma (the exact Gibbs step of
 * the SA scheme). Then dK/dlog sigma = K, and dK/dpsi_r = sigma dC/dpsi_r. An absolute jitter a
 * (K = sigma (C + j I) + a I, as in GPML's and GPstuff's models) is a density too, but not linear
 * in sigma: only the pm scheme, which makes K afresh at each theta, takes it
 * (dK/dlog sigma = K - a I).
 */
import { seKernel } from "../gp/squaredExponential.js";
import type { PositivePrior } from "../gp/hyperpriors.js";
import { Cholesky, cholesky } from "../linalg/cholesky.js";
import { DimensionError } from "../linalg/errors.js";
import { Matrix } from "../linalg/matrix.js";

export { DEFAULT_RELATIVE_JITTER } from "../gp/jitter.js";

export interface HyperSpace {
  /** Training inputs, n x d. */
  x: Matrix;
  /**
   * The priors on the lengthscales exp(psi_r): one per input column (ARD), or one for a single
   * lengthscale shared by every column (then theta = (psi, log sigma) whatever d is).
   */
  lengthscalePriors: readonly PositivePrior[];
  /** The prior on the signal variance sigma. */
  variancePrior: PositivePrior;
  /** j in K = sigma (C + j I). */
  relativeJitter: number;
  /** a in K = sigma (C + j I) + a I (default 0; the pm scheme only). */
  absoluteJitter?: number;
}

/** K(t) with its factor, and dK/dt_k on demand. */
export interface KernelAt {
  readonly t: Float64Array;
  readonly K: Matrix;
  readonly chol: Cholesky;
  /** dK/dt_k, k = 0..d (the last is dK/dlog sigma = K). */
  derivative(k: number): Matrix;
}

/** The number of log lengthscales in theta: the input columns (ARD), or 1 (shared). */
export function lengthscaleCount(space: HyperSpace): number {
  return space.lengthscalePriors.length;
}

export function hyperDimension(space: HyperSpace): number {
  return lengthscaleCount(space) + 1;
}

function checkT(space: HyperSpace, t: ArrayLike<number>): void {
  const m = hyperDimension(space);
  if (t.length !== m) throw new DimensionError(`theta has ${t.length} entries, expected ${m} (${m - 1} log lengthscales and the log signal variance)`);
  const l = space.lengthscalePriors.length;
  if (l !== space.x.cols && l !== 1) throw new DimensionError(`${l} lengthscale priors for ${space.x.cols} input columns (expected one per column, or one shared)`);
}

/** The correlation part sigma = 1 of the kernel, i.e. C(t), and the kernel object for derivatives. */
function seAt(space: HyperSpace, t: ArrayLike<number>) {
  // one log lengthscale makes seKernel's shared lengthscale, whose derivative is d/dpsi of all
  // columns at once; its K comes from the inputs' squared distances, summed once per chain
  const d = lengthscaleCount(space);
  return seKernel({ logLengthscale: Array.from({ length: d }, (_, r) => t[r]!), logSignalSd: 0.5 * t[d]!, cachedDistances: true });
}

export function kernelAt(space: HyperSpace, t: ArrayLike<number>): KernelAt {
  checkT(space, t);
  const tt = Float64Array.from(t);
  const d = lengthscaleCount(space);
  const n = space.x.rows;
  const K = seAt(space, tt).matrix(space.x);
  const sigma = Math.exp(tt[d]!);
  const a = space.absoluteJitter ?? 0;
  for (let i = 0; i < n; i++) K.data[i + i * n] += space.relativeJitter * sigma + a;
  return withFactor(space, tt, K, cholesky(K));
}

/**
 * K(t) from K(s) at an s with the same psi: K = sigma (C + j I) is linear in sigma, so
 * K(t) = (sigma_t / sigma_s) K(s) and its factor is sqrt(sigma_t / sigma_s) L(s) (no
 * factorisation: what the exact Gibbs step of sigma and the moves after it need).
 */
export function rescaledKernelAt(space: HyperSpace, from: KernelAt, t: ArrayLike<number>): KernelAt {
  checkT(space, t);
  if (space.absoluteJitter) throw new RangeError("rescaledKernelAt: K = sigma (C + j I) + a I is not linear in sigma when a > 0");
  const d = lengthscaleCount(space);
  for (let r = 0; r < d; r++) if (from.t[r] !== t[r]) throw new DimensionError(`rescaledKernelAt: psi_${r + 1} differs (${from.t[r]} and ${t[r]})`);
  const ratio = Math.exp(t[d]! - from.t[d]!);
  const K = from.K.clone();
  K.data.forEach((v, i) => (K.data[i] = v * ratio));
  const L = from.chol.factor.clone();
  const root = Math.sqrt(ratio);
  L.data.forEach((v, i) => (L.data[i] = v * root));
  return withFactor(space, Float64Array.from(t), K, new Cholesky(L));
}

/**
 * K(t) from the numbers of a K and its factor that kernelAt or rescaledKernelAt made at t (a
 * checkpoint's): bit for bit the one they made, which a fresh factorisation of K need not be.
 */
export function storedKernelAt(space: HyperSpace, t: ArrayLike<number>, K: Float64Array, L: Float64Array): KernelAt {
  checkT(space, t);
  const n = space.x.rows;
  if (K.length !== n * n || L.length !== n * n) throw new DimensionError(`storedKernelAt: K and L need ${n * n} entries, got ${K.length} and ${L.length}`);
  return withFactor(space, Float64Array.from(t), new Matrix(n, n, K.slice()), new Cholesky(new Matrix(n, n, L.slice())));
}

function withFactor(space: HyperSpace, tt: Float64Array, K: Matrix, chol: Cholesky): KernelAt {
  const d = lengthscaleCount(space);
  const kernel = seAt(space, tt);
  const cache = new Map<number, Matrix>();
  return {
    t: tt,
    K,
    chol,
    derivative(k) {
      if (!Number.isInteger(k) || k < 0 || k > d) throw new DimensionError(`hyperparameter index ${k} out of range 0..${d}`);
      let m = cache.get(k);
      if (!m) {
        // The jitter sigma j I does not depend on psi; dK/dlog sigma = K, relative jitter included, absolute not.
        m = k === d ? withoutAbsoluteJitter(K, space.absoluteJitter ?? 0) : kernel.derivative(space.x, k, undefined, K);
        cache.set(k, m);
      }
      return m;
    },
  };
}

/** K - a I (a copy). */
function withoutAbsoluteJitter(K: Matrix, a: number): Matrix {
  const out = K.clone();
  const n = K.rows;
  if (a !== 0) for (let i = 0; i < n; i++) out.data[i + i * n] -= a;
  return out;
}

/** log p(t) (Jacobians of the log transforms included), its gradient and the diagonal of its Hessian. */
export function hyperLogPrior(space: HyperSpace, t: ArrayLike<number>): { value: number; gradient: Float64Array; hessianDiagonal: Float64Array } {
  checkT(space, t);
  const m = hyperDimension(space);
  const gradient = new Float64Array(m);
  const hessianDiagonal = new Float64Array(m);
  let value = 0;
  for (let k = 0; k < m; k++) {
    const prior = k < m - 1 ? space.lengthscalePriors[k]! : space.variancePrior;
    const p = prior.logDensityOfLog(t[k]!);
    value += p.value;
    gradient[k] = p.gradient;
    hessianDiagonal[k] = p.hessian;
  }
  return { value, gradient, hessianDiagonal };
}
