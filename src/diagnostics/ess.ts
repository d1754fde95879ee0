/**
 * Effective sample size (ESS) and integrated autocorrelation time (IAT) by Geyer's initial
 * monotone sequence estimator.
 *
 * For a stationary chain with autocorrelations rho_t, the IAT is tau = 1 + 2 sum_{t>=1} rho_t
 * and ESS = N / tau (N draws). Geyer (1992, Practical Markov chain Monte Carlo, Stat. Sci. 7,
 * sec. 3.3) estimates the sum from the pairs Gamma_k = rho_{2k} + rho_{2k+1}, which are positive
 * and decreasing for reversible chains:
 *   - initial positive sequence: keep Gamma_0 .. Gamma_{K-1}, K the first k with Gamma_k <= 0;
 *   - initial monotone sequence: replace Gamma_k by min(Gamma_k, Gamma_{k-1});
 *   - tau = -1 + 2 sum_{k<K} Gamma_k.
 * This is the ESS the source papers report (Girolami & Calderhead 2011, sec. 7: ESS =
 * N (1 + 2 sum_k rho_k)^-1 "as estimated by the initial monotone sequence estimator"; the
 * comparison paper's min ESS, averaged over chains).
 *
 * Two estimates of rho_t are used:
 *   - one chain: rho_t = gamma_t / gamma_0 from the biased autocovariance;
 *   - several chains (BDA3, Gelman et al. 2013, sec. 11.5, eq. 11.7; Stan; Vehtari et al. 2021,
 *     eq. 10): rho_t = 1 - (W - mean_c gamma_{c,t}) / var+, with W the mean within-chain variance
 *     and var+ = (n-1)/n W + B/n, so that disagreement between chains lowers the ESS.
 * Stan and the posterior R package add two refinements (Vehtari et al. 2021, appendix): the
 * first even lag past the truncation is kept as a bias term ("improved estimate ... in the
 * antithetic case") and tau is floored at 1/log10(S) for S draws in all; `essBasic` follows
 * that exactly and is what the bulk, tail, mean and quantile ESS are built from.
 * `essGeyer` and `essGeyerSingle` are Geyer's estimator as the papers used it, with the same
 * floor only as a guard (Geyer's tau can come out non-positive for strongly antithetic chains).
 */
import { lazyMeanAutocovariance, meanAutocovarianceUnchecked } from "./autocorrelation.js";
import { allEqual, allFinite, checkChains, checkSequence } from "./errors.js";
import { pooledSorted, quantileSorted, quantileStatistic } from "./quantile.js";
import { indicatorAtMost, rankNormalize, splitChains } from "./transforms.js";

/** Result of Geyer's initial monotone sequence estimator. */
export interface GeyerEstimate {
  /** Integrated autocorrelation time -1 + 2 sum_{k<K} Gamma_k (before any floor). */
  readonly tau: number;
  /** K: the number of pairs (rho_{2k}, rho_{2k+1}) summed; the sum spans lags 0 .. 2K-1. */
  readonly pairs: number;
}

/**
 * Geyer's initial monotone sequence estimate of tau from autocorrelations rho_0 (= 1),
 * rho_1, ... (only complete pairs are used).
 */
export function geyerInitialMonotone(rho: ArrayLike<number>): GeyerEstimate {
  return geyerTau((t) => rho[t], rho.length);
}

/** Geyer's estimator with the autocorrelations given lag by lag (only the lags needed are asked for). */
function geyerTau(rhoAt: (t: number) => number, length: number): GeyerEstimate {
  const maxPairs = Math.floor(length / 2);
  let sum = 0;
  let previous = Infinity;
  let k = 0;
  for (; k < maxPairs; k++) {
    let gamma = rhoAt(2 * k) + rhoAt(2 * k + 1);
    if (!(gamma > 0)) break; // initial positive sequence ends (NaN ends it too)
    if (gamma > previous) gamma = previous; // initial monotone sequence
    previous = gamma;
    sum += gamma;
  }
  return { tau: -1 + 2 * sum, pairs: k };
}

/** The floor Stan puts on tau: ESS is at most S log10(S) for S draws in all. */
function tauFloor(totalDraws: number): number {
  return 1 / Math.log10(totalDraws);
}

