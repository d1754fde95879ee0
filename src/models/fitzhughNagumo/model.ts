/**
 * The posterior of the Fitzhugh-Nagumo parameters theta = (a, b, c) (Girolami & Calderhead 2011,
 * Section 10): both states observed at times t_j with independent Gaussian noise of known sd
 * sigma, x(0) = (V(0), R(0)) known,
 *
 *   L(theta)     = log pi(theta) - sum_nj (y_nj - x_n(t_j; theta))^2 / (2 sigma^2) - T N log(sigma sqrt(2 pi))
 *   dL/dtheta_i  = d log pi/dtheta_i + sum_nj (y_nj - x_nj) s_nj,i / sigma^2
 *   G_ik         = sum_nj s_nj,i s_nj,k / sigma^2 + 1/tau^2 delta_ik          (Section 10: the
 *                  expected Fisher information, plus the prior's negative Hessian)
 *   dG_ik/dtheta_m = sum_nj (r_nj,im s_nj,k + s_nj,i r_nj,km) / sigma^2
 *
 * with s and r the first- and second-order sensitivities (models/ode/sensitivities.ts). The
 * paper names no prior; ours is a weak default stated in docs/models/fitzhugh-nagumo.md: a, b, c independent
 * N(0, tau^2), tau = 10, restricted to c > 0 (the equations divide by c). Outside c > 0 the
 * density is zero; where the adaptive solver cannot meet its tolerance (a stiff or exploding
 * trajectory, never near the posterior) the log density is NaN, which the samplers treat as a
 * numerical breakdown and reject.
 */
import { Matrix } from "../../linalg/matrix.js";
import { OdeSolverError } from "../../math/dormandPrince.js";
import type { DenseMetricModel, DenseMetricParts } from "../../targets/denseMetric.js";
import { SensitivitySolver, type SensitivityOrder, type SensitivitySolution } from "../ode/sensitivities.js";
import { FN_INITIAL_STATE, fitzhughNagumoSystem } from "./equations.js";

/** Observations of V and R at common times. */
export interface FitzhughNagumoData {
  readonly times: Float64Array;
  readonly v: Float64Array;
  readonly r: Float64Array;
}

export interface FitzhughNagumoOptions {
  /** sigma, the known noise sd (default 0.5, the paper's). */
  noiseSd?: number;
  /** (V(0), R(0)) at t = 0 (default (-1, 1)). */
  initialState?: readonly [number, number];
  /** tau, the sd of the N(0, tau^2) prior of each parameter (default 10). */
  priorSd?: number;
  /**
   * The solver's tolerances (defaults 1e-6 and 1e-8: at the paper's data, against a solve at
   * 1e-13, L is off by 7e-4, its gradient by 2e-5 and dG by 2e-4 relative, at 2.3 times fewer
   * steps than 1e-8; L stays one deterministic function of theta whatever the tolerance).
   */
  rtol?: number;
  atol?: number;
}

export const FN_DEFAULT_NOISE_SD = 0.5;
export const FN_DEFAULT_PRIOR_SD = 10;
export const FN_DEFAULT_RTOL = 1e-6;
export const FN_DEFAULT_ATOL = 1e-8;

export interface FitzhughNagumoModel extends DenseMetricModel {
  readonly data: FitzhughNagumoData;
  readonly noiseSd: number;
  readonly priorSd: number;
  readonly initialState: readonly [number, number];
  /** The states (and sensitivities up to `order`) at the data's times; throws OdeSolverError. */
  solve(theta: Float64Array, order: SensitivityOrder): SensitivitySolution;
}

function positive(name: string, v: number): number {
  if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`fitzhugh-nagumo: ${name} must be a positive finite number, got ${v}`);
  return v;
}

/** Where the density is not positive or not computable: identity metric, zero derivatives. */
function degenerate(logDensity: number, dim: number, derivatives: boolean): DenseMetricParts {
  const metric = Matrix.identity(dim);
  return { logDensity, gradient: new Float64Array(dim), metric, metricDerivatives: derivatives ? Array.from({ length: dim }, () => new Matrix(dim, dim)) : undefined };
}

