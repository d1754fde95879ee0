/**
 * The second-order correction to log Z_EP of Opper, Paquet & Winther, "Perturbative
 * corrections for approximate inference in Gaussian latent variable models", JMLR 14 (2013).
 *
 * Derivation (in the paper's terms). With q(f) = N(mu, Sigma) the EP posterior, q_i(f_i) its
 * marginals and p_i(f_i) = q_-i(f_i) t_i(f_i) / Z-hat_i the tilted distributions, the exact
 * evidence is
 *   Z = Z_EP R,   R = E_q[ prod_i (1 + eps_i(f_i)) ],   eps_i = p_i / q_i - 1,
 * because p(f|y) = (Z_EP / Z) q(f) prod_i t_i / t~_i and, with the site normalisers Z~_i of
 * GPML eq. 3.59 (which make int q_-i t~_i = Z-hat_i), t_i / t~_i = p_i / q_i. At an EP fixed point
 * p_i and q_i share mean and variance, so E_q[eps_i] = 0 (EP is exact to first order) and
 *   R = 1 + sum_{i<j} E_q[eps_i eps_j] + (terms in three or more eps).
 * Expand eps_i in Hermite polynomials of x_i = (f_i - mu_i) / sqrt(Sigma_ii):
 * eps_i = sum_{l>=3} a_il He_l(x_i), where sum_l a_il t^l = E_{p_i}[exp(x t - t^2/2)]
 *       = exp( sum_{l>=3} kappa^_il t^l / l! ),
 * kappa^_il = kappa_il / Sigma_ii^(l/2) the standardised cumulants of p_i (those of q_i vanish
 * for l >= 3, so these are the cumulant differences). Mehler's formula,
 * E[He_k(x_i) He_l(x_j)] = delta_kl l! rho_ij^l with rho_ij = Sigma_ij / sqrt(Sigma_ii Sigma_jj),
 * gives the pair term exactly:
 *   E_q[eps_i eps_j] = sum_{l>=3} l! a_il a_jl rho_ij^l.
 * To second order in the cumulant differences, a_il = kappa^_il / l!, and
 *   R_2 = sum_{i<j} sum_{l>=3} kappa_il kappa_jl / l! (Sigma_ij / (Sigma_ii Sigma_jj))^l,
 * quadratic in n given the EP solution. (a_il = kappa^_il / l! holds exactly for l = 3, 4, 5;
 * from l = 6 on, a_il also holds products of cumulants, which are fourth order.)
 *
 * We return log Z ≈ log Z_EP + R_2 (additive in log Z), not log Z_EP + log(1 + R_2): the
 * terms of log R are the connected ones, so the pair terms add up in log R, and products of
 * disjoint pair terms that log(1 + R_2) would subtract belong to R's fourth order, where they
 * cancel against exp(R_2)'s. The two agree to second order; log(1 + R_2) is exact for n = 2
 * with the "pairwise" form but would break down when R_2 is O(1), as it is for large n.
 *
 * Truncation in l: for probit sites the standardised cumulants grow like l! / c^l (log Phi has
 * complex singularities at a finite distance), so sum_l kappa^_il kappa^_jl rho^l / l! is an
 * asymptotic series: its terms shrink and then grow. The default keeps l = 3 and l = 4, the
 * skewness and kurtosis terms; `maxOrder` takes more. The "pairwise" form sums the convergent
 * Hermite series of E_q[eps_i eps_j] instead (all orders in the cumulants within each pair).
 */
import type { EpResult } from "./ep.js";

export interface EpCorrectionOptions {
  /**
   * "cumulant": the paper's second-order term, kappa_il kappa_jl / l! in each order l
   * (default). "pairwise": the exact pair expectations E_q[eps_i eps_j] through their Hermite
   * series (the cumulant form plus fourth- and higher-order products of cumulants).
   */
  form?: "cumulant" | "pairwise";
  /** Highest order l kept: default 4 for "cumulant", 20 for "pairwise". */
  maxOrder?: number;
  /** Receives a warning when the EP result did not converge (default: stderr). */
  onWarning?: (message: string) => void;
}

export interface EpCorrection {
  /** log Z_EP + correction. */
  logZ: number;
  /** log Z_EP from the EP result. */
  logZEP: number;
  /** The second-order term R_2 (log Z ≈ log Z_EP + R_2). */
  correction: number;
  /** The contribution of each order: termsByOrder[l - 3] for l = 3..maxOrder; they sum to correction. */
  termsByOrder: Float64Array;
  form: "cumulant" | "pairwise";
  maxOrder: number;
}

