/**
 * The states of an autonomous ODE model x' = f(x, theta), x(0) = x0 (x0 fixed), solved together
 * with their first- and second-order sensitivities in one augmented system (Girolami &
 * Calderhead 2011, Section 10):
 *
 *   s_ni = dx_n/dtheta_i:        s_ni' = sum_l f_n,x_l s_li + f_n,theta_i
 *   r_nik = d2x_n/dtheta_i dtheta_k:
 *     r_nik' = sum_l f_n,x_l r_lik + sum_lm f_n,x_l x_m s_li s_mk
 *              + sum_l f_n,x_l theta_k s_li + sum_l f_n,theta_i x_l s_lk + f_n,theta_i theta_k,
 *
 * with s(0) = 0 and r(0) = 0 because x0 does not depend on theta. r is symmetric in (i, k), so
 * only the pairs i <= k are integrated. The augmented vector is [x | s | r], x first: the step
 * sizes are chosen by the error of x alone (math/dormandPrince.ts, `errorComponents`), so the
 * states, and the likelihood built on them, are one deterministic function of theta whether or
 * not the sensitivities are asked for, and the sensitivities are the derivatives of the discrete
 * solution on that step sequence.
 */
import { DormandPrinceWorkspace, solveDormandPrince, type OdeOptions } from "../../math/dormandPrince.js";

/** An autonomous ODE system with its first and second partial derivatives. */
export interface OdeSystem {
  /** N, the number of states. */
  readonly states: number;
  /** P, the number of parameters. */
  readonly params: number;
  /** out <- f(x, theta). */
  rhs(x: Float64Array, theta: Float64Array, out: Float64Array): void;
  /** fx[n N + l] = df_n/dx_l, ft[n P + i] = df_n/dtheta_i. */
  firstDerivatives(x: Float64Array, theta: Float64Array, fx: Float64Array, ft: Float64Array): void;
  /**
   * fxx[(n N + l) N + m] = d2f_n/dx_l dx_m, fxt[(n N + l) P + k] = d2f_n/dx_l dtheta_k,
   * ftt[(n P + i) P + k] = d2f_n/dtheta_i dtheta_k (all entries written).
   */
  secondDerivatives(x: Float64Array, theta: Float64Array, fxx: Float64Array, fxt: Float64Array, ftt: Float64Array): void;
}

/** 0: states only; 1: and first-order sensitivities; 2: and second-order ones. */
export type SensitivityOrder = 0 | 1 | 2;

/** The solution at the output times. */
export interface SensitivitySolution {
  readonly order: SensitivityOrder;
  readonly times: number;
  /** x_n(t_j) = state(j, n). */
  state(j: number, n: number): number;
  /** dx_n/dtheta_i at t_j. */
  first(j: number, n: number, i: number): number;
  /** d2x_n/dtheta_i dtheta_k at t_j. */
  second(j: number, n: number, i: number, k: number): number;
  /**
   * The raw augmented vectors, time-major: x_n(t_j) at values[j dim + n], s_n,i at
   * values[j dim + firstOffset + n P + i], r_n,q at values[j dim + secondOffset + n Q + q] with
   * q = pairIndex(i, k, P) (for loops that read every entry; the accessors above say the same).
   */
  readonly values: Float64Array;
  readonly dim: number;
  readonly firstOffset: number;
  readonly secondOffset: number;
  /** The solver's counts. */
  readonly acceptedSteps: number;
  readonly rejectedSteps: number;
  readonly evaluations: number;
}

/** The index q of the pair (i, k), i <= k, in the packed second-order block. */
export function pairIndex(i: number, k: number, p: number): number {
  const a = Math.min(i, k);
  const b = Math.max(i, k);
  return a * p - (a * (a - 1)) / 2 + (b - a);
}

/** A reusable solver of one system's augmented equations. */
export class SensitivitySolver {
  private readonly n: number;
  private readonly p: number;
  private readonly q: number;
  private readonly fx: Float64Array;
  private readonly ft: Float64Array;
  private readonly fxx: Float64Array;
  private readonly fxt: Float64Array;
  private readonly ftt: Float64Array;
  private readonly x: Float64Array;
  private readonly fs: Float64Array;
  /** pair[i p + k] = pairIndex(i, k, p), looked up in the inner loops. */
  private readonly pair: Int32Array;
  private readonly workspaces = new Map<number, DormandPrinceWorkspace>();

