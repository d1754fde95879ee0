/**
 * `gpmcmc report DIR`: one self-contained HTML page about a run, readable offline. Apache
 * ECharts' minified browser build is inlined in a <script> element and every chart's option is
 * inlined as JSON, so the page loads nothing: no network, no other file.
 *
 * Sections: the run's configuration; a diagnostics table (mean, sd, MCSE, quantiles, bulk and
 * tail ESS, R-hat, Geyer ESS from src/diagnostics); trace plots; rank plots; autocorrelation;
 * marginal densities; the energy distribution; acceptance and divergences; and, for an AIS
 * run (ais.json, see io/ais.ts), log Z against time.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { EChartsOption } from "echarts";
import { columnValues, type CmdStanCsv } from "../io/cmdstan.js";
import { autocorrelation, pooledRanks, rhat, summarize, type VariableSummary } from "../diagnostics/index.js";
import { VERSION } from "../version.js";
import { loadRun, type RunData } from "./run.js";
import {
  ebfmi,
  energyTransitions,
  kernelDensities,
  rankHistograms,
  runningMean,
  sharedHistogram,
  thinnedTrace,
  forPlot,
  type Point,
} from "./curves.js";
import {
  acceptanceChart,
  autocorrelationChart,
  colourOf,
  densityChart,
  divergenceChart,
  energyChart,
  rankChart,
  rankChartHeight,
  traceChart,
  baseOption,
} from "./charts.js";
import { lineFigureOption } from "./lineFigure.js";
import type { AisTrace } from "../io/ais.js";

export interface ReportOptions {
  /** Columns to show (variables or sampler columns such as lp__); by default chosen as `chooseVariables` says. */
  variables?: string[];
  /** At most this many variables when they are chosen by default (default 8). */
  maxVariables?: number;
  /** Largest autocorrelation lag drawn (default 100, and at most draws - 1). */
  maxLag?: number;
  /** Points per chain in a trace plot; longer chains are thinned for drawing (default 1000). */
  maxTracePoints?: number;
  /** Page title (default "gpmcmc report: DIR"). */
  title?: string;
}

/** A requested variable that the draws do not have. */
export class UnknownVariableError extends Error {
  readonly variable: string;
  constructor(variable: string, available: string[]) {
    const shown = available.length > 12 ? [...available.slice(0, 6), "...", ...available.slice(-3)] : available;
    super(`no column ${JSON.stringify(variable)} in the draws (columns: ${shown.join(", ")})`);
    this.name = "UnknownVariableError";
    this.variable = variable;
  }
}

/** Default number of variables shown. */
export const DEFAULT_MAX_VARIABLES = 8;
/** How many of the first latent variables the default choice includes. */
const FIRST_VARIABLES = 3;

/** Why a variable is shown. */
export type ChoiceReason = "requested" | "log density" | "first" | "highest R-hat";

export interface VariableChoice {
  variables: string[];
  reasons: ChoiceReason[];
  /** R-hat of every model variable (not sampler columns), NaN where undefined; empty with < 4 draws. */
  rhatAll: Map<string, number>;
}

/** Draws per chain used by the diagnostics: the shortest chain's count (chains of an interrupted run may differ). */
function commonDraws(run: RunData): number {
  return run.chains.length === 0 ? 0 : Math.min(...run.chains.map((c) => c.draws));
}

function chainsOf(run: RunData, name: string, length?: number): Float64Array[] {
  return run.chains.map((c) => {
    const v = columnValues(c, name);
    return length === undefined ? v : v.subarray(0, length);
  });
}

/**
 * The variables a report shows: those requested, or else lp__, the first 3 model variables
 * and then those with the highest R-hat (undefined R-hat counts as highest: a stuck chain),
 * `maxVariables` in all. Throws UnknownVariableError for a requested name the draws lack.
 */
