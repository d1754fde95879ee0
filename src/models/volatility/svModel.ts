/**
 * The stochastic volatility model of Girolami & Calderhead 2011, Section 8 and Appendix A (after
 * Liu 2001; Kim, Shephard & Chib 1998):
 *
 *   y_t = eps_t beta exp(x_t / 2),  eps_t ~ N(0, 1),                    t = 1..T
 *   x_1 ~ N(0, sigma^2 / (1 - phi^2)),  x_{t+1} = phi x_t + eta_{t+1},  eta ~ N(0, sigma^2)
 *
 * with the priors as the paper prints them (Section 8 and Appendix A, eq. 33):
 *
 *   p(beta) proportional to exp(beta) on beta > 0;
 *   sigma^2 ~ Inv-chi^2(10, 0.05), read as Gelman's scaled inverse chi-squared
 *     Scaled-Inv-chi^2(nu = 10, s^2 = 0.05): p(sigma^2) propto (sigma^2)^-(nu/2 + 1) exp(-nu s^2 / (2 sigma^2));
 *   (phi + 1) / 2 ~ Beta(20, 1.5).
 *
 * The parameters are sampled as (beta, sigma, phi) (the paper's coordinates of the metric), so the
 * density of sigma carries the Jacobian 2 sigma of sigma -> sigma^2:
 *   log p(sigma) = -(nu + 1) log sigma - nu s^2 / (2 sigma^2).
 * The beta prior is improper and so is the posterior: beta^-T exp(beta) grows for beta -> infinity,
 * far out (beta of order T log beta); chains started near the data never see that tail. A tilt
 * other than 1 (`betaPriorRate`, log p(beta) = rate * beta) is offered for tests: a negative one is
 * a proper exponential prior.
 *
 * The joint log density (up to a constant), with S = sum_t y_t^2 exp(-x_t) and
 * Q = (1 - phi^2) x_1^2 + sum_{t>=2} (x_t - phi x_{t-1})^2:
 *
 *   log p(y, x, beta, sigma, phi) = -T log beta - sum x_t / 2 - S / (2 beta^2)
 *                                   - T log sigma + 1/2 log(1 - phi^2) - Q / (2 sigma^2) + log priors.
 */
import type { FaultOf } from "../../math/negativeControl.js";

/** The prior's constants (the paper's). */
export const SV_PRIOR = {
  /** log p(beta) = betaRate * beta (the paper: p(beta) propto exp(beta)). */
  betaRate: 1,
  /** Scaled-Inv-chi^2(nu, s^2) for sigma^2. */
  nu: 10,
  s2: 0.05,
  /** (phi + 1) / 2 ~ Beta(a, b). */
  a: 20,
  b: 1.5,
} as const;

/** The paper's true values for the simulated data (Section 8.3, after Liu 2001). */
export const SV_TRUTH = { beta: 0.65, sigma: 0.15, phi: 0.98, T: 2000 } as const;

/**
 * The fewest observations for which the parameters' metric is positive definite on the whole
 * support: the prior's -(nu + 1) / sigma^2 in G_sigma,sigma is then outweighed (see
 * parameterMetric), T >= (nu + 3) / 2.
 */
export const SV_MIN_OBSERVATIONS = Math.ceil((SV_PRIOR.nu + 3) / 2);

export interface SvPriorOptions {
  /** log p(beta) = betaPriorRate * beta (default 1, the paper). */
  betaPriorRate?: number;
  /**
   * Test-only negative control: "x1-variance" gives x_1 the variance sigma^2 instead of the
   * stationary sigma^2 / (1 - phi^2) in the latent block's density (a wrong target).
   * @internal
   */
  broken?: FaultOf<"sv-prior">;
}

