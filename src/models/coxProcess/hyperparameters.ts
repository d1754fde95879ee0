/**
 * The hyperparameters theta = (sigma, beta) of the Cox process given the field x (Girolami &
 * Calderhead 2011, Section 9 and Appendix B; the x-independent block D_theta of the joint Fisher
 * information), as a dense-metric model (targets/denseMetric.ts) in the log coordinates
 * phi = (log sigma, log beta), so the samplers move on the whole plane:
 *
 *   L(phi) = log N(x; mu 1, Sigma(theta)) + log p(phi),
 *   Sigma = sigma^2 (E kron E),  E_ab = exp(-|a - b| / (n beta))   (the separable grid covariance),
 *   D_ij = 1/2 tr(Sigma^-1 dSigma/dphi_i Sigma^-1 dSigma/dphi_j)   (eq. 39, in phi),
 *
 * with the prior phi_i ~ N(m_i, s_i^2) independently (the paper states none; PRIOR below) adding
 * 1/s_i^2 to the diagonal of the metric. The Kronecker form turns every trace over N = n^2 cells into
 * traces of n x n matrices: with B = E^-1 dE/dbeta,
 *
 *   Sigma^-1 dSigma/dlog sigma = 2 I,   Sigma^-1 dSigma/dlog beta = beta (B kron I + I kron B),
 *   D_{sigma,sigma} = 2N,  D_{sigma,beta} = 2 n beta tr B,  D_{beta,beta} = beta^2 (n tr B^2 + (tr B)^2),
 *
 * and, with W = E^-1 R E^-1 (R the n x n field less mu, q0 = tr(R' W)),
 *
 *   log N = -N log sigma - n log|E| - q0 / (2 sigma^2) + const,
 *   dlogN/dlog sigma = -N + q0 / sigma^2,
 *   dlogN/dlog beta = beta (-n tr B + (tr(W' E W E') + tr(W' E' W E)) / (2 sigma^2)),  E' = dE/dbeta.
 *
 * The metric's derivatives need dB/dbeta = -B^2 + E^-1 E''; dD/dlog sigma = 0. Each evaluation costs
 * one n x n eigendecomposition (for the beta it is at; kept while beta stays) and a few n x n x n
 * products: O(N^1.5), no N x N matrix.
 */
import { Matrix } from "../../linalg/matrix.js";
import { matmul } from "../../linalg/products.js";
import { symmetricEigen } from "../../linalg/symmetricEigen.js";
import type { DenseMetricModel, DenseMetricParts } from "../../targets/denseMetric.js";
import { exponentialCorrelation1d } from "./gridCovariance.js";

/** The prior on phi = (log sigma, log beta): means and sds (broad: the field's N cells dominate). */
export const PRIOR = { mean: [0, Math.log(0.1)], sd: [2, 2] } as const;

interface BetaParts {
  beta: number;
  logDetE: number;
  q: Matrix;
  e: Float64Array;
  einv: Matrix;
  e0: Matrix;
  e1: Matrix;
  b: Matrix;
  db: Matrix;
}

function trace(a: Matrix): number {
  let s = 0;
  for (let i = 0; i < a.rows; i++) s += a.data[i + i * a.rows];
  return s;
}

/** sum_ij A_ij B_ij = tr(A' B). */
function frobenius(a: Matrix, b: Matrix): number {
  let s = 0;
  for (let k = 0; k < a.data.length; k++) s += a.data[k] * b.data[k];
  return s;
}

export interface CoxHyperparameterModel extends DenseMetricModel {
  /** (sigma, beta) of phi. */
  toTheta(phi: Float64Array): { sigma: number; beta: number };
}

