/**
 * The verdict on a run: whether its draws can be trusted, and what to do when they cannot. One
 * function, `judgeRun`, judges every run, so that `gpmcmc diagnose` (io/diagnosis.ts, a run read
 * back from its files) and the summary of every command that samples (run/summary.ts) say the
 * same words at the same thresholds; `verdictLines` is the text both print.
 *
 * Thresholds, as Stan's tools warn:
 * - R-hat (rank-normalised split) > 1.01: Vehtari, Gelman, Simpson, Carpenter & Buerkner (2021),
 *   "Rank-normalization, folding, and localization", Bayesian Analysis 16, sec. 4.3, and rstan's
 *   sampler warnings;
 * - bulk or tail ESS < 100 per chain (< 400 for 4 chains): the same paper, sec. 4.3, rstan's
 *   warnings (`ess_bulk < 100 * chains`), https://mc-stan.org/misc/warnings.html#bulk-ess;
 * - any divergent transition after burn-in (Betancourt 2017, "A conceptual introduction to
 *   Hamiltonian Monte Carlo", sec. 6.2; CmdStan's diagnose);
 * - any NUTS transition whose tree reached its largest depth (CmdStan's diagnose: an efficiency
 *   warning, not one of validity);
 * - E-BFMI < 0.3 in a chain (Betancourt 2016, "Diagnosing suboptimal cotangent disintegrations
 *   in Hamiltonian Monte Carlo", eq. 3.2; CmdStan's diagnose).
 */

/** R-hat above this is flagged. */
export const RHAT_THRESHOLD = 1.01;
/** Bulk or tail ESS below this many per chain is flagged (times the number of chains). */
export const ESS_PER_CHAIN = 100;
/** E-BFMI below this in a chain is flagged. */
export const EBFMI_THRESHOLD = 0.3;

/** A quantity judged: lp__ or a variable, with its rank-normalised R-hat and bulk and tail ESS (diagnostics/summary.ts). */
export interface JudgedQuantity {
  readonly name: string;
  readonly rhat: number;
  readonly essBulk: number;
  readonly essTail: number;
}

/** What a run is judged by. */
export interface RunEvidence {
  /** lp__ (where the run has one) and the variables; a name ending in "__" is a sampler column, left out of the figures over the variables. */
  quantities: readonly JudgedQuantity[];
  chains: number;
  /** Draws per chain judged. */
  draws: number;
  /** Divergent transitions after burn-in, per chain; null: the sampler has none to report. */
  divergences: readonly number[] | null;
  /** Transitions after burn-in, all chains (what the divergences are counted among). */
  transitions: number;
  /** NUTS: per chain, transitions after burn-in whose tree reached its largest depth, and that depth (null: not known). */
  treeDepth?: { saturated: readonly number[]; maxDepth: number | null };
  /** Per chain, the energy (energy__) at each draw: E-BFMI is judged when every energy is finite (a Hamiltonian sampler). */
  energy?: readonly ArrayLike<number>[];
}

/** What the user can change, by the option of the command that made the run; a remedy left out is not offered. */
export interface Remedies {
  /** The option that sets the draws per chain (default --draws). */
  draws?: string;
  /** The adaptation's target acceptance: its option and the value it had (null: the sampler's default). */
  targetAcceptance?: { option: string; value: number | null };
  /** The option of the step size (where a smaller one helps against divergences). */
  stepSize?: string;
  /** NUTS's largest tree depth: its option and the value it had. */
  maxTreeDepth?: { option: string; value: number | null };
}

/** The checks a warning comes from. */
export type VerdictCheck = "rhat" | "not-computable" | "ess-bulk" | "ess-tail" | "divergences" | "tree-depth" | "e-bfmi" | "run";

export interface VerdictWarning {
  check: VerdictCheck;
  /** One line for people: what crossed the threshold, what it means, and what to do. */
  text: string;
}

