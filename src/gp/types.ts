import type { Matrix } from "../linalg/matrix.js";

/**
 * A covariance function k(a, b) over inputs in R^d, with its parameters on the log scale
 * (theta), as the papers sample them. Inputs are the rows of an n x d column-major Matrix.
 */
export interface CovarianceFunction {
  readonly name: string;
  /** One name per entry of `logParameters`, e.g. "logLengthscale", "logSignalSd". */
  readonly parameterNames: readonly string[];
  /** theta: the parameters on the log scale (a copy). */
  readonly logParameters: Float64Array;
  /** The same covariance function with other log-scale parameters. */
  withLogParameters(theta: ArrayLike<number>): CovarianceFunction;
  /** K(X, X), n x n, both triangles filled. */
  matrix(x: Matrix, out?: Matrix): Matrix;
  /** K(X, X*), n x m: entry (i, j) is k(X_i, X*_j). */
  cross(x: Matrix, xStar: Matrix, out?: Matrix): Matrix;
  /** diag K(X, X) (k(a, a) for each row a). */
  diagonal(x: Matrix, out?: Float64Array): Float64Array;
  /**
   * dK(X, X)/dtheta_k, n x n. `kMatrix`, if given, must be K(X, X) at these parameters (it
   * saves recomputing the exponentials).
   */
  derivative(x: Matrix, k: number, out?: Matrix, kMatrix?: Matrix): Matrix;
}

/** A kernel parameter that is missing, doubly given, not finite, or not positive. */
export class KernelParameterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KernelParameterError";
  }
}