export function chooseVariables(run: RunData, options: ReportOptions = {}): VariableChoice {
  const n = commonDraws(run);
  const modelVariables = run.chains.length > 0 ? run.chains[0].variables : [];
  const rhatAll = new Map<string, number>();
  if (n >= 4) {
    for (const v of modelVariables) rhatAll.set(v, rhat(chainsOf(run, v, n)));
  }
  if (options.variables !== undefined) {
    const seen = new Set<string>();
    const variables: string[] = [];
    for (const v of options.variables) {
      if (!run.columns.includes(v)) throw new UnknownVariableError(v, run.columns);
      if (!seen.has(v)) variables.push(v);
      seen.add(v);
    }
    return { variables, reasons: variables.map(() => "requested"), rhatAll };
  }
  const max = Math.max(1, options.maxVariables ?? DEFAULT_MAX_VARIABLES);
  const variables: string[] = [];
  const reasons: ChoiceReason[] = [];
  const add = (v: string, why: ChoiceReason) => {
    if (variables.length < max && !variables.includes(v)) {
      variables.push(v);
      reasons.push(why);
    }
  };
  if (run.columns.includes("lp__")) add("lp__", "log density");
  for (const v of modelVariables.slice(0, FIRST_VARIABLES)) add(v, "first");
  const byRhat = [...rhatAll.entries()].sort((a, b) => worse(a[1], b[1]));
  for (const [v] of byRhat) add(v, "highest R-hat");
  for (const v of modelVariables) add(v, "first");
  return { variables, reasons, rhatAll };
}

/** Orders R-hat values worst first; NaN (undefined: constant or stuck chains) before all. */
function worse(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
  if (Number.isNaN(b)) return 1;
  return b - a;
}

/** Reads a run directory and returns its report page. Throws DataError for a bad directory. */
export function buildReport(runDir: string, options: ReportOptions = {}): string {
  return renderReport(loadRun(runDir), options);
}

// ---------------------------------------------------------------------------------------------

interface Chart {
  id: string;
  title: string;
  option: EChartsOption;
  height: number;
  /** Describes the chart for screen readers. */
  label: string;
}

class Page {
  private readonly charts: Chart[] = [];
  chart(title: string, option: EChartsOption, label: string, height = 240): string {
    const id = `chart-${this.charts.length + 1}`;
    this.charts.push({ id, title, option, height, label });
    return `<figure><figcaption>${esc(title)}</figcaption><div class="chart" id="${id}" data-chart="${id}" role="img" aria-label="${esc(label)}" style="height:${height}px"></div></figure>`;
  }
  get chartData(): Record<string, EChartsOption> {
    return Object.fromEntries(this.charts.map((c) => [c.id, c.option]));
  }
}

