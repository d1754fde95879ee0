/**
 * Small targets with closed-form or quadrature answers, and analytic local geometries for them,
 * for the sampler tests. Dense linear algebra here is hand-written for tiny dimensions.
 */
import { Matrix } from "../../src/linalg/matrix.js";
import { NotPositiveDefiniteError } from "../../src/linalg/errors.js";
import type { RandomSource } from "../../src/random/types.js";
import type { InverseMetric, LocalGeometry, Target } from "../../src/targets/types.js";

// ---------- tiny dense helpers (row-major number[][] in, Float64Array column-major out) ----------

/** Lower Cholesky factor of a small SPD matrix a (n x n, a[i + j n]); throws NotPositiveDefiniteError. */
export function cholDense(a: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = a[j + j * n];
    for (let k = 0; k < j; k++) d -= l[j + k * n] * l[j + k * n];
    if (!(d > 0)) throw new NotPositiveDefiniteError(j, d, "test metric");
    const ljj = Math.sqrt(d);
    l[j + j * n] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[i + j * n];
      for (let k = 0; k < j; k++) s -= l[i + k * n] * l[j + k * n];
      l[i + j * n] = s / ljj;
    }
  }
  return l;
}

/** out <- (L L')^-1 b. */
export function cholSolve(l: Float64Array, n: number, b: ArrayLike<number>, out: Float64Array): Float64Array {
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i + k * n] * out[k];
    out[i] = s / l[i + i * n];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = out[i];
    for (let k = i + 1; k < n; k++) s -= l[k + i * n] * out[k];
    out[i] = s / l[i + i * n];
  }
  return out;
}

export function cholInverse(l: Float64Array, n: number): Float64Array {
  const inv = new Float64Array(n * n);
  const e = new Float64Array(n);
  const col = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    e.fill(0);
    e[j] = 1;
    cholSolve(l, n, e, col);
    for (let i = 0; i < n; i++) inv[i + j * n] = col[i];
  }
  return inv;
}

export function toColumnMajor(rows: number[][]): Float64Array {
  const n = rows.length;
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) a[i + j * n] = rows[i][j];
  return a;
}

// ---------- Gaussian target ----------

export interface GaussianTarget extends Target {
  readonly mean: Float64Array;
  /** Covariance, column-major. */
  readonly cov: Float64Array;
  /** Precision, column-major. */
  readonly precision: Float64Array;
  logDensityAndGradient(x: Float64Array, grad: Float64Array): number;
}

/**
 * N(mean, cov) with log density and gradient. With `metric`, also the constant geometry
 * G = cov^-1 (RMHMC reduces to HMC with M = precision); "precision-wrong-momentum" is a negative
 * control whose momentum draws come from N(0, 4G) instead of N(0, G).
 */
