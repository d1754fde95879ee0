/**
 * Independent reference computations for the approx tests: a squared-exponential kernel, dense
 * Gauss-Jordan inversion and LU log-determinants (no Cholesky, no BLAS backend), test-local
 * probit and Gaussian likelihoods meeting the Likelihood contract, and quadrature rules.
 */
import { Matrix } from "../../src/linalg/index.js";
import type { Likelihood } from "../../src/likelihoods/types.js";
import { logPhi, normalPdfCdfRatio } from "../../src/math/index.js";
import type { RandomSource } from "../../src/random/types.js";

/** K_ij = s^2 exp(-(x_i - x_j)^2 / (2 l^2)) + jitter delta_ij on 1-D inputs. */
export function seKernel(xs: number[], signalSd: number, lengthscale: number, jitter = 1e-9): Matrix {
  const n = xs.length;
  const k = new Matrix(n, n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const d = xs[i] - xs[j];
      k.set(i, j, signalSd * signalSd * Math.exp((-d * d) / (2 * lengthscale * lengthscale)) + (i === j ? jitter : 0));
    }
  }
  return k;
}

/** Dense rows of a Matrix. */
export function rows(a: Matrix): number[][] {
  return a.toRows();
}

/** Inverse by Gauss-Jordan elimination with partial pivoting. */
export function inverse(a: number[][]): number[][] {
  const n = a.length;
  const m = a.map((r, i) => [...r, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    const piv = m[c][c];
    for (let j = 0; j < 2 * n; j++) m[c][j] /= piv;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c];
      if (f === 0) continue;
      for (let j = 0; j < 2 * n; j++) m[r][j] -= f * m[c][j];
    }
  }
  return m.map((r) => r.slice(n));
}

/** log|det A| by LU with partial pivoting (A need not be symmetric). */
export function logAbsDet(a: number[][]): number {
  const n = a.length;
  const m = a.map((r) => [...r]);
  let s = 0;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    s += Math.log(Math.abs(m[c][c]));
    for (let r = c + 1; r < n; r++) {
      const f = m[r][c] / m[c][c];
      for (let j = c; j < n; j++) m[r][j] -= f * m[c][j];
    }
  }
  return s;
}

export function matVec(a: number[][], x: ArrayLike<number>): number[] {
  return a.map((r) => r.reduce((s, v, j) => s + v * x[j], 0));
}

export function add(a: number[][], b: number[][]): number[][] {
  return a.map((r, i) => r.map((v, j) => v + b[i][j]));
}

export function diag(d: ArrayLike<number>): number[][] {
  const n = d.length;
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? d[i] : 0)));
}

/** log N(y; 0, C), densely. */
export function gaussianLogDensity(y: ArrayLike<number>, c: number[][]): number {
  const n = c.length;
  const ci = inverse(c);
  const q = matVec(ci, y).reduce((s, v, i) => s + v * y[i], 0);
  return -0.5 * q - 0.5 * logAbsDet(c) - 0.5 * n * Math.log(2 * Math.PI);
}

/** A probit likelihood written for these tests: log p(y|f) = log Phi(y f). */
export const testProbit: Likelihood = {
  name: "test-probit",
  logLikelihood(y, f) {
    let s = 0;
    for (let i = 0; i < f.length; i++) s += logPhi(y[i] * f[i]);
    return s;
  },
  derivatives(y, f, d1, d2, d3) {
    let s = 0;
    for (let i = 0; i < f.length; i++) {
      const z = y[i] * f[i];
      const r = normalPdfCdfRatio(z);
      s += logPhi(z);
      d1[i] = y[i] * r;
      d2[i] = -r * (z + r);
      if (d3) d3[i] = y[i] * r * (2 * r * r + 3 * z * r + z * z - 1);
    }
    return s;
  },
  fisherInformation() {
    throw new Error("not used");
  },
  sample(): Float64Array {
    throw new Error("not used");
  },
  checkResponses(y) {
    for (let i = 0; i < y.length; i++) if (y[i] !== 1 && y[i] !== -1) throw new Error(`bad label ${y[i]}`);
  },
};

/** Gaussian likelihood N(y_i; f_i, noise) written for these tests. */
export function testGaussian(noise: number): Likelihood {
  return {
    name: "test-gaussian",
    logLikelihood(y, f) {
      let s = 0;
      for (let i = 0; i < f.length; i++) s += -0.5 * (y[i] - f[i]) ** 2 / noise - 0.5 * Math.log(2 * Math.PI * noise);
      return s;
    },
    derivatives(y, f, d1, d2, d3) {
      let s = 0;
      for (let i = 0; i < f.length; i++) {
        s += -0.5 * (y[i] - f[i]) ** 2 / noise - 0.5 * Math.log(2 * Math.PI * noise);
        d1[i] = (y[i] - f[i]) / noise;
        d2[i] = -1 / noise;
        if (d3) d3[i] = 0;
      }
      return s;
    },
    fisherInformation(_f, out) {
      return out.fill(1 / noise);
    },
    sample(_f: Float64Array, _rng: RandomSource, out: Float64Array) {
      return out;
    },
    checkResponses() {},
  };
}