/** The report page of a loaded run. */
export function renderReport(run: RunData, options: ReportOptions = {}): string {
  const page = new Page();
  const choice = chooseVariables(run, options);
  const title = options.title ?? `gpmcmc report: ${run.dir}`;
  const sections: { id: string; heading: string; body: string }[] = [];
  sections.push({ id: "run", heading: "Run", body: runSection(run) });
  if (run.chains.length > 0) {
    const n = commonDraws(run);
    const maxLag = Math.max(1, Math.min(options.maxLag ?? 100, n - 1));
    const maxTracePoints = Math.max(10, options.maxTracePoints ?? 1000);
    const data = choice.variables.map((v) => ({ name: v, all: chainsOf(run, v), common: chainsOf(run, v, n) }));
    sections.push({ id: "diagnostics", heading: "Diagnostics", body: diagnosticsSection(run, choice, n) });
    sections.push({ id: "trace", heading: "Trace plots", body: traceSection(page, run, data, maxTracePoints) });
    sections.push({ id: "rank", heading: "Rank plots", body: rankSection(page, data, n) });
    sections.push({ id: "autocorrelation", heading: "Autocorrelation", body: autocorrelationSection(page, data, maxLag) });
    sections.push({ id: "density", heading: "Marginal densities", body: densitySection(page, data) });
    sections.push({ id: "energy", heading: "Energy", body: energySection(page, run) });
    sections.push({ id: "sampler", heading: "Acceptance and divergences", body: samplerSection(page, run, maxTracePoints) });
  }
  if (run.ais !== undefined) sections.push({ id: "ais", heading: "Annealed importance sampling: log Z", body: aisSection(page, run.ais) });

  const nav = sections.map((s) => `<a href="#${s.id}">${esc(s.heading)}</a>`).join("");
  const body = sections.map((s) => `<section id="${s.id}"><h2>${esc(s.heading)}</h2>${s.body}</section>`).join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="gpmcmc ${esc(VERSION)}">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>${esc(title)}</h1><p class="sub">${esc(headline(run))}</p><nav>${nav}</nav></header>
<main>
${body}
</main>
<footer>Made by gpmcmc ${esc(VERSION)}. Charts drawn with Apache ECharts (Apache License 2.0), included in this page. Drag to zoom in trace plots; hover for values.</footer>
<script type="application/json" id="chart-data">${jsonForScript(page.chartData)}</script>
<script>${echartsSource()}</script>
<script>${INIT_SCRIPT}</script>
</body>
</html>
`;
}

function headline(run: RunData): string {
  const parts: string[] = [];
  if (run.chains.length > 0) {
    const c0 = run.chains[0];
    const draws = run.chains.map((c) => c.draws);
    const same = draws.every((d) => d === draws[0]);
    parts.push(`${run.chains.length} ${run.chains.length === 1 ? "chain" : "chains"} of ${same ? draws[0] : draws.join(" / ")} draws`);
    parts.push(`${c0.variables.length} model variables`);
    if (c0.config.algorithm !== undefined) parts.push(`sampler ${c0.config.algorithm}`);
    if (c0.config.model !== undefined) parts.push(`model ${c0.config.model}`);
    if (run.chains.some((c) => c.incomplete)) parts.push("INCOMPLETE: the run stopped early");
  }
  if (run.ais !== undefined) parts.push(`AIS: ${run.ais.runs.length} runs, log Z = ${fmt(run.ais.logZ)} ± ${fmt(run.ais.standardError)}`);
  return parts.join(" · ");
}

// --- sections -----------------------------------------------------------------------------------

function runSection(run: RunData): string {
  const out: string[] = [];
  if (run.chains.length > 0) {
    const config = run.chains[0].config;
    const keys = Object.keys(config);
    out.push(`<p>Configuration from the comments of <code>${esc(run.chains[0].path)}</code>:</p>`);
    out.push(keyValueTable(keys.map((k) => [k, config[k]])));
  }
  if (run.summary !== undefined) {
    out.push(`<p>From <code>summary.json</code>:</p>`);
    out.push(keyValueTable(flatten(run.summary).slice(0, 200)));
  }
  if (out.length === 0) out.push("<p>No configuration recorded.</p>");
  return out.join("\n");
}

function keyValueTable(rows: [string, string][]): string {
  if (rows.length === 0) return "<p>(none)</p>";
  return `<table class="kv"><tbody>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join("")}</tbody></table>`;
}

/** Nested JSON as dotted keys and printable values; long arrays are summarised. */
function flatten(value: unknown, prefix = ""): [string, string][] {
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null)) {
      const text = value.length > 8 ? `[${value.slice(0, 8).map(String).join(", ")}, ... (${value.length} values)]` : `[${value.map(String).join(", ")}]`;
      return [[prefix, text]];
    }
    return value.slice(0, 20).flatMap((v, i) => flatten(v, `${prefix}[${i}]`));
  }
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => flatten(v, prefix === "" ? k : `${prefix}.${k}`));
  }
  return [[prefix, typeof value === "number" ? fmt(value) : String(value)]];
}

function diagnosticsSection(run: RunData, choice: VariableChoice, n: number): string {
  const chains = run.chains.length;
  const lowEss = 100 * chains;
  const out: string[] = [];
  const finiteRhat = [...choice.rhatAll.entries()];
  if (finiteRhat.length > 0) {
    const [worstName, worstValue] = finiteRhat.sort((a, b) => worse(a[1], b[1]))[0];
    const over = finiteRhat.filter(([, r]) => !(r <= 1.01)).length;
    out.push(
      `<p>Over all ${finiteRhat.length} model variables: highest R-hat ${fmtRhat(worstValue)} (<code>${esc(worstName)}</code>); ` +
        `${over} with R-hat above 1.01 or undefined.</p>`,
    );
  }
  if (n < 4) {
    out.push(`<p class="warn">Too few draws for diagnostics: ${n} per chain, at least 4 are needed.</p>`);
  }
  if (run.chains.some((c) => c.draws !== n)) {
    out.push(`<p class="warn">The chains have different numbers of draws; the diagnostics use the first ${n} of each.</p>`);
  }
  const rows = choice.variables.map((v, i) => {
    const s: VariableSummary | undefined = n >= 4 ? summarize(chainsOf(run, v, n)) : undefined;
    const cell = (x: number | undefined, f: (x: number) => string, bad = false) => `<td class="num${bad ? " warn" : ""}">${x === undefined ? "—" : f(x)}</td>`;
    const essBad = (x: number | undefined) => x !== undefined && !(x >= lowEss);
    const rhatBad = s !== undefined && !(s.rhat <= 1.01);
    return (
      `<tr><th><code>${esc(v)}</code></th><td class="why">${esc(choice.reasons[i])}</td>` +
      cell(s?.mean, fmt) +
      cell(s?.sd, fmt) +
      cell(s?.mcseMean, fmt) +
      cell(s?.q5, fmt) +
      cell(s?.q50, fmt) +
      cell(s?.q95, fmt) +
      cell(s?.essBulk, fmtEss, essBad(s?.essBulk)) +
      cell(s?.essTail, fmtEss, essBad(s?.essTail)) +
      cell(s?.rhat, fmtRhat, rhatBad) +
      cell(s?.essGeyer, fmtEss) +
      `</tr>`
    );
  });
  out.push(
    `<div class="scroll"><table class="diag"><thead><tr><th>variable</th><th>shown as</th><th>mean</th><th>sd</th><th>MCSE</th><th>5%</th><th>50%</th><th>95%</th>` +
      `<th>ESS bulk</th><th>ESS tail</th><th>R-hat</th><th>ESS (Geyer)</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`,
  );
  out.push(
    `<p class="note">R-hat: rank-normalised split R-hat, the larger of bulk and folded (Vehtari et al. 2021); flagged above 1.01. ` +
      `ESS bulk and tail as in Stan, flagged below ${lowEss} (100 per chain); ESS (Geyer): initial monotone sequence over all chains, as the papers report it. ` +
      `MCSE: Monte Carlo standard error of the mean.</p>`,
  );
  return out.join("\n");
}

interface VariableData {
  name: string;
  /** Every draw of every chain. */
  all: Float64Array[];
  /** The first n draws of each chain (n = the shortest chain's draws). */
  common: Float64Array[];
}

function grid(figures: string[]): string {
  return `<div class="charts">${figures.join("")}</div>`;
}

function traceSection(page: Page, run: RunData, data: VariableData[], maxPoints: number): string {
  const draws = Math.max(...run.chains.map((c) => c.draws));
  const divergentRows = run.columns.includes("divergent__") ? chainsOf(run, "divergent__") : undefined;
  let every = 1;
  const figures = data.map((d) => {
    const traces = d.all.map((x) => {
      const t = thinnedTrace(x, maxPoints);
      every = Math.max(every, t.every);
      return t.points;
    });
    const divergent: Point[] = [];
    if (divergentRows !== undefined && !d.name.endsWith("__")) {
      divergentRows.forEach((flags, c) => {
        for (let i = 0; i < flags.length; i++) if (flags[i] === 1) divergent.push([i + 1, forPlot(d.all[c][i])]);
      });
    }
    return page.chart(d.name, traceChart(traces, divergent, draws), `trace plot of ${d.name}, one line per chain`);
  });
  const thinned = every > 1 ? ` Long chains are drawn with every ${every}th draw.` : "";
  return `<p class="note">Each chain's draws in order, after burn-in; chains that mix overlap and look like stationary noise. Divergent transitions are marked in red.${thinned}</p>${grid(figures)}`;
}