export function gaussianTarget(mean: number[], covRows: number[][], metric?: "precision" | "precision-wrong-momentum"): GaussianTarget {
  const n = mean.length;
  const mu = Float64Array.from(mean);
  const cov = toColumnMajor(covRows);
  const lCov = cholDense(cov, n);
  const precision = cholInverse(lCov, n);
  const lPrec = cholDense(precision, n);
  let logDetPrec = 0;
  for (let i = 0; i < n; i++) logDetPrec += 2 * Math.log(lPrec[i + i * n]);
  const diff = new Float64Array(n);
  const logDensityAndGradient = (x: Float64Array, grad: Float64Array): number => {
    for (let i = 0; i < n; i++) diff[i] = x[i] - mu[i];
    let q = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += precision[i + j * n] * diff[j];
      grad[i] = -s;
      q += diff[i] * s;
    }
    return -0.5 * q;
  };
  const target: GaussianTarget = {
    dim: n,
    mean: mu,
    cov,
    precision,
    logDensity: (x) => logDensityAndGradient(x, new Float64Array(n)),
    logDensityAndGradient,
  };
  if (metric) {
    const momentumScale = metric === "precision-wrong-momentum" ? 2 : 1;
    const applyInverse = (p: Float64Array, out: Float64Array) => {
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += cov[i + j * n] * p[j];
        out[i] = s;
      }
    };
    (target as { geometry?: Target["geometry"] }).geometry = (x: Float64Array): LocalGeometry => {
      const gradient = new Float64Array(n);
      const logDensity = logDensityAndGradient(x, gradient);
      return {
        position: x,
        logDensity,
        gradient,
        logDetMetric: logDetPrec,
        applyInverse,
        sampleMomentum(rng: RandomSource, out: Float64Array) {
          const z = new Float64Array(n);
          for (let i = 0; i < n; i++) z[i] = rng.normal();
          for (let i = 0; i < n; i++) {
            let s = 0;
            for (let k = 0; k <= i; k++) s += lPrec[i + k * n] * z[k];
            out[i] = momentumScale * s;
          }
        },
        hamiltonianGradient(_p: Float64Array, out: Float64Array) {
          // dG/dx = 0: dH/dx = -dL/dx
          for (let i = 0; i < n; i++) out[i] = -gradient[i];
        },
        inverseMetricMatrix: () => new Matrix(n, n, cov.slice()),
      };
    };
    (target as { inverseMetricAt?: Target["inverseMetricAt"] }).inverseMetricAt = () => ({ applyInverse });
  }
  return target;
}

// ---------- a diagonal-plus-constant metric G(x) = diag(d(x)) + C over any smooth target ----------

export interface MetricOptions {
  /** Negative control: drop 1/2 log|G| from H (and its trace term from dH/dx), a consistent Hamiltonian of the wrong density. */
  dropLogDet?: boolean;
  /** Negative control: the wrong sign in dG/dx inside dH/dx. */
  flipDg?: boolean;
}

export interface DiagonalDerivatives {
  /** d_i(x) > 0 into d, and dd_i/dx_k into jac[i + k n]. */
  (x: Float64Array, d: Float64Array, jac: Float64Array): void;
}

export interface GeometryTarget extends Target {
  geometry(x: Float64Array): LocalGeometry;
  inverseMetricAt(x: Float64Array): InverseMetric;
  /** H(x, p) computed directly (for finite differences). */
  hamiltonian(x: Float64Array, p: Float64Array): number;
  /** Counters of calls, reset by the tests. */
  calls: { geometry: number; inverse: number };
}

/**
 * Adds the metric G(x) = diag(d(x)) + C to a target: dG/dx_k = diag(dd_i/dx_k), so
 *   dH/dx_k = -dL/dx_k + 1/2 sum_i (G^-1)_ii dd_i/dx_k - 1/2 sum_i w_i^2 dd_i/dx_k,  w = G^-1 p.
 */
