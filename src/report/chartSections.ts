/**
 * The report's chart sections: trace, rank, autocorrelation and density plots of the chosen
 * variables; the energy distribution with E-BFMI; acceptance and divergences per chain; and, for
 * an AIS run, log Z against time.
 */
import type { EChartsOption } from "echarts";
import { columnValues, type CmdStanCsv } from "../io/cmdstan.js";
import type { AisTrace } from "../io/ais.js";
import { autocorrelation, pooledRanks } from "../diagnostics/index.js";
import {
  acceptanceChart,
  autocorrelationChart,
  baseOption,
  colourOf,
  densityChart,
  divergenceChart,
  energyChart,
  rankChart,
  rankChartHeight,
  traceChart,
} from "./charts.js";
import { EBFMI_THRESHOLD, ebfmi } from "../diagnostics/verdict.js";
import {
  energyTransitions,
  forPlot,
  kernelDensities,
  rankHistograms,
  runningMean,
  sharedHistogram,
  thinnedTrace,
  type Point,
} from "./curves.js";
import { lineFigureOption } from "./lineFigure.js";
import { esc, fmt, fmtFixed, grid, noChart, type Page } from "./pageParts.js";
import type { RunData } from "./run.js";
import { chainsOf } from "./variableChoice.js";

export interface VariableData {
  name: string;
  /** Every draw of every chain. */
  all: Float64Array[];
  /** The first n draws of each chain (n = the shortest chain's draws). */
  common: Float64Array[];
}

export function traceSection(page: Page, run: RunData, data: VariableData[], maxPoints: number): string {
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

export function rankSection(page: Page, data: VariableData[], n: number): string {
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

export function autocorrelationSection(page: Page, data: VariableData[], maxLag: number): string {
  const figures = data.map((d) => {
    const why = unplottable(d.all);
    if (why !== undefined) return noChart(d.name, `${why}: no autocorrelation.`);
    const acf = d.all.map((x) => (x.length >= 2 && !isConstant(x) ? autocorrelation(x) : null));
    return page.chart(d.name, autocorrelationChart(acf, maxLag), `autocorrelation of ${d.name} up to lag ${maxLag}, one line per chain`);
  });
  return `<p class="note">Autocorrelation of each chain against the lag, up to lag ${maxLag}; the faster it falls to zero, the more effective draws per draw.</p>${grid(figures)}`;
}

export function densitySection(page: Page, data: VariableData[]): string {
  const figures = data.map((d) => {
    if (unplottable(d.all) === "Constant draws") return noChart(d.name, "Constant draws: no density.");
    const { grid: g, densities } = kernelDensities(d.all);
    return page.chart(d.name, densityChart(g, densities), `kernel density estimate of ${d.name}, one line per chain`);
  });
  return `<p class="note">Gaussian kernel density estimate of each chain's draws (Silverman's bandwidth); the chains' curves agree when they sample the same distribution.</p>${grid(figures)}`;
}

export function energySection(page: Page, run: RunData): string {
  if (!run.columns.includes("energy__")) return `<p>The draws have no <code>energy__</code> column.</p>`;
  const energies = chainsOf(run, "energy__");
  if (energies.every((e) => !e.some(Number.isFinite))) return `<p>This sampler records no energy (<code>energy__</code> is not finite in any draw).</p>`;
  const parts = energies.map(energyTransitions);
  const marginal = concat(parts.map((p) => p.centred));
  const transition = concat(parts.map((p) => p.differences));
  const h = sharedHistogram([marginal, transition], 40);
  const values = energies.map(ebfmi);
  const low = values.filter((v) => v < EBFMI_THRESHOLD).length;
  const table = `<table class="diag small"><thead><tr><th>chain</th>${values.map((_, c) => `<th>${c + 1}</th>`).join("")}</tr></thead><tbody><tr><th>E-BFMI</th>${values
    .map((v) => `<td class="num${v < EBFMI_THRESHOLD ? " warn" : ""}">${fmtFixed(v, 3)}</td>`)
    .join("")}</tr></tbody></table>`;
  const chart = page.chart("energy distribution", energyChart(h.centres, h.width, h.counts[0], h.counts[1]), "histograms of the centred energy and of the energy transitions, all chains pooled");
  return (
    `<p class="note">The distribution of the Hamiltonian's energy at the draws (centred) beside that of its changes between successive draws (Betancourt 2016). ` +
    `When the changes are much narrower than the energies, the sampler moves slowly between energy levels; E-BFMI below ${EBFMI_THRESHOLD} is flagged${low > 0 ? ` (${low} ${low === 1 ? "chain" : "chains"} here)` : ""}.</p>` +
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

export function samplerSection(page: Page, run: RunData, maxPoints: number): string {
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

export function aisSection(page: Page, ais: AisTrace): string {
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
