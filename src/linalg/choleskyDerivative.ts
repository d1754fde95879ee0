/**
 * The derivative of a Cholesky factor. For A(theta) = L L' (L lower) and a symmetric
 * dA = dA/dtheta, differentiating A = L L' gives L^-1 dA L^-T = L^-1 dL + (L^-1 dL)', where
 * L^-1 dL is lower triangular; so
 *
 *   dL = L Phi(L^-1 dA L^-T),   Phi(X) = the lower triangle of X with its diagonal halved,
 *
 * the result of Smith (1995) in blocked form (the comparison paper's AA scheme, f = L(theta) nu,
 * differentiates through it). Cost: two triangular solves with n right-hand sides and one
 * n x n product (about 4 n^3 flops).
 */
import { backendFor, type Cholesky } from "./cholesky.js";
import { opCounts } from "./counters.js";
import { DimensionError } from "./errors.js";
import { Matrix } from "./matrix.js";

/** dL for the factor `chol` of A, given dA (symmetric, both triangles read). */
export function choleskyDerivative(chol: Cholesky, dA: Matrix, out?: Matrix): Matrix {
  const n = chol.n;
  if (dA.rows !== n || dA.cols !== n) throw new DimensionError(`choleskyDerivative: dA is ${dA.rows} x ${dA.cols}, the factor is ${n} x ${n}`);
  const be = backendFor(n);
  const L = chol.factor.data;
  const x = dA.clone();
  // X <- L^-1 dA L^-T.
  be.trsm("L", "L", "N", "N", n, n, 1, L, n, x.data, n);
  be.trsm("R", "L", "T", "N", n, n, 1, L, n, x.data, n);
  opCounts.triangularSolveMatrix += 2;
  opCounts.flops += 2 * n * n * n;
  // Phi(X): keep the strict lower triangle, halve the diagonal, zero the rest.
  const d = x.data;
  for (let j = 0; j < n; j++) {
    d.fill(0, j * n, j * n + j);
    d[j + j * n] *= 0.5;
  }
  const result = out ?? new Matrix(n, n);
  if (result.rows !== n || result.cols !== n) throw new DimensionError(`choleskyDerivative: out is ${result.rows} x ${result.cols}, expected ${n} x ${n}`);
  // dL = L Phi; both factors are lower triangular, and so is the product.
  be.gemm("N", "N", n, n, n, 1, L, n, d, n, 0, result.data, n);
  opCounts.matrixProduct++;
  opCounts.flops += 2 * n * n * n;
  return result;
}