export function withDiagonalPlusConstantMetric(
  base: { dim: number; logDensityAndGradient(x: Float64Array, g: Float64Array): number },
  constRows: number[][],
  diagonal: DiagonalDerivatives,
  options: MetricOptions = {},
): GeometryTarget {
  const n = base.dim;
  const c = toColumnMajor(constRows);
  const sign = options.flipDg ? -1 : 1;
  const calls = { geometry: 0, inverse: 0 };
  const metricAt = (x: Float64Array, d: Float64Array, jac: Float64Array): Float64Array => {
    diagonal(x, d, jac);
    const g = c.slice();
    for (let i = 0; i < n; i++) g[i + i * n] += d[i];
    return g;
  };
  const geometry = (x: Float64Array): LocalGeometry => {
    calls.geometry++;
    const d = new Float64Array(n);
    const jac = new Float64Array(n * n);
    const g = metricAt(x, d, jac);
    const l = cholDense(g, n);
    let logDet = 0;
    for (let i = 0; i < n; i++) logDet += 2 * Math.log(l[i + i * n]);
    const inv = cholInverse(l, n);
    const gradient = new Float64Array(n);
    const logDensity = base.logDensityAndGradient(x, gradient);
    const w = new Float64Array(n);
    // 1/2 tr(G^-1 dG/dx_k) does not depend on p: precompute it.
    const traceTerm = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += inv[i + i * n] * jac[i + k * n];
      traceTerm[k] = options.dropLogDet ? 0 : 0.5 * sign * s;
    }
    const applyInverse = (p: Float64Array, out: Float64Array) => {
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += inv[i + j * n] * p[j];
        out[i] = s;
      }
    };
    return {
      position: x,
      logDensity,
      gradient,
      logDetMetric: options.dropLogDet ? 0 : logDet,
      applyInverse,
      sampleMomentum(rng: RandomSource, out: Float64Array) {
        const z = new Float64Array(n);
        for (let i = 0; i < n; i++) z[i] = rng.normal();
        for (let i = 0; i < n; i++) {
          let s = 0;
          for (let k = 0; k <= i; k++) s += l[i + k * n] * z[k];
          out[i] = s;
        }
      },
      hamiltonianGradient(p: Float64Array, out: Float64Array) {
        applyInverse(p, w);
        for (let k = 0; k < n; k++) {
          let s = 0;
          for (let i = 0; i < n; i++) s += w[i] * w[i] * jac[i + k * n];
          out[k] = -gradient[k] + traceTerm[k] - 0.5 * sign * s;
        }
      },
      inverseMetricMatrix: () => new Matrix(n, n, inv.slice()),
    };
  };
  const inverseMetricAt = (x: Float64Array): InverseMetric => {
    calls.inverse++;
    // Only G^-1: a factorisation and solves, no inverse, log-determinant or density.
    const d = new Float64Array(n);
    const jac = new Float64Array(n * n);
    const l = cholDense(metricAt(x, d, jac), n);
    return { applyInverse: (p, out) => void cholSolve(l, n, p, out) };
  };
  const hamiltonian = (x: Float64Array, p: Float64Array): number => {
    const geo = geometry(x);
    const w = new Float64Array(n);
    geo.applyInverse(p, w);
    let q = 0;
    for (let i = 0; i < n; i++) q += p[i] * w[i];
    return -geo.logDensity + 0.5 * geo.logDetMetric + 0.5 * q;
  };
  return {
    dim: n,
    logDensity: (x) => base.logDensityAndGradient(x, new Float64Array(n)),
    logDensityAndGradient: (x, g) => base.logDensityAndGradient(x, g),
    geometry,
    inverseMetricAt,
    hamiltonian,
    calls,
  };
}

/** A correlated Gaussian with the position-dependent metric G(x) = diag(exp(a_i . x)) + C. */
export function gaussianWithVaryingMetric(
  mean: number[], covRows: number[][], a: number[][], constRows: number[][], options: MetricOptions = {},
): { base: GaussianTarget; target: GeometryTarget } {
  const base = gaussianTarget(mean, covRows);
  const n = mean.length;
  const target = withDiagonalPlusConstantMetric(base, constRows, (x, d, jac) => {
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += a[i][k] * x[k];
      d[i] = Math.exp(s);
      for (let k = 0; k < n; k++) jac[i + k * n] = a[i][k] * d[i];
    }
  }, options);
  return { base, target };
}

// ---------- GP classification with a logistic likelihood, n small ----------

function logSigmoid(z: number): number {
  return z >= 0 ? -Math.log1p(Math.exp(-z)) : z - Math.log1p(Math.exp(z));
}

function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/**
 * L(x) = sum_n log sigma(y_n x_n) - 1/2 x' K^-1 x, with the metric of the note's Section 4.2 for
 * it: G(x) = -Hessian = Lambda(x) + K^-1, Lambda_nn = sigma(x_n)(1 - sigma(x_n)) (the same for
 * both labels), dLambda_nn/dx_n = Lambda_nn (1 - 2 sigma(x_n)).
 */
