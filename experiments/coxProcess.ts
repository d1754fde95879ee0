/**
 * Girolami & Calderhead (2011), Section 9.1, Table 13 and Figure 8 (reduced): the latent field of
 * the log-Gaussian Cox process on a 64 x 64 grid with the hyperparameters fixed at their true
 * values, sampled by MALA on Christensen et al.'s transformation (transient and stationary
 * scalings), mMALA and RMHMC (models/coxProcess/samplers.ts). For each: the seconds of sampling, min / median /
 * max ESS over the N cells (Geyer's initial monotone sequence), s / min-ESS and the speed relative
 * to the slowest; and the posterior mean and variance of the field, drawn as PNG heat maps beside
 * the data and the true field.
 *
 *   node dist/experiments/coxProcess.js [--grid 64] [--runs 1] [--covariance euclidean|separable]
 *     [--out experiments/results/lgcp-euclidean, or lgcp for the separable covariance]
 *     [--plan rmhmc:1000:5000,mmala:1000:5000,mala-transient:1000:5000,mala-stationary:1000:5000]
 *     [--grid-dir DIR] [--parallel P] [--queue redis://HOST:PORT]
 *
 * --covariance: the paper's Euclidean covariance (eq. 31; the default), data simulated from it and
 * sampled in whitened torus coordinates, or the separable one (data and model both separable).
 *
 * --plan lists the samplers with their burn-in and kept draws (the paper: 5000 draws each).
 * Seconds are wall-clock and, beside them, the process's CPU seconds (BLAS on one thread), which a
 * shared machine disturbs less.
 *
 * Seeds are stable hashes of the cell's identity (grid, sampler, run; the data of the grid alone).
 * Every chain starts at x = mu 1 as in the paper, except MALA tuned for stationarity, which starts
 * at the posterior mode (models/coxProcess/samplers.ts); its acceptance from x = mu 1 with the tuned step is
 * recorded too (the paper's Figure 7, right: it does not move from there). Writes table13.json and the figure8-*.png panels into --out.
 *
 * The runs are the jobs of a grid named "lgcp table13" (job kind "lgcp-run",
 * src/grid/coxProcessRunJob.ts, where the run itself is), whose identities are those seeds'
 * texts: on the local pool of worker threads (--parallel, default 1, so that the CPU seconds are
 * those of one run at a time), or on a BullMQ queue (--queue, run by `gpmcmc worker` processes
 * sharing --grid-dir); --grid-dir keeps the runs' results, so a command stopped and started again
 * runs only the runs it lacks.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LGCP_GRID, LGCP_RUN, lgcpDataSeed, lgcpProblem, type LgcpCell, type LgcpRunJobResult } from "../src/grid/coxProcessRunJob.js";
import { runGridJobs, withGridRoot, type GridPlace } from "../src/grid/runGrid.js";
import { gridJobs, type GridSpec, type LoadedGrid } from "../src/grid/spec.js";
import { readJobResults } from "../src/grid/store.js";
import { paperHyperparameters } from "../src/models/coxProcess/coxProcess.js";
import { GRID_DISTANCES, type GridDistance } from "../src/models/coxProcess/gridCovariance.js";
import { COX_PROCESS_SAMPLERS, isCoxProcessSamplerName, type CoxProcessSamplerName } from "../src/models/coxProcess/samplers.js";
import { experimentGridPlace, optionValue, runAsCommand, scriptStart } from "./experimentScript.js";
import { heatmapPng } from "./heatmapPng.js";

/** Table 13 of the paper: seconds, ESS (min, median, max), s / min-ESS, relative speed. */
export const PAPER_TABLE13: Record<CoxProcessSamplerName, { seconds: number; ess: [number, number, number]; secondsPerMinEss: number; relativeSpeed: number }> = {
  "mala-transient": { seconds: 31577, ess: [3, 8, 50], secondsPerMinEss: 10605, relativeSpeed: 1 },
  "mala-stationary": { seconds: 31118, ess: [4, 16, 80], secondsPerMinEss: 7836, relativeSpeed: 1.35 },
  "mmala": { seconds: 634, ess: [26, 84, 174], secondsPerMinEss: 24.1, relativeSpeed: 440 },
  "rmhmc": { seconds: 2936, ess: [1951, 4545, 5000], secondsPerMinEss: 1.5, relativeSpeed: 7070 },
};

/** Runs 0 .. runs - 1 of each sampler of the plan on the side x side grid. */
export interface LgcpExperiment {
  side: number;
  runs: number;
  plan: { name: CoxProcessSamplerName; burnIn: number; draws: number }[];
  /** The covariance of data and model (default separable, the runs' first identities). */
  covariance?: GridDistance;
}

/** The grid of an experiment: a job per (sampler, run); the Euclidean covariance is a last axis of one value (coxProcessRunJob.ts). */
export function lgcpGridSpec(e: LgcpExperiment, out: string): GridSpec {
  const covariance = e.covariance ?? "separable";
  return {
    grid: LGCP_GRID, kind: LGCP_RUN, fixed: { plan: Object.fromEntries(e.plan.map((p) => [p.name, { burnIn: p.burnIn, draws: p.draws }])) },
    axes: { grid: [e.side], sampler: e.plan.map((p) => p.name), run: Array.from({ length: e.runs }, (_, i) => i), ...(covariance === "separable" ? {} : { covariance: [covariance] }) }, out,
  };
}

