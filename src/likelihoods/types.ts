import type { RandomSource } from "../random/types.js";

/**
 * The contract every likelihood p(y_i | f_i) meets (one module per likelihood, like GPstuff's
 * lik_* files with ll, llg, llg2, llg3). All methods act on whole vectors, point by point.
 */
export interface Likelihood {
  readonly name: string;
  /** sum_i log p(y_i | f_i). */
  logLikelihood(y: Float64Array, f: Float64Array): number;
  /**
   * Fills the first, second and (when given) third derivatives of log p(y_i | f_i) in f_i,
   * and returns sum_i log p(y_i | f_i).
   */
  derivatives(y: Float64Array, f: Float64Array, d1: Float64Array, d2: Float64Array, d3?: Float64Array): number;
  /**
   * Where a likelihood has a cheaper way to the first derivatives alone (what a leapfrog step
   * needs): fills d1 as `derivatives` does and returns sum_i log p(y_i | f_i).
   */
  gradient?(y: Float64Array, f: Float64Array, d1: Float64Array): number;
  /**
   * The first derivatives alone, without the log-likelihood (its logarithms are most of the cost
   * of `gradient`): what a leapfrog step between the ends of a trajectory needs. Fills d1 as
   * `derivatives` does.
   */
  score?(y: Float64Array, f: Float64Array, d1: Float64Array): void;
  /** Expected Fisher information E_y[-d^2 log p(y | f_i) / df_i^2] (R_ii of the comparison paper). */
  fisherInformation(f: Float64Array, out: Float64Array): Float64Array;
  /** Draws y_i ~ p(y | f_i) into out. */
  sample(f: Float64Array, rng: RandomSource, out: Float64Array): Float64Array;
  /** Throws a LikelihoodDataError naming the first response that this likelihood cannot take. */
  checkResponses(y: Float64Array): void;
}

/** A response value a likelihood cannot take (index is 0-based). */
export class LikelihoodDataError extends Error {
  readonly index: number;
  constructor(likelihood: string, index: number, value: number, expected: string) {
    super(`${likelihood} likelihood: response ${index + 1} is ${value}, expected ${expected}`);
    this.name = "LikelihoodDataError";
    this.index = index;
  }
}
