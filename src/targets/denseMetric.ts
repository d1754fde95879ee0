/**
 * Targets with a position-dependent dense metric (Girolami & Calderhead 2011, Sections 2-5): a
 * parametric model gives its log density L(x), dL/dx, the metric tensor G(x) as a dense
 * symmetric positive-definite matrix, and the D derivative matrices dG/dx_k. `denseMetricTarget`
 * turns such a model into the `Target` the manifold samplers run on (SMMALA and mMALA through
 * `fisherMetric`/`geometry`, RMHMC through `geometry`): one Cholesky factorisation of G per
 * position, then
 *
 *   dH/dx_k = -dL/dx_k + 1/2 tr(G^-1 dG_k) - 1/2 v' dG_k v,   v = G^-1 p     (G&C eq. 18 / 22)
 *
 * and the Christoffel part of the manifold drift of mMALA (G&C Section 5, the Euler step of eqs. 12-13),
 *
 *   c_i = -sum_j (G^-1 dG_j G^-1)_ij + 1/2 sum_j (G^-1)_ij tr(G^-1 dG_j),
 *
 * computed as c = G^-1 (-w + 1/2 t) with w = sum_j dG_j (G^-1)_{:,j} and t_j = tr(G^-1 dG_j):
 * D matrix-vector products, no D x D x D loop.
 *
 * A model whose dG_k have structure may instead give the three contractions the samplers need
 * (`MetricDerivativeProducts`: t, the quadratic forms v' dG_k v, and w) without forming the D
 * matrices; the geometry then uses them, and the matrices (if the model can also give them) serve
 * the finite-difference checker. For logistic regression that turns O(N D^3) per geometry into
 * O(N D^2) (models/logisticRegression.ts).
 *
 * The GP targets keep their structured paths (targets/latentMetric.ts); this is the dense path,
 * through the linear-algebra backends (OpenBLAS natively, TypeScript otherwise).
 */
import { cholesky, type Cholesky } from "../linalg/cholesky.js";
import type { Matrix } from "../linalg/matrix.js";
import { symmetricMatvecInto } from "../linalg/products.js";
import type { RandomSource } from "../random/types.js";
import type { CoordinateDensity, InverseMetric, LocalGeometry, LocalMetric, Target } from "./types.js";

/** What a parametric model gives at one position. */
export interface DenseMetricParts {
  readonly logDensity: number;
  readonly gradient: Float64Array;
  /** G(x), symmetric positive definite (both triangles filled). */
  readonly metric: Matrix;
  /** dG/dx_k for k = 0..dim-1 (present when asked for, unless only the products are given). */
  readonly metricDerivatives?: readonly Matrix[];
  /** The contractions of dG/dx_k the samplers need (optional; used instead of the matrices). */
  readonly metricDerivativeProducts?: MetricDerivativeProducts;
}

/** Contractions of the metric derivatives dG_k = dG/dx_k at one position. */
export interface MetricDerivativeProducts {
  /** t_k = tr(G^-1 dG_k), given the Cholesky factor of G. */
  traces(factor: Cholesky): Float64Array;
  /** out_k = v' dG_k v. */
  quadraticForms(v: Float64Array, out: Float64Array): void;
  /** w = sum_j dG_j (G^-1)_{:,j}, given the Cholesky factor of G and the traces t. */
  christoffelSum(factor: Cholesky, traces: Float64Array): Float64Array;
}

/** A differentiable target with a position-dependent dense metric. */
export interface DenseMetricModel {
  readonly dim: number;
  logDensity(x: Float64Array): number;
  /** Writes dL/dx into `grad` and returns L(x). */
  logDensityAndGradient(x: Float64Array, grad: Float64Array): number;
  /** L, dL/dx, G and (when `derivatives`) dG/dx_k at x. */
  denseMetric(x: Float64Array, derivatives: boolean): DenseMetricParts;
  /**
   * G(x) alone, without L and dL/dx (optional): what the position fixed point of the generalised
   * leapfrog needs, about five times per leapfrog step.
   */
  metricAt?(x: Float64Array): Matrix;
  /** dL/dx alone into `grad`, where cheaper than with L (optional; see Target.gradient). */
  gradient?(x: Float64Array, grad: Float64Array): void;
  /** One-coordinate moves from x (optional; see Target.coordinateDensity). */
  coordinateDensity?(x: Float64Array): CoordinateDensity;
  /**
   * G(x) + c dG[a], dG[a] = sum_k a_k dG/dx_k, a new matrix (optional): what the half step of the
   * Lagrangian integrator (samplers/kernels/lagrangianDense.ts) solves with, for a Hessian metric.
   */
  metricAlong?(x: Float64Array, a: Float64Array, c: number): Matrix;
}