/** Why a variable's draws cannot be ranked or correlated: non-finite or all equal; undefined when they can. */
function unplottable(chains: Float64Array[]): string | undefined {
  if (chains.some((x) => x.some((v) => !Number.isFinite(v)))) return "Non-finite draws";
  const first = chains[0]?.[0];
  if (chains.every((x) => x.every((v) => v === first))) return "Constant draws";
  return undefined;
}

function isConstant(x: Float64Array): boolean {
  return x.every((v) => v === x[0]);
}

/** A figure's place holding a message instead of a chart. */
function noChart(name: string, message: string): string {
  return `<figure><figcaption>${esc(name)}</figcaption><p class="warn">${esc(message)}</p></figure>`;
}

function rankSection(page: Page, data: VariableData[], n: number): string {
  if (n < 4) return `<p>Too few draws for rank plots.</p>`;
  const chains = data[0]?.common.length ?? 0;
  const bins = Math.max(2, Math.min(20, Math.floor(n / 5)));
  const figures = data.map((d) => {
    const why = unplottable(d.common);
    if (why !== undefined) return noChart(d.name, `${why}: no ranks.`);
    const counts = rankHistograms(pooledRanks(d.common), bins);
    return page.chart(d.name, rankChart(counts, d.common.map((x) => x.length / bins)), `rank histograms of ${d.name}, one row per chain`, rankChartHeight(chains));
  });
  return `<p class="note">Histograms of each chain's ranks among all draws pooled (Vehtari et al. 2021, sec. 4.2). If the chains mix, every bar is near the dashed line; a chain whose bars slope or bulge sits apart from the others.</p>${grid(figures)}`;
}

