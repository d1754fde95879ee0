/**
 * The data sets of the hyperparameter chains of the comparison paper's Tables 3-6 (Sections
 * 4.1 and 5): simulated data sets of src/run/simulate.ts, and real data sets (a CSV of the
 * repository, logistic likelihood) with their features standardised ("all features were
 * transformed to have zero mean and unit standard deviation").
 */
import { fileURLToPath } from "node:url";
import { DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR, hyperSpace } from "../hyper/jointKernel.js";
import type { HyperSpace } from "../hyper/covariance.js";
import { readDataset } from "../io/dataset.js";
import { Matrix } from "../linalg/matrix.js";
import type { LikelihoodOptions } from "../likelihoods/options.js";
import { simulateLatentGp, simulateResponses, type SimulationLikelihood } from "../run/simulate.js";
import { dataSetSeed } from "./simulatedChainJob.js";

/** One data set of a cell: the model's hyperparameter space, the responses and, when simulated, the truth. */
export interface HyperProblem {
  n: number;
  d: number;
  space: HyperSpace;
  likelihood: string;
  likelihoodOptions: LikelihoodOptions;
  y: Float64Array;
  /** The true t = (psi_1..psi_d, log sigma) and f (simulated data only). */
  tTrue?: Float64Array;
  fTrue?: Float64Array;
}

/** The package's root (this module runs as dist/src/grid/hyperProblems.js): where repository-relative data files are. */
export function packageRoot(): string {
  return fileURLToPath(new URL("../../../", import.meta.url));
}

/**
 * Columns centred and divided by their sample standard deviation (n - 1); a constant column (the
 * Ionosphere data's x2) becomes all zeros.
 */
export function standardiseColumns(X: Matrix): Matrix {
  const n = X.rows;
  const out = X.clone();
  for (let j = 0; j < X.cols; j++) {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += X.data[i + j * n]!;
    mean /= n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (X.data[i + j * n]! - mean) ** 2;
    const sd = Math.sqrt(ss / (n - 1));
    for (let i = 0; i < n; i++) out.data[i + j * n] = sd > 0 ? (X.data[i + j * n]! - mean) / sd : 0;
  }
  return out;
}

function spaceOf(X: Matrix, likelihood: string): HyperSpace {
  return hyperSpace(X, { likelihood, lengthscalePrior: DEFAULT_LENGTHSCALE_PRIOR, variancePrior: DEFAULT_VARIANCE_PRIOR });
}

/**
 * Data set s of (likelihood, n, d), simulated from the seed of (base, n, d, s): X, theta and f
 * are shared by the likelihoods (and with Table 2's data sets of the same seed).
 */
export function simulatedProblem(base: number, likelihood: SimulationLikelihood, n: number, d: number, s: number): HyperProblem {
  const latent = simulateLatentGp(n, d, dataSetSeed(base, n, d, s));
  const data = simulateResponses(latent, likelihood);
  return {
    n, d, likelihood, likelihoodOptions: data.likelihoodOptions, y: data.y,
    space: spaceOf(latent.X, likelihood),
    tTrue: Float64Array.from([...latent.logLengthscale, 2 * latent.logSignalSd]),
    fTrue: latent.f,
  };
}

/**
 * A real data set: the CSV `file` (relative to the package's root), logistic likelihood, labels
 * 0/1, features standardised (Table 6).
 */
export function csvProblem(file: string): HyperProblem {
  const data = readDataset(packageRoot() + file, { labels: "binary", binaryCoding: "zeroOne" });
  return { n: data.n, d: data.d, likelihood: "logistic", likelihoodOptions: {}, y: data.y, space: spaceOf(standardiseColumns(data.X), "logistic") };
}
