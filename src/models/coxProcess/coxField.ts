/**
 * What the samplers of the Cox process field (models/coxProcess/samplers.ts) see of either covariance of the
 * grid (Girolami & Calderhead 2011, Section 9): a target over the sampler's coordinates theta (the
 * field x itself for the separable covariance, coxProcess.ts; the whitened torus variables nu for
 * the paper's Euclidean one, euclideanCoxProcess.ts), the map theta -> x, and a constant metric
 * in theta. A constant metric makes RMHMC the plain leapfrog with the metric as mass matrix and
 * mMALA the simplified kernel (dG/dtheta = 0: no Christoffel terms, Section 9).
 */
import type { RandomSource } from "../../random/types.js";
import type { LocalMetric, Target } from "../../targets/types.js";
import type { GridDistance } from "./gridCovariance.js";

export interface CoxHyperparameters {
  readonly sigma2: number;
  readonly beta: number;
  readonly mu: number;
}

/** A constant, positive definite metric G in the sampler's coordinates. */
export interface CoxConstantMetric {
  readonly logDet: number;
  /** out <- G^-1 p. */
  applyInverse(p: Float64Array, out: Float64Array): void;
  /** out <- G v. */
  applyMetric(v: Float64Array, out: Float64Array): void;
  /** p' G^-1 p. */
  inverseQuadratic(p: Float64Array): number;
  /** v' G v. */
  metricQuadratic(v: Float64Array): number;
  /** out <- a draw from N(0, G). */
  sampleMomentum(rng: RandomSource, out: Float64Array): void;
}

export interface CoxField extends Target {
  readonly covariance: GridDistance;
  readonly side: number;
  /** N = side^2 cells of the field x (dim, the sampler's coordinates, may be larger). */
  readonly cells: number;
  readonly counts: Float64Array;
  /** Cell area m (the Poisson mean is m exp(x)). */
  readonly cellArea: number;
  readonly hyper: CoxHyperparameters;
  /**
   * lambda = m exp(mu + sigma^2), the diagonal of the paper's Lambda as Section 9 writes it. The
   * expectation it stands for, E[m e^x] with x ~ N(mu, sigma^2), is m exp(mu + sigma^2 / 2): the
   * paper's exponent lacks the 1/2. We keep the paper's value: any constant positive definite
   * metric leaves the samplers exact (it only scales their steps), and the reproductions of
   * Table 13 and Figures 7-8 then run the paper's metric.
   */
  readonly lambda: number;
  /** The sampler's coordinates of x = mu 1, where the paper's chains start. */
  readonly priorMean: Float64Array;
  readonly metric: CoxConstantMetric;
  /** out (N) <- the field x at theta. */
  toField(theta: Float64Array, out: Float64Array): void;
  logDensityAndGradient(theta: Float64Array, grad: Float64Array): number;
}

/** A constant mass matrix as samplers/integrators/massMatrix.ts's MassMatrix has it (structurally: models sit beside samplers). */
export interface ConstantMass {
  readonly dim: number;
  readonly kind: string;
  sampleMomentum(rng: RandomSource, out: Float64Array): void;
  applyInverse(p: Float64Array, out: Float64Array): void;
  kineticEnergy(p: Float64Array): number;
}

/**
 * G as the constant mass matrix of HMC: with a constant metric the generalised leapfrog of RMHMC
 * is the plain leapfrog with M = G (Section 9), so RMHMC here is samplers/kernels/hmc.ts with this mass.
 */
export function constantMetricMass(model: CoxField): ConstantMass {
  const g = model.metric;
  return {
    dim: model.dim,
    kind: "cox-process-metric",
    sampleMomentum: (rng, out) => g.sampleMomentum(rng, out),
    applyInverse: (p, out) => g.applyInverse(p, out),
    kineticEnergy: (p) => 0.5 * g.inverseQuadratic(p),
  };
}