/**
 * Integrated autocorrelation time of one chain, tau = 1 + 2 sum_t rho_t, by Geyer's initial
 * monotone sequence estimator (NaN for a constant or non-finite chain).
 */
export function integratedAutocorrelationTime(x: Float64Array): number {
  checkSequence(x, "integratedAutocorrelationTime");
  if (!allFinite([x]) || allEqual([x])) return NaN;
  const gamma = lazyMeanAutocovariance([x]);
  const g0 = gamma(0);
  return Math.max(geyerTau((t) => gamma(t) / g0, x.length).tau, tauFloor(x.length));
}

/** ESS of one chain, N / tau, tau by Geyer's initial monotone sequence (the papers' ESS). */
export function essGeyerSingle(x: Float64Array): number {
  const tau = integratedAutocorrelationTime(x);
  return x.length / tau;
}

/**
 * The multi-chain autocorrelation estimates of BDA3 eq. 11.7:
 * rho_t = 1 - (W - mean_c gamma_{c,t}) / var+, t = 0 .. n-1, with W and var+ as returned.
 */
export function combinedAutocorrelation(chains: readonly Float64Array[]): { rho: Float64Array; withinVariance: number; varPlus: number } {
  checkChains(chains, "combinedAutocorrelation", 1, 2);
  const n = chains[0].length;
  const acov = meanAutocovarianceUnchecked(chains);
  const { rhoAt, withinVariance, varPlus } = combinedRho(chains, (t) => acov[t]);
  return { rho: Float64Array.from({ length: n }, (_, t) => rhoAt(t)), withinVariance, varPlus };
}

/** rho_t of BDA3 eq. 11.7 as a function of the lag, from gamma_t given as a function. */
function combinedRho(chains: readonly Float64Array[], gamma: (t: number) => number): { rhoAt: (t: number) => number; withinVariance: number; varPlus: number } {
  const m = chains.length;
  const n = chains[0].length;
  const w = (gamma(0) * n) / (n - 1); // mean of the chains' variances (divisor n - 1)
  let varPlus = (w * (n - 1)) / n;
  if (m > 1) varPlus += varianceOfChainMeans(chains); // B / n
  return { rhoAt: (t) => 1 - (w - gamma(t)) / varPlus, withinVariance: w, varPlus };
}

/** Sample variance (divisor m - 1) of the chain means, i.e. B / n in BDA3's notation. */
export function varianceOfChainMeans(chains: readonly Float64Array[]): number {
  const m = chains.length;
  const means = new Float64Array(m);
  let grand = 0;
  for (let c = 0; c < m; c++) {
    const x = chains[c];
    let s = 0;
    for (let i = 0; i < x.length; i++) s += x[i];
    means[c] = s / x.length;
    grand += means[c];
  }
  grand /= m;
  let ss = 0;
  for (let c = 0; c < m; c++) ss += (means[c] - grand) ** 2;
  return ss / (m - 1);
}

/**
 * ESS of several chains of one quantity by Geyer's initial monotone sequence on the BDA3
 * multi-chain autocorrelations, without splitting the chains: m n / tau.
 * NaN for constant or non-finite draws.
 */
export function essGeyer(chains: readonly Float64Array[]): number {
  const n = checkChains(chains, "essGeyer");
  if (!allFinite(chains) || allEqual(chains)) return NaN;
  const total = chains.length * n;
  const { rhoAt } = combinedRho(chains, lazyMeanAutocovariance(chains));
  return total / Math.max(geyerTau(rhoAt, n).tau, tauFloor(total));
}

/**
 * Stan's and the posterior package's ESS (`ess_basic`; Vehtari et al. 2021, eq. 10-11 and
 * appendix) on the chains as given: Geyer's initial positive then monotone sequence on the
 * BDA3 multi-chain autocorrelations, the last even lag kept as a bias term, tau floored at
 * 1/log10(S). `essBasic`, `essBulk`, `essTail`, `essQuantile` and `essMean` apply it to split,
 * rank-normalised or indicator chains. Chains shorter than 6 draws give NaN (the estimator's
 * loop needs lags up to n - 4); constant or non-finite draws give NaN. (In the degenerate case
 * rho_1 <= -1 the loop never runs and tau is the floor; posterior's R code gives tau = 2 there.)
 */
