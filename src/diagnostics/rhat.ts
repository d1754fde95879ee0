/**
 * Potential scale reduction factors (R-hat).
 *
 * Notation: m chains of n draws; chain means xbar_j and variances s_j^2 (divisor n - 1);
 * W = mean_j s_j^2 (within-chain variance); B = n var_j(xbar_j) (between-chain variance,
 * divisor m - 1).
 *
 * Classic (Gelman & Rubin 1992, Inference from iterative simulation using multiple sequences,
 * Stat. Sci. 7, sec. 3; Brooks & Gelman 1998, J. Comp. Graph. Stat. 7, sec. 1.2): the pooled
 * variance estimate V = (n-1)/n W + (m+1)/(m n) B and R-hat = sqrt(V / W). This is the
 * "potential scale reduction factor (Gelman and Rubin, 1992) ... based on the within and
 * between chain variances" the comparison paper (Filippone, Zhong & Girolami, sec. 4.1) uses;
 * it does not say whether it applied the degrees-of-freedom correction, so three forms are
 * offered (see `RhatClassicForm`); they differ by O(1/n) and O(1/m) terms.
 *
 * Rank-normalised split R-hat (Vehtari et al. 2021, sec. 4.1; Stan's and ArviZ's default):
 * the basic BDA3 form sqrt(((n-1)/n W + B/n) / W) (Gelman et al. 2013, eq. 11.3-11.4) on
 * split, rank-normalised chains ("bulk"), and on split, rank-normalised draws folded around
 * the median ("tail"); R-hat is the larger of the two.
 */
import { allEqual, allFinite, checkChains, DiagnosticsInputError } from "./errors.js";
import { foldAroundMedian, rankNormalize, splitChains } from "./transforms.js";

/**
 * Which classic R-hat:
 *  - "gelman-rubin": sqrt(V / W), V = (n-1)/n W + (m+1)/(m n) B (Gelman & Rubin 1992,
 *    eq. 3 and the square root of R-hat in sec. 3.3, without their t-distribution
 *    degrees-of-freedom factor; Brooks & Gelman 1998, eq. 1.1). The default.
 *  - "gelman-rubin-df": sqrt((d+3)/(d+1) V / W), d = 2 V^2 / var-hat(V), with var-hat(V) of
 *    Gelman & Rubin 1992 eq. 4 and the corrected factor (d+3)/(d+1) of Brooks & Gelman 1998,
 *    sec. 3.1: the point estimate of R's coda::gelman.diag.
 *  - "basic": sqrt(((n-1)/n W + B/n) / W) (BDA3 eq. 11.4), on the chains as given (not split).
 */
export type RhatClassicForm = "gelman-rubin" | "gelman-rubin-df" | "basic";

export interface RhatClassicOptions {
  form?: RhatClassicForm;
}

interface ChainMoments {
  readonly m: number;
  readonly n: number;
  readonly means: Float64Array;
  readonly variances: Float64Array;
  /** W: mean within-chain variance. */
  readonly w: number;
  /** B: n times the variance of the chain means. */
  readonly b: number;
}

function moments(chains: readonly Float64Array[]): ChainMoments {
  const m = chains.length;
  const n = chains[0].length;
  const means = new Float64Array(m);
  const variances = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    const x = chains[j];
    let s = 0;
    for (let i = 0; i < n; i++) s += x[i];
    const mu = s / n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (x[i] - mu) ** 2;
    means[j] = mu;
    variances[j] = ss / (n - 1);
  }
  const w = mean(variances);
  const b = n * sampleVariance(means);
  return { m, n, means, variances, w, b };
}

function mean(x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / x.length;
}

function sampleVariance(x: Float64Array): number {
  return sampleCovariance(x, x);
}

function sampleCovariance(x: Float64Array, y: Float64Array): number {
  const mx = mean(x), my = mean(y);
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] - mx) * (y[i] - my);
  return s / (x.length - 1);
}

