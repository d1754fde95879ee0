/**
 * Monte Carlo standard errors.
 *
 * Of the mean: sd / sqrt(ESS_mean) (BDA3 sec. 11.5; posterior's mcse_mean), with ESS_mean
 * the basic ESS of the split chains and sd the standard deviation of all draws (divisor S-1).
 *
 * Of a quantile (Vehtari et al. 2021, sec. 4.3; posterior's mcse_quantile): with
 * ESS_p the ESS of the indicator I(x <= Q(p)), take the 15.87% and 84.13% points a1, a2 of
 * Beta(ESS_p p + 1, ESS_p (1-p) + 1); the MCSE is half the distance between the order
 * statistics x_(max(floor(a1 S), 1)) and x_(min(ceil(a2 S), S)) (1-based), i.e. half the
 * width of a +-1 sd interval for Q(p).
 */
import { betaQuantile } from "./beta.js";
import { checkChains } from "./errors.js";
import { essMean, essQuantileSorted } from "./ess.js";
import { quantileStatistic } from "./quantile.js";

/** Mean and standard deviation (divisor S - 1) of all draws pooled. */
export function meanAndSd(chains: readonly Float64Array[]): { mean: number; sd: number } {
  checkChains(chains, "meanAndSd", 1, 2);
  let s = 0, count = 0;
  for (const x of chains) for (let i = 0; i < x.length; i++) s += x[i];
  for (const x of chains) count += x.length;
  const mu = s / count;
  let ss = 0;
  for (const x of chains) for (let i = 0; i < x.length; i++) ss += (x[i] - mu) ** 2;
  return { mean: mu, sd: Math.sqrt(ss / (count - 1)) };
}

/** MCSE of the posterior mean estimate: sd / sqrt(ESS_mean). */
export function mcseMean(chains: readonly Float64Array[]): number {
  checkChains(chains, "mcseMean");
  return meanAndSd(chains).sd / Math.sqrt(essMean(chains));
}

/** The two Beta points Vehtari et al. (2021) use: Phi(-1) and Phi(1), as posterior writes them. */
const ONE_SD_PROBABILITIES = [0.1586553, 0.8413447] as const;

/** MCSE of the type-7 p-quantile estimate (Vehtari et al. 2021, sec. 4.3). */
export function mcseQuantile(chains: readonly Float64Array[], p: number): number {
  return quantileStatistic("mcseQuantile", chains, p, mcseQuantileSorted);
}

export function mcseQuantileSorted(chains: readonly Float64Array[], sorted: Float64Array, p: number): number {
  const ess = essQuantileSorted(chains, sorted, p);
  if (!Number.isFinite(ess)) return NaN;
  const s = sorted.length;
  const a1 = betaQuantile(ONE_SD_PROBABILITIES[0], ess * p + 1, ess * (1 - p) + 1);
  const a2 = betaQuantile(ONE_SD_PROBABILITIES[1], ess * p + 1, ess * (1 - p) + 1);
  const th1 = sorted[Math.max(Math.floor(a1 * s), 1) - 1];
  const th2 = sorted[Math.min(Math.ceil(a2 * s), s) - 1];
  return (th2 - th1) / 2;
}