export function essOfChains(chains: readonly Float64Array[]): number {
  const n = checkChains(chains, "essOfChains", 1, 1);
  return essOfChainsUnchecked(chains, n);
}

export function essOfChainsUnchecked(chains: readonly Float64Array[], n = chains[0].length): number {
  if (n < 6 || !allFinite(chains) || allEqual(chains)) return NaN;
  const { rhoAt: r } = combinedRho(chains, lazyMeanAutocovariance(chains));
  // r(t) is rho_t; rhoHat holds the sequence Stan sums (posterior's rho_hat_t, 0-based lags).
  const rhoHat = new Float64Array(n);
  rhoHat[0] = 1;
  let even = 1;
  let odd = r(1);
  rhoHat[1] = odd;
  let t = 0;
  while (t < n - 5 && even + odd > 0) {
    t += 2;
    even = r(t);
    odd = r(t + 1);
    if (even + odd >= 0) {
      rhoHat[t] = even;
      rhoHat[t + 1] = odd;
    }
  }
  const maxT = t;
  if (even > 0) rhoHat[maxT] = even; // the bias term of the improved estimate
  for (t = 2; t <= maxT - 2; t += 2) {
    if (rhoHat[t] + rhoHat[t + 1] > rhoHat[t - 2] + rhoHat[t - 1]) {
      rhoHat[t] = (rhoHat[t - 2] + rhoHat[t - 1]) / 2;
      rhoHat[t + 1] = rhoHat[t];
    }
  }
  let sum = 0;
  for (let s = 0; s < maxT; s++) sum += rhoHat[s];
  const total = chains.length * n;
  const tau = Math.max(-1 + 2 * sum + rhoHat[maxT], tauFloor(total));
  return total / tau;
}

/**
 * Stan's / posterior's basic ESS (`ess_basic`): `essOfChains` on split chains (the default)
 * or on the chains as given.
 */
export function essBasic(chains: readonly Float64Array[], options: { split?: boolean } = {}): number {
  checkChains(chains, "essBasic");
  return essOfChainsUnchecked(options.split === false ? chains : splitChains(chains));
}

/**
 * Bulk ESS (Vehtari et al. 2021, sec. 4.2): the ESS of the split, rank-normalised chains.
 * NaN for non-finite or constant draws, and when the half-chains have fewer than 6 draws.
 */
export function essBulk(chains: readonly Float64Array[]): number {
  checkChains(chains, "essBulk");
  if (!allFinite(chains)) return NaN;
  return essOfChainsUnchecked(rankNormalize(splitChains(chains)));
}

/**
 * ESS of the p-quantile (Vehtari et al. 2021, sec. 4.3): the ESS of the split indicator
 * chains I(x <= Q(p)), Q the type-7 quantile of all draws (posterior's ess_quantile).
 */
export function essQuantile(chains: readonly Float64Array[], p: number): number {
  return quantileStatistic("essQuantile", chains, p, essQuantileSorted);
}

export function essQuantileSorted(chains: readonly Float64Array[], sorted: Float64Array, p: number): number {
  // posterior moves p = 1 just inside the range so that the indicator is not constant.
  const prob = p === 1 ? (sorted.length - 0.5) / sorted.length : p;
  return essOfChainsUnchecked(splitChains(indicatorAtMost(chains, quantileSorted(sorted, prob))));
}

/**
 * Tail ESS (Vehtari et al. 2021, sec. 4.3): the smaller of the ESS of the 5% and 95%
 * quantiles.
 */
export function essTail(chains: readonly Float64Array[]): number {
  checkChains(chains, "essTail");
  if (!allFinite(chains)) return NaN;
  const sorted = pooledSorted(chains);
  return Math.min(essQuantileSorted(chains, sorted, 0.05), essQuantileSorted(chains, sorted, 0.95));
}

/** ESS for the mean (posterior's ess_mean): the basic ESS of the split chains, no ranks. */
export function essMean(chains: readonly Float64Array[]): number {
  checkChains(chains, "essMean");
  return essOfChainsUnchecked(splitChains(chains));
}
