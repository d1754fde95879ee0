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
 * factor of Sigma^-1 + diag(.), which has no Kronecker structure. The Jacobian of the map is
 * constant, so the target in Gamma is L(x(Gamma)) up to a constant.
 */
import { Cholesky, cholesky } from "../../linalg/cholesky.js";
import { Matrix } from "../../linalg/matrix.js";
import type { Target } from "../../targets/types.js";
import type { CoxProcessModel } from "./coxProcess.js";

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

export function christensenTarget(model: CoxProcessModel, xHat: Float64Array): ChristensenTarget {
  const n = model.dim;
  const a = denseGridPrecision(model);
  for (let k = 0; k < n; k++) a.data[k + k * n] += model.cellArea * Math.exp(xHat[k]);
  const factor = cholesky(a);
  const mu = model.hyper.mu;
  const x = new Float64Array(n);
  const toField = (gamma: Float64Array, out: Float64Array) => {
    out.set(gamma);
    factor.solveUpperInPlace(out);
    for (let k = 0; k < n; k++) out[k] += mu;
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
    logDensity(gamma) {
      toField(gamma, x);
      return model.logDensity(x);
    },
    logDensityAndGradient(gamma, grad) {
      toField(gamma, x);
      const lp = model.logDensityAndGradient(x, grad);
      factor.solveLowerInPlace(grad);
      return lp;
    },
  };
}