export function gpLogisticTarget(kRows: number[][], y: number[], options: MetricOptions = {}): { target: GeometryTarget; logDensity(x: Float64Array): number } {
  const n = y.length;
  const k = toColumnMajor(kRows);
  const kInv = cholInverse(cholDense(k, n), n);
  const kInvRows: number[][] = [];
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    for (let j = 0; j < n; j++) row.push(kInv[i + j * n]);
    kInvRows.push(row);
  }
  const logDensityAndGradient = (x: Float64Array, grad: Float64Array): number => {
    let l = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += kInv[i + j * n] * x[j];
      l += logSigmoid(y[i] * x[i]) - 0.5 * x[i] * s;
      grad[i] = y[i] * sigmoid(-y[i] * x[i]) - s;
    }
    return l;
  };
  const target = withDiagonalPlusConstantMetric({ dim: n, logDensityAndGradient }, kInvRows, (x, d, jac) => {
    jac.fill(0);
    for (let i = 0; i < n; i++) {
      const s = sigmoid(x[i]);
      d[i] = s * (1 - s);
      jac[i + i * n] = d[i] * (1 - 2 * s);
    }
  }, options);
  return { target, logDensity: (x) => logDensityAndGradient(x, new Float64Array(n)) };
}

/** Mean and covariance of a 2-D density exp(logDensity) by the midpoint rule on [lo, hi]^2. */
export function quadratureMoments2d(logDensity: (x: Float64Array) => number, lo: number, hi: number, points: number): { mean: number[]; cov: number[][] } {
  const h = (hi - lo) / points;
  const logs = new Float64Array(points * points);
  const x = new Float64Array(2);
  let max = -Infinity;
  for (let a = 0; a < points; a++) for (let b = 0; b < points; b++) {
    x[0] = lo + (a + 0.5) * h;
    x[1] = lo + (b + 0.5) * h;
    const v = logDensity(x);
    logs[a * points + b] = v;
    if (v > max) max = v;
  }
  let z = 0, m0 = 0, m1 = 0, s00 = 0, s01 = 0, s11 = 0;
  for (let a = 0; a < points; a++) for (let b = 0; b < points; b++) {
    const w = Math.exp(logs[a * points + b] - max);
    const u = lo + (a + 0.5) * h;
    const v = lo + (b + 0.5) * h;
    z += w; m0 += w * u; m1 += w * v; s00 += w * u * u; s01 += w * u * v; s11 += w * v * v;
  }
  m0 /= z; m1 /= z;
  return { mean: [m0, m1], cov: [[s00 / z - m0 * m0, s01 / z - m0 * m1], [s01 / z - m0 * m1, s11 / z - m1 * m1]] };
}

// ---------- the problems the tests share ----------

export const GAUSS_MEAN = [0.5, -1, 2];
export const GAUSS_COV = [[1, 0.6, 0.3], [0.6, 2, -0.5], [0.3, -0.5, 1.5]];
/** Rows a_i of the position-dependent metric's d_i(x) = exp(a_i . x). */
export const METRIC_A = [[0.6, 0, 0.2], [0, -0.5, 0.1], [0.3, 0.2, -0.4]];
export const METRIC_C = [[0.5, 0.1, 0], [0.1, 0.5, 0], [0, 0, 0.5]];

/** The 3-D Gaussian N(GAUSS_MEAN, GAUSS_COV) with G(x) = diag(exp(METRIC_A x)) + METRIC_C. */
export function varyingMetricProblem(options: MetricOptions = {}) {
  return gaussianWithVaryingMetric(GAUSS_MEAN, GAUSS_COV, METRIC_A, METRIC_C, options);
}

export const GP_K = [[4, 3.2], [3.2, 4]];
export const GP_Y = [1, -1];

/** GP classification with n = 2 and a logistic likelihood, with its Hessian metric (note eq. 16 with beta = 1). */
export function gpLogisticProblem(options: MetricOptions = {}) {
  return gpLogisticTarget(GP_K, GP_Y, options);
}