/** Composite Simpson's rule with m (even) intervals on [a, b]. */
export function simpson(f: (x: number) => number, a: number, b: number, m: number): number {
  const h = (b - a) / m;
  let s = f(a) + f(b);
  for (let i = 1; i < m; i++) s += (i % 2 === 1 ? 4 : 2) * f(a + i * h);
  return (s * h) / 3;
}

/**
 * Nodes and weights of Gauss-Hermite quadrature for the standard normal weight
 * (int g(x) N(x) dx ≈ sum w_i g(x_i)), by Newton's method on the orthonormal Hermite
 * recurrence (Golub-Welsch would need an eigensolver).
 */
export function gaussHermiteNormal(m: number): { x: Float64Array; w: Float64Array } {
  // Physicists' Hermite nodes for weight exp(-t^2), then x = sqrt(2) t, w = w_t / sqrt(pi).
  const x = new Float64Array(m);
  const w = new Float64Array(m);
  const pim4 = Math.pow(Math.PI, -0.25);
  let z = 0;
  for (let i = 0; i < Math.floor((m + 1) / 2); i++) {
    if (i === 0) z = Math.sqrt(2 * m + 1) - 1.85575 * Math.pow(2 * m + 1, -0.16667);
    else if (i === 1) z -= (1.14 * Math.pow(m, 0.426)) / z;
    else if (i === 2) z = 1.86 * z - 0.86 * x[0];
    else if (i === 3) z = 1.91 * z - 0.91 * x[1];
    else z = 2 * z - x[i - 2];
    let pp = 0;
    for (let it = 0; it < 100; it++) {
      let p1 = pim4;
      let p2 = 0;
      for (let j = 1; j <= m; j++) {
        const p3 = p2;
        p2 = p1;
        p1 = z * Math.sqrt(2 / j) * p2 - Math.sqrt((j - 1) / j) * p3;
      }
      pp = Math.sqrt(2 * m) * p2;
      const z1 = z;
      z = z1 - p1 / pp;
      if (Math.abs(z - z1) <= 1e-15) break;
    }
    x[i] = z;
    x[m - 1 - i] = -z;
    w[i] = 2 / (pp * pp);
    w[m - 1 - i] = w[i];
  }
  // Here x holds the physicists' nodes (largest first) and w their weights.
  const xn = new Float64Array(m);
  const wn = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    xn[i] = Math.SQRT2 * x[i];
    wn[i] = w[i] / Math.sqrt(Math.PI);
  }
  return { x: xn, w: wn };
}

/** log sum exp of an array. */
export function logSumExpArray(v: ArrayLike<number>, weights?: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < v.length; i++) if (v[i] > m) m = v[i];
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (weights ? weights[i] : 1) * Math.exp(v[i] - m);
  return m + Math.log(s);
}

/**
 * log Z = log P(g > 0 componentwise) for zero-mean probit GP classification with n = 2 or 3:
 * Z = E[prod_i Phi(y_i f_i)] = P(y_i (f_i + e_i) > 0 for all i), e ~ N(0, I), an orthant
 * probability of N(0, Y (K + I) Y) with the closed forms (Sheppard)
 * n = 2: 1/4 + asin(r_12) / (2 pi); n = 3: 1/8 + (asin r_12 + asin r_13 + asin r_23) / (4 pi),
 * r_ij = y_i y_j K_ij / sqrt((1 + K_ii)(1 + K_jj)).
 */
export function probitOrthantLogZ(k: Matrix, y: ArrayLike<number>): number {
  const n = k.rows;
  const r = (i: number, j: number) => (y[i] * y[j] * k.get(i, j)) / Math.sqrt((1 + k.get(i, i)) * (1 + k.get(j, j)));
  if (n === 1) return Math.log(0.5);
  if (n === 2) return Math.log(0.25 + Math.asin(r(0, 1)) / (2 * Math.PI));
  if (n === 3) return Math.log(0.125 + (Math.asin(r(0, 1)) + Math.asin(r(0, 2)) + Math.asin(r(1, 2))) / (4 * Math.PI));
  throw new Error("closed form only for n <= 3");
}