export interface Verdict {
  /** True when there is no warning. */
  ok: boolean;
  thresholds: { rhat: number; ess: number; ebfmi: number };
  /** The quantities past each threshold, worst first. */
  flags: { rhat: string[]; notComputable: string[]; essBulk: string[]; essTail: string[] };
  /** Over the variables (not lp__): the smallest bulk and tail ESS, the largest rank-normalised R-hat, and where. */
  essBulkMin: number | null;
  essBulkMinVariable: string | null;
  essTailMin: number | null;
  essTailMinVariable: string | null;
  rhatRankMax: number | null;
  rhatRankMaxVariable: string | null;
  /** Divergent transitions after burn-in, all chains (null: the sampler has none). */
  divergences: number | null;
  /** NUTS: transitions at the largest tree depth, all chains (null: not a NUTS run). */
  treeDepthSaturations: number | null;
  /** Per chain (null: not a Hamiltonian sampler, or an energy not finite). */
  ebfmi: (number | null)[] | null;
  /** Draws per chain that would bring the lowest ESS to its threshold, or the chains to mix (null: none needed, or none can be said). */
  suggestedDraws: number | null;
  warnings: VerdictWarning[];
}

const WORST_NAMED = 5;

/**
 * E-BFMI of one chain, sum_t (E_t - E_{t-1})^2 / sum_t (E_t - mean E)^2 (Betancourt 2016,
 * eq. 3.2 estimated as in Stan); values below 0.3 suggest the momentum resampling explores the
 * energy distribution poorly. NaN when there are non-finite or constant energies.
 */
export function ebfmi(energy: ArrayLike<number>): number {
  const n = energy.length;
  if (n < 2) return NaN;
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(energy[i])) return NaN;
    m += energy[i];
  }
  m /= n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    den += (energy[i] - m) * (energy[i] - m);
    if (i > 0) num += (energy[i] - energy[i - 1]) * (energy[i] - energy[i - 1]);
  }
  return den > 0 ? num / den : NaN;
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

/** Rounded up to two significant figures: 1234 -> 1300. */
function roundUp2(x: number): number {
  if (x <= 100) return Math.ceil(x);
  const unit = 10 ** (Math.floor(Math.log10(x)) - 1);
  return Math.ceil(x / unit - 1e-9) * unit;
}

const pct = (k: number, n: number) => {
  const p = (100 * k) / n;
  return p < 0.1 ? p.toPrecision(2) : p.toFixed(1);
};

