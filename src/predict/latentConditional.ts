/**
 * The latent values at test inputs given the training latent values (comparison paper, eq. 2):
 *
 *   f_* | f, theta ~ N(K_*' K^-1 f, k_** - K_*' K^-1 K_*)   (point by point, the diagonal only)
 *
 * and given a Gaussian approximation q(f) = N(mu, Sigma) instead of f (EP, Laplace; Rasmussen &
 * Williams eq. 3.21-3.24 in the form that needs no site precisions):
 *
 *   f_* | q, theta ~ N(K_*' K^-1 mu, k_** - K_*' K^-1 K_* + K_*' K^-1 Sigma K^-1 K_*).
 *
 * For draws at one theta, A = K^-1 K_* (n x m) is formed once; each draw then costs O(n m).
 */
import type { CovarianceFunction } from "../gp/types.js";
import { cholesky, type Cholesky } from "../linalg/cholesky.js";
import { DimensionError } from "../linalg/errors.js";
import { Matrix } from "../linalg/matrix.js";
import { matmul } from "../linalg/products.js";

/** Normal marginals of f_* at m test inputs. */
export interface LatentMarginals {
  mean: Float64Array;
  variance: Float64Array;
}

/** What predictions at one theta share: A = K^-1 K_* and the conditional variances. */
export interface ConditionalAtTheta {
  /** m test inputs. */
  readonly size: number;
  /** K_*' K^-1 f for a training latent vector f. */
  mean(f: ArrayLike<number>, out?: Float64Array): Float64Array;
  /** k_** - K_*' K^-1 K_* (clamped at 0 against round-off). */
  readonly variance: Float64Array;
  /** The marginals of f_* under q(f) = N(mu, Sigma). */
  fromGaussian(mu: ArrayLike<number>, sigma: Matrix): LatentMarginals;
}

/**
 * The conditional of f_* given f at one theta. `jitter` is added to K's diagonal as in the model
 * the draws came from (the test points' own variance k_** gets it too, as a new point of the same
 * model would).
 */
export function conditionalAtTheta(kernel: CovarianceFunction, x: Matrix, xStar: Matrix, jitter = 0, chol?: Cholesky): ConditionalAtTheta {
  const n = x.rows;
  const m = xStar.rows;
  if (xStar.cols !== x.cols) throw new DimensionError(`test inputs have ${xStar.cols} columns, training inputs ${x.cols}`);
  let factor = chol;
  if (!factor) {
    const K = kernel.matrix(x);
    for (let i = 0; i < n; i++) K.data[i + i * n] += jitter;
    factor = cholesky(K);
  }
  const kStar = kernel.cross(x, xStar);
  const A = factor.solveMatrix(kStar);
  const variance = kernel.diagonal(xStar);
  for (let j = 0; j < m; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += kStar.data[i + j * n]! * A.data[i + j * n]!;
    variance[j] = Math.max(variance[j]! + jitter - s, 0);
  }
  const mean = (f: ArrayLike<number>, out = new Float64Array(m)) => {
    if (f.length !== n) throw new DimensionError(`f has ${f.length} entries, the training inputs ${n} rows`);
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += A.data[i + j * n]! * f[i]!;
      out[j] = s;
    }
    return out;
  };
  return {
    size: m,
    variance,
    mean,
    fromGaussian(mu, sigma) {
      if (sigma.rows !== n || sigma.cols !== n) throw new DimensionError(`Sigma is ${sigma.rows} x ${sigma.cols}, expected ${n} x ${n}`);
      const sa = matmul(sigma, A);
      const v = new Float64Array(m);
      for (let j = 0; j < m; j++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += A.data[i + j * n]! * sa.data[i + j * n]!;
        v[j] = variance[j]! + s;
      }
      return { mean: mean(mu), variance: v };
    },
  };
}