/** The statistics of x (and y) that the parameters' conditional depends on (O(T) to form, O(1) to use). */
export interface LatentStatistics {
  readonly T: number;
  /** sum_t y_t^2 exp(-x_t). */
  readonly S: number;
  /** x_1^2. */
  readonly x1sq: number;
  /** sum_{t>=2} x_t^2. */
  readonly sumTail: number;
  /** sum_{t>=2} x_{t-1}^2. */
  readonly sumHead: number;
  /** sum_{t>=2} x_{t-1} x_t. */
  readonly sumCross: number;
  /** sum_t x_t. */
  readonly sumX: number;
}

export function latentStatistics(y: Float64Array, x: ArrayLike<number>): LatentStatistics {
  const T = y.length;
  let S = 0, sumTail = 0, sumHead = 0, sumCross = 0, sumX = 0;
  for (let t = 0; t < T; t++) {
    S += y[t] * y[t] * Math.exp(-x[t]);
    sumX += x[t];
    if (t > 0) {
      sumTail += x[t] * x[t];
      sumHead += x[t - 1] * x[t - 1];
      sumCross += x[t - 1] * x[t];
    }
  }
  return { T, S, x1sq: x[0] * x[0], sumTail, sumHead, sumCross, sumX };
}

/** Whether (beta, sigma, phi) lies in the support beta > 0, sigma > 0, |phi| < 1. */
export function inSupport(beta: number, sigma: number, phi: number): boolean {
  return beta > 0 && sigma > 0 && phi > -1 && phi < 1 && Number.isFinite(beta) && Number.isFinite(sigma);
}

/** Q = (1 - phi^2) x_1^2 + sum_{t>=2} (x_t - phi x_{t-1})^2 and dQ/dphi. */
function quadratic(s: LatentStatistics, phi: number): { Q: number; dQ: number } {
  return {
    Q: (1 - phi * phi) * s.x1sq + s.sumTail - 2 * phi * s.sumCross + phi * phi * s.sumHead,
    dQ: -2 * phi * s.x1sq - 2 * s.sumCross + 2 * phi * s.sumHead,
  };
}

/** log p(y, x | beta, sigma, phi) (no priors), up to -T log(2 pi). */
export function svLogLikelihood(s: LatentStatistics, beta: number, sigma: number, phi: number): number {
  if (!inSupport(beta, sigma, phi)) return -Infinity;
  const { Q } = quadratic(s, phi);
  const T = s.T;
  return -T * Math.log(beta) - 0.5 * s.sumX - s.S / (2 * beta * beta) - T * Math.log(sigma) + 0.5 * Math.log(1 - phi * phi) - Q / (2 * sigma * sigma);
}

/** d log p(y, x | theta) / d(beta, sigma, phi) (Appendix A, eqs. 34-36) into out. */
export function svLikelihoodGradient(s: LatentStatistics, beta: number, sigma: number, phi: number, out: Float64Array): void {
  const T = s.T;
  const { Q, dQ } = quadratic(s, phi);
  out[0] = -T / beta + s.S / (beta * beta * beta); // eq. (34)
  out[1] = -T / sigma + Q / (sigma * sigma * sigma); // eq. (35)
  out[2] = -phi / (1 - phi * phi) - dQ / (2 * sigma * sigma); // eq. (36)
}

/** The log prior density of (beta, sigma, phi) (module comment), up to a constant. */
export function svLogPrior(beta: number, sigma: number, phi: number, betaRate: number = SV_PRIOR.betaRate): number {
  if (!inSupport(beta, sigma, phi)) return -Infinity;
  const { nu, s2, a, b } = SV_PRIOR;
  return betaRate * beta - (nu + 1) * Math.log(sigma) - (nu * s2) / (2 * sigma * sigma) + (a - 1) * Math.log1p(phi) + (b - 1) * Math.log1p(-phi);
}

/** d log prior / d(beta, sigma, phi), added into out. */
export function addPriorGradient(beta: number, sigma: number, phi: number, betaRate: number, out: Float64Array): void {
  const { nu, s2, a, b } = SV_PRIOR;
  out[0] += betaRate;
  out[1] += -(nu + 1) / sigma + (nu * s2) / (sigma * sigma * sigma);
  out[2] += (a - 1) / (1 + phi) - (b - 1) / (1 - phi);
}
