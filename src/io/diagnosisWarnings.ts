/**
 * What a diagnosis flags, and the warnings it prints. Thresholds, as Stan's tools warn:
 * - R-hat (rank-normalised split) > 1.01: Vehtari, Gelman, Simpson, Carpenter & Buerkner
 *   (2021), "Rank-normalization, folding, and localization", Bayesian Analysis 16, sec. 4.3,
 *   and rstan's sampler warnings;
 * - bulk or tail ESS < 100 per chain (< 400 for 4 chains): the same paper, sec. 4.3 ("we
 *   recommend requiring that the rank-normalized ESS is greater than 400"), rstan's warnings
 *   (`ess_bulk < 100 * chains`), and https://mc-stan.org/misc/warnings.html#bulk-ess.
 */
import type { VariableSummary } from "../diagnostics/summary.js";

/** R-hat above this is flagged. */
export const RHAT_THRESHOLD = 1.01;
/** Bulk or tail ESS below this many per chain is flagged (times the number of chains). */
export const ESS_PER_CHAIN = 100;

/** Which quantities crossed a threshold, worst first. */
export interface DiagnosisFlags {
  /** Rank-normalised R-hat > RHAT_THRESHOLD. */
  rhat: string[];
  /** R-hat, bulk or tail ESS not computable (constant or non-finite draws, or too few draws). */
  notComputable: string[];
  /** Bulk ESS < thresholds.ess. */
  essBulk: string[];
  /** Tail ESS < thresholds.ess. */
  essTail: string[];
}

/** What the warnings read of a diagnosis (io/diagnosis.ts's Diagnosis holds all of it). */
export interface FlaggedRun {
  rows: readonly (Pick<VariableSummary, "rhat" | "essBulk" | "essTail"> & { readonly name: string })[];
  files: readonly { path: string; draws: number; expectedDraws: number | null; divergences: number | null; incomplete: boolean }[];
  chains: number;
  draws: number;
  truncated: boolean;
  divergences: number | null;
  transitions: number;
  thresholds: { rhat: number; ess: number };
  flags: DiagnosisFlags;
}

/**
 * R-hat to three decimals (so 1.01 is told from 1.004), or four where three would show a
 * flagged value (1.0102) as the threshold itself.
 */
export function formatRhat(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "NaN" : "inf";
  const s = x.toFixed(3);
  return x > RHAT_THRESHOLD && Number(s) <= RHAT_THRESHOLD ? x.toFixed(4) : s;
}

const WORST_NAMED = 5;

/** One line per problem found, worst first within each kind, naming at most WORST_NAMED quantities. */
export function warningsFor(d: FlaggedRun, nChecked: number, lengths: number[], declaredChains: number | null): string[] {
  const out: string[] = [];
  const rowOf = new Map(d.rows.map((r) => [r.name, r]));
  type Row = FlaggedRun["rows"][number];
  const named = (names: string[], value: (r: Row) => string) => {
    const shown = names.slice(0, WORST_NAMED).map((n) => `${n} (${value(rowOf.get(n) as Row)})`);
    return shown.join(", ") + (names.length > WORST_NAMED ? `, and ${names.length - WORST_NAMED} more` : "");
  };
  const of = (k: number) => `${k} of ${nChecked} ${nChecked === 1 ? "quantity" : "quantities"}`;
  const { flags, thresholds } = d;
  if (flags.rhat.length > 0) {
    out.push(`R_hat > ${thresholds.rhat} for ${of(flags.rhat.length)}, worst: ${named(flags.rhat, (r) => formatRhat(r.rhat))}: the chains have not mixed`);
  }
  if (flags.notComputable.length > 0) {
    const k = flags.notComputable.length;
    out.push(
      `R_hat or ESS cannot be computed for ${of(k)} (constant or non-finite draws, or too few draws): ` +
        `${flags.notComputable.slice(0, WORST_NAMED).join(", ")}${k > WORST_NAMED ? `, and ${k - WORST_NAMED} more` : ""}`,
    );
  }
  const per = `${ESS_PER_CHAIN} per chain x ${d.chains} ${d.chains === 1 ? "chain" : "chains"}`;
  if (flags.essBulk.length > 0) {
    out.push(
      `ESS_bulk < ${thresholds.ess} (${per}) for ${of(flags.essBulk.length)}, lowest: ${named(flags.essBulk, (r) => Math.round(r.essBulk).toString())}: posterior means and medians may be unreliable`,
    );
  }
  if (flags.essTail.length > 0) {
    out.push(
      `ESS_tail < ${thresholds.ess} (${per}) for ${of(flags.essTail.length)}, lowest: ${named(flags.essTail, (r) => Math.round(r.essTail).toString())}: the 5% and 95% quantiles may be unreliable`,
    );
  }
  if (d.divergences !== null && d.divergences > 0) {
    const byChain = d.files
      .map((f, c) => ({ c: c + 1, k: f.divergences as number }))
      .filter((x) => x.k > 0)
      .map((x) => `chain ${x.c}: ${x.k}`);
    const pct = (100 * d.divergences) / d.transitions;
    out.push(`${d.divergences} of ${d.transitions} transitions (${pct < 0.1 ? pct.toPrecision(2) : pct.toFixed(1)}%) were divergent (${byChain.join(", ")}): the estimates may be biased`);
  }
  for (const f of d.files) {
    if (f.incomplete) {
      out.push(`${f.path}: the run stopped early: ${f.draws}${f.expectedDraws !== null ? ` of ${f.expectedDraws}` : ""} draws`);
    }
  }
  if (d.truncated) {
    out.push(`chains cut to their first ${d.draws} draws (the files hold ${lengths.join(", ")})`);
  }
  if (declaredChains !== null && declaredChains > d.chains) {
    out.push(`the files say the run had ${declaredChains} chains, but ${d.chains} ${d.chains === 1 ? "file was" : "were"} given`);
  }
  return out;
}