export function fitzhughNagumoModel(data: FitzhughNagumoData, options: FitzhughNagumoOptions = {}): FitzhughNagumoModel {
  const sigma = positive("noise sd", options.noiseSd ?? FN_DEFAULT_NOISE_SD);
  const tau = positive("prior sd", options.priorSd ?? FN_DEFAULT_PRIOR_SD);
  const x0 = options.initialState ?? FN_INITIAL_STATE;
  const t = data.times;
  const nt = t.length;
  if (data.v.length !== nt || data.r.length !== nt) throw new RangeError(`fitzhugh-nagumo: ${nt} times but ${data.v.length} V and ${data.r.length} R observations`);
  for (let j = 0; j < nt; j++) if (!(t[j] >= (j === 0 ? 0 : t[j - 1]))) throw new RangeError(`fitzhugh-nagumo: time ${j + 1} (${t[j]}) is negative or before the one before it`);
  const solver = new SensitivitySolver(fitzhughNagumoSystem, { rtol: options.rtol ?? FN_DEFAULT_RTOL, atol: options.atol ?? FN_DEFAULT_ATOL });
  const d = 3;
  const w = 1 / (sigma * sigma);
  const obs = [data.v, data.r];
  const logNormaliser = -2 * nt * Math.log(sigma * Math.sqrt(2 * Math.PI)) - d * Math.log(tau * Math.sqrt(2 * Math.PI));

  function solve(theta: Float64Array, order: SensitivityOrder): SensitivitySolution {
    if (theta.length !== d) throw new RangeError(`fitzhugh-nagumo: theta has length ${theta.length}, expected 3 (a, b, c)`);
    return solver.solve(theta, x0, 0, t, order);
  }

  function logPrior(theta: Float64Array): number {
    return -(theta[0] * theta[0] + theta[1] * theta[1] + theta[2] * theta[2]) / (2 * tau * tau);
  }

  /** The solution, or undefined where the solver failed. */
  function trySolve(theta: Float64Array, order: SensitivityOrder): SensitivitySolution | undefined {
    try {
      return solve(theta, order);
    } catch (e) {
      if (e instanceof OdeSolverError) return undefined;
      throw e;
    }
  }

  /** L and (order >= 1) its gradient into `grad`; `sol` the solution it used. */
  function evaluate(theta: Float64Array, sol: SensitivitySolution, grad: Float64Array | undefined): number {
    let ss = 0;
    if (grad) for (let i = 0; i < d; i++) grad[i] = -theta[i] / (tau * tau);
    const v = sol.values;
    for (let n = 0; n < 2; n++) {
      for (let j = 0; j < nt; j++) {
        const base = j * sol.dim;
        const e = obs[n][j] - v[base + n];
        ss += e * e;
        if (grad) for (let i = 0, s = base + sol.firstOffset + n * d; i < d; i++) grad[i] += w * e * v[s + i];
      }
    }
    return logPrior(theta) - 0.5 * w * ss + logNormaliser;
  }

  return {
    dim: d,
    data,
    noiseSd: sigma,
    priorSd: tau,
    initialState: [x0[0], x0[1]],
    solve,

    logDensity(theta) {
      if (!(theta[2] > 0)) return -Infinity;
      const sol = trySolve(theta, 0);
      return sol ? evaluate(theta, sol, undefined) : NaN;
    },

    logDensityAndGradient(theta, grad) {
      grad.fill(0);
      if (!(theta[2] > 0)) return -Infinity;
      const sol = trySolve(theta, 1);
      return sol ? evaluate(theta, sol, grad) : NaN;
    },

    denseMetric(theta, derivatives): DenseMetricParts {
      if (!(theta[2] > 0)) return degenerate(-Infinity, d, derivatives);
      const sol = trySolve(theta, derivatives ? 2 : 1);
      if (!sol) return degenerate(NaN, d, derivatives);
      const gradient = new Float64Array(d);
      const logDensity = evaluate(theta, sol, gradient);
      const metric = new Matrix(d, d);
      const g = metric.data;
      const dg = derivatives ? Array.from({ length: d }, () => new Matrix(d, d)) : undefined;
      // read the augmented vectors directly: s_n,i at s0 + n d + i, r_n,(i,m) at r0 + n 6 + pairIndex(i, m)
      const v = sol.values;
      const pair = [0, 1, 2, 1, 3, 4, 2, 4, 5];
      for (let n = 0; n < 2; n++) {
        for (let j = 0; j < nt; j++) {
          const base = j * sol.dim;
          const s = base + sol.firstOffset + n * d;
          for (let i = 0; i < d; i++) for (let k = 0; k <= i; k++) g[i + k * d] += w * v[s + i] * v[s + k];
          if (dg) {
            const r = base + sol.secondOffset + n * 6;
            // dG_ik/dtheta_m = w sum (r_im s_k + s_i r_km)
            for (let m = 0; m < d; m++) {
              const dm = dg[m].data;
              for (let i = 0; i < d; i++) {
                const rim = v[r + pair[i * 3 + m]];
                for (let k = 0; k <= i; k++) dm[i + k * d] += w * (rim * v[s + k] + v[s + i] * v[r + pair[k * 3 + m]]);
              }
            }
          }
        }
      }
      for (let i = 0; i < d; i++) {
        g[i + i * d] += 1 / (tau * tau);
        for (let k = 0; k < i; k++) g[k + i * d] = g[i + k * d];
      }
      if (dg) for (const m of dg) for (let i = 0; i < d; i++) for (let k = 0; k < i; k++) m.data[k + i * d] = m.data[i + k * d];
      return { logDensity, gradient, metric, metricDerivatives: dg };
    },
  };
}
