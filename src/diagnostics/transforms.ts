/**
 * Transformations of chains used by the rank-normalised diagnostics of Vehtari, Gelman,
 * Simpson, Carpenter & Bürkner (2021, Rank-normalization, folding, and localization: an
 * improved R-hat for assessing convergence of MCMC, Bayesian Analysis 16(2)):
 * splitting (sec. 4.1), rank normalisation (sec. 4.1, eq. 14) and folding (sec. 4.1).
 */
import { normalQuantile } from "../math/index.js";
import { averageRanks } from "./argsort.js";
import { pooledDraws, pooledSorted, quantileSorted } from "./quantile.js";

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

/**
 * Ranks 1..S of all draws pooled over the chains, ties given their average rank (R's
 * rank(ties.method = "average"), scipy's rankdata default). Draws must be finite.
 */
export function pooledRanks(chains: readonly Float64Array[]): Float64Array[] {
  const ranks = averageRanks(pooledDraws(chains));
  const out: Float64Array[] = [];
  let o = 0;
  for (const x of chains) {
    out.push(ranks.subarray(o, o + x.length));
    o += x.length;
  }
  return out;
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
    for (let i = 0; i < r.length; i++) r[i] = normalQuantileAS241((r[i] - RANK_OFFSET) / denominator);
    return r;
  });
}

/**
 * Phi^-1(p) by Wichura's rational approximations (1988, Algorithm AS 241, PPND16, Appl.
 * Statist. 37, 477-484; relative error about 1e-16) for |p - 1/2| <= 0.425 and for
 * sqrt(-log min(p, 1-p)) <= 5, i.e. min(p, 1-p) >= 1.4e-11 -- every rank of fewer than about
 * 4e10 draws. Beyond that it defers to math's normalQuantile (Halley iterations on log Phi),
 * which is exact to rounding too but about fifty times slower; rank normalisation evaluates
 * it once per draw, hundreds of thousands of times per variable.
 */
export function normalQuantileAS241(p: number): number {
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r + 45921.953931549871457) * r +
          13731.693765509461125) * r + 1971.5909503065514427) * r + 133.14166789178437745) * r + 3.387132872796366608)) /
      (((((((5226.495278852854561 * r + 28729.085735721942674) * r + 39307.89580009271061) * r + 21213.794301586595867) * r +
        5394.1960214247511077) * r + 687.1870074920579083) * r + 42.313330701600911252) * r + 1)
    );
  }
  const tail = q < 0 ? p : 1 - p;
  if (!(tail > 0)) return normalQuantile(p);
  let r = Math.sqrt(-Math.log(tail));
  if (r > 5) return normalQuantile(p);
  r -= 1.6;
  const z =
    (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r + 1.27045825245236838258) * r +
      3.64784832476320460504) * r + 5.7694972214606914055) * r + 4.6303378461565452959) * r + 1.42343711074968357734) /
    (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r + 0.14810397642748007459) * r +
      0.68976733498510000455) * r + 1.6763848301838038494) * r + 2.05319162663775882187) * r + 1);
  return q < 0 ? -z : z;
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
