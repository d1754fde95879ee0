import { test } from "node:test";
import assert from "node:assert/strict";
import { seKernel } from "../../src/gp/index.js";
import { choleskyDerivative } from "../../src/linalg/choleskyDerivative.js";
import { cholesky, DimensionError, Matrix, matmul } from "../../src/linalg/index.js";
import { Rng } from "../../src/random/rng.js";

/** A(theta) = K_theta(X, X) + 0.1 I for an ARD squared-exponential kernel on random inputs. */
function kernelMatrix(theta: number[], x: Matrix): Matrix {
  const d = x.cols;
  const K = seKernel({ logLengthscale: theta.slice(0, d), logSignalSd: theta[d] }).matrix(x);
  for (let i = 0; i < x.rows; i++) K.data[i + i * x.rows] += 0.1;
  return K;
}

function inputs(n: number, d: number, seed: number): Matrix {
  const rng = new Rng(seed);
  return new Matrix(n, d, Float64Array.from({ length: n * d }, () => rng.uniform() * 3));
}

function maxAbsDiff(a: Matrix, b: Matrix): number {
  let m = 0;
  for (let i = 0; i < a.data.length; i++) m = Math.max(m, Math.abs(a.data[i] - b.data[i]));
  return m;
}

/** (chol(A(theta + h e_k)) - chol(A(theta - h e_k))) / 2h. */
function finiteDifference(theta: number[], k: number, x: Matrix, h = 1e-6): Matrix {
  const up = theta.slice(); up[k] += h;
  const down = theta.slice(); down[k] -= h;
  const a = cholesky(kernelMatrix(up, x)).factor;
  const b = cholesky(kernelMatrix(down, x)).factor;
  return new Matrix(x.rows, x.rows, a.data.map((v, i) => (v - b.data[i]) / (2 * h)));
}

// n = 60 exceeds the size below which the high-level API stays in TypeScript, so both paths run.
for (const n of [5, 60]) {
  test(`choleskyDerivative (n = ${n}): dL against central finite differences of the factor, for each hyperparameter`, () => {
    const x = inputs(n, 2, n);
    const theta = [0.2, -0.3, 0.4];
    const A = kernelMatrix(theta, x);
    const chol = cholesky(A);
    const kernel = seKernel({ logLengthscale: theta.slice(0, 2), logSignalSd: theta[2] });
    for (let k = 0; k < 3; k++) {
      const dL = choleskyDerivative(chol, kernel.derivative(x, k));
      const fd = finiteDifference(theta, k, x);
      const scale = Math.max(...fd.data.map(Math.abs));
      assert.ok(maxAbsDiff(dL, fd) < 1e-7 * scale, `theta_${k}: max |dL - fd| ${maxAbsDiff(dL, fd)} (scale ${scale})`);
      for (let j = 0; j < n; j++) for (let i = 0; i < j; i++) assert.equal(dL.get(i, j), 0, "dL is lower triangular");
      // dL L' + L dL' = dA.
      const back = matmul(dL, chol.factor, false, true);
      const sym = new Matrix(n, n, back.data.map((v, i) => v + back.data[(i % n) * n + Math.floor(i / n)]));
      assert.ok(maxAbsDiff(sym, kernel.derivative(x, k)) < 1e-10 * scale);
    }
  });
}

test("choleskyDerivative (negative control): without halving the diagonal of Phi the finite-difference check fails", () => {
  const n = 8;
  const x = inputs(n, 2, 3);
  const theta = [0.2, -0.3, 0.4];
  const chol = cholesky(kernelMatrix(theta, x));
  const dA = seKernel({ logLengthscale: theta.slice(0, 2), logSignalSd: theta[2] }).derivative(x, 0);
  // The broken variant: L lower(L^-1 dA L^-T), diagonal kept whole.
  const xm = chol.solveLowerMatrixInPlace(dA.clone());
  const t = chol.solveLowerMatrixInPlace(new Matrix(n, n, Float64Array.from({ length: n * n }, (_, i) => xm.data[(i % n) * n + Math.floor(i / n)])));
  for (let j = 0; j < n; j++) for (let i = 0; i < j; i++) t.data[i + j * n] = 0;
  const broken = matmul(chol.factor, t);
  const fd = finiteDifference(theta, 0, x);
  const scale = Math.max(...fd.data.map(Math.abs));
  assert.ok(maxAbsDiff(broken, fd) > 1e-3 * scale, `broken variant off by only ${maxAbsDiff(broken, fd)}`);
});

test("choleskyDerivative: a dA of the wrong size is a DimensionError", () => {
  const chol = cholesky(kernelMatrix([0, 0, 0], inputs(4, 2, 1)));
  assert.throws(() => choleskyDerivative(chol, new Matrix(3, 3)), DimensionError);
});
