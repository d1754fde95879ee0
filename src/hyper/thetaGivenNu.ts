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
 *
 * The metric (SMMALA; Appendix A.2) is the expected Fisher information of y given t at fixed nu,
 * FI_kl = (dL/dt_k nu)' R (dL/dt_l nu) with R = diag(E[-d^2 log p(y_i | f_i) / df_i^2]) at
 * f = L(t) nu (the paper's sigma nu' dL_k' R dL_l nu, its sigma being in our L), plus the prior's
 * negative Hessian: the Jacobian df/dt is what the gradient already forms.
 */
import { choleskyDerivative } from "../linalg/choleskyDerivative.js";
import { Matrix } from "../linalg/matrix.js";
import type { Likelihood } from "../likelihoods/types.js";
import { hyperDimension, hyperLogPrior, kernelAt, type HyperSpace, type KernelAt } from "./covariance.js";
import type { ThetaEvaluation } from "./thetaGivenF.js";

export interface ThetaGivenNu {
  readonly dim: number;
  logDensity(t: ArrayLike<number>): number;
  evaluate(t: ArrayLike<number>): ThetaEvaluation;
  /** f = L(t) nu. */
  latent(t: ArrayLike<number>): Float64Array;
  /** The metric G(t) of Appendix A.2 (m x m, symmetric; see above). */
  metric(t: ArrayLike<number>): Matrix;
}

/** df/dt_k = (dL/dt_k) nu at f = L nu: f / 2 for log sigma, else the lower-triangular product with the Cholesky derivative. */
function latentDerivative(at: KernelAt, k: number, m: number, nu: Float64Array, f: Float64Array): Float64Array {
  if (k === m - 1) return f.map((v) => 0.5 * v);
  const n = nu.length;
  const dL = choleskyDerivative(at.chol, at.derivative(k));
  const out = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const nuj = nu[j]!;
    if (nuj === 0) continue;
    for (let i = j; i < n; i++) out[i] += dL.data[i + j * n]! * nuj;
  }
  return out;
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
        const df = latentDerivative(at, k, m, nu, f);
        let s = 0;
        for (let i = 0; i < n; i++) s += d1[i]! * df[i]!;
        gradient[k] = s + prior.gradient[k]!;
      }
      return { value, gradient };
    },
    metric(t) {
      const at = kernel(t);
      const f = at.chol.multiplyLower(nu);
      const R = likelihood.fisherInformation(f, new Float64Array(n));
      const prior = hyperLogPrior(space, t);
      const J = Array.from({ length: m }, (_, k) => latentDerivative(at, k, m, nu, f));
      const G = new Matrix(m, m);
      for (let k = 0; k < m; k++) {
        for (let l = 0; l <= k; l++) {
          let v = 0;
          for (let i = 0; i < n; i++) v += J[k]![i]! * R[i]! * J[l]![i]!;
          G.set(k, l, v);
          G.set(l, k, v);
        }
        G.set(k, k, G.get(k, k) - prior.hessianDiagonal[k]!);
      }
      return G;
    },
  };
}
