/**
 * The latent volatilities' block of the stochastic volatility model (Girolami & Calderhead 2011,
 * Section 8.2): the conditional p(x | y, beta, sigma, phi) with
 *
 *   L(x)   = sum_t [-x_t / 2 - y_t^2 exp(-x_t) / (2 beta^2)] - 1/2 x' C^-1 x
 *   dL/dx  = -1/2 + y^2 o exp(-x) / (2 beta^2) - C^-1 x
 *   G      = I / 2 + C^-1                                            (constant in x)
 *
 * I/2 the expected Fisher information of y_t given x_t, and C^-1 the AR(1) precision: tridiagonal
 * with diagonal (1 + phi^2) / sigma^2 except 1 / sigma^2 at both ends, off-diagonal -phi / sigma^2.
 * (The paper's s_i = 0.5 (1 - y_i^2 beta^-2 exp(-x_i)) has its sign garbled in the extracted text;
 * the gradient here is derived again and checked by finite differences.) G is factorised once per
 * conditional, G = L L' with L bidiagonal (linalg/tridiagonal.ts): log|G|, G^-1 v and draws from
 * N(0, G) are O(T). Since dG/dx = 0, the Christoffel terms of mMALA vanish and RMHMC's
 * Hamiltonian gradient is -dL/dx: its generalised leapfrog is the plain leapfrog with mass G.
 */
import { TridiagonalCholesky, tridiagonalMatvec } from "../../linalg/tridiagonal.js";
import type { RandomSource } from "../../random/types.js";
import type { LocalGeometry, Target } from "../../targets/types.js";
import type { SvPriorOptions } from "./svModel.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** The AR(1) precision C^-1 (diagonal, off-diagonal) for T points. */
export function ar1Precision(T: number, sigma: number, phi: number, broken?: FaultOf<"sv-prior">): { diag: Float64Array; off: Float64Array } {
  const inv = 1 / (sigma * sigma);
  const diag = new Float64Array(T).fill((1 + phi * phi) * inv);
  const off = new Float64Array(Math.max(T - 1, 0)).fill(-phi * inv);
  // both ends have 1 / sigma^2: x_1 through its stationary variance sigma^2 / (1 - phi^2), x_T
  // through one transition only. The broken variant (x_1 ~ N(0, sigma^2)) keeps (1 + phi^2) / sigma^2.
  if (broken !== "x1-variance") diag[0] = inv;
  diag[T - 1] = T === 1 ? (1 - phi * phi) * inv : inv;
  return { diag, off };
}

export interface SvLatentTarget extends Target {
  readonly dim: number;
  /** The factor of the constant metric G = I/2 + C^-1. */
  readonly metricFactor: TridiagonalCholesky;
  /** G's diagonal and off-diagonal. */
  readonly metricDiagonal: Float64Array;
  readonly metricOffDiagonal: Float64Array;
  logDensityAndGradient(x: Float64Array, grad: Float64Array): number;
  geometry(x: Float64Array): LocalGeometry & { christoffelDrift(out: Float64Array): void };
}

/** The conditional of x given (beta, sigma, phi) and y. */
export function svLatentTarget(y: Float64Array, beta: number, sigma: number, phi: number, options: SvPriorOptions = {}): SvLatentTarget {
  const T = y.length;
  const { diag: pd, off } = ar1Precision(T, sigma, phi, options.broken);
  const half = 1 / (2 * beta * beta);
  // plain loops: this target is built once per Gibbs sweep, and a mapping Float64Array.from costs
  // more than the sweep's leapfrog steps
  const y2 = new Float64Array(T);
  const gDiag = new Float64Array(T);
  for (let t = 0; t < T; t++) {
    y2[t] = y[t] * y[t] * half;
    gDiag[t] = pd[t] + 0.5;
  }
  const factor = new TridiagonalCholesky(gDiag, off, "stochastic volatility metric I/2 + C^-1");
  // log|G| only where a sampler asks for the geometry (HMC with the tridiagonal mass never does)
  let logDet: number | undefined;
  const work = new Float64Array(T);

  function logDensityAndGradient(x: Float64Array, grad: Float64Array): number {
    // one pass: (C^-1 x)_t from the three neighbours, the likelihood's terms, dL/dx_t; the ends
    // (one neighbour each) outside the loop, in the same order of operations
    if (T === 1) return term(0, pd[0] * x[0], x, grad, 0);
    let l = term(0, pd[0] * x[0] + off[0] * x[1], x, grad, 0);
    for (let t = 1; t < T - 1; t++) l = term(t, pd[t] * x[t] + off[t - 1] * x[t - 1] + off[t] * x[t + 1], x, grad, l);
    return term(T - 1, pd[T - 1] * x[T - 1] + off[T - 2] * x[T - 2], x, grad, l);
  }

  /** Adds x_t's terms to l, with cx = (C^-1 x)_t, and sets dL/dx_t. */
  function term(t: number, cx: number, x: Float64Array, grad: Float64Array, l: number): number {
    const cur = x[t];
    const e = y2[t] * Math.exp(-cur);
    grad[t] = -0.5 + e - cx;
    return l + (-0.5 * cur - e - 0.5 * cur * cx);
  }

  function logDensity(x: Float64Array): number {
    return logDensityAndGradient(x, work);
  }

  const applyInverse = (p: Float64Array, out: Float64Array) => {
    out.set(p);
    factor.solveInPlace(out);
  };

  function geometry(x: Float64Array) {
    const gradient = new Float64Array(T);
    const ld = logDensityAndGradient(x, gradient);
    return {
      // a copy: samplers may reuse the buffer they pass in (smmala's proposal buffer)
      position: Float64Array.from(x),
      logDensity: ld,
      gradient,
      logDetMetric: (logDet ??= factor.logDet()),
      applyInverse,
      applyMetric: (v: Float64Array, out: Float64Array) => tridiagonalMatvec(gDiag, off, v, out),
      sampleMomentum: (rng: RandomSource, out: Float64Array) => {
        rng.fillNormal(out);
        factor.multiplyLowerInto(out, out);
      },
      // dG/dx = 0: dH/dx = -dL/dx (Section 8.2)
      hamiltonianGradient: (_p: Float64Array, out: Float64Array) => {
        for (let t = 0; t < T; t++) out[t] = -gradient[t];
      },
      christoffelDrift: (out: Float64Array) => void out.fill(0),
    };
  }

  return {
    dim: T,
    metricFactor: factor,
    metricDiagonal: gDiag,
    metricOffDiagonal: off,
    logDensity,
    logDensityAndGradient,
    geometry,
    fisherMetric: geometry,
    inverseMetricAt: () => ({ applyInverse }),
  };
}
