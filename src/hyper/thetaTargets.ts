/**
 * The hyperparameter targets of ./thetaGivenF.ts (SA) and ./thetaGivenNu.ts (AA) as `Target`s,
 * so that the samplers of src/samplers (random-walk MH, HMC, SMMALA) run on theta unchanged
 * (comparison paper, Section 3.2 and Appendix A).
 *
 * A theta at which K(theta) does not factorise (numerically singular) has density zero: the
 * target is then the model's density restricted to where it is defined, and a proposal there is
 * rejected rather than stopping the chain.
 *
 * The metric (SMMALA) is G(t) = 1/2 tr(K^-1 dK_k K^-1 dK_l) - diag(d^2 log p(t)), the expected
 * Fisher information of f | t plus the prior's negative Hessian (Appendix A), plus the identity
 * (METRIC_FLOOR); for AA, the Fisher information of y given theta at fixed nu (Appendix A.2,
 * ./thetaGivenNu.ts) plus the same. Any positive-definite G(t) keeps SMMALA's
 * Metropolis-Hastings ratio exact, so these choices affect efficiency only.
 *
 * Why the floor: where the likelihood and the prior are both flat in a direction (a lengthscale
 * far below the distances between inputs, where dK/dpsi -> 0, and the Gamma prior's curvature
 * e^psi -> 0), G -> 0 and the proposal's sd eps G^-1/2 grows without bound. The chain is then not
 * geometrically ergodic: it enters that tail rarely and stays long, and finite runs underweight
 * it (on the n = 2 probit grid of test/hyper, E psi^2 came out 20% low after 40000 iterations;
 * the same happens with any SMMALA on N(0, 1) with G(x) = e^x). G + I bounds the proposal's sd by eps.
 */
import { cholesky } from "../linalg/cholesky.js";
import { NotPositiveDefiniteError, NonFiniteError } from "../linalg/errors.js";
import type { Matrix } from "../linalg/matrix.js";
import type { RandomSource } from "../random/types.js";
import type { LocalMetric, Target } from "../targets/types.js";
import type { ThetaEvaluation } from "./thetaGivenF.js";

/** What a theta target is built from: the log density, its gradient, the metric. */
export interface ThetaDensity {
  readonly dim: number;
  logDensity(t: ArrayLike<number>): number;
  evaluate(t: ArrayLike<number>): ThetaEvaluation;
  metric(t: ArrayLike<number>): Matrix;
}

/** Added to the diagonal of the metric (see above). */
export const METRIC_FLOOR = 1;

function singular(e: unknown): boolean {
  return e instanceof NotPositiveDefiniteError || e instanceof NonFiniteError;
}

/** A dense metric G at one position, with the members SMMALA uses. */
export function denseLocalMetric(position: Float64Array, logDensity: number, gradient: Float64Array, G: Matrix): LocalMetric {
  const m = position.length;
  const chol = cholesky(G);
  return {
    position,
    logDensity,
    gradient,
    logDetMetric: chol.logDet(),
    applyInverse(p, out) {
      out.set(chol.solve(p));
    },
    applyMetric(v, out) {
      for (let i = 0; i < m; i++) {
        let s = 0;
        for (let j = 0; j < m; j++) s += G.data[i + j * m]! * v[j]!;
        out[i] = s;
      }
    },
    sampleMomentum(rng: RandomSource, out: Float64Array) {
      const z = new Float64Array(m);
      rng.fillNormal(z);
      out.set(chol.multiplyLower(z));
    },
  };
}

/**
 * The Target of a theta density over the coordinates `free` (default all); the others stay at
 * their values in `base`.
 */
export function thetaTarget(density: ThetaDensity, base: Float64Array, free?: readonly number[]): Target {
  const idx = free ?? Array.from({ length: density.dim }, (_, k) => k);
  const full = (x: Float64Array): Float64Array => {
    const t = base.slice();
    for (let k = 0; k < idx.length; k++) t[idx[k]!] = x[k]!;
    return t;
  };
  // A trajectory may leave the finite numbers (HMC after a step into a singular K): density zero.
  const finite = (x: Float64Array): boolean => x.every(Number.isFinite);
  const evaluate = (x: Float64Array): ThetaEvaluation | undefined => {
    if (!finite(x)) return undefined;
    try {
      const e = density.evaluate(full(x));
      return Number.isFinite(e.value) ? e : undefined;
    } catch (e) {
      if (singular(e)) return undefined;
      throw e;
    }
  };
  return {
    dim: idx.length,
    logDensity(x) {
      if (!finite(x)) return -Infinity;
      try {
        const v = density.logDensity(full(x));
        return Number.isNaN(v) ? -Infinity : v;
      } catch (e) {
        if (singular(e)) return -Infinity;
        throw e;
      }
    },
    logDensityAndGradient(x, grad) {
      const e = evaluate(x);
      if (!e) {
        grad.fill(NaN);
        return -Infinity;
      }
      for (let k = 0; k < idx.length; k++) grad[k] = e.gradient[idx[k]!]!;
      return e.value;
    },
    fisherMetric(x) {
      const e = evaluate(x);
      const m = idx.length;
      if (!e) {
        return { position: x.slice(), logDensity: -Infinity, gradient: new Float64Array(m).fill(NaN), logDetMetric: NaN, applyInverse() {}, sampleMomentum() {} , applyMetric() {} };
      }
      const G = density.metric(full(x));
      const sub = G.rows === m ? G.clone() : submatrix(G, idx);
      for (let k = 0; k < m; k++) sub.data[k + k * m] += METRIC_FLOOR;
      const gradient = Float64Array.from(idx, (k) => e.gradient[k]!);
      return denseLocalMetric(x.slice(), e.value, gradient, sub);
    },
  };
}

function submatrix(G: Matrix, idx: readonly number[]): Matrix {
  const m = idx.length;
  const out = new (G.constructor as new (r: number, c: number) => Matrix)(m, m);
  for (let j = 0; j < m; j++) for (let i = 0; i < m; i++) out.data[i + j * m] = G.data[idx[i]! + idx[j]! * G.rows]!;
  return out;
}
