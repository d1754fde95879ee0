/**
 * The parameters' block of the stochastic volatility model (Girolami & Calderhead 2011, Section
 * 8.1 and Appendix A): the conditional p(beta, sigma, phi | y, x) as a dense-metric model with the
 * 3 x 3 metric
 *
 *   G = I(beta, sigma, phi) + (minus the Hessian of the log priors),
 *
 * I the expected Fisher information of the complete likelihood p(y, x | beta, sigma, phi) (over y
 * and the stationary x), derived again here:
 *
 *   I_bb = 2T / beta^2,  I_ss = 2T / sigma^2,  I_sp = 2 phi / (sigma (1 - phi^2)),
 *   I_pp = 2 phi^2 / (1 - phi^2)^2 + (T - 1) / (1 - phi^2),  I_bs = I_bp = 0.
 *
 * I_sp is E[-d^2 L / dsigma dphi] = E[dQ/dphi] / sigma^3 with E[x_t^2] = sigma^2 / (1 - phi^2), so
 * it scales as 1 / sigma. The paper prints 2 phi / (sigma^3 (1 - phi^2)) (eq. 38 and Section 8.1)
 * and differentiates that form; it is not the Fisher information (its units differ), so the
 * derived entry is used, and test/models/volatility checks it against the Monte Carlo average of
 * the score's outer product. The paper's dG/dphi entry 6 phi^3 / (1 - phi^2)^3 of I_pp is
 * 8 phi^3 / (1 - phi^2)^3 when differentiated again; every dG/dtheta_k here is checked by finite
 * differences.
 *
 * The priors' negative Hessians: 0 for beta (log p linear), -(nu + 1) / sigma^2 + 3 nu s^2 / sigma^4
 * for sigma, (a - 1) / (1 + phi)^2 + (b - 1) / (1 - phi)^2 for phi. The sigma term is negative for
 * large sigma; since I_sp^2 / I_pp <= 2 / sigma^2, G is positive definite on the whole support once
 * 2T - (nu + 1) - 2 >= 0, i.e. T >= 7 (SV_MIN_OBSERVATIONS).
 *
 * Everything depends on x only through LatentStatistics, so each evaluation is O(1) after one
 * O(T) pass per Gibbs sweep.
 */
import { NotPositiveDefiniteError } from "../../linalg/errors.js";
import { Matrix } from "../../linalg/matrix.js";
import type { DenseMetricModel, DenseMetricParts } from "../../targets/denseMetric.js";
import { addPriorGradient, inSupport, SV_PRIOR, svLikelihoodGradient, svLogLikelihood, svLogPrior, type LatentStatistics } from "./svModel.js";

/** The expected Fisher information of the complete likelihood (module comment), row-major 3 x 3. */
export function svFisherInformation(T: number, beta: number, sigma: number, phi: number): number[][] {
  const w = 1 - phi * phi;
  const sp = (2 * phi) / (sigma * w);
  return [
    [(2 * T) / (beta * beta), 0, 0],
    [0, (2 * T) / (sigma * sigma), sp],
    [0, sp, (2 * phi * phi) / (w * w) + (T - 1) / w],
  ];
}

/** G(beta, sigma, phi) and, when asked, dG/dbeta, dG/dsigma, dG/dphi. */
export function svParameterMetric(T: number, beta: number, sigma: number, phi: number, derivatives: boolean): { metric: Matrix; metricDerivatives?: Matrix[] } {
  const { nu, s2, a, b } = SV_PRIOR;
  const f = svFisherInformation(T, beta, sigma, phi);
  const g = new Matrix(3, 3);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) g.set(i, j, f[i][j]);
  const s3 = sigma * sigma * sigma;
  g.set(1, 1, g.get(1, 1) - (nu + 1) / (sigma * sigma) + (3 * nu * s2) / (s3 * sigma));
  g.set(2, 2, g.get(2, 2) + (a - 1) / ((1 + phi) * (1 + phi)) + (b - 1) / ((1 - phi) * (1 - phi)));
  if (!derivatives) return { metric: g };
  const w = 1 - phi * phi;
  const dBeta = new Matrix(3, 3);
  dBeta.set(0, 0, (-4 * T) / (beta * beta * beta));
  const dSigma = new Matrix(3, 3);
  dSigma.set(1, 1, (-4 * T) / s3 + (2 * (nu + 1)) / s3 - (12 * nu * s2) / (s3 * sigma * sigma));
  const dsp = (-2 * phi) / (sigma * sigma * w);
  dSigma.set(1, 2, dsp);
  dSigma.set(2, 1, dsp);
  const dPhi = new Matrix(3, 3);
  const dpsp = (2 * (1 + phi * phi)) / (sigma * w * w);
  dPhi.set(1, 2, dpsp);
  dPhi.set(2, 1, dpsp);
  dPhi.set(2, 2, (4 * phi) / (w * w) + (8 * phi * phi * phi) / (w * w * w) + (2 * phi * (T - 1)) / (w * w) - (2 * (a - 1)) / Math.pow(1 + phi, 3) + (2 * (b - 1)) / Math.pow(1 - phi, 3));
  return { metric: g, metricDerivatives: [dBeta, dSigma, dPhi] };
}

export interface SvParameterModel extends DenseMetricModel {
  readonly statistics: LatentStatistics;
}

/** The conditional of (beta, sigma, phi) given x (through its statistics) as a dense-metric model. */
export function svParameterModel(statistics: LatentStatistics, options: { betaPriorRate?: number } = {}): SvParameterModel {
  const rate = options.betaPriorRate ?? SV_PRIOR.betaRate;
  const T = statistics.T;
  const logDensity = (x: Float64Array) => svLogLikelihood(statistics, x[0], x[1], x[2]) + svLogPrior(x[0], x[1], x[2], rate);
  const logDensityAndGradient = (x: Float64Array, grad: Float64Array): number => {
    const [beta, sigma, phi] = x;
    if (!inSupport(beta, sigma, phi)) {
      grad.fill(NaN);
      return -Infinity;
    }
    svLikelihoodGradient(statistics, beta, sigma, phi, grad);
    addPriorGradient(beta, sigma, phi, rate, grad);
    return logDensity(x);
  };
  return {
    dim: 3,
    statistics,
    logDensity,
    logDensityAndGradient,
    denseMetric(x: Float64Array, derivatives: boolean): DenseMetricParts {
      const [beta, sigma, phi] = x;
      // outside the support the metric is undefined: a numerical failure the samplers reject
      if (!inSupport(beta, sigma, phi)) throw new NotPositiveDefiniteError(0, NaN, `stochastic volatility metric at (beta, sigma, phi) = (${beta}, ${sigma}, ${phi}), outside beta > 0, sigma > 0, |phi| < 1,`);
      const gradient = new Float64Array(3);
      const ld = logDensityAndGradient(x, gradient);
      return { logDensity: ld, gradient, ...svParameterMetric(T, beta, sigma, phi, derivatives) };
    },
  };
}