function autocorrelationSection(page: Page, data: VariableData[], maxLag: number): string {
  const figures = data.map((d) => {
    const why = unplottable(d.all);
    if (why !== undefined) return noChart(d.name, `${why}: no autocorrelation.`);
    const acf = d.all.map((x) => (x.length >= 2 && !isConstant(x) ? autocorrelation(x) : null));
    return page.chart(d.name, autocorrelationChart(acf, maxLag), `autocorrelation of ${d.name} up to lag ${maxLag}, one line per chain`);
  });
  return `<p class="note">Autocorrelation of each chain against the lag, up to lag ${maxLag}; the faster it falls to zero, the more effective draws per draw.</p>${grid(figures)}`;
}

function densitySection(page: Page, data: VariableData[]): string {
  const figures = data.map((d) => {
    if (unplottable(d.all) === "Constant draws") return noChart(d.name, "Constant draws: no density.");
    const { grid: g, densities } = kernelDensities(d.all);
    return page.chart(d.name, densityChart(g, densities), `kernel density estimate of ${d.name}, one line per chain`);
  });
  return `<p class="note">Gaussian kernel density estimate of each chain's draws (Silverman's bandwidth); the chains' curves agree when they sample the same distribution.</p>${grid(figures)}`;
}

function energySection(page: Page, run: RunData): string {
  if (!run.columns.includes("energy__")) return `<p>The draws have no <code>energy__</code> column.</p>`;
  const energies = chainsOf(run, "energy__");
  if (energies.every((e) => !e.some(Number.isFinite))) return `<p>This sampler records no energy (<code>energy__</code> is not finite in any draw).</p>`;
  const parts = energies.map(energyTransitions);
  const marginal = concat(parts.map((p) => p.centred));
  const transition = concat(parts.map((p) => p.differences));
  const h = sharedHistogram([marginal, transition], 40);
  const values = energies.map(ebfmi);
  const low = values.filter((v) => v < 0.3).length;
  const table = `<table class="diag small"><thead><tr><th>chain</th>${values.map((_, c) => `<th>${c + 1}</th>`).join("")}</tr></thead><tbody><tr><th>E-BFMI</th>${values
    .map((v) => `<td class="num${v < 0.3 ? " warn" : ""}">${fmtFixed(v, 3)}</td>`)
    .join("")}</tr></tbody></table>`;
  const chart = page.chart("energy distribution", energyChart(h.centres, h.width, h.counts[0], h.counts[1]), "histograms of the centred energy and of the energy transitions, all chains pooled");
  return (
    `<p class="note">The distribution of the Hamiltonian's energy at the draws (centred) beside that of its changes between successive draws (Betancourt 2016). ` +
    `When the changes are much narrower than the energies, the sampler moves slowly between energy levels; E-BFMI below 0.3 is flagged${low > 0 ? ` (${low} ${low === 1 ? "chain" : "chains"} here)` : ""}.</p>` +
    table +
    grid([chart])
  );
}

