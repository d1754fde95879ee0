/**
 * Sample quantiles, type 7 of Hyndman & Fan (1996): R's default quantile() and numpy's
 * default ("linear"). For sorted x_0 <= ... <= x_{N-1} and h = (N - 1) p,
 *   Q(p) = x_floor(h) + (h - floor(h)) (x_{floor(h)+1} - x_floor(h)).
 * posterior's ess_tail / ess_quantile and ArviZ use this definition too.
 */
import { allFinite, checkChains, checkProbability, DiagnosticsInputError } from "./errors.js";

/** Type-7 quantile of values already sorted ascending (no NaN). */
export function quantileSorted(sorted: Float64Array, p: number): number {
  checkProbability(p, "quantile");
  const n = sorted.length;
  if (n === 0) throw new DiagnosticsInputError("too-few-draws", "quantile: needs at least one value");
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  if (lo >= n - 1) return sorted[n - 1];
  return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
}

/** All values of all chains in one Float64Array, chain after chain. */
export function pooledDraws(chains: readonly Float64Array[]): Float64Array {
  let total = 0;
  for (const x of chains) total += x.length;
  const out = new Float64Array(total);
  let o = 0;
  for (const x of chains) {
    out.set(x, o);
    o += x.length;
  }
  return out;
}

/** All values of all chains in one sorted Float64Array. */
export function pooledSorted(chains: readonly Float64Array[]): Float64Array {
  return pooledDraws(chains).sort();
}

/**
 * A statistic of the p-quantile of pooled chains (its ESS, its MCSE) after the checks they
 * share: valid chains and p, NaN when a draw is not finite (the quantile is then undefined),
 * else `statistic(chains, pooled sorted draws, p)`.
 */
export function quantileStatistic(
  name: string,
  chains: readonly Float64Array[],
  p: number,
  statistic: (chains: readonly Float64Array[], sorted: Float64Array, p: number) => number,
): number {
  checkChains(chains, name);
  checkProbability(p, name);
  if (!allFinite(chains)) return NaN;
  return statistic(chains, pooledSorted(chains), p);
}

/**
 * Type-7 quantile of the pooled draws of one or more chains. NaN when a draw is NaN
 * (a quantile of a sample holding NaN is undefined); infinities sort to the ends.
 */
export function quantile(chains: Float64Array | readonly Float64Array[], p: number): number {
  const list = chains instanceof Float64Array ? [chains] : chains;
  const sorted = pooledSorted(list);
  if (sorted.length > 0 && Number.isNaN(sorted[sorted.length - 1])) return NaN; // typed-array sort puts NaN last
  return quantileSorted(sorted, p);
}

/** Median (type 7, i.e. the usual midpoint rule for an even count). */
export function median(chains: Float64Array | readonly Float64Array[]): number {
  return quantile(chains, 0.5);
}
