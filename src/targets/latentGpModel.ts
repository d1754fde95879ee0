/**
 * The latent GP model a run samples, built from plain data (a design matrix, responses, and
 * the kernel's log-scale hyperparameters), so that the `sample` and `ais` commands, AIS,
 * benchmarks and worker threads rebuilding a chain from a serialisable description all build
 * the same target. It lives with the targets (below samplers, AIS and runs) so that each of
 * those can build it without importing the others.
 */
import { seKernel } from "../gp/index.js";
import { resolveJitter, type JitterPolicy } from "../gp/jitter.js";
import { Matrix } from "../linalg/matrix.js";
import { likelihoodByName } from "../likelihoods/registry.js";
import { annealedLatentTarget, type AnnealedLatentTarget, type GaussianApproximation } from "./annealedLatent.js";

/** Inputs (n x d, column-major; row i is case i) and responses. */
export interface LatentGpData {
  X: Matrix;
  y: Float64Array;
}

/** The model: likelihood and squared-exponential kernel hyperparameters (log scale). Plain data. */
export interface LatentGpModelSpec {
  /** A name in the likelihood registry (src/likelihoods/registry.ts), e.g. "probit". */
  likelihood: string;
  /** The likelihood's options, for those that take any (ordinal: thresholds, noiseSd; poisson: exposure). */
  likelihoodOptions?: LatentGpLikelihoodOptions;
  /** One value (shared lengthscale) or one per input column (ARD). */
  logLengthscale: number[];
  logSignalSd: number;
  /**
   * Added to the diagonal of K (src/gp/jitter.ts): a number (absolute; 0 none), "auto" (see
   * AnnealedLatentOptions.jitter), or { relative: r }, r x the signal variance; default none.
   */
  jitter?: JitterPolicy;
}

/** A likelihood's options as plain data (LikelihoodOptions with arrays). */
export interface LatentGpLikelihoodOptions {
  thresholds?: number[];
  noiseSd?: number;
  exposure?: number | number[];
}

/**
 * The posterior target L_1(f) = log p(y | f) + log N(f; 0, K) (note eq. 4 at beta = 1, q the
 * prior) for inputs X (n x d, column-major) and responses y; with `q`, the annealed target of
 * eq. 4 whose beta = 0 end is q instead of the prior (at beta = 1 it is the same posterior).
 */
export function latentGpTarget(X: Matrix, y: Float64Array, spec: LatentGpModelSpec, onJitter?: (message: string) => void, q?: GaussianApproximation): AnnealedLatentTarget {
  const likelihood = likelihoodByName(spec.likelihood, spec.likelihoodOptions ?? {});
  const kernel = seKernel({ logLengthscale: spec.logLengthscale.length === 1 ? spec.logLengthscale[0] : spec.logLengthscale, logSignalSd: spec.logSignalSd });
  const jitter = resolveJitter(spec.jitter, spec.logSignalSd);
  // A relative jitter is the model's own, recorded with the run: nothing to warn about.
  const say = typeof spec.jitter === "object" ? () => {} : onJitter;
  return annealedLatentTarget({ likelihood, y, kernelMatrix: kernel.matrix(X), jitter, onJitter: say, q });
}

/** The first `rows` cases of X (n x d, column-major) and y. */
export function firstRows(X: Matrix, y: Float64Array, rows: number): { X: Matrix; y: Float64Array } {
  if (!Number.isInteger(rows) || rows < 1 || rows > X.rows) throw new RangeError(`rows must be an integer in 1..${X.rows}, got ${rows}`);
  const n = X.rows;
  const d = X.cols;
  const out = new Matrix(rows, d);
  for (let k = 0; k < d; k++) out.data.set(X.data.subarray(k * n, k * n + rows), k * rows);
  return { X: out, y: y.slice(0, rows) };
}
