/**
 * MALA in the reparameterisation of Christensen et al. (2005), as Girolami & Calderhead (2011,
 * Section 9.1) run it: x = mu 1 + L Gamma with L L' = (Sigma^-1 + diag(m exp(x_hat)))^-1, the
 * inverse of the negative Hessian of L at a point x_hat (here the posterior mode), so that Gamma
 * is roughly standard normal a posteriori. With A = Sigma^-1 + diag(m exp(x_hat)) = C C' (C its
 * lower Cholesky factor), L = C'^-1, hence
 *
 *   x = mu + C'^-1 Gamma,    dL/dGamma = L' dL/dx = C^-1 dL/dx,
 *
 * two dense triangular solves per gradient: O(N^2) per step after one O(N^3) factorisation. This
 * is the one place the Cox process uses dense N x N algebra, because the method itself needs the
 * factor of Sigma^-1 + diag(.), which has neither Kronecker nor circulant structure. The Jacobian
 * of the map is constant, so the target in Gamma is L(x(Gamma)) up to a constant. Either
 * covariance: the separable Sigma^-1 from its Kronecker factors (denseGridPrecision), the
 * Euclidean one by a dense inverse (denseEuclideanPrecision).
 */
import { Cholesky, cholesky } from "../../linalg/cholesky.js";
import { Matrix } from "../../linalg/matrix.js";
import type { Target } from "../../targets/types.js";
import type { CoxProcessModel } from "./coxProcess.js";
import { fieldLogLikelihood, type CoxField } from "./coxField.js";
import { denseGridCovariance } from "./gridCovariance.js";

/** Sigma^-1 = sigma^-2 (E^-1 kron E^-1) written out densely (N x N). */
export function denseGridPrecision(model: CoxProcessModel): Matrix {
  const { side: n, q, e, sigma2 } = model.grid;
  const einv = new Float64Array(n * n);
  for (let b = 0; b < n; b++) for (let a = 0; a < n; a++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += (q[a + k * n] * q[b + k * n]) / e[k];
    einv[a + b * n] = s;
  }
  const big = n * n;
  const p = new Matrix(big, big);
  // (E^-1 kron E^-1)_{(a + n b), (c + n d)} = (E^-1)_{bd} (E^-1)_{ac}
  for (let d = 0; d < n; d++) for (let c = 0; c < n; c++) {
    const col = (c + n * d) * big;
    for (let b = 0; b < n; b++) {
      const ebd = einv[b + d * n] / sigma2;
      const off = col + n * b;
      for (let a = 0; a < n; a++) p.data[off + a] = ebd * einv[a + c * n];
    }
  }
  return p;
}

export interface ChristensenTarget extends Target {
  /** x = mu + C'^-1 Gamma. */
  toField(gamma: Float64Array, out: Float64Array): void;
  /** Gamma = C' (x - mu). */
  fromField(x: Float64Array): Float64Array;
  readonly factor: Cholesky;
  logDensityAndGradient(gamma: Float64Array, grad: Float64Array): number;
}

/**
 * `precision`: Sigma^-1 written out (N x N; overwritten). The prior term needs no product with
 * Sigma^-1 afterwards: with r = x - mu = L Gamma and L' A L = I,
 *
 *   r' Sigma^-1 r = Gamma' L' (A - W) L Gamma = |Gamma|^2 - r' W r,   W = diag(m exp(x_hat)),
 *
 * so L(Gamma) = sum_k (y_k x_k - m exp(x_k)) - (|Gamma|^2 - r' W r) / 2 and
 * dL/dGamma = L' (y - m exp(x) + W r) - Gamma: two triangular solves, whatever Sigma is.
 */
export function christensenTarget(model: CoxField, precision: Matrix, xHat: Float64Array): ChristensenTarget {
  const n = model.cells;
  if (precision.rows !== n || precision.cols !== n) throw new RangeError(`the precision is ${precision.rows} x ${precision.cols}, the grid has ${n} cells`);
  const a = precision;
  const wHat = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    wHat[k] = model.cellArea * Math.exp(xHat[k]);
    a.data[k + k * n] += wHat[k];
  }
  const factor = cholesky(a);
  const mu = model.hyper.mu;
  const y = model.counts;
  const m = model.cellArea;
  const x = new Float64Array(n);
  const toField = (gamma: Float64Array, out: Float64Array) => {
    out.set(gamma);
    factor.solveUpperInPlace(out);
    for (let k = 0; k < n; k++) out[k] += mu;
  };
  const evaluate = (gamma: Float64Array, grad: Float64Array | undefined): number => {
    toField(gamma, x);
    let quad = 0;
    for (let k = 0; k < n; k++) {
      const r = x[k] - mu;
      quad += gamma[k] * gamma[k] - wHat[k] * r * r;
    }
    if (grad) {
      for (let k = 0; k < n; k++) grad[k] = y[k] - m * Math.exp(x[k]) + wHat[k] * (x[k] - mu);
      factor.solveLowerInPlace(grad);
      for (let k = 0; k < n; k++) grad[k] -= gamma[k];
    }
    return fieldLogLikelihood(y, m, x) - 0.5 * quad;
  };
  return {
    dim: n,
    factor,
    toField,
    fromField(xs) {
      const l = factor.factor.data;
      const g = new Float64Array(n);
      // Gamma_i = sum_{j >= i} C_ji (x_j - mu)
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = i; j < n; j++) s += l[j + i * n] * (xs[j] - mu);
        g[i] = s;
      }
      return g;
    },
    logDensity: (gamma) => evaluate(gamma, undefined),
    logDensityAndGradient: (gamma, grad) => evaluate(gamma, grad),
  };
}

/**
 * Sigma^-1 of the Euclidean covariance written out (N x N) for Christensen's transform, the one
 * place the method needs the dense matrix: Sigma = R C R' built directly (gridCovariance.ts),
 * factorised, and inverted through its Cholesky factor, O(N^3) once.
 */
export function denseEuclideanPrecision(model: CoxField): Matrix {
  const n = model.cells;
  const ch = cholesky(denseGridCovariance(model.side, model.hyper.sigma2, model.hyper.beta, "euclidean"));
  const eye = new Matrix(n, n);
  for (let k = 0; k < n; k++) eye.data[k + k * n] = 1;
  const inv = ch.solveMatrix(eye);
  // symmetrise the rounding
  for (let j = 0; j < n; j++) for (let i = 0; i < j; i++) {
    const v = 0.5 * (inv.data[i + j * n] + inv.data[j + i * n]);
    inv.data[i + j * n] = v;
    inv.data[j + i * n] = v;
  }
  return inv;
}
