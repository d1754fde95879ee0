/**
 * The exponential covariance of the log-Gaussian Cox process on an n x n grid (Girolami &
 * Calderhead 2011, Section 9; Christensen et al. 2005): cells (i, j), i the row and j the column,
 * 0-based, stored at index i + n j (column-major, as vec(X)), with
 *
 *   Sigma_{(i,j),(i',j')} = sigma^2 exp(-delta / (n beta)).
 *
 * Two distances delta:
 * - "euclidean": sqrt((i-i')^2 + (j-j')^2), as the paper writes it (eq. 31), the default model.
 *   Sigma is then block-Toeplitz with Toeplitz blocks, but not a Kronecker product; the samplers
 *   reach it through its circulant embedding (circulantGrid.ts, O(N log N) per product); here it
 *   is built densely, for tests and Christensen's transform.
 * - "separable": |i-i'| + |j-j'|, so that Sigma = sigma^2 (E kron E) with E_ab = exp(-|a-b| / (n beta))
 *   the n x n correlation of one axis. This is the form whose algebra costs O(N^1.5) per
 *   matrix-vector product (kroneckerGrid.ts), behind --covariance separable, and the one the
 *   hyperparameter model (hyperparameters.ts) is written for.
 */
import { Matrix } from "../../linalg/matrix.js";

export const GRID_DISTANCES = ["separable", "euclidean"] as const;
export type GridDistance = (typeof GRID_DISTANCES)[number];

/** E_ab = exp(-|a-b| / lengthscale), a, b = 0..n-1: the correlation along one axis. */
export function exponentialCorrelation1d(n: number, lengthscale: number): Matrix {
  const e = new Matrix(n, n);
  for (let b = 0; b < n; b++) for (let a = 0; a < n; a++) e.data[a + b * n] = Math.exp(-Math.abs(a - b) / lengthscale);
  return e;
}

/** dE/dbeta for E_ab = exp(-|a-b| / (n beta)): E_ab |a-b| / (n beta^2). */
export function exponentialCorrelation1dDerivative(n: number, beta: number): Matrix {
  const d = new Matrix(n, n);
  const l = n * beta;
  for (let b = 0; b < n; b++) for (let a = 0; a < n; a++) {
    const r = Math.abs(a - b);
    d.data[a + b * n] = (Math.exp(-r / l) * r) / (n * beta * beta);
  }
  return d;
}

/** The N x N covariance (N = n^2) written out, for small grids and tests. */
export function denseGridCovariance(n: number, sigma2: number, beta: number, distance: GridDistance): Matrix {
  const big = n * n;
  const s = new Matrix(big, big);
  const l = n * beta;
  for (let q = 0; q < big; q++) {
    const iq = q % n;
    const jq = (q - iq) / n;
    for (let p = 0; p < big; p++) {
      const ip = p % n;
      const jp = (p - ip) / n;
      const di = ip - iq;
      const dj = jp - jq;
      const delta = distance === "euclidean" ? Math.sqrt(di * di + dj * dj) : Math.abs(di) + Math.abs(dj);
      s.data[p + q * big] = sigma2 * Math.exp(-delta / l);
    }
  }
  return s;
}

/** Stops with a RangeError unless the side is a positive integer and sigma^2, beta finite and positive. */
export function checkGridSettings(side: number, sigma2: number, beta: number): void {
  if (!Number.isInteger(side) || side < 1) throw new RangeError(`grid side must be a positive integer, got ${side}`);
  if (!(sigma2 > 0) || !Number.isFinite(sigma2)) throw new RangeError(`sigma^2 must be finite and positive, got ${sigma2}`);
  if (!(beta > 0) || !Number.isFinite(beta)) throw new RangeError(`beta must be finite and positive, got ${beta}`);
}