/** A local geometry with a dense metric, offering the Christoffel drift term of full mMALA. */
export interface DenseLocalGeometry extends LocalGeometry {
  /** out <- the Christoffel part c of the mMALA drift (G&C Section 5, after eq. 13; see the module comment). */
  christoffelDrift(out: Float64Array): void;
  /** G(x) itself. */
  readonly metric: Matrix;
}

/** A Target whose geometry is dense (what the parametric samplers ask for). */
export interface DenseMetricTarget extends Target {
  readonly model: DenseMetricModel;
  logDensityAndGradient(x: Float64Array, grad: Float64Array): number;
  geometry(x: Float64Array): DenseLocalGeometry;
  fisherMetric(x: Float64Array): LocalMetric;
  inverseMetricAt(x: Float64Array): InverseMetric;
}

/** v' A v for a dense symmetric A. */
function quadraticForm(a: Matrix, v: Float64Array, work: Float64Array): number {
  symmetricMatvecInto(a, v, work);
  let q = 0;
  for (let i = 0; i < v.length; i++) q += v[i] * work[i];
  return q;
}

class DenseGeometry implements DenseLocalGeometry {
  readonly position: Float64Array;
  readonly logDensity: number;
  readonly gradient: Float64Array;
  readonly logDetMetric: number;
  readonly metric: Matrix;
  private readonly factor: Cholesky;
  private readonly parts: DenseMetricParts;
  private readonly work: Float64Array;
  private forms: Float64Array | undefined;
  private traces: Float64Array | undefined;
  private inverse: Matrix | undefined;

  constructor(x: Float64Array, parts: DenseMetricParts) {
    this.position = Float64Array.from(x);
    this.logDensity = parts.logDensity;
    this.gradient = parts.gradient;
    this.metric = parts.metric;
    this.parts = parts;
    this.factor = cholesky(parts.metric);
    this.logDetMetric = this.factor.logDet();
    this.work = new Float64Array(x.length);
  }

  applyInverse(p: Float64Array, out: Float64Array): void {
    out.set(p);
    this.factor.solveInPlace(out);
  }

  applyMetric(v: Float64Array, out: Float64Array): void {
    symmetricMatvecInto(this.metric, v, out);
  }

  metricQuadraticForm(v: Float64Array): number {
    return quadraticForm(this.metric, v, this.work);
  }

  sampleMomentum(rng: RandomSource, out: Float64Array): void {
    const z = rng.fillNormal(new Float64Array(out.length));
    out.set(this.factor.multiplyLower(z));
  }

  inverseMetricMatrix(): Matrix {
    if (!this.inverse) {
      const n = this.position.length;
      const id = this.metric.clone();
      id.data.fill(0);
      for (let i = 0; i < n; i++) id.data[i + i * n] = 1;
      this.inverse = this.factor.solveMatrix(id);
    }
    return this.inverse;
  }

  private requireDerivatives(): readonly Matrix[] {
    const dg = this.parts.metricDerivatives;
    if (!dg) throw new Error("dense metric geometry: the model gave no metric derivatives at this point");
    return dg;
  }

  /** t_k = tr(G^-1 dG_k) = sum_ij (G^-1)_ij (dG_k)_ij (both symmetric). */
  private traceTerms(): Float64Array {
    if (!this.traces && this.parts.metricDerivativeProducts) this.traces = this.parts.metricDerivativeProducts.traces(this.factor);
    if (!this.traces) {
      const dg = this.requireDerivatives();
      const gi = this.inverseMetricMatrix().data;
      const t = new Float64Array(dg.length);
      for (let k = 0; k < dg.length; k++) {
        const d = dg[k].data;
        let s = 0;
        for (let i = 0; i < d.length; i++) s += gi[i] * d[i];
        t[k] = s;
      }
      this.traces = t;
    }
    return this.traces;
  }

