/**
 * `gpmcmc diagnose DIR|FILES`: the summary table of a run read back from its draws files, like
 * CmdStan's `stansummary` and Stan's `print` (rows: lp__, accept_stat__, then the variables;
 * columns: Mean, MCSE, StdDev, 5%, 50%, 95%, ESS_bulk, ESS_tail, R_hat), the run-level figures
 * the `sample` command reports, and warnings. The numbers are io/diagnosis.ts's; this file
 * only chooses rows and lays them out.
 */
import type { Command } from "commander";
import { diagnoseRun, ESS_PER_CHAIN, formatRhat, RHAT_THRESHOLD, type Diagnosis, type DiagnosisRow } from "../io/diagnosis.js";
import { EBFMI_THRESHOLD, verdictFigures, verdictLines } from "../diagnostics/verdict.js";
import { ESS_PER_SECOND_BASIS } from "../diagnostics/runFigures.js";
import { basename, dirname } from "node:path";
import { exclusive, OptionError, parsePositiveInteger } from "./options.js";

/** With more variables than this, the table shows the first few, the worst few and a line for the rest. */
export const MAX_ROWS = 25;
/** How many leading variables a shortened table shows. */
export const FIRST_ROWS = 5;
/** How many of the worst variables (by R_hat, by ESS_bulk, by ESS_tail) a shortened table shows. */
export const WORST_ROWS = 3;
/** The sampler columns the table shows before the variables, as stansummary's first rows. */
export const SAMPLER_ROWS = ["lp__", "accept_stat__"] as const;

export interface DiagnoseTableOptions {
  /** A row for every variable. */
  all?: boolean;
  /** Exactly these rows, in this order (from `selectRows`). */
  rows?: DiagnosisRow[];
  /** Significant figures of the means, sds, MCSEs and quantiles (default 3). */
  sigFigs?: number;
}

/**
 * The rows named in a --variables list: "f.3" names one column, "f" every element f.1, f.2, ...
 * and sampler columns go by their names ("lp__"). Throws OptionError for a name with no column.
 */
export function selectRows(d: Diagnosis, raw: string, option = "--variables"): DiagnosisRow[] {
  const byName = new Map(d.rows.map((r) => [r.name, r]));
  const out: DiagnosisRow[] = [];
  const seen = new Set<string>();
  const add = (r: DiagnosisRow) => {
    if (!seen.has(r.name)) out.push(r);
    seen.add(r.name);
  };
  const parts = raw.split(",").map((s) => s.trim());
  for (const name of parts) {
    if (name === "") throw new OptionError(option, `an empty name in ${JSON.stringify(raw)}`);
    const exact = byName.get(name);
    if (exact !== undefined) {
      add(exact);
      continue;
    }
    const elements = d.rows.filter((r) => r.kind === "variable" && r.name.startsWith(name + "."));
    if (elements.length === 0) {
      throw new OptionError(option, `no column ${JSON.stringify(name)} in the draws (${describeColumns(d)})`);
    }
    elements.forEach(add);
  }
  return out;
}

function describeColumns(d: Diagnosis): string {
  const v = d.variables;
  const vars = v.length === 0 ? "no variables" : v.length <= 6 ? `variables: ${v.join(", ")}` : `variables: ${v.slice(0, 3).join(", ")}, ..., ${v[v.length - 1]}`;
  return `${vars}; sampler columns: ${d.samplerColumns.join(", ")}`;
}

// ---------------------------------------------------------------------------------------------
// Numbers

/** A mean, sd, MCSE or quantile with `sig` significant figures, plain where that stays short. */
export function formatValue(x: number, sig = 3): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a >= 1e6 || a < 1e-3) return x.toExponential(Math.max(0, sig - 1)).replace(/e\+?/, "e");
  if (a >= 10 ** sig) return Math.round(x).toString();
  return x.toPrecision(sig);
}

/** An effective sample size, rounded to a whole number. */
export function formatEss(x: number): string {
  return Number.isFinite(x) ? Math.round(x).toString() : Number.isNaN(x) ? "NaN" : "inf";
}