function concat(xs: Float64Array[]): Float64Array {
  const out = new Float64Array(xs.reduce((a, x) => a + x.length, 0));
  let o = 0;
  for (const x of xs) {
    out.set(x, o);
    o += x.length;
  }
  return out;
}

function samplerSection(page: Page, run: RunData, maxPoints: number): string {
  const has = (c: string) => run.columns.includes(c);
  const mean = (x: Float64Array) => {
    let s = 0;
    let k = 0;
    for (const v of x) {
      if (!Number.isFinite(v)) continue;
      s += v;
      k++;
    }
    return k > 0 ? s / k : NaN;
  };
  const divergent = has("divergent__") ? chainsOf(run, "divergent__").map((x) => x.reduce((a, v) => a + (v === 1 ? 1 : 0), 0)) : undefined;
  const rows = run.chains.map((c: CmdStanCsv, k) => {
    const cells = [
      `<th><span class="swatch" style="background:${colourOf(k)}"></span>${k + 1}</th>`,
      `<td class="num">${c.draws}</td>`,
      `<td class="num">${c.stepSize !== undefined ? fmt(c.stepSize) : has("stepsize__") ? fmt(columnValues(c, "stepsize__")[0]) : "—"}</td>`,
      `<td class="num">${has("accept_stat__") ? fmtFixed(mean(columnValues(c, "accept_stat__")), 3) : "—"}</td>`,
      `<td class="num">${has("n_leapfrog__") ? fmtFixed(mean(columnValues(c, "n_leapfrog__")), 1) : "—"}</td>`,
      `<td class="num${divergent !== undefined && divergent[k] > 0 ? " warn" : ""}">${divergent !== undefined ? divergent[k] : "—"}</td>`,
      `<td class="num">${c.timing?.samplingSeconds !== undefined ? fmt(c.timing.samplingSeconds) : "—"}</td>`,
      `<td>${c.incomplete ? '<span class="warn">stopped early</span>' : "complete"}</td>`,
    ];
    return `<tr>${cells.join("")}</tr>`;
  });
  const table =
    `<div class="scroll"><table class="diag"><thead><tr><th>chain</th><th>draws</th><th>step size</th><th>mean accept_stat</th><th>mean leapfrog steps</th><th>divergent</th><th>sampling seconds</th><th>run</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table></div>`;
  const figures: string[] = [];
  if (has("accept_stat__")) {
    figures.push(page.chart("acceptance statistic, running mean", acceptanceChart(chainsOf(run, "accept_stat__").map((x) => runningMean(x, maxPoints))), "running mean of the acceptance statistic, one line per chain"));
  }
  if (divergent !== undefined) {
    const total = divergent.reduce((a, b) => a + b, 0);
    figures.push(page.chart(`divergent transitions (${total} in all)`, divergenceChart(divergent), "divergent transitions per chain"));
  }
  return table + (figures.length > 0 ? grid(figures) : "<p>The draws have no accept_stat__ or divergent__ columns.</p>");
}