  hamiltonianGradient(p: Float64Array, out: Float64Array): void {
    const t = this.traceTerms();
    const v = new Float64Array(p.length);
    this.applyInverse(p, v);
    const products = this.parts.metricDerivativeProducts;
    if (products) {
      const q = (this.forms ??= new Float64Array(p.length));
      products.quadraticForms(v, q);
      for (let k = 0; k < q.length; k++) out[k] = -this.gradient[k] + 0.5 * t[k] - 0.5 * q[k];
      return;
    }
    const dg = this.requireDerivatives();
    for (let k = 0; k < dg.length; k++) out[k] = -this.gradient[k] + 0.5 * t[k] - 0.5 * quadraticForm(dg[k], v, this.work);
  }

  christoffelDrift(out: Float64Array): void {
    const t = this.traceTerms();
    const n = out.length;
    const products = this.parts.metricDerivativeProducts;
    let w: Float64Array;
    if (products) w = Float64Array.from(products.christoffelSum(this.factor, t));
    else {
      const dg = this.requireDerivatives();
      const gi = this.inverseMetricMatrix();
      w = new Float64Array(n);
      for (let j = 0; j < n; j++) {
        symmetricMatvecInto(dg[j], gi.column(j), this.work);
        for (let i = 0; i < n; i++) w[i] += this.work[i];
      }
    }
    for (let i = 0; i < n; i++) w[i] = -w[i] + 0.5 * t[i];
    this.applyInverse(w, out);
  }
}

/** The Target of a dense-metric model (see the module comment). */
export function denseMetricTarget(model: DenseMetricModel): DenseMetricTarget {
  return {
    model,
    dim: model.dim,
    logDensity: (x) => model.logDensity(x),
    logDensityAndGradient: (x, grad) => model.logDensityAndGradient(x, grad),
    ...(model.gradient ? { gradient: (x: Float64Array, grad: Float64Array) => model.gradient!(x, grad) } : {}),
    ...(model.coordinateDensity ? { coordinateDensity: (x: Float64Array) => model.coordinateDensity!(x) } : {}),
    geometry: (x) => new DenseGeometry(x, model.denseMetric(x, true)),
    fisherMetric: (x) => new DenseGeometry(x, model.denseMetric(x, false)),
    // the position fixed point of the generalised leapfrog needs only G(x)^-1 (no dG/dx_k)
    inverseMetricAt: (x) => {
      if (!model.metricAt) return new DenseGeometry(x, model.denseMetric(x, false));
      const factor = cholesky(model.metricAt(x), { inPlace: true });
      return {
        applyInverse(p, out) {
          out.set(p);
          factor.solveInPlace(out);
        },
      };
    },
  };
}

/**
 * The model with the contractions of dG/dx_k removed, so that the geometry forms them from the
 * matrices dG_k (the reference path the contractions are tested and benchmarked against).
 */
export function withDerivativeMatricesOnly(model: DenseMetricModel): DenseMetricModel {
  return {
    dim: model.dim,
    logDensity: (x) => model.logDensity(x),
    logDensityAndGradient: (x, grad) => model.logDensityAndGradient(x, grad),
    denseMetric(x, derivatives) {
      const { logDensity, gradient, metric, metricDerivatives } = model.denseMetric(x, derivatives);
      return { logDensity, gradient, metric, metricDerivatives };
    },
    ...(model.metricAt ? { metricAt: (x: Float64Array) => model.metricAt!(x) } : {}),
  };
}

/**
 * The mode of a model whose metric is minus the Hessian of L there (the expected Fisher
 * information of a canonical-link model plus the prior's, as for logistic regression), by Fisher
 * scoring from `start`: x <- x + G(x)^-1 dL/dx until the step is below `tolerance` (max-norm).
 */
export function fisherScoringMode(model: DenseMetricModel, start = new Float64Array(model.dim), tolerance = 1e-10, maxIterations = 100): Float64Array {
  const x = Float64Array.from(start);
  for (let it = 0; it < maxIterations; it++) {
    const parts = model.denseMetric(x, false);
    const step = cholesky(parts.metric).solve(parts.gradient);
    let change = 0;
    for (let k = 0; k < x.length; k++) {
      x[k] += step[k];
      change = Math.max(change, Math.abs(step[k]));
    }
    if (change < tolerance) break;
  }
  return x;
}
