/**
 * The log-Gaussian Cox process on an n x n grid (Girolami & Calderhead 2011, Section 9, eq. 31;
 * Christensen et al. 2005) with the SEPARABLE covariance, sampled in x itself (the paper's
 * Euclidean covariance is euclideanCoxProcess.ts; fieldModel.ts picks either): counts
 * y_k ~ Poisson(m exp(x_k)) independently given the latent field
 * x ~ N(mu 1, Sigma), with Sigma the grid covariance of kroneckerGrid.ts and, by default,
 * m = 1/N, sigma^2 = 1.91, beta = 1/33, mu = log(126) - sigma^2/2 (Section 9.1). With the
 * hyperparameters fixed the target is x | y:
 *
 *   L(x) = sum_k (y_k x_k - m exp(x_k)) - 1/2 (x - mu)' Sigma^-1 (x - mu),
 *   dL/dx = y - m exp(x) - Sigma^-1 (x - mu),
 *
 * and the metric is the expected Fisher information G = Lambda + Sigma^-1 with
 * Lambda_kk = m exp(mu + Sigma_kk) (Section 9): constant in x, and, since Sigma_kk = sigma^2 for
 * every cell, Lambda = lambda I. G therefore has Sigma's eigenvectors and eigenvalues
 * g_k = lambda + 1/d_k, so G^-1, G^1/2 and log|G| all cost two Kronecker rotations (O(N^1.5)).
 */
import type { RandomSource } from "../../random/types.js";
import { checkedCounts, fieldLogLikelihood, SpectralMetric, type CoxField, type CoxHyperparameters } from "./coxField.js";
import { KroneckerGrid } from "./kroneckerGrid.js";

export { constantMetricMass, coxProcessMetricTarget, type ConstantMass, type CoxHyperparameters } from "./coxField.js";

/** Section 9.1's values. */
export const PAPER_SIGMA2 = 1.91;
export const PAPER_BETA = 1 / 33;
export const PAPER_MEAN_INTENSITY = 126;
export const paperMu = (sigma2: number): number => Math.log(PAPER_MEAN_INTENSITY) - sigma2 / 2;

/** The field with the separable covariance, sampled in x itself. */
export interface CoxProcessModel extends CoxField {
  readonly covariance: "separable";
  readonly grid: KroneckerGrid;
  /** Eigenvalues g_k = lambda + 1/d_k of G (in the grid's eigenbasis). */
  readonly metricEigenvalues: Float64Array;
  logDensityAndGradient(x: Float64Array, grad: Float64Array): number;
}

/** The paper's hyperparameters for an n x n grid (mu from sigma^2 as Section 9.1 sets it). */
export function paperHyperparameters(sigma2 = PAPER_SIGMA2, beta = PAPER_BETA): CoxHyperparameters {
  return { sigma2, beta, mu: paperMu(sigma2) };
}

export function coxProcessModel(side: number, counts: ArrayLike<number>, hyper: CoxHyperparameters, cellArea = 1 / (side * side)): CoxProcessModel {
  const grid = new KroneckerGrid(side, hyper.sigma2, hyper.beta);
  const n = grid.size;
  const y = checkedCounts(side, counts, cellArea, hyper.mu);
  const m = cellArea;
  const mu = hyper.mu;
  const inverseD = grid.d.map((d) => 1 / d);
  const lambda = m * Math.exp(mu + hyper.sigma2);
  const metricEigenvalues = grid.d.map((d) => lambda + 1 / d);
  const r = new Float64Array(n);
  const z = new Float64Array(n);
  const sr = new Float64Array(n);

  /** L(x); with `grad`, also dL/dx. Sigma^-1 r as Q (z / d) with z = Q' r. */
  function evaluate(x: Float64Array, grad: Float64Array | undefined): number {
    const lik = fieldLogLikelihood(y, m, x);
    for (let k = 0; k < n; k++) r[k] = x[k] - mu;
    grid.rotateIn(r, z);
    let quad = 0;
    for (let k = 0; k < n; k++) {
      quad += z[k] * z[k] * inverseD[k];
      z[k] *= inverseD[k];
    }
    if (grad) {
      grid.rotateOut(z, sr);
      for (let k = 0; k < n; k++) grad[k] = y[k] - m * Math.exp(x[k]) - sr[k];
    }
    return lik - 0.5 * quad;
  }

  return {
    covariance: "separable",
    dim: n,
    cells: n,
    side,
    counts: y,
    cellArea: m,
    hyper,
    grid,
    lambda,
    metricEigenvalues,
    priorMean: new Float64Array(n).fill(mu),
    metric: new SeparableMetric(grid, metricEigenvalues),
    toField: (theta, out) => out.set(theta),
    logDensity: (x) => evaluate(x, undefined),
    logDensityAndGradient: (x, grad) => evaluate(x, grad),
  };
}

/** G = (Q kron Q) diag(g) (Q kron Q)': G^-1 p, G v, draws from N(0, G), p' G^-1 p, log|G|. */
class SeparableMetric extends SpectralMetric {
  private readonly scratch: Float64Array;

  constructor(private readonly grid: KroneckerGrid, g: Float64Array) {
    super(g);
    this.scratch = new Float64Array(g.length);
  }

  protected applySpectral(w: Float64Array, v: Float64Array, out: Float64Array): void {
    this.grid.applySpectral(w, v, out, this.scratch);
  }

  /** p' G^-1 p = |Q' p|^2 weighted: one rotation. */
  override inverseQuadratic(p: Float64Array): number {
    return this.quadratic(p, this.inverse);
  }

  override metricQuadratic(v: Float64Array): number {
    return this.quadratic(v, this.g);
  }

  private quadratic(v: Float64Array, w: Float64Array): number {
    this.grid.rotateIn(v, this.scratch);
    let s = 0;
    for (let k = 0; k < w.length; k++) s += this.scratch[k] * this.scratch[k] * w[k];
    return s;
  }

  /** out <- Q diag(sqrt(g)) z with z ~ N(0, I): a draw from N(0, G). */
  override sampleMomentum(rng: RandomSource, out: Float64Array): void {
    rng.fillNormal(this.scratch);
    for (let k = 0; k < this.root.length; k++) this.scratch[k] *= this.root[k];
    this.grid.rotateOut(this.scratch, out);
  }
}
