/**
 * The log-Gaussian Cox process with the paper's Euclidean covariance (Girolami & Calderhead 2011,
 * Section 9, eq. 31), Sigma = sigma^2 exp(-||c - c'|| / (n beta)), sampled in whitened
 * coordinates: with C the circulant embedding of Sigma on an M x M torus (circulantGrid.ts) and
 * R the restriction to the grid, x = mu + R C^1/2 nu with nu ~ N(0, I_{M^2}) is exactly
 * N(mu, Sigma). The target over nu,
 *
 *   log pi(nu) = sum_k (y_k x_k - m exp(x_k)) - |nu|^2 / 2,
 *   grad = C^1/2 R' (y - m exp(x)) - nu,
 *
 * has x | y as the law of x(nu), and each evaluation costs two pairs of 2-D FFTs (O(N log N)).
 *
 * The constant metric. The paper's metric is the expected Fisher information; in nu it is
 * I + C^1/2 R' Lambda R C^1/2 with Lambda = lambda I, lambda = m exp(mu + sigma^2) (Section 9:
 * Sigma_kk = sigma^2 for every cell; the paper's value, kept though E[m e^x] is m exp(mu + sigma^2 / 2):
 * see CoxField.lambda). We take G = I + lambda C, the same with the whole torus
 * observed (R'R replaced by I): diagonal in Fourier space, so G^-1, G^1/2 and log|G| cost one FFT
 * pair. Any constant positive-definite mass matrix leaves HMC's and MALA's targets invariant, so
 * this changes the efficiency, not the correctness. G exceeds the paper's metric by
 * lambda C^1/2 (I - R'R) C^1/2, the information the padding would carry were it observed.
 */
import { CirculantGrid } from "./circulantGrid.js";
import { checkedCounts, fieldLogLikelihood, SpectralMetric, type CoxField, type CoxHyperparameters } from "./coxField.js";

export interface EuclideanCoxModel extends CoxField {
  readonly covariance: "euclidean";
  readonly grid: CirculantGrid;
  /** Eigenvalues 1 + lambda lambda_k(C) of G, in the torus DFT's order. */
  readonly metricEigenvalues: Float64Array;
}

/** `torus`: a given torus side (tests; by default the smallest power of two >= 2n with a non-negative embedding). */
export function euclideanCoxProcessModel(side: number, counts: ArrayLike<number>, hyper: CoxHyperparameters, cellArea = 1 / (side * side), options: { torus?: number } = {}): EuclideanCoxModel {
  const grid = new CirculantGrid(side, hyper.sigma2, hyper.beta, options);
  const n = grid.size;
  const y = checkedCounts(side, counts, cellArea, hyper.mu);
  const m = cellArea;
  const mu = hyper.mu;
  const big = grid.torusSize;
  const lambda = m * Math.exp(mu + hyper.sigma2);
  const metricEigenvalues = grid.eigenvalues.map((l) => 1 + lambda * l);
  const x = new Float64Array(n);
  const r = new Float64Array(n);

  const toField = (nu: Float64Array, out: Float64Array) => {
    grid.rootToGrid(nu, out);
    for (let k = 0; k < n; k++) out[k] += mu;
  };

  function evaluate(nu: Float64Array, grad: Float64Array | undefined): number {
    toField(nu, x);
    let prior = 0;
    for (let k = 0; k < big; k++) prior += nu[k] * nu[k];
    const lp = fieldLogLikelihood(y, m, x) - 0.5 * prior;
    if (grad) {
      for (let k = 0; k < n; k++) r[k] = y[k] - m * Math.exp(x[k]);
      grid.rootFromGrid(r, grad);
      for (let k = 0; k < big; k++) grad[k] -= nu[k];
    }
    return lp;
  }

  return {
    covariance: "euclidean",
    dim: big,
    cells: n,
    side,
    counts: y,
    cellArea: m,
    hyper,
    lambda,
    grid,
    metricEigenvalues,
    priorMean: new Float64Array(big),
    metric: new CirculantMetric(grid, metricEigenvalues),
    toField,
    logDensity: (nu) => evaluate(nu, undefined),
    logDensityAndGradient: (nu, grad) => evaluate(nu, grad),
    gradient: (nu, grad) => void evaluate(nu, grad),
  };
}

/** G = F^-1 diag(g) F on the torus (F the 2-D DFT): G^-1 p, G v, draws from N(0, G), log|G|. */
class CirculantMetric extends SpectralMetric {
  constructor(private readonly grid: CirculantGrid, g: Float64Array) {
    super(g);
  }

  protected applySpectral(w: Float64Array, v: Float64Array, out: Float64Array): void {
    this.grid.applySpectral(w, v, out);
  }
}
