/**
 * Tables 11 and 12 and Figure 6 of Girolami & Calderhead (2011) from the result file of
 * experiments/volatility.ts: prints the two tables in Markdown with the paper's figures beside
 * ours (means over runs; s / min-ESS = mean seconds over the smallest mean ESS, as the paper's
 * columns are, with CPU seconds: see volatility.ts), and writes Figure 6 (posterior densities of beta, sigma and phi from each run of
 * one configuration, the true values marked) as an SVG file.
 *
 *   node dist/experiments/volatilityTable.js RESULT.json... [--figure FILE.svg] [--figure-config rmhmc,rmhmc]
 *
 * Several result files (runs spread over invocations) are merged: their cells are taken together.
 */
import { readFileSync } from "node:fs";
import type { EChartsOption } from "echarts";
import { writeFileAtomic } from "../src/io/atomic.js";
import { svgFigure } from "../src/report/figures.js";
import type { SvCell } from "./volatility.js";

/** The paper's Table 11 (parameters) and Table 12 (volatilities): 20000 draws after 10000 burn-in, 10 runs, Matlab. */
export const PAPER_SV: Record<string, { time: number; ess: [number, number, number]; sPerMinEss: number; volatilityEss: [number, number, number]; volatilitySPerMinEss: number }> = {
  mala: { time: 41.7, ess: [25.3, 12.5, 45.9], sPerMinEss: 3.34, volatilityEss: [7.9, 15.1, 32.1], volatilitySPerMinEss: 5.28 },
  hmc: { time: 946.3, ess: [177, 108, 270], sPerMinEss: 8.76, volatilityEss: [566, 903, 1856], volatilitySPerMinEss: 1.67 },
  mmala: { time: 2547, ess: [18.8, 16.7, 40.2], sPerMinEss: 152.5, volatilityEss: [79.7, 155.2, 344.5], volatilitySPerMinEss: 31.96 },
  rmhmc: { time: 381.9, ess: [324, 113, 283], sPerMinEss: 3.37, volatilityEss: [963, 1723, 3412], volatilitySPerMinEss: 0.41 },
};

interface Result {
  burnIn: number;
  draws: number;
  runs: number;
  data: { beta: number; sigma: number; phi: number };
  cells: SvCell[];
}

const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const f = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toPrecision(3));

export interface SvRow {
  config: string;
  runs: number;
  time: number;
  ess: [number, number, number];
  sPerMinEss: number;
  volatilityEss: [number, number, number];
  volatilitySPerMinEss: number;
  means: [number, number, number];
}

/** Means over the runs of each configuration, in the order they first appear. */
export function svRows(cells: SvCell[]): SvRow[] {
  const configs = [...new Set(cells.map((c) => c.config))];
  return configs.map((config) => {
    const cs = cells.filter((c) => c.config === config);
    const time = mean(cs.map((c) => c.cpuSeconds));
    const ess: [number, number, number] = [mean(cs.map((c) => c.ess.beta)), mean(cs.map((c) => c.ess.sigma)), mean(cs.map((c) => c.ess.phi))];
    const volatilityEss: [number, number, number] = [mean(cs.map((c) => c.volatilityEss.min)), mean(cs.map((c) => c.volatilityEss.median)), mean(cs.map((c) => c.volatilityEss.max))];
    return {
      config, runs: cs.length, time, ess, sPerMinEss: time / Math.min(...ess), volatilityEss, volatilitySPerMinEss: time / volatilityEss[0],
      means: [mean(cs.map((c) => c.means.beta)), mean(cs.map((c) => c.means.sigma)), mean(cs.map((c) => c.means.phi))],
    };
  });
}

function tables(r: Result): string {
  const rows = svRows(r.cells);
  const slowest = Math.max(...rows.map((x) => x.sPerMinEss));
  const slowestV = Math.max(...rows.map((x) => x.volatilitySPerMinEss));
  // the paper's row for a configuration with the paper's leapfrog steps (no @): same sampler in both blocks
  const paperName = (config: string) => {
    if (config.includes("@")) return undefined;
    const [p, v] = config.split("#")[0].split(",");
    return p === v && PAPER_SV[p] ? p : undefined;
  };
  const lines = [
    `Table 11 (parameters), ${r.runs} runs of ${r.burnIn} burn-in + ${r.draws} draws; paper: 10 runs of 10000 + 20000`,
    "",
    "| parameters,volatilities | runs | CPU time (s) | ESS (beta, sigma, phi) | s / min-ESS | rel. speed | means (beta, sigma, phi) | paper: time, ESS, s / min-ESS |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const x of rows) {
    const p = paperName(x.config) ? PAPER_SV[paperName(x.config)!] : undefined;
    lines.push(`| ${x.config} | ${x.runs} | ${f(x.time)} | (${x.ess.map(f).join(", ")}) | ${f(x.sPerMinEss)} | x${(slowest / x.sPerMinEss).toFixed(1)} | (${x.means.map((m) => m.toFixed(3)).join(", ")}) | ${p ? `${p.time}, (${p.ess.join(", ")}), ${p.sPerMinEss}` : "-"} |`);
  }
  lines.push("", `Table 12 (volatilities x.1..x.2000); the last column over all 2003 variables`, "", "| parameters,volatilities | CPU time (s) | ESS (min, median, max) | s / min-ESS | rel. speed | paper: ESS, s / min-ESS | s / min-ESS, all variables |", "|---|---|---|---|---|---|---|");
  for (const x of rows) {
    const p = paperName(x.config) ? PAPER_SV[paperName(x.config)!] : undefined;
    const all = x.time / Math.min(...x.ess, x.volatilityEss[0]);
    lines.push(`| ${x.config} | ${f(x.time)} | (${x.volatilityEss.map(f).join(", ")}) | ${f(x.volatilitySPerMinEss)} | x${(slowestV / x.volatilitySPerMinEss).toFixed(1)} | ${p ? `(${p.volatilityEss.join(", ")}), ${p.volatilitySPerMinEss}` : "-"} | ${f(all)} |`);
  }
  return lines.join("\n") + "\n";
}