function aisSection(page: Page, ais: AisTrace): string {
  const many = ais.runs.length > PALETTE_RUNS;
  const pathSeries = ais.runs.map((r, k) => ({
    type: "line" as const,
    name: `run ${r.run}`,
    data: r.points.map((p) => [forPlot(p.seconds), forPlot(p.logWeight)]),
    showSymbol: r.points.length <= 30,
    symbolSize: 4,
    color: many ? "#4e79a7" : colourOf(k),
    lineStyle: { width: 1, opacity: many ? 0.35 : 1 },
    emphasis: { disabled: true },
  }));
  const paths: EChartsOption = {
    ...baseOption(),
    legend: many ? { show: false } : { top: 0, type: "scroll" },
    tooltip: { trigger: "item" },
    grid: { left: 64, right: 18, top: 32, bottom: 40 },
    xAxis: { type: "value", name: "seconds", nameLocation: "middle", nameGap: 26 },
    yAxis: { type: "value", scale: true, name: "log weight", nameLocation: "middle", nameGap: 48 },
    series: pathSeries,
  };
  const finals = ais.runs.map((r) => r.points[r.points.length - 1]);
  const atOne = finals.filter((p) => p.temperature === 1);
  const estimates = lineFigureOption({
    xLabel: "seconds",
    yLabel: "log Z",
    series: [{ name: "a run's final estimate", x: atOne.map((p) => p.seconds), y: atOne.map((p) => p.logWeight), line: false }],
    references: [
      { y: ais.logZ, label: `log Z ± SE`, band: ais.standardError, dashed: false, colour: "#222222" },
      ...(ais.references ?? []).map((r, k) => ({ y: r.logZ, label: r.label, band: r.standardError, colour: ["#7f3c8d", "#11a579", "#e73f74"][k % 3] })),
    ],
  });
  const refRows = (ais.references ?? []).map((r) => `<tr><th>${esc(r.label)}</th><td class="num">${fmt(r.logZ)}${r.standardError !== undefined ? ` ± ${fmt(r.standardError)}` : ""}</td></tr>`);
  const total = Math.max(...finals.map((p) => p.seconds));
  const table =
    `<table class="kv"><tbody><tr><th>log Z</th><td class="num">${fmt(ais.logZ)} ± ${fmt(ais.standardError)} (standard error)</td></tr>` +
    `<tr><th>runs</th><td class="num">${ais.runs.length}${atOne.length < ais.runs.length ? ` (${ais.runs.length - atOne.length} did not reach temperature 1)` : ""}</td></tr>` +
    `<tr><th>longest run</th><td class="num">${fmt(total)} s</td></tr>${refRows.join("")}</tbody></table>`;
  return (
    `<p class="note">Each run's accumulated log importance weight against its computing time; at temperature 1 it is that run's estimate of log Z. ` +
    `The right-hand chart shows the runs' final estimates beside the combined estimate (band: ± one standard error) and any reference values.</p>` +
    table +
    grid([
      page.chart("log weight against time, per run", paths, "accumulated log weight of each AIS run against seconds", 300),
      page.chart("final log Z estimates", estimates, "each run's final log Z estimate against its computing time, with the combined estimate and reference lines", 300),
    ])
  );
}

/** Runs drawn in distinct colours with a legend; more are drawn alike. */
const PALETTE_RUNS = 10;

