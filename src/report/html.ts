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
import { VERSION } from "../version.js";
import {
  aisSection, autocorrelationSection, densitySection, energySection, rankSection, samplerSection, traceSection,
} from "./chartSections.js";
import { CSS, echartsSource, INIT_SCRIPT } from "./pageAssets.js";
import { esc, fmt, jsonForScript, Page } from "./pageParts.js";
import { loadRun, type RunData } from "./run.js";
import { diagnosticsSection, runSection } from "./tableSections.js";
import { chainsOf, chooseVariables, commonDraws, type ReportOptions } from "./variableChoice.js";

export { echartsSource } from "./pageAssets.js";
export { chooseVariables, DEFAULT_MAX_VARIABLES, UnknownVariableError } from "./variableChoice.js";
export type { ChoiceReason, ReportOptions, VariableChoice } from "./variableChoice.js";

/** Reads a run directory and returns its report page. Throws DataError for a bad directory. */
export function buildReport(runDir: string, options: ReportOptions = {}): string {
  return renderReport(loadRun(runDir), options);
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