/** Figure 6: one panel per parameter, one curve per run of `config`, the true value as a vertical line. */
function figure(r: Result, config: string): string {
  const cells = r.cells.filter((c) => c.config === config);
  if (cells.length === 0) throw new Error(`no runs of ${config} in the result file`);
  const names = ["beta", "sigma", "phi"] as const;
  const truth = [r.data.beta, r.data.sigma, r.data.phi];
  const option: EChartsOption = {
    title: names.map((n, k) => ({ text: n, left: `${6 + 33 * k + 12}%`, top: 4, textStyle: { fontSize: 14 } })),
    grid: names.map((_, k) => ({ left: `${6 + 33 * k}%`, width: "26%", top: 40, bottom: 40 })),
    // each axis spans the curves and the true value (which may lie outside the posterior's bulk)
    xAxis: names.map((n, k) => {
      const grids = cells.flatMap((c) => c.densities.find((x) => x.name === n)!.grid);
      const lo = Math.min(truth[k], ...grids), hi = Math.max(truth[k], ...grids);
      const pad = 0.02 * (hi - lo);
      return { type: "value" as const, gridIndex: k, min: +(lo - pad).toPrecision(3), max: +(hi + pad).toPrecision(3), name: n, nameLocation: "middle" as const, nameGap: 25 };
    }),
    yAxis: names.map((_, k) => ({ type: "value", gridIndex: k, name: k === 0 ? "density" : "" })),
    series: names.flatMap((n, k) =>
      cells.map((c, i) => {
        const d = c.densities.find((x) => x.name === n)!;
        return {
          type: "line" as const, xAxisIndex: k, yAxisIndex: k, showSymbol: false, name: `run ${c.run}`,
          data: d.grid.map((g, j) => [g, d.density[j]]),
          lineStyle: { width: 1.5 },
          markLine: i === 0 ? { symbol: "none", silent: true, label: { formatter: "true" }, lineStyle: { type: "dashed" as const, color: "#222" }, data: [{ xAxis: truth[k] }] } : undefined,
        };
      }),
    ),
  };
  return svgFigure(option, { width: 960, height: 320 });
}

function fail(message: string): never {
  console.error(`volatilityTable: ${message}`);
  process.exit(2);
}

/** A result file, or one line naming the file and what is wrong with it. */
function readResult(file: string): Result {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    fail(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  try {
    const r = JSON.parse(text) as Result;
    if (!Array.isArray(r.cells)) fail(`${file}: not a volatility result file (no "cells" list)`);
    return r;
  } catch (e) {
    fail(`${file}: not JSON (${(e as Error).message.replace(/\s+/g, " ")})`);
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const take = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    return args.splice(i, 2)[1];
  };
  const figureFile = take("--figure");
  const figureConfig = take("--figure-config") ?? "rmhmc,rmhmc";
  if (args.length === 0) {
    console.error("usage: volatilityTable RESULT.json... [--figure FILE.svg] [--figure-config P,V]");
    process.exit(2);
  }
  const unknown = args.find((a) => a.startsWith("--"));
  if (unknown !== undefined) fail(`unknown option ${unknown} (known: --figure, --figure-config)`);
  const files = args.map((a) => readResult(a));
  const r: Result = { ...files[0], runs: Math.max(...files.map((x) => x.runs)), cells: files.flatMap((x) => x.cells) };
  if (files.some((x) => x.burnIn !== r.burnIn || x.draws !== r.draws)) fail("the result files differ in burn-in or draws");
  r.runs = Math.max(...svRows(r.cells).map((x) => x.runs));
  process.stdout.write(tables(r));
  if (figureFile) writeFileAtomic(figureFile, figure(r, figureConfig));
}

if (process.argv[1]?.endsWith("volatilityTable.js")) main();