// --- formatting ---------------------------------------------------------------------------------

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Four significant digits, plain or exponent form. */
function fmt(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "—" : x > 0 ? "∞" : "-∞";
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e6) return String(Number(x.toPrecision(4)));
  return x.toExponential(3).replace(/\.?0+e/, "e");
}

function fmtFixed(x: number, digits: number): string {
  return Number.isFinite(x) ? x.toFixed(digits) : "—";
}

function fmtEss(x: number): string {
  return Number.isFinite(x) ? String(Math.round(x)) : "—";
}

function fmtRhat(x: number): string {
  return Number.isFinite(x) ? x.toFixed(3) : Number.isNaN(x) ? "undefined" : "∞";
}

/** JSON that cannot end the <script> element it sits in. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

let echartsText: string | undefined;

/**
 * The minified browser build of ECharts with its common charts (line, bar, scatter, pie) and
 * components, to inline in the page.
 */
export function echartsSource(): string {
  if (echartsText === undefined) {
    const path = createRequire(import.meta.url).resolve("echarts/dist/echarts.common.min.js");
    // "</script" inside a script element would end it early; "<\/script" means the same in JS.
    echartsText = readFileSync(path, "utf8").replace(/<\/script/gi, "<\\/script");
  }
  return echartsText;
}

const INIT_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById("chart-data").textContent);
  var charts = [];
  document.querySelectorAll("[data-chart]").forEach(function (el) {
    try {
      var chart = echarts.init(el, null, { renderer: "canvas" });
      chart.setOption(data[el.getAttribute("data-chart")]);
      charts.push(chart);
    } catch (e) {
      el.classList.add("chart-failed");
      el.textContent = "This chart could not be drawn: " + e.message;
      console.error("chart " + el.id + ": " + (e && e.stack ? e.stack : e));
    }
  });
  window.addEventListener("resize", function () {
    charts.forEach(function (c) { c.resize(); });
  });
})();
`;

const CSS = `
:root { --fg: #1f2328; --muted: #59636e; --line: #d8dee4; --bg: #f6f8fa; --warn: #b3261e; --warnbg: #fdecea; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
header { background: #24292f; color: #fff; padding: 14px 24px 0; position: sticky; top: 0; z-index: 10; }
header h1 { margin: 0; font-size: 18px; font-weight: 600; word-break: break-all; }
header .sub { margin: 4px 0 8px; color: #c9d1d9; font-size: 13px; }
nav { display: flex; flex-wrap: wrap; gap: 2px; }
nav a { color: #c9d1d9; text-decoration: none; padding: 6px 10px; font-size: 13px; border-radius: 6px 6px 0 0; }
nav a:hover { background: #32383f; color: #fff; }
main { padding: 8px 24px 24px; max-width: 1800px; margin: 0 auto; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 4px 18px 16px; margin: 16px 0; scroll-margin-top: 110px; }
h2 { font-size: 16px; margin: 12px 0 6px; }
p.note { color: var(--muted); margin: 4px 0 10px; max-width: 100ch; }
p.warn, span.warn { color: var(--warn); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 12px; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px 4px; min-width: 0; }
figcaption { font: 600 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: #333; }
.chart { width: 100%; }
.chart-failed { color: var(--warn); padding: 12px; }
table { border-collapse: collapse; font-size: 13px; }
table.kv th { text-align: left; font-weight: 500; color: var(--muted); padding: 2px 16px 2px 0; vertical-align: top; }
table.kv td { padding: 2px 0; word-break: break-all; }
table.diag { margin: 6px 0 8px; }
table.diag th, table.diag td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
table.diag thead th { font-weight: 600; border-bottom: 2px solid var(--line); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.warn { color: var(--warn); background: var(--warnbg); font-weight: 600; }
td.why { color: var(--muted); }
table.small th, table.small td { padding: 2px 8px; }
.scroll { overflow-x: auto; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
footer { color: var(--muted); font-size: 12px; padding: 0 24px 24px; max-width: 1800px; margin: 0 auto; }
`;
