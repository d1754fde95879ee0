/**
 * Transformations of chains used by the rank-normalised diagnostics of Vehtari, Gelman,
 * Simpson, Carpenter & Bürkner (2021, Rank-normalization, folding, and localization: an
 * improved R-hat for assessing convergence of MCMC, Bayesian Analysis 16(2)):
 * splitting (sec. 4.1), rank normalisation (sec. 4.1, eq. 14) and folding (sec. 4.1).
 */
import { normalQuantile } from "../math/index.js";
import { pooledSorted, quantileSorted } from "./quantile.js";

/**
 * Splits each chain into its first and second halves (2m chains of floor(n/2) draws). For an
 * odd n the middle draw is dropped, as Stan, posterior and ArviZ do. The halves are views.
 */
export function splitChains(chains: readonly Float64Array[]): Float64Array[] {
  const out: Float64Array[] = [];
  for (const x of chains) {
    const half = Math.floor(x.length / 2);
    out.push(x.subarray(0, half), x.subarray(x.length - half));
  }
  return out;
}

/** Index of the first element of sorted that is >= v (sorted ascending, no NaN). */
function lowerBound(sorted: Float64Array, v: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first element of sorted that is > v. */
function upperBound(sorted: Float64Array, v: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Ranks 1..S of all draws pooled over the chains, ties given their average rank (R's
 * rank(ties.method = "average"), scipy's rankdata default). Draws must be finite.
 */
export function pooledRanks(chains: readonly Float64Array[]): Float64Array[] {
  const sorted = pooledSorted(chains);
  return chains.map((x) => {
    const r = new Float64Array(x.length);
    for (let i = 0; i < x.length; i++) {
      // values below x[i]: lowerBound; values <= x[i]: upperBound; their ranks are lo+1 .. hi.
      const lo = lowerBound(sorted, x[i]);
      const hi = upperBound(sorted, x[i]);
      r[i] = (lo + 1 + hi) / 2;
    }
    return r;
  });
}

/** The fractional offset of the rank normalisation (Blom 1958), as Stan, posterior and ArviZ use. */
export const RANK_OFFSET = 3 / 8;

/**
 * Rank normalisation (Vehtari et al. 2021, eq. 14): z = Phi^-1((r - 3/8) / (S + 1/4)) with r
 * the average rank of a draw among all S pooled draws. Draws must be finite.
 */
export function rankNormalize(chains: readonly Float64Array[]): Float64Array[] {
  let total = 0;
  for (const x of chains) total += x.length;
  const denominator = total - 2 * RANK_OFFSET + 1;
  return pooledRanks(chains).map((r) => {
    for (let i = 0; i < r.length; i++) r[i] = normalQuantile((r[i] - RANK_OFFSET) / denominator);
    return r;
  });
}

/** Folding around the pooled median (Vehtari et al. 2021, sec. 4.1): |x - median(x)|. */
export function foldAroundMedian(chains: readonly Float64Array[]): Float64Array[] {
  const med = quantileSorted(pooledSorted(chains), 0.5);
  return chains.map((x) => x.map((v) => Math.abs(v - med)));
}

/** Indicators I(x <= q) as 0/1 chains. */
export function indicatorAtMost(chains: readonly Float64Array[], q: number): Float64Array[] {
  return chains.map((x) => x.map((v) => (v <= q ? 1 : 0)));
}

/** |x - m| for a given centre m (the median, already computed). */
export function foldAroundMedianValue(chains: readonly Float64Array[], centre: number): Float64Array[] {
  return chains.map((x) => x.map((v) => Math.abs(v - centre)));
}