/** Judges a run by its evidence; `remedies` names what the command that made it can change. */
export function judgeRun(e: RunEvidence, remedies: Remedies = {}): Verdict {
  const ess = ESS_PER_CHAIN * e.chains;
  const q = e.quantities;
  const worstFirst = (rows: readonly JudgedQuantity[], key: (r: JudgedQuantity) => number) =>
    rows.map((r, i) => ({ r, i })).sort((a, b) => key(a.r) - key(b.r) || a.i - b.i).map(({ r }) => r.name);
  const flags = {
    rhat: worstFirst(q.filter((r) => r.rhat > RHAT_THRESHOLD), (r) => -r.rhat),
    notComputable: q.filter((r) => Number.isNaN(r.rhat) || Number.isNaN(r.essBulk) || Number.isNaN(r.essTail)).map((r) => r.name),
    essBulk: worstFirst(q.filter((r) => r.essBulk < ess), (r) => r.essBulk),
    essTail: worstFirst(q.filter((r) => r.essTail < ess), (r) => r.essTail),
  };
  const variables = q.filter((r) => !r.name.endsWith("__"));
  const bulk = extreme(variables, (r) => r.essBulk, "min");
  const tail = extreme(variables, (r) => r.essTail, "min");
  const rank = extreme(variables, (r) => r.rhat, "max");

  // Draws that would bring the lowest flagged ESS to its threshold (ESS grows with the draws), with a quarter to spare; twice the draws where only R-hat is flagged.
  const lowest = Math.min(...[...flags.essBulk.map((n) => q.find((r) => r.name === n)!.essBulk), ...flags.essTail.map((n) => q.find((r) => r.name === n)!.essTail)].filter((x) => x > 0));
  const factor = Number.isFinite(lowest) ? (1.25 * ess) / lowest : flags.rhat.length > 0 ? 2 : 0;
  const suggestedDraws = factor > 0 && e.draws > 0 ? roundUp2(Math.max(2 * e.draws, e.draws * factor)) : null;
  const runLonger = `run longer${suggestedDraws !== null ? `: ${remedies.draws ?? "--draws"} ${suggestedDraws}` : ""}`;

  const warnings: VerdictWarning[] = [];
  const byName = new Map(q.map((r) => [r.name, r]));
  const named = (names: string[], value: (r: JudgedQuantity) => string) =>
    names.slice(0, WORST_NAMED).map((n) => `${n} (${value(byName.get(n)!)})`).join(", ") + (names.length > WORST_NAMED ? `, and ${names.length - WORST_NAMED} more` : "");
  const of = (k: number) => `${k} of ${q.length} ${q.length === 1 ? "quantity" : "quantities"}`;
  const per = `${ESS_PER_CHAIN} per chain x ${e.chains} ${e.chains === 1 ? "chain" : "chains"}`;
  if (flags.rhat.length > 0) {
    warnings.push({ check: "rhat", text: `R_hat > ${RHAT_THRESHOLD} for ${of(flags.rhat.length)}, worst: ${named(flags.rhat, (r) => formatRhat(r.rhat))}: the chains have not mixed; ${runLonger}` });
  }
  if (q.length === 0) warnings.push({ check: "not-computable", text: "nothing to judge: the run has no quantities" });
  if (flags.notComputable.length > 0) {
    const k = flags.notComputable.length;
    warnings.push({
      check: "not-computable",
      text: `R_hat or ESS cannot be computed for ${of(k)} (constant or non-finite draws, or too few draws): ${flags.notComputable.slice(0, WORST_NAMED).join(", ")}${k > WORST_NAMED ? `, and ${k - WORST_NAMED} more` : ""}`,
    });
  }
  if (flags.essBulk.length > 0) {
    warnings.push({ check: "ess-bulk", text: `ESS_bulk < ${ess} (${per}) for ${of(flags.essBulk.length)}, lowest: ${named(flags.essBulk, (r) => Math.round(r.essBulk).toString())}: posterior means and medians may be unreliable; ${runLonger}` });
  }
  if (flags.essTail.length > 0) {
    warnings.push({ check: "ess-tail", text: `ESS_tail < ${ess} (${per}) for ${of(flags.essTail.length)}, lowest: ${named(flags.essTail, (r) => Math.round(r.essTail).toString())}: the 5% and 95% quantiles may be unreliable; ${runLonger}` });
  }

  const divergences = e.divergences === null ? null : e.divergences.reduce((t, k) => t + k, 0);
  if (divergences !== null && divergences > 0) {
    const byChain = e.divergences!.map((k, c) => ({ k, c })).filter((x) => x.k > 0).map((x) => `chain ${x.c + 1}: ${x.k}`).join(", ");
    const ta = remedies.targetAcceptance;
    const raise = ta ? `raise ${ta.option}${ta.value !== null ? ` above ${ta.value}` : ""} (e.g. ${ta.value !== null && ta.value >= 0.95 ? 0.99 : 0.95})` : undefined;
    const smaller = remedies.stepSize ? `give a smaller ${remedies.stepSize}` : undefined;
    const what = [raise, smaller].filter((x) => x !== undefined).join(", or ");
    warnings.push({
      check: "divergences",
      text: `${divergences} of ${e.transitions} transitions (${pct(divergences, e.transitions)}%) after burn-in were divergent (${byChain}): the estimates may be biased; ${what !== "" ? what : "see where they happen (gpmcmc report)"}`,
    });
  }

  let treeDepthSaturations: number | null = null;
  if (e.treeDepth !== undefined) {
    treeDepthSaturations = e.treeDepth.saturated.reduce((t, k) => t + k, 0);
    if (treeDepthSaturations > 0) {
      const depth = e.treeDepth.maxDepth;
      const md = remedies.maxTreeDepth;
      warnings.push({
        check: "tree-depth",
        text: `${treeDepthSaturations} of ${e.transitions} transitions (${pct(treeDepthSaturations, e.transitions)}%) reached the largest tree depth${depth !== null ? `, ${depth}` : ""}: ` +
          `their trajectories were cut short, which costs efficiency, not correctness${md ? `; raise ${md.option}${md.value !== null ? ` (e.g. ${md.value + 2})` : ""}` : ""}`,
      });
    }
  }

  let bfmi: (number | null)[] | null = null;
  if (e.energy !== undefined && e.energy.length > 0 && e.energy.every((c) => Array.prototype.every.call(c, Number.isFinite))) {
    bfmi = e.energy.map((c) => finite(ebfmi(c)));
    const low = bfmi.map((b, c) => ({ b, c })).filter((x) => x.b !== null && x.b < EBFMI_THRESHOLD);
    if (low.length > 0) {
      warnings.push({
        check: "e-bfmi",
        text: `E-BFMI < ${EBFMI_THRESHOLD} in ${low.length} of ${bfmi.length} ${bfmi.length === 1 ? "chain" : "chains"} (${low.map((x) => `chain ${x.c + 1}: ${(x.b as number).toFixed(2)}`).join(", ")}): ` +
          `the sampler moves slowly between energy levels (heavy tails, or a funnel); the estimates may be biased: ${runLonger}, and check the tails`,
      });
    }
  }

  return {
    ok: warnings.length === 0,
    thresholds: { rhat: RHAT_THRESHOLD, ess, ebfmi: EBFMI_THRESHOLD },
    flags,
    essBulkMin: bulk.value,
    essBulkMinVariable: bulk.name,
    essTailMin: tail.value,
    essTailMinVariable: tail.name,
    rhatRankMax: rank.value,
    rhatRankMaxVariable: rank.name,
    divergences,
    treeDepthSaturations,
    ebfmi: bfmi,
    suggestedDraws: warnings.some((w) => /run longer/.test(w.text)) ? suggestedDraws : null,
    warnings,
  };
}

