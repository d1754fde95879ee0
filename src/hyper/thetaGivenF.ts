/**
 * theta | f, the target of the hyperparameter update in the SA scheme (Filippone, Zhong &
 * Girolami, Section 2 and Appendix A), in the coordinates t of ./covariance.ts:
 *
 *   log p(t | f) = -1/2 log|K| - 1/2 f' K^-1 f - n/2 log(2 pi) + log p(t) + const(f)
 *   d/dt_k       = 1/2 a' dK_k a - 1/2 tr(K^-1 dK_k) + d log p(t)/dt_k,   a = K^-1 f
 *   G_kl         = 1/2 tr(K^-1 dK_k K^-1 dK_l) - d^2 log p(t)/dt_k^2 [k = l]
 *
 * G is the expected Fisher information of f | t (the metric of SMMALA on theta, their Appendix
 * A) plus the prior's negative Hessian. The signal variance alone can instead be drawn exactly
 * (./signalVarianceGibbs.ts).
 */
import { Matrix } from "../linalg/matrix.js";
import { hyperDimension, hyperLogPrior, kernelAt, type HyperSpace, type KernelAt } from "./covariance.js";

const LOG_2PI = Math.log(2 * Math.PI);

export interface ThetaEvaluation {
  value: number;
  gradient: Float64Array;
}

export interface ThetaGivenF {
  readonly dim: number;
  logDensity(t: ArrayLike<number>): number;
  /** The log density and its gradient in t. */
  evaluate(t: ArrayLike<number>): ThetaEvaluation;
  /** The metric G(t) (d + 1 by d + 1, symmetric positive definite). */
  metric(t: ArrayLike<number>): Matrix;
}

function logDensityAt(space: HyperSpace, at: KernelAt, f: Float64Array): { value: number; a: Float64Array; prior: ReturnType<typeof hyperLogPrior> } {
  const a = at.chol.solve(f);
  let q = 0;
  for (let i = 0; i < f.length; i++) q += f[i]! * a[i]!;
  const prior = hyperLogPrior(space, at.t);
  const value = -0.5 * at.chol.logDet() - 0.5 * q - 0.5 * f.length * LOG_2PI + prior.value;
  return { value, a, prior };
}

/** K^-1 dK_k for each k, n x n each. */
function solvedDerivatives(at: KernelAt, m: number): Matrix[] {
  return Array.from({ length: m }, (_, k) => at.chol.solveMatrix(at.derivative(k)));
}

/** tr(A B) for n x n A, B (column-major): sum_ij A_ij B_ji. */
function traceOfProduct(a: Matrix, b: Matrix): number {
  const n = a.rows;
  let s = 0;
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) s += a.data[i + j * n]! * b.data[j + i * n]!;
  return s;
}

/** `kernel` computes K(t) and its factor (default kernelAt; a caller may pass a cache of recent ones). */
export function thetaGivenF(space: HyperSpace, f: Float64Array, kernel: (t: ArrayLike<number>) => KernelAt = (t) => kernelAt(space, t)): ThetaGivenF {
  const m = hyperDimension(space);
  if (f.length !== space.x.rows) throw new RangeError(`f has ${f.length} entries, the inputs ${space.x.rows} rows`);
  return {
    dim: m,
    logDensity: (t) => logDensityAt(space, kernel(t), f).value,
    evaluate(t) {
      const at = kernel(t);
      const { value, a, prior } = logDensityAt(space, at, f);
      const gradient = new Float64Array(m);
      const n = f.length;
      // One inversion of K per evaluation (Table 1: HMC on theta | f, #I = T lambda-bar); then
      // tr(K^-1 dK_k) is then O(n^2) for each k.
      const Kinv = m > 1 ? at.chol.solveMatrix(Matrix.identity(n)) : undefined;
      for (let k = 0; k < m; k++) {
        const dK = at.derivative(k);
        let quad = 0;
        for (let j = 0; j < n; j++) {
          let s = 0;
          for (let i = 0; i < n; i++) s += dK.data[i + j * n]! * a[i]!;
          quad += s * a[j]!;
        }
        // tr(K^-1 dK_k); for log sigma dK = K and the trace is n.
        const trace = k === m - 1 ? n : traceOfProduct(Kinv!, dK);
        gradient[k] = 0.5 * quad - 0.5 * trace + prior.gradient[k]!;
      }
      return { value, gradient };
    },
    metric(t) {
      const at = kernel(t);
      const prior = hyperLogPrior(space, t);
      const solved = solvedDerivatives(at, m);
      const G = new Matrix(m, m);
      for (let k = 0; k < m; k++) {
        for (let l = 0; l <= k; l++) {
          const v = 0.5 * traceOfProduct(solved[k]!, solved[l]!);
          G.set(k, l, v);
          G.set(l, k, v);
        }
        G.set(k, k, G.get(k, k) - prior.hessianDiagonal[k]!);
      }
      return G;
    },
  };
}