/** R-hat to three decimals, four where three would hide a flag (io/diagnosis.ts). */
export { formatRhat };

// ---------------------------------------------------------------------------------------------
// The table

const HEADER = ["", "Mean", "MCSE", "StdDev", "5%", "50%", "95%", "ESS_bulk", "ESS_tail", "R_hat"];

function isFlagged(d: Diagnosis, r: DiagnosisRow): boolean {
  if (r.kind === "sampler" && r.name !== "lp__") return false;
  const t = d.verdict.thresholds;
  return r.rhat > t.rhat || r.essBulk < t.ess || r.essTail < t.ess;
}

function cells(d: Diagnosis, r: DiagnosisRow, sig: number): string[] {
  const v = (x: number) => formatValue(x, sig);
  return [r.name, v(r.mean), v(r.mcseMean), v(r.sd), v(r.q5), v(r.q50), v(r.q95), formatEss(r.essBulk), formatEss(r.essTail), formatRhat(r.rhat), isFlagged(d, r) ? "*" : ""];
}

/** A table line: names left-aligned, numbers right-aligned. */
type Line = { kind: "row"; cells: string[] } | { kind: "gap"; skipped: number };

/** The rows a default (shortened) table shows: see MAX_ROWS. */
export function defaultRows(d: Diagnosis): { rows: DiagnosisRow[]; hidden: DiagnosisRow[] } {
  const sampler = SAMPLER_ROWS.map((n) => d.rows.find((r) => r.name === n)).filter((r): r is DiagnosisRow => r !== undefined);
  const vars = d.rows.filter((r) => r.kind === "variable");
  if (vars.length <= MAX_ROWS) return { rows: [...sampler, ...vars], hidden: [] };
  const pick = new Set<number>();
  for (let i = 0; i < FIRST_ROWS; i++) pick.add(i);
  const worst = (key: (r: DiagnosisRow) => number) =>
    vars
      .map((r, i) => ({ k: key(r), i }))
      .filter((x) => !Number.isNaN(x.k))
      .sort((a, b) => a.k - b.k || a.i - b.i)
      .slice(0, WORST_ROWS)
      .forEach((x) => pick.add(x.i));
  worst((r) => -r.rhat);
  worst((r) => r.essBulk);
  worst((r) => r.essTail);
  vars
    .map((r, i) => ({ r, i }))
    .filter((x) => Number.isNaN(x.r.rhat))
    .slice(0, WORST_ROWS)
    .forEach((x) => pick.add(x.i));
  const shown = vars.filter((_, i) => pick.has(i));
  return { rows: [...sampler, ...shown], hidden: vars.filter((_, i) => !pick.has(i)) };
}