  constructor(
    readonly system: OdeSystem,
    readonly options: OdeOptions = {},
  ) {
    const n = system.states;
    const p = system.params;
    this.n = n;
    this.p = p;
    this.q = (p * (p + 1)) / 2;
    this.fx = new Float64Array(n * n);
    this.ft = new Float64Array(n * p);
    this.fxx = new Float64Array(n * n * n);
    this.fxt = new Float64Array(n * n * p);
    this.ftt = new Float64Array(n * p * p);
    this.x = new Float64Array(n);
    this.fs = new Float64Array(n * p);
    this.pair = Int32Array.from({ length: p * p }, (_, ik) => pairIndex(Math.floor(ik / p), ik % p, p));
  }

  /** Length of the augmented vector for `order`. */
  dimension(order: SensitivityOrder): number {
    return this.n + (order >= 1 ? this.n * this.p : 0) + (order === 2 ? this.n * this.q : 0);
  }

  /** Solves from x0 at time t0 and reports at the output times (non-decreasing, from t0). */
  solve(theta: Float64Array, x0: ArrayLike<number>, t0: number, outputTimes: ArrayLike<number>, order: SensitivityOrder): SensitivitySolution {
    const { n, p, q } = this;
    const dim = this.dimension(order);
    const y0 = new Float64Array(dim);
    for (let i = 0; i < n; i++) y0[i] = x0[i];
    let ws = this.workspaces.get(dim);
    if (!ws) this.workspaces.set(dim, (ws = new DormandPrinceWorkspace(dim)));
    const rhs = (_t: number, y: Float64Array, dy: Float64Array) => this.augmentedRhs(theta, y, dy, order);
    const sol = solveDormandPrince(rhs, t0, y0, outputTimes, { ...this.options, errorComponents: n }, ws);
    const v = sol.values;
    const s0 = n;
    const r0 = n + n * p;
    const pair = this.pair;
    return {
      order,
      times: outputTimes.length,
      state: (j, i) => v[j * dim + i],
      first: (j, i, k) => v[j * dim + s0 + i * p + k],
      second: (j, i, a, b) => v[j * dim + r0 + i * q + pair[a * p + b]],
      values: v,
      dim,
      firstOffset: s0,
      secondOffset: r0,
      acceptedSteps: sol.acceptedSteps,
      rejectedSteps: sol.rejectedSteps,
      evaluations: sol.evaluations,
    };
  }

  private augmentedRhs(theta: Float64Array, y: Float64Array, dy: Float64Array, order: SensitivityOrder): void {
    const { n, p, q, fx, ft, x, fs, pair } = this;
    const sys = this.system;
    for (let i = 0; i < n; i++) x[i] = y[i];
    sys.rhs(x, theta, dy);
    if (order === 0) return;
    sys.firstDerivatives(x, theta, fx, ft);
    const s0 = n;
    // s' = fx s + ft
    for (let a = 0; a < n; a++) {
      for (let i = 0; i < p; i++) {
        let v = ft[a * p + i];
        for (let l = 0; l < n; l++) v += fx[a * n + l] * y[s0 + l * p + i];
        dy[s0 + a * p + i] = v;
      }
    }
    if (order === 1) return;
    const { fxx, fxt, ftt } = this;
    sys.secondDerivatives(x, theta, fxx, fxt, ftt);
    const r0 = n + n * p;
    for (let a = 0; a < n; a++) {
      // fs[l p + k] = sum_m f_a,x_l x_m s_mk + f_a,x_l theta_k: the derivative of f_a,x_l along theta_k
      for (let l = 0; l < n; l++) {
        for (let k = 0; k < p; k++) {
          let v = fxt[(a * n + l) * p + k];
          for (let m = 0; m < n; m++) v += fxx[(a * n + l) * n + m] * y[s0 + m * p + k];
          fs[l * p + k] = v;
        }
      }
      for (let i = 0; i < p; i++) {
        for (let k = i; k < p; k++) {
          const qi = pair[i * p + k];
          let v = ftt[(a * p + i) * p + k];
          for (let l = 0; l < n; l++) {
            v += fx[a * n + l] * y[r0 + l * q + qi];
            v += fs[l * p + k] * y[s0 + l * p + i];
            // f_a,theta_i x_l = f_a,x_l theta_i
            v += fxt[(a * n + l) * p + i] * y[s0 + l * p + k];
          }
          dy[r0 + a * q + qi] = v;
        }
      }
    }
  }
}