/** The runs as grid jobs, here or on the queue; the results in the order sampler, run. */
export async function runLgcp(e: LgcpExperiment, place: GridPlace): Promise<LgcpRunJobResult[]> {
  return withGridRoot(place, "coxProcess", async (root) => {
    const g: LoadedGrid = { spec: lgcpGridSpec(e, `lgcp-grid${e.side}`), path: join(root, "spec.json"), outDir: join(root, `lgcp-grid${e.side}`) };
    const jobs = gridJobs(g);
    await runGridJobs(place, g.outDir, jobs);
    return readJobResults<LgcpRunJobResult>(g.outDir, jobs).map((r) => r!);
  });
}

const KNOWN = ["--grid", "--runs", "--covariance", "--out", "--plan", "--grid-dir", "--parallel", "--queue"];

async function main(argv: string[]): Promise<number> {
  const { arithmetic } = scriptStart(argv, KNOWN);
  const side = Number(optionValue(argv, "--grid", "64"));
  const runs = Number(optionValue(argv, "--runs", "1"));
  if (!Number.isInteger(side) || side < 2) throw new Error(`--grid: ${side} is not a whole number >= 2`);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: ${runs} is not a whole number >= 1`);
  const covariance = optionValue(argv, "--covariance", "euclidean") as GridDistance;
  if (!GRID_DISTANCES.includes(covariance)) throw new Error(`--covariance: ${covariance} is not one of ${GRID_DISTANCES.join(", ")}`);
  const outDir = optionValue(argv, "--out", join("experiments", "results", covariance === "euclidean" ? "lgcp-euclidean" : "lgcp"));
  const plan = optionValue(argv, "--plan", COX_PROCESS_SAMPLERS.map((s) => `${s}:1000:5000`).join(",")).split(",").map((entry) => {
    const [name, burn, kept] = entry.split(":");
    if (!isCoxProcessSamplerName(name ?? "") || !(Number(burn) >= 0) || !(Number(kept) >= 2)) throw new Error(`bad --plan entry ${entry} (sampler:burn-in:draws)`);
    return { name: name as CoxProcessSamplerName, burnIn: Number(burn), draws: Number(kept) };
  });
  const results = await runLgcp({ side, runs, plan, covariance }, experimentGridPlace(argv));
  mkdirSync(outDir, { recursive: true });
  const hyper = paperHyperparameters();
  const { sim, model } = lgcpProblem(side, covariance);
  const fieldRange: [number, number] = [Math.min(...sim.field), Math.max(...sim.field)];
  const png = (name: string, f: ArrayLike<number>, lo: number, hi: number) => writeFileSync(join(outDir, `figure8-${name}.png`), heatmapPng(f, side, lo, hi));
  png("data", sim.counts, 0, Math.max(...sim.counts));
  png("true-field", sim.field, ...fieldRange);
  const cells: LgcpCell[] = [];
  const variancePanels: { name: string; v: Float64Array }[] = [];
  for (const r of results) {
    const cell = r.figures;
    cells.push(cell);
    process.stderr.write(`${cell.sampler} run ${cell.run}: ${cell.seconds.toFixed(1)} s (CPU ${cell.cpuSeconds.toFixed(1)} s), ESS ${cell.minEss.toFixed(0)}/${cell.medianEss.toFixed(0)}/${cell.maxEss.toFixed(0)}, s/min-ESS ${cell.secondsPerMinEss.toPrecision(3)}, acceptance ${cell.acceptanceRate.toFixed(2)}\n`);
    if (cell.run === 0) {
      png(`mean-${cell.sampler}`, r.mean, ...fieldRange);
      variancePanels.push({ name: cell.sampler, v: r.variance });
    }
  }
  // one variance scale for every method, so the panels compare
  const vmax = Math.max(...variancePanels.map((p) => Math.max(...p.v)));
  for (const p of variancePanels) png(`variance-${p.name}`, p.v, 0, vmax);
  const result = {
    experiment: "Girolami & Calderhead 2011, Section 9.1, Table 13 and Figure 8 (reduced)",
    command: `node dist/experiments/coxProcess.js ${argv.join(" ")}`.trim(),
    grid: side, latentDimension: model.cells, hyperparameters: hyper, covariance: covariance === "euclidean" ? "euclidean exponential (eq. 31), sigma^2 exp(-sqrt((i-i')^2 + (j-j')^2) / (n beta)), sampled in whitened coordinates of its circulant embedding" : "separable exponential, sigma^2 exp(-(|i-i'| + |j-j'|) / (n beta))",
    torus: model.covariance === "euclidean" ? model.grid.torus : null,
    dataSeed: lgcpDataSeed(side, covariance), totalCount: sim.counts.reduce((a, b) => a + b, 0),
    colourScales: { field: fieldRange, variance: [0, vmax], data: [0, Math.max(...sim.counts)] },
    ...arithmetic, node: process.version, paper: PAPER_TABLE13, cells,
  };
  writeFileSync(join(outDir, "table13.json"), JSON.stringify(result, null, 1) + "\n");
  return 0;
}

await runAsCommand(import.meta.url, "coxProcess", main);
