/**
 * theta | y, nu, the target of the hyperparameter update in the AA scheme (Filippone, Zhong &
 * Girolami, Section 2): the latent values are f = L(t) nu with nu ~ N(0, I) a priori and
 * L(t) the Cholesky factor of K(t), so
 *
 *   log p(t | y, nu) = log p(y | L(t) nu) + log p(t) + const(nu)
 *   d/dt_k           = g' (dL/dt_k) nu + d log p(t)/dt_k,   g = d log p(y | f)/df,
 *
 * with dL/dt_k from the derivative of the Cholesky factor (Smith 1995; linalg's
 * choleskyDerivative). For t_k = log sigma, L = sqrt(sigma) L_C and dL/dt_k = L / 2.
 */
import { choleskyDerivative } from "../linalg/choleskyDerivative.js";
import type { Likelihood } from "../likelihoods/types.js";
import { hyperDimension, hyperLogPrior, kernelAt, type HyperSpace, type KernelAt } from "./covariance.js";
import type { ThetaEvaluation } from "./thetaGivenF.js";

export interface ThetaGivenNu {
  readonly dim: number;
  logDensity(t: ArrayLike<number>): number;
  evaluate(t: ArrayLike<number>): ThetaEvaluation;
  /** f = L(t) nu. */
  latent(t: ArrayLike<number>): Float64Array;
}

/** `kernel` computes K(t) and its factor (default kernelAt; a caller may pass a cache of recent ones). */
export function thetaGivenNu(space: HyperSpace, likelihood: Likelihood, y: Float64Array, nu: Float64Array, kernel: (t: ArrayLike<number>) => KernelAt = (t) => kernelAt(space, t)): ThetaGivenNu {
  const m = hyperDimension(space);
  const n = space.x.rows;
  if (nu.length !== n || y.length !== n) throw new RangeError(`nu has ${nu.length} entries and y ${y.length}, the inputs ${n} rows`);
  const d1 = new Float64Array(n);
  const d2 = new Float64Array(n);
  const latent = (t: ArrayLike<number>) => kernel(t).chol.multiplyLower(nu);
  return {
    dim: m,
    latent,
    logDensity: (t) => likelihood.logLikelihood(y, latent(t)) + hyperLogPrior(space, t).value,
    evaluate(t) {
      const at = kernel(t);
      const f = at.chol.multiplyLower(nu);
      const prior = hyperLogPrior(space, t);
      const value = likelihood.derivatives(y, f, d1, d2) + prior.value;
      const gradient = new Float64Array(m);
      for (let k = 0; k < m; k++) {
        let s = 0;
        if (k === m - 1) {
          for (let i = 0; i < n; i++) s += 0.5 * d1[i]! * f[i]!;
        } else {
          const dL = choleskyDerivative(at.chol, at.derivative(k));
          for (let j = 0; j < n; j++) {
            const nuj = nu[j]!;
            if (nuj === 0) continue;
            for (let i = j; i < n; i++) s += d1[i]! * dL.data[i + j * n]! * nuj;
          }
        }
        gradient[k] = s + prior.gradient[k]!;
      }
      return { value, gradient };
    },
  };
}