/**
 * The classic Gelman-Rubin potential scale reduction factor of one quantity over m >= 2
 * chains (not split). NaN for constant or non-finite draws; +Infinity when every chain is
 * constant but they differ.
 */
export function rhatClassic(chains: readonly Float64Array[], options: RhatClassicOptions = {}): number {
  checkChains(chains, "rhatClassic", 2);
  const form = options.form ?? "gelman-rubin";
  if (form !== "gelman-rubin" && form !== "gelman-rubin-df" && form !== "basic") {
    throw new DiagnosticsInputError("bad-argument", `rhatClassic: unknown form "${String(form)}" (use gelman-rubin, gelman-rubin-df or basic)`);
  }
  if (!allFinite(chains) || allEqual(chains)) return NaN;
  const mo = moments(chains);
  const { m, n, w, b } = mo;
  if (form === "basic") return Math.sqrt(((n - 1) / n) * w + b / n) / Math.sqrt(w);
  const fixed = (n - 1) / n;
  const random = (m + 1) / (m * n);
  const v = fixed * w + random * b;
  if (form === "gelman-rubin") return Math.sqrt(v / w);
  // Gelman & Rubin 1992, eq. 4: the sampling variance of V.
  const meanSquares = mo.means.map((x) => x * x);
  const grand = mean(mo.means);
  const varW = sampleVariance(mo.variances) / m;
  const varB = (2 / (m - 1)) * b * b;
  const covWB = (n / m) * (sampleCovariance(mo.variances, meanSquares) - 2 * grand * sampleCovariance(mo.variances, mo.means));
  const varV = fixed * fixed * varW + random * random * varB + 2 * fixed * random * covWB;
  const d = (2 * v * v) / varV;
  return Math.sqrt((((d + 3) / (d + 1)) * v) / w);
}

/** The basic R-hat (BDA3 eq. 11.4) of chains as given, with no splitting or ranks. */
export function rhatBasicUnchecked(chains: readonly Float64Array[]): number {
  if (!allFinite(chains) || allEqual(chains)) return NaN;
  const { n, w, b } = moments(chains);
  return Math.sqrt(((n - 1) / n) * w + b / n) / Math.sqrt(w);
}

/**
 * Split R-hat without rank normalisation (posterior's rhat_basic, BDA3 sec. 11.4): the basic
 * form on the 2m half-chains. Works with one chain.
 */
export function rhatSplit(chains: readonly Float64Array[]): number {
  checkChains(chains, "rhatSplit");
  return rhatBasicUnchecked(splitChains(chains));
}

/** Rank-normalised split R-hat (Vehtari et al. 2021, sec. 4.1, "bulk"). */
export function rhatBulk(chains: readonly Float64Array[]): number {
  checkChains(chains, "rhatBulk");
  if (!allFinite(chains)) return NaN;
  return rhatBasicUnchecked(rankNormalize(splitChains(chains)));
}

/** Rank-normalised folded split R-hat (Vehtari et al. 2021, sec. 4.1, "tail" / folded). */
export function rhatTail(chains: readonly Float64Array[]): number {
  checkChains(chains, "rhatTail");
  if (!allFinite(chains)) return NaN;
  return rhatBasicUnchecked(rankNormalize(splitChains(foldAroundMedian(chains))));
}

/**
 * R-hat as Stan (2.26+), posterior and ArviZ report it: the larger of the rank-normalised
 * split R-hat and the rank-normalised folded split R-hat (Vehtari et al. 2021, sec. 4.1).
 */
export function rhat(chains: readonly Float64Array[]): number {
  return maxRhat(rhatBulk(chains), rhatTail(chains));
}

/**
 * max(bulk, tail), except that when only one of them is defined it is returned: chains stuck
 * at two different values have constant folded draws (tail NaN) but an infinite bulk R-hat,
 * and should read as not converged. (posterior's rhat() gives NA there.)
 */
export function maxRhat(bulk: number, tail: number): number {
  if (Number.isNaN(bulk)) return tail;
  if (Number.isNaN(tail)) return bulk;
  return Math.max(bulk, tail);
}