/**
 * log Z_EP corrected to second order (Opper, Paquet & Winther 2013). Needs the EP result's
 * sites to provide tilted cumulants (probit and Gaussian sites do). O(n^2 maxOrder) given the
 * EP solution.
 */
export function epCorrectedLogZ(ep: EpResult, options: EpCorrectionOptions = {}): EpCorrection {
  const form = options.form ?? "cumulant";
  if (form !== "cumulant" && form !== "pairwise") throw new Error(`epCorrectedLogZ: form must be "cumulant" or "pairwise", got ${String(form)}`);
  const maxOrder = options.maxOrder ?? (form === "cumulant" ? 4 : 20);
  if (!Number.isInteger(maxOrder) || maxOrder < 3 || maxOrder > 60) throw new Error(`epCorrectedLogZ: maxOrder must be an integer in [3, 60], got ${maxOrder}`);
  const sites = ep.sites;
  if (!sites.tiltedCumulants) throw new Error(`epCorrectedLogZ: the ${sites.name} sites do not provide tilted cumulants`);
  if (!ep.converged) {
    (options.onWarning ?? ((s: string) => process.stderr.write(s + "\n")))(
      "gpmcmc: correcting log Z_EP of an EP run that did not converge; the expansion assumes an EP fixed point",
    );
  }
  const n = ep.mean.length;
  const sigma = ep.covariance.data;
  const orders = maxOrder - 2; // l = 3..maxOrder
  // g[i * orders + (l - 3)] = sqrt(l!) h_il, so that the pair term of order l is g_il g_jl rho^l.
  const g = new Float64Array(n * orders);
  const kappa = new Float64Array(orders);
  const sqrtFactorial = new Float64Array(maxOrder + 1);
  const factorial = new Float64Array(maxOrder + 1);
  factorial[0] = 1;
  for (let l = 1; l <= maxOrder; l++) factorial[l] = factorial[l - 1] * l;
  for (let l = 0; l <= maxOrder; l++) sqrtFactorial[l] = Math.sqrt(factorial[l]);
  const sd = new Float64Array(n);
  const series = new Float64Array(maxOrder + 1);
  const expSeries = new Float64Array(maxOrder + 1);
  for (let i = 0; i < n; i++) {
    const s = Math.sqrt(sigma[i + i * n]);
    sd[i] = s;
    sites.tiltedCumulants(i, ep.cavityMean[i], ep.cavityVariance[i], maxOrder, kappa);
    // standardised cumulants kappa^_il = kappa_il / s^l
    let sl = s * s;
    for (let l = 3; l <= maxOrder; l++) {
      sl *= s;
      kappa[l - 3] /= sl;
    }
    if (form === "cumulant") {
      for (let l = 3; l <= maxOrder; l++) g[i * orders + l - 3] = kappa[l - 3] / sqrtFactorial[l];
    } else {
      // a_il = [t^l] exp(c(t)), c(t) = sum_{k>=3} kappa^_ik t^k / k!, by the power-series
      // exponential b_0 = 1, b_l = (1/l) sum_{k=1}^{l} k c_k b_{l-k}.
      series.fill(0);
      for (let l = 3; l <= maxOrder; l++) series[l] = kappa[l - 3] / factorial[l];
      expSeries[0] = 1;
      for (let l = 1; l <= maxOrder; l++) {
        let acc = 0;
        for (let k = 3; k <= l; k++) acc += k * series[k] * expSeries[l - k];
        expSeries[l] = acc / l;
      }
      for (let l = 3; l <= maxOrder; l++) g[i * orders + l - 3] = expSeries[l] * sqrtFactorial[l];
    }
  }
  const terms = new Float64Array(orders);
  for (let j = 1; j < n; j++) {
    const gj = j * orders;
    const cj = j * n;
    for (let i = 0; i < j; i++) {
      const rho = sigma[i + cj] / (sd[i] * sd[j]);
      if (rho === 0) continue;
      const gi = i * orders;
      let p = rho * rho * rho;
      for (let o = 0; o < orders; o++) {
        terms[o] += g[gi + o] * g[gj + o] * p;
        p *= rho;
      }
    }
  }
  let correction = 0;
  for (let o = 0; o < orders; o++) correction += terms[o];
  return { logZ: ep.logZ + correction, logZEP: ep.logZ, correction, termsByOrder: terms, form, maxOrder };
}