/** The human-readable report: heading, table, run-level figures, warnings. */
export function formatDiagnosis(d: Diagnosis, options: DiagnoseTableOptions = {}): string {
  const sig = options.sigFigs ?? 3;
  let rows: DiagnosisRow[];
  let hidden: DiagnosisRow[] = [];
  if (options.rows !== undefined) rows = options.rows;
  else if (options.all) rows = [...SAMPLER_ROWS.map((n) => d.rows.find((r) => r.name === n)).filter((r): r is DiagnosisRow => r !== undefined), ...d.rows.filter((r) => r.kind === "variable")];
  else ({ rows, hidden } = defaultRows(d));

  const out: string[] = [];
  const total = d.chains * d.draws;
  out.push(
    `Inference for ${d.model ?? "a model"}: ${d.chains} ${d.chains === 1 ? "chain" : "chains"} of ${d.draws} draws (${total} in all)` +
      (d.truncated ? ", chains cut to the shortest" : ""),
  );
  out.push(`Files: ${describeFiles(d.files.map((f) => f.path))}`);
  out.push("");

  // Table lines in row order, with a gap line where a shortened table skips variables.
  const lines: Line[] = [];
  if (hidden.length > 0) {
    const index = new Map(d.rows.map((r, i) => [r, i]));
    let prev = -1;
    for (const r of rows) {
      const i = index.get(r) as number;
      if (r.kind === "variable") {
        const firstVar = d.samplerColumns.length;
        const from = prev < firstVar ? firstVar : prev + 1;
        if (i > from) lines.push({ kind: "gap", skipped: i - from });
      }
      lines.push({ kind: "row", cells: cells(d, r, sig) });
      prev = i;
    }
    const last = d.rows.length - 1 - (index.get(rows[rows.length - 1]) as number);
    if (last > 0) lines.push({ kind: "gap", skipped: last });
  } else {
    for (const r of rows) lines.push({ kind: "row", cells: cells(d, r, sig) });
  }
  const table = [HEADER.concat([""]), ...lines.filter((l): l is { kind: "row"; cells: string[] } => l.kind === "row").map((l) => l.cells)];
  const widths = HEADER.map((_, j) => Math.max(...table.map((c) => c[j].length)));
  const render = (c: string[]) =>
    c
      .slice(0, HEADER.length)
      .map((s, j) => (j === 0 ? s.padEnd(widths[0]) : s.padStart(Math.max(widths[j], 5))))
      .join("  ") + (c[HEADER.length] ? ` ${c[HEADER.length]}` : "");
  out.push(render(HEADER.concat([""])).trimEnd());
  for (const l of lines) {
    out.push(l.kind === "row" ? render(l.cells) : `... ${l.skipped} ${l.skipped === 1 ? "row" : "rows"}`);
  }
  if (hidden.length > 0) {
    const range = (f: (r: DiagnosisRow) => number, fmt: (x: number) => string) => {
      const v = hidden.map(f).filter(Number.isFinite);
      return v.length === 0 ? "NaN" : `${fmt(Math.min(...v))} to ${fmt(Math.max(...v))}`;
    };
    out.push(
      `(${hidden.length} of ${d.variables.length} variables not shown, with R_hat ${range((r) => r.rhat, formatRhat)}, ` +
        `ESS_bulk ${range((r) => r.essBulk, formatEss)}, ESS_tail ${range((r) => r.essTail, formatEss)}; --all shows every row, --variables chooses)`,
    );
  }
  if (rows.some((r) => isFlagged(d, r))) {
    out.push(`* R_hat > ${RHAT_THRESHOLD}, or ESS_bulk or ESS_tail < ${d.verdict.thresholds.ess} (${ESS_PER_CHAIN} per chain)`);
  }
  out.push("");

  const nv = d.variables.length;
  if (nv > 0) {
    const at = (name: string | null) => (name !== null ? ` (${name})` : "");
    out.push(`Over the ${nv} ${nv === 1 ? "variable" : "variables"}:`);
    out.push(
      `  ESS (Geyer's initial monotone sequence, chains pooled): ` +
        (d.minEss === null ? "not computable" : `min ${formatEss(d.minEss)}${at(d.minEssVariable)}, median ${formatEss(d.medianEss ?? NaN)}, max ${formatEss(d.maxEss ?? NaN)}`),
    );
    out.push(
      `  R-hat (classic Gelman-Rubin): ` +
        (d.rhatMax === null ? (d.chains < 2 ? "needs 2 or more chains" : "not computable") : `max ${formatRhat(d.rhatMax)}${at(d.rhatMaxVariable)}`),
    );
    out.push(`  ${verdictFigures(d.verdict)}`);
  }
  out.push(d.divergences === null ? "Divergences: not recorded (no divergent__ column, or nan only)" : `Divergences: ${d.divergences} of ${d.transitions} transitions`);
  if (d.samplingSeconds !== null) {
    out.push(
      `Sampling took ${formatValue(d.samplingSeconds, 3)} s summed over ${d.chains} ${d.chains === 1 ? "chain" : "chains"} (not wall-clock)` +
        (d.minEssPerSecond !== null ? `: ${formatValue(d.minEssPerSecond, 3)} min-ESS per second (per chain-second)` : ""),
    );
  }
  out.push("");
  out.push(...verdictLines(d.verdict));
  return out.join("\n") + "\n";
}

