import type { Matrix } from "../linalg/matrix.js";
import type { RandomSource } from "../random/types.js";

/**
 * A density that samplers run on, over R^dim. A target offers what it can: the log density
 * (always), its gradient (Euclidean gradient samplers), and a local geometry (manifold samplers).
 */
export interface Target {
  readonly dim: number;
  /** log density up to a constant. */
  logDensity(x: Float64Array): number;
  /** Writes d log density / dx into `grad` and returns the log density. */
  logDensityAndGradient?(x: Float64Array, grad: Float64Array): number;
  /**
   * Writes d log density / dx into `grad` alone, where that is cheaper than with the density
   * (the leapfrog steps inside a trajectory need no density). Optional.
   */
  gradient?(x: Float64Array, grad: Float64Array): void;
  /** Local Riemannian geometry at x (mMALA, SMMALA, RMHMC). */
  geometry?(x: Float64Array): LocalGeometry;
  /**
   * The metric at x built on the expected Fisher information rather than the observed Hessian
   * (Girolami & Calderhead 2011, Section 4.2; comparison paper Appendix A.1, G = K^-1 + R(f)),
   * for samplers that need no metric derivatives (SMMALA). Optional: they fall back to `geometry`.
   */
  fisherMetric?(x: Float64Array): LocalMetric;
  /**
   * A cheaper geometry that only applies G(x)^-1 (all the position fixed-point loop of the
   * generalised leapfrog needs). Optional: samplers fall back to `geometry`.
   */
  inverseMetricAt?(x: Float64Array): InverseMetric;
  /**
   * The log density along one coordinate at a time from x (component-wise samplers), where moving
   * one coordinate costs less than a whole evaluation (logistic regression: O(N) instead of
   * O(N D)). Optional: samplers fall back to `logDensity`. The moves of one call may share their
   * storage with those of the next call (logistic regression's do): use one at a time.
   */
  coordinateDensity?(x: Float64Array): CoordinateDensity;
}

/** One-coordinate moves from a base point (Target.coordinateDensity). */
export interface CoordinateDensity {
  /** The log density at the base point with coordinate k set to `value`. */
  logDensityWith(k: number, value: number): number;
  /** Moves the base point: coordinate k becomes `value`. */
  set(k: number, value: number): void;
}

export interface InverseMetric {
  /** out <- G(x)^-1 p. */
  applyInverse(p: Float64Array, out: Float64Array): void;
}

/**
 * A metric G(x) at one position x with what samplers that use it without its derivatives
 * (SMMALA) need: L(x), dL/dx, G(x)^-1 applied to vectors, log|G(x)|, v' G(x) v and draws from
 * N(0, G(x)) (so G^-1 p with p such a draw is one from N(0, G^-1)).
 */
export interface LocalMetric extends InverseMetric {
  readonly position: Float64Array;
  readonly logDensity: number;
  readonly gradient: Float64Array;
  readonly logDetMetric: number;
  /**
   * log|G(x)| less a constant of the target (the same at every x; optional). A ratio of
   * densities at two points may use it instead of logDetMetric, so that a large constant part
   * (log|K^-1| for a GP) cancels exactly instead of costing digits.
   */
  readonly logDetMetricUpToConstant?: number;
  /** out <- G(x) v. */
  applyMetric?(v: Float64Array, out: Float64Array): void;
  /** v' G(x) v (optional: samplers fall back to v' applyMetric(v)). */
  metricQuadraticForm?(v: Float64Array): number;
  /** out <- a draw from N(0, G(x)). */
  sampleMomentum(rng: RandomSource, out: Float64Array): void;
  /**
   * The caller will not use this metric again: the target may recycle its workspaces (using it
   * afterwards is an error). Optional; one that is never released is left to the collector.
   */
  release?(): void;
}

/**
 * Everything a manifold sampler needs at one position x (see DESIGN.md, "Local geometry"): the
 * metric, and dH/dx for a momentum p with H(x, p) = -L(x) + 1/2 log|G(x)| + 1/2 p' G(x)^-1 p.
 */
export interface LocalGeometry extends LocalMetric {
  /**
   * out <- dH/dx_n = -dL/dx_n + 1/2 tr(G^-1 dG/dx_n) - 1/2 p' G^-1 (dG/dx_n) G^-1 p.
   */
  hamiltonianGradient(p: Float64Array, out: Float64Array): void;
  /** Dense G(x)^-1 (the reference form of Algorithm 1 draws momentum through chol(G^-1)). Optional. */
  inverseMetricMatrix?(): Matrix;
}
