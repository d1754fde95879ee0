/**
 * Synthetic data of Section 9.1 (Girolami & Calderhead 2011, after Christensen et al. 2005): a
 * latent field x ~ N(mu 1, Sigma) on the n x n grid, drawn, for the paper's Euclidean covariance,
 * as mu + R C^1/2 nu with nu ~ N(0, I_{M^2}) on the embedding torus (circulantGrid.ts), for the
 * separable one as mu + (Q kron Q) diag(sqrt(d)) z with z ~ N(0, I) (kroneckerGrid.ts), then counts y_k ~ Poisson(m exp(x_k)). The field and the counts
 * depend on the seed alone (one stream for z, then one for y).
 */
import { samplePoisson } from "../../likelihoods/poisson.js";
import { Rng } from "../../random/rng.js";
import { CirculantGrid } from "./circulantGrid.js";
import type { CoxHyperparameters } from "./coxField.js";
import type { GridDistance } from "./gridCovariance.js";
import { KroneckerGrid } from "./kroneckerGrid.js";

export interface SimulatedCoxProcess {
  readonly side: number;
  readonly hyper: CoxHyperparameters;
  readonly cellArea: number;
  readonly seed: number;
  readonly covariance: GridDistance;
  /** The true field x, index i + n j (row i, column j). */
  readonly field: Float64Array;
  readonly counts: Float64Array;
}

export function simulateCoxProcess(side: number, hyper: CoxHyperparameters, seed: number, cellArea = 1 / (side * side), covariance: GridDistance = "euclidean"): SimulatedCoxProcess {
  const n = side * side;
  const fieldRng = new Rng(seed, 0);
  const field = new Float64Array(n);
  if (covariance === "euclidean") {
    const grid = new CirculantGrid(side, hyper.sigma2, hyper.beta);
    grid.rootToGrid(fieldRng.fillNormal(new Float64Array(grid.torusSize)), field);
  } else {
    const grid = new KroneckerGrid(side, hyper.sigma2, hyper.beta);
    const z = fieldRng.fillNormal(new Float64Array(n));
    for (let k = 0; k < n; k++) z[k] *= Math.sqrt(grid.d[k]);
    grid.rotateOut(z, field);
  }
  for (let k = 0; k < n; k++) field[k] += hyper.mu;
  const countRng = new Rng(seed, 1);
  const counts = field.map((x) => samplePoisson(cellArea * Math.exp(x), countRng));
  return { side, hyper, cellArea, seed, covariance, field, counts };
}
