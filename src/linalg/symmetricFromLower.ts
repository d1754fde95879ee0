/**
 * The full symmetric matrix of one whose lower triangle alone is meaningful (a covariance as the
 * latent targets keep it: "symmetric; its lower triangle is read"), for code that reads whole
 * columns or the whole matrix, such as an eigendecomposition.
 */
import { DimensionError } from "./errors.js";
import { Matrix } from "./matrix.js";

export function symmetricFromLower(k: Matrix): Matrix {
  const n = k.rows;
  if (k.cols !== n) throw new DimensionError(`symmetricFromLower: the matrix must be square, got ${k.rows} x ${k.cols}`);
  const out = new Matrix(n, n);
  for (let j = 0; j < n; j++) {
    for (let i = j; i < n; i++) {
      const v = k.data[i + j * n];
      out.data[i + j * n] = v;
      out.data[j + i * n] = v;
    }
  }
  return out;
}