/** "run/draws_1.csv .. draws_4.csv (4 files)" for files in one directory; all of them otherwise. */
export function describeFiles(paths: readonly string[]): string {
  if (paths.length <= 2) return paths.join(", ");
  const dir = dirname(paths[0]);
  if (paths.every((p) => dirname(p) === dir)) return `${paths[0]} .. ${basename(paths[paths.length - 1])} (${paths.length} files)`;
  return paths.join(", ");
}

/** The --json object: the run-level figures, the files, the warnings, and the rows. */
export function diagnosisJson(d: Diagnosis, rows: readonly DiagnosisRow[] = d.rows): Record<string, unknown> {
  const { rows: _all, variables, samplerColumns, ...rest } = d;
  void _all;
  return {
    ...rest,
    essPerSecondBasis: ESS_PER_SECOND_BASIS,
    variables: variables.length,
    samplerColumns,
    rows: rows.map((r) => ({
      name: r.name,
      kind: r.kind,
      mean: r.mean,
      sd: r.sd,
      mcseMean: r.mcseMean,
      q5: r.q5,
      q50: r.q50,
      q95: r.q95,
      essBulk: r.essBulk,
      essTail: r.essTail,
      rhat: r.rhat,
      essGeyer: r.essGeyer,
      rhatClassic: r.rhatClassic,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// The command

interface RawDiagnoseOptions {
  json?: boolean;
  all?: boolean;
  variables?: string;
  truncate?: boolean;
  sigFigs?: string;
}

/** Runs the command on its arguments and returns what it prints on stdout. */
export function runDiagnose(paths: string[], raw: RawDiagnoseOptions): string {
  exclusive({ "--all": raw.all, "--variables": raw.variables });
  let sigFigs = 3;
  if (raw.sigFigs !== undefined) {
    sigFigs = parsePositiveInteger("--sig-figs", raw.sigFigs);
    if (sigFigs > 17) throw new OptionError("--sig-figs", `must be at most 17 (a double has 17 significant digits), got ${sigFigs}`);
  }
  const d = diagnoseRun(paths, { truncate: raw.truncate === true });
  const rows = raw.variables !== undefined ? selectRows(d, raw.variables) : undefined;
  if (raw.json) return JSON.stringify(diagnosisJson(d, rows)) + "\n";
  return formatDiagnosis(d, { all: raw.all, rows, sigFigs });
}

/** Adds `diagnose` to the program. */
export function registerDiagnoseCommand(program: Command): void {
  program
    .command("diagnose")
    .description("summarise a run's draws: mean, sd, MCSE, quantiles, bulk and tail ESS, R-hat; flag R-hat, low ESS and divergences")
    .argument("<paths...>", "a run directory (its draws_1.csv, draws_2.csv, ...) or draws files, ours or CmdStan's, one per chain")
    .option("--json", "print one JSON object (every row, and the run-level figures)")
    .option("--all", `print a row for every variable (by default, with more than ${MAX_ROWS}, the first and the worst few)`)
    .option("--variables <names>", "print these rows, comma-separated: f.1,f.3; f alone means every f.k; lp__ and other sampler columns by name")
    .option("--truncate", "cut chains of different lengths to the shortest (default: refuse)")
    .option("--sig-figs <n>", "significant figures of means, sds, MCSEs and quantiles (default 3)")
    .addHelpText(
      "after",
      `\nFlags R_hat (rank-normalised split, Vehtari et al. 2021) > ${RHAT_THRESHOLD}, and ESS_bulk or ESS_tail < ${ESS_PER_CHAIN} x chains,\n` +
        `as Stan does; counts divergent transitions, trees at the largest depth (treedepth__), and flags E-BFMI < ${EBFMI_THRESHOLD}.\n` +
        "The verdict is the one `gpmcmc sample` ends with; the run-level ESS (Geyer) and classic R-hat are those it reports.\n",
    )
    .action((paths: string[], opts: RawDiagnoseOptions) => {
      const text = runDiagnose(paths, opts);
      // `gpmcmc diagnose run | head`: a reader that stops early is not an error
      process.stdout.on("error", (e: NodeJS.ErrnoException) => {
        if (e.code === "EPIPE") process.exit(0);
        throw e;
      });
      process.stdout.write(text);
    });
}
