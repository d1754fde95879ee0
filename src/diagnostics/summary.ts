/**
 * Per-variable posterior summaries like Stan's print / posterior's summarise_draws, plus the
 * papers' diagnostics (Geyer ESS, classic R-hat).
 */
import { DrawsArray, variableChains } from "./draws.js";
import { allFinite, checkChains } from "./errors.js";
import { essGeyer, essGeyerSingle, essOfChainsUnchecked, essQuantileSorted } from "./ess.js";
import { meanAndSd } from "./mcse.js";
import { pooledSorted, quantileSorted } from "./quantile.js";
import { maxRhat, rhatBasicUnchecked, rhatClassic } from "./rhat.js";
import { foldAroundMedianValue, rankNormalize, splitChains } from "./transforms.js";

export interface VariableSummary {
  /** Mean of all draws. */
  readonly mean: number;
  /** Standard deviation of all draws (divisor S - 1). */
  readonly sd: number;
  /** Monte Carlo standard error of the mean, sd / sqrt(ESS of the split chains). */
  readonly mcseMean: number;
  /** 5%, 50% and 95% quantiles (type 7) of all draws. */
  readonly q5: number;
  readonly q50: number;
  readonly q95: number;
  /** Bulk and tail ESS (Vehtari et al. 2021). */
  readonly essBulk: number;
  readonly essTail: number;
  /** Rank-normalised split R-hat, max of bulk and folded (Vehtari et al. 2021). */
  readonly rhat: number;
  /** Geyer initial monotone sequence ESS over all chains, not split (the papers' ESS). */
  readonly essGeyer: number;
  /** Classic Gelman-Rubin R-hat, form "gelman-rubin" (NaN with a single chain). */
  readonly rhatClassic: number;
}

/** Summary of one quantity given as chains (>= 4 draws each, of one length). */
export function summarize(chains: readonly Float64Array[]): VariableSummary {
  checkChains(chains, "summarize");
  return summarizeUnchecked(chains);
}

function summarizeUnchecked(chains: readonly Float64Array[]): VariableSummary {
  const { mean, sd } = meanAndSd(chains);
  if (!allFinite(chains)) {
    return { mean, sd, mcseMean: NaN, q5: NaN, q50: NaN, q95: NaN, essBulk: NaN, essTail: NaN, rhat: NaN, essGeyer: NaN, rhatClassic: NaN };
  }
  const sorted = pooledSorted(chains);
  const q50 = quantileSorted(sorted, 0.5);
  const split = splitChains(chains);
  const z = rankNormalize(split);
  const rhatBulk = rhatBasicUnchecked(z);
  const rhatTail = rhatBasicUnchecked(rankNormalize(splitChains(foldAroundMedianValue(chains, q50))));
  const essMean = essOfChainsUnchecked(split);
  return {
    mean,
    sd,
    mcseMean: sd / Math.sqrt(essMean),
    q5: quantileSorted(sorted, 0.05),
    q50,
    q95: quantileSorted(sorted, 0.95),
    essBulk: essOfChainsUnchecked(z),
    essTail: Math.min(essQuantileSorted(chains, sorted, 0.05), essQuantileSorted(chains, sorted, 0.95)),
    rhat: maxRhat(rhatBulk, rhatTail),
    essGeyer: essGeyer(chains),
    rhatClassic: chains.length >= 2 ? rhatClassic(chains) : NaN,
  };
}

/** Column-wise summaries of every variable of a DrawsArray (each field has one entry per variable). */
export type DrawsSummary = { readonly [K in keyof VariableSummary]: Float64Array };

const FIELDS: readonly (keyof VariableSummary)[] = ["mean", "sd", "mcseMean", "q5", "q50", "q95", "essBulk", "essTail", "rhat", "essGeyer", "rhatClassic"];

/** Summaries of all variables of a DrawsArray (needs >= 4 draws per chain). */
export function summarizeDraws(d: DrawsArray): DrawsSummary {
  const buffers = Array.from({ length: d.chains }, () => new Float64Array(d.draws));
  checkChains(buffers, "summarizeDraws");
  const out = Object.fromEntries(FIELDS.map((f) => [f, new Float64Array(d.variables)])) as Record<keyof VariableSummary, Float64Array>;
  for (let v = 0; v < d.variables; v++) {
    const s = summarizeUnchecked(variableChains(d, v, d.draws, buffers));
    for (const f of FIELDS) out[f][v] = s[f];
  }
  return out;
}

/** A row of a DrawsSummary as an object. */
export function summaryRow(s: DrawsSummary, v: number): VariableSummary {
  return Object.fromEntries(FIELDS.map((f) => [f, s[f][v]])) as unknown as VariableSummary;
}

/**
 * Single-chain Geyer ESS of every variable in every chain: out[c * variables + v]. The
 * comparison paper's Table 2 takes, per chain, the minimum over variables, then averages over
 * chains and data sets (see `minEssByChain`).
 */
export function essGeyerByChain(d: DrawsArray): Float64Array {
  const out = new Float64Array(d.chains * d.variables);
  const buffers = Array.from({ length: d.chains }, () => new Float64Array(d.draws));
  checkChains(buffers, "essGeyerByChain");
  for (let v = 0; v < d.variables; v++) {
    const chains = variableChains(d, v, d.draws, buffers);
    for (let c = 0; c < d.chains; c++) out[c * d.variables + v] = essGeyerSingle(chains[c]);
  }
  return out;
}

/** Per chain, the minimum over variables of the single-chain Geyer ESS (NaN if any is NaN). */
export function minEssByChain(d: DrawsArray): Float64Array {
  const all = essGeyerByChain(d);
  const out = new Float64Array(d.chains);
  for (let c = 0; c < d.chains; c++) {
    let m = Infinity;
    for (let v = 0; v < d.variables; v++) m = Math.min(m, all[c * d.variables + v]);
    out[c] = m;
  }
  return out;
}
