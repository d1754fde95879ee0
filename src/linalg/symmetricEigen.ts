/**
 * Eigendecomposition A = Q diag(d) Q' of a small dense symmetric matrix by the cyclic Jacobi
 * method (Golub & Van Loan, Matrix Computations, 4th ed., Algorithm 8.5.3, with the stable
 * rotation of Algorithm 8.5.1). Each sweep costs O(n^3); sweeps stop once the off-diagonal mass
 * is below 1e-15 of the matrix's Frobenius norm, which takes a handful of sweeps. Jacobi is
 * accurate to high relative precision for positive-definite matrices, which is what the grid
 * covariances of the Cox process (models/coxProcess/) are; it is meant for the factors of a
 * Kronecker product (n up to a few hundred), not for large matrices.
 */
import { DimensionError } from "./errors.js";
import { Matrix } from "./matrix.js";

export interface SymmetricEigen {
  /** Eigenvalues, ascending. */
  readonly values: Float64Array;
  /** Orthogonal eigenvectors, column k for values[k] (column-major n x n). */
  readonly vectors: Matrix;
}

const MAX_SWEEPS = 60;

export function symmetricEigen(a: Matrix): SymmetricEigen {
  const n = a.rows;
  if (a.cols !== n) throw new DimensionError(`symmetricEigen: the matrix must be square, got ${a.rows} x ${a.cols}`);
  const w = Float64Array.from(a.data);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i + i * n] = 1;
  let frob = 0;
  for (let k = 0; k < w.length; k++) frob += w[k] * w[k];
  const tol = 1e-30 * frob;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let off = 0;
    for (let j = 0; j < n; j++) for (let i = 0; i < j; i++) off += 2 * w[i + j * n] * w[i + j * n];
    if (off <= tol) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = w[p + q * n];
        if (apq === 0) continue;
        const app = w[p + p * n];
        const aqq = w[q + q * n];
        // Algorithm 8.5.1: t = tan(theta) as the smaller root of t^2 + 2 tau t - 1 = 0.
        const tau = (aqq - app) / (2 * apq);
        const t = (tau >= 0 ? 1 : -1) / (Math.abs(tau) + Math.sqrt(1 + tau * tau));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = t * c;
        // A <- J' A J with J the rotation in the (p, q) plane: columns, then rows.
        for (let k = 0; k < n; k++) {
          const akp = w[k + p * n];
          const akq = w[k + q * n];
          w[k + p * n] = c * akp - s * akq;
          w[k + q * n] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = w[p + k * n];
          const aqk = w[q + k * n];
          w[p + k * n] = c * apk - s * aqk;
          w[q + k * n] = s * apk + c * aqk;
        }
        w[p + q * n] = 0;
        w[q + p * n] = 0;
        for (let k = 0; k < n; k++) {
          const vkp = v[k + p * n];
          const vkq = v[k + q * n];
          v[k + p * n] = c * vkp - s * vkq;
          v[k + q * n] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => w[i + i * n] - w[j + j * n]);
  const values = new Float64Array(n);
  const vectors = new Matrix(n, n);
  order.forEach((src, k) => {
    values[k] = w[src + src * n];
    vectors.data.set(v.subarray(src * n, src * n + n), k * n);
  });
  return { values, vectors };
}