/**
 * The target with its constant metric for manifold MALA. With dG/dtheta = 0 the Christoffel terms
 * of the mMALA drift (G&C Section 5, after eq. 13) vanish, so mMALA is exactly the simplified kernel of
 * samplers/kernels/smmala.ts on this metric.
 */
export function coxProcessMetricTarget(model: CoxField): Target {
  const g = model.metric;
  return {
    dim: model.dim,
    logDensity: (x) => model.logDensity(x),
    logDensityAndGradient: (x, grad) => model.logDensityAndGradient(x, grad),
    fisherMetric(x): LocalMetric {
      const gradient = new Float64Array(model.dim);
      const logDensity = model.logDensityAndGradient(x, gradient);
      return {
        position: Float64Array.from(x),
        logDensity,
        gradient,
        logDetMetric: g.logDet,
        logDetMetricUpToConstant: 0,
        applyInverse: (p, out) => g.applyInverse(p, out),
        applyMetric: (v, out) => g.applyMetric(v, out),
        metricQuadraticForm: (v) => g.metricQuadratic(v),
        sampleMomentum: (rng, out) => g.sampleMomentum(rng, out),
      };
    },
  };
}

/** sum_k (y_k x_k - m exp(x_k)): the Poisson log-likelihood of the field (eq. 31) up to a constant. */
export function fieldLogLikelihood(counts: Float64Array, cellArea: number, x: Float64Array): number {
  let s = 0;
  for (let k = 0; k < x.length; k++) s += counts[k] * x[k] - cellArea * Math.exp(x[k]);
  return s;
}

/** The counts of an n x n grid as a Float64Array, after checking them, the cell area and mu. */
export function checkedCounts(side: number, counts: ArrayLike<number>, cellArea: number, mu: number): Float64Array {
  const n = side * side;
  if (counts.length !== n) throw new RangeError(`the counts have ${counts.length} cells, the ${side} x ${side} grid ${n}`);
  if (!(cellArea > 0) || !Number.isFinite(cellArea)) throw new RangeError(`the cell area m must be finite and positive, got ${cellArea}`);
  if (!Number.isFinite(mu)) throw new RangeError(`mu must be finite, got ${mu}`);
  return Float64Array.from(counts);
}

/**
 * A constant metric G = U diag(g) U' given by its eigenvalues g in an orthogonal (or unitary, with
 * real results) basis U that `applySpectral` rotates through: G^-1, G, G^1/2 are the weights 1/g,
 * g, sqrt(g); log|G| = sum log g.
 */
export abstract class SpectralMetric implements CoxConstantMetric {
  protected readonly inverse: Float64Array;
  protected readonly root: Float64Array;
  protected readonly work: Float64Array;
  readonly logDet: number;

  constructor(protected readonly g: Float64Array) {
    this.inverse = g.map((v) => 1 / v);
    this.root = g.map(Math.sqrt);
    let s = 0;
    for (let k = 0; k < g.length; k++) s += Math.log(g[k]);
    this.logDet = s;
    this.work = new Float64Array(g.length);
  }

  /** out <- U diag(w) U' v (out may be `work`, never v's scratch). */
  protected abstract applySpectral(w: Float64Array, v: Float64Array, out: Float64Array): void;

  applyInverse(p: Float64Array, out: Float64Array): void {
    this.applySpectral(this.inverse, p, out);
  }

  applyMetric(v: Float64Array, out: Float64Array): void {
    this.applySpectral(this.g, v, out);
  }

  inverseQuadratic(p: Float64Array): number {
    this.applyInverse(p, this.work);
    return dot(p, this.work);
  }

  metricQuadratic(v: Float64Array): number {
    this.applyMetric(v, this.work);
    return dot(v, this.work);
  }

  /** G^1/2 z with z ~ N(0, I): G^1/2 is symmetric, so G^1/2 z ~ N(0, G). */
  sampleMomentum(rng: RandomSource, out: Float64Array): void {
    rng.fillNormal(this.work);
    this.applySpectral(this.root, this.work, out);
  }
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}
