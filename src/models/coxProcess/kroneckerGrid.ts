/**
 * The separable grid covariance Sigma = sigma^2 (E kron E) through the eigendecomposition of the
 * n x n factor, E = Q diag(e) Q' (linalg/symmetricEigen.ts): then Sigma = (Q kron Q) diag(d) (Q kron Q)'
 * with d_{a + n b} = sigma^2 e_a e_b, and (Q kron Q) vec(Z) = vec(Q Z Q'). Every product with
 * Sigma, Sigma^-1, Sigma^1/2 or any function of Sigma is two rotations of two n x n x n matrix
 * products each: O(n^3) = O(N^1.5) for N = n^2 cells, instead of O(N^2) for a dense product and
 * O(N^3) for a dense factorisation. The rotations reuse preallocated buffers (one operator per chain).
 */
import { backendFor } from "../../linalg/cholesky.js";
import { symmetricEigen } from "../../linalg/symmetricEigen.js";
import { checkGridSettings, exponentialCorrelation1d } from "./gridCovariance.js";

export class KroneckerGrid {
  /** Grid side n; N = n^2 cells. */
  readonly side: number;
  readonly size: number;
  readonly sigma2: number;
  readonly beta: number;
  /** Eigenvectors Q of E (column-major n x n). */
  readonly q: Float64Array;
  /** Eigenvalues e of E. */
  readonly e: Float64Array;
  /** Eigenvalues of Sigma, d_{a + n b} = sigma^2 e_a e_b. */
  readonly d: Float64Array;
  private readonly tmp: Float64Array;

  constructor(side: number, sigma2: number, beta: number) {
    checkGridSettings(side, sigma2, beta);
    this.side = side;
    this.size = side * side;
    this.sigma2 = sigma2;
    this.beta = beta;
    const eig = symmetricEigen(exponentialCorrelation1d(side, side * beta));
    this.q = eig.vectors.data;
    this.e = eig.values;
    for (let a = 0; a < side; a++) {
      // E is positive definite (the exponential correlation is, on any set of distinct points).
      if (!(this.e[a] > 0)) throw new RangeError(`the grid correlation has eigenvalue ${this.e[a]}: beta ${beta} is too large for a ${side} x ${side} grid in double precision`);
    }
    this.d = new Float64Array(this.size);
    for (let b = 0; b < side; b++) for (let a = 0; a < side; a++) this.d[a + side * b] = sigma2 * this.e[a] * this.e[b];
    this.tmp = new Float64Array(this.size);
  }

  /** out <- (Q kron Q)' x = vec(Q' X Q): x in the eigenbasis (out must not alias x). */
  rotateIn(x: Float64Array, out: Float64Array): void {
    const n = this.side;
    const be = backendFor(n);
    be.gemm("T", "N", n, n, n, 1, this.q, n, x, n, 0, this.tmp, n);
    be.gemm("N", "N", n, n, n, 1, this.tmp, n, this.q, n, 0, out, n);
  }

  /** out <- (Q kron Q) z = vec(Q Z Q'): back from the eigenbasis (out must not alias z). */
  rotateOut(z: Float64Array, out: Float64Array): void {
    const n = this.side;
    const be = backendFor(n);
    be.gemm("N", "N", n, n, n, 1, this.q, n, z, n, 0, this.tmp, n);
    be.gemm("N", "T", n, n, n, 1, this.tmp, n, this.q, n, 0, out, n);
  }

  /** out <- f(Sigma) x for f given on the eigenvalues as a vector of weights w_k = f(d_k); `work` is scratch. */
  applySpectral(w: Float64Array, x: Float64Array, out: Float64Array, work: Float64Array): void {
    this.rotateIn(x, work);
    for (let k = 0; k < this.size; k++) work[k] *= w[k];
    this.rotateOut(work, out);
  }

  /** log|Sigma| = sum_k log d_k. */
  logDet(): number {
    let s = 0;
    for (let k = 0; k < this.size; k++) s += Math.log(this.d[k]);
    return s;
  }
}
