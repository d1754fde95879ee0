/** Options a likelihood is built from, and the error for a bad one. */

/** A likelihood option that is missing, malformed, or does not apply (option is its name in LikelihoodOptions). */
export class LikelihoodOptionError extends Error {
  readonly option: string;
  constructor(option: string, message: string) {
    super(`likelihood option ${option}: ${message}`);
    this.name = "LikelihoodOptionError";
    this.option = option;
  }
}

/** Everything likelihoodByName may be given; each likelihood takes only the options that concern it. */
export interface LikelihoodOptions {
  /** poisson: exposure or cell area m_i > 0 (one value, or one per point); the rate is m_i exp(f_i). */
  exposure?: number | ArrayLike<number>;
  /** ordinal: the finite thresholds b_1 < ... < b_{r-1} (r categories). */
  thresholds?: ArrayLike<number>;
  /** ordinal: the sd sigma_delta of the latent noise (default 1). */
  noiseSd?: number;
}