/** The model of phi given the field x (index i + n j) on an n x n grid with mean mu. */
export function coxHyperparameterModel(side: number, field: ArrayLike<number>, mu: number): CoxHyperparameterModel {
  const n = side;
  const big = n * n;
  if (field.length !== big) throw new RangeError(`the field has ${field.length} cells, the ${n} x ${n} grid ${big}`);
  const r = new Matrix(n, n, Float64Array.from(field, (v) => v - mu));
  let cache: BetaParts | undefined;

  function betaParts(beta: number): BetaParts {
    if (cache && cache.beta === beta) return cache;
    const e0 = exponentialCorrelation1d(n, n * beta);
    const e1 = new Matrix(n, n);
    const e2 = new Matrix(n, n);
    for (let k = 0; k < n * n; k++) {
      const a = k % n;
      const dist = Math.abs(a - (k - a) / n);
      const u = dist / (n * beta * beta); // d/dbeta of -dist / (n beta)
      e1.data[k] = e0.data[k] * u;
      e2.data[k] = e0.data[k] * (u * u - (2 * u) / beta);
    }
    const eig = symmetricEigen(e0);
    const scaled = eig.vectors.clone();
    for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) scaled.data[i + k * n] /= eig.values[k];
    const einv = matmul(scaled, eig.vectors, false, true);
    const b = matmul(einv, e1);
    const db = matmul(einv, e2);
    const bb = matmul(b, b);
    for (let k = 0; k < n * n; k++) db.data[k] -= bb.data[k];
    let logDetE = 0;
    for (const v of eig.values) logDetE += Math.log(v);
    cache = { beta, logDetE, q: eig.vectors, e: eig.values, einv, e0, e1, b, db };
    return cache;
  }

  function evaluate(phi: Float64Array, grad: Float64Array | undefined): { lp: number; p: BetaParts; sigma: number; beta: number } {
    const sigma = Math.exp(phi[0]);
    const beta = Math.exp(phi[1]);
    const p = betaParts(beta);
    const w = matmul(matmul(p.einv, r), p.einv);
    const q0 = frobenius(r, w);
    let lp = -big * phi[0] - n * p.logDetE - q0 / (2 * sigma * sigma);
    for (let i = 0; i < 2; i++) lp -= (phi[i] - PRIOR.mean[i]) ** 2 / (2 * PRIOR.sd[i] ** 2);
    if (grad) {
      const ewe1 = matmul(matmul(p.e0, w), p.e1, false, true);
      const e1we = matmul(matmul(p.e1, w), p.e0, false, true);
      grad[0] = -big + q0 / (sigma * sigma) - (phi[0] - PRIOR.mean[0]) / PRIOR.sd[0] ** 2;
      grad[1] = beta * (-n * trace(p.b) + (frobenius(w, ewe1) + frobenius(w, e1we)) / (2 * sigma * sigma)) - (phi[1] - PRIOR.mean[1]) / PRIOR.sd[1] ** 2;
    }
    return { lp, p, sigma, beta };
  }

  return {
    dim: 2,
    toTheta: (phi) => ({ sigma: Math.exp(phi[0]), beta: Math.exp(phi[1]) }),
    logDensity: (phi) => evaluate(phi, undefined).lp,
    logDensityAndGradient: (phi, grad) => evaluate(phi, grad).lp,
    denseMetric(phi, derivatives): DenseMetricParts {
      const gradient = new Float64Array(2);
      const { lp, p, beta } = evaluate(phi, gradient);
      const trB = trace(p.b);
      const bb = matmul(p.b, p.b);
      const trBB = trace(bb);
      const metric = Matrix.fromRows([
        [2 * big + 1 / PRIOR.sd[0] ** 2, 2 * n * beta * trB],
        [2 * n * beta * trB, beta * beta * (n * trBB + trB * trB) + 1 / PRIOR.sd[1] ** 2],
      ]);
      if (!derivatives) return { logDensity: lp, gradient, metric };
      const trDB = trace(p.db);
      const trBDB = frobenius(p.b, transpose(p.db));
      // d/dlog beta = beta d/dbeta
      const dCross = beta * (2 * n * trB + 2 * n * beta * trDB);
      const dBeta = beta * (2 * beta * (n * trBB + trB * trB) + beta * beta * (2 * n * trBDB + 2 * trB * trDB));
      return { logDensity: lp, gradient, metric, metricDerivatives: [new Matrix(2, 2), Matrix.fromRows([[0, dCross], [dCross, dBeta]])] };
    },
  };
}

function transpose(a: Matrix): Matrix {
  const t = new Matrix(a.cols, a.rows);
  for (let j = 0; j < a.cols; j++) for (let i = 0; i < a.rows; i++) t.data[j + i * a.cols] = a.data[i + j * a.rows];
  return t;
}
