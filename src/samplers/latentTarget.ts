/**
 * What the samplers of f | y, theta (comparison paper, Section 3) take from a latent GP model
 * with the prior f ~ N(0, K) and a factorising likelihood p(y | f) = prod_i p(y_i | f_i).
 * `AnnealedLatentTarget` (targets/annealedLatent.ts) is one: with beta = 1 and q the prior its
 * log density is W(f) = log p(y | f) + log N(f; 0, K), the paper's W (Section 3).
 *
 * MH v2 and elliptical slice sampling leave the prior invariant by construction and accept on
 * the likelihood alone, so they need the density split into its prior and its likelihood part.
 * For the annealed target L_beta with q the prior that split is
 *   L_beta(f) = beta log p(y | f) + log N(f; 0, K),
 * so the "likelihood" is beta log p(y | f). With an EP-style q (note eq. 4) the Gaussian part is
 * no longer N(0, K) and those samplers refuse the target.
 */
import type { Cholesky } from "../linalg/cholesky.js";
import type { Matrix } from "../linalg/matrix.js";
import type { Likelihood } from "../likelihoods/types.js";
import type { Target } from "../targets/types.js";

export interface LatentGpTarget extends Target {
  readonly likelihood: Likelihood;
  readonly y: Float64Array;
  /** Inverse temperature of the likelihood (1 for the posterior). */
  readonly beta: number;
  /** Whether the Gaussian part of the density is the prior N(0, K). */
  readonly qIsPrior: boolean;
  /** K (symmetric; its lower triangle is read). */
  readonly kernelMatrix: Matrix;
  /** K = L_K L_K'. */
  readonly kernelCholesky: Cholesky;
  logDensityAndGradient(x: Float64Array, grad: Float64Array): number;
}

/** Throws unless the target's Gaussian part is the prior N(0, K), naming the sampler that needs it. */
export function requirePriorSplit(target: LatentGpTarget, sampler: string): void {
  if (!target.qIsPrior) {
    throw new RangeError(`${sampler}: the target's Gaussian part is not the prior N(0, K) (an EP-style q); ${sampler} needs the prior/likelihood split`);
  }
  if (target.kernelCholesky.n !== target.dim) {
    throw new RangeError(`${sampler}: the Cholesky factor of K has order ${target.kernelCholesky.n}, the target dimension is ${target.dim}`);
  }
}

/** beta log p(y | f): the part of L_beta that is not the prior (see the module comment). */
export function temperedLogLikelihood(target: LatentGpTarget, f: Float64Array): number {
  const beta = target.beta;
  if (beta === 0) return 0;
  const ll = target.likelihood.logLikelihood(target.y, f);
  return beta === 1 ? ll : beta * ll;
}