/** The verdict with warnings about the run itself added (a file cut short, chains missing): `ok` no more. */
export function withRunWarnings(v: Verdict, texts: readonly string[]): Verdict {
  if (texts.length === 0) return v;
  return { ...v, ok: false, warnings: [...v.warnings, ...texts.map((text) => ({ check: "run" as const, text }))] };
}

/** The figures the verdict is drawn from, over the variables: "ESS_bulk min 1830 (f.6), ESS_tail min 1502 (f.3), R_hat max 1.003 (f.137)". */
export function verdictFigures(v: Verdict): string {
  const at = (name: string | null) => (name !== null ? ` (${name})` : "");
  const ess = (x: number | null) => (x === null ? "NaN" : Math.round(x).toString());
  return `ESS_bulk min ${ess(v.essBulkMin)}${at(v.essBulkMinVariable)}, ESS_tail min ${ess(v.essTailMin)}${at(v.essTailMinVariable)}, ` +
    `R_hat max ${v.rhatRankMax === null ? "NaN" : formatRhat(v.rhatRankMax)}${at(v.rhatRankMaxVariable)}`;
}

/** The verdict as printed: "No warnings: ..." on one line, or "Warnings:" and one indented line each. */
export function verdictLines(v: Verdict): string[] {
  if (v.warnings.length === 0) {
    return [
      `No warnings: R_hat <= ${v.thresholds.rhat}, ESS_bulk and ESS_tail >= ${v.thresholds.ess} for lp__ and every variable` +
        (v.divergences === null ? "" : ", no divergent transitions") +
        (v.treeDepthSaturations === null ? "" : ", no tree at the largest depth") +
        (v.ebfmi === null ? "" : `, E-BFMI >= ${v.thresholds.ebfmi} in every chain`) +
        ".",
    ];
  }
  return ["Warnings:", ...v.warnings.map((w) => `  ${w.text}`)];
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** The first smallest (or largest) finite value over the rows, and its row's name; null where there is none. */
function extreme(rows: readonly JudgedQuantity[], f: (r: JudgedQuantity) => number, which: "min" | "max"): { value: number | null; name: string | null } {
  let value: number | null = null;
  let name: string | null = null;
  for (const r of rows) {
    const x = f(r);
    if (!Number.isFinite(x)) continue;
    if (value === null || (which === "min" ? x < value : x > value)) {
      value = x;
      name = r.name;
    }
  }
  return { value, name };
}
