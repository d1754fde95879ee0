/**
 * Girolami & Calderhead (2011), Section 9.1, Table 13 and Figure 8 (reduced): the latent field of
 * the log-Gaussian Cox process on a 64 x 64 grid with the hyperparameters fixed at their true
 * values, sampled by MALA on Christensen et al.'s transformation (transient and stationary
 * scalings), mMALA and RMHMC (run/coxProcess.ts). For each: the seconds of sampling, min / median /
 * max ESS over the N cells (Geyer's initial monotone sequence), s / min-ESS and the speed relative
 * to the slowest; and the posterior mean and variance of the field, drawn as PNG heat maps beside
 * the data and the true field.
 *
 *   node dist/experiments/coxProcess.js [--grid 64] [--runs 1] [--covariance euclidean|separable]
 *     [--out experiments/results/lgcp-euclidean, or lgcp for the separable covariance]
 *     [--plan rmhmc:1000:5000,mmala:1000:5000,mala-transient:1000:5000,mala-stationary:1000:5000]
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
 * at the posterior mode (run/coxProcess.ts); its acceptance from x = mu 1 with the tuned step is
 * recorded too (the paper's Figure 7, right: it does not move from there). Writes table13.json and the figure8-*.png panels into --out.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { essGeyer } from "../src/diagnostics/ess.js";
import { getBackend } from "../src/linalg/backend.js";
import { paperHyperparameters } from "../src/models/coxProcess/coxProcess.js";
import { coxFieldModel } from "../src/models/coxProcess/fieldModel.js";
import { GRID_DISTANCES, type GridDistance } from "../src/models/coxProcess/gridCovariance.js";
import { simulateCoxProcess } from "../src/models/coxProcess/simulate.js";
import { Rng } from "../src/random/rng.js";
import { COX_PROCESS_SAMPLERS, coxProcessSampler, isCoxProcessSamplerName, type CoxProcessSamplerName } from "../src/run/coxProcess.js";
import { runChain } from "../src/samplers/driver.js";
import { heatmapPng } from "./heatmapPng.js";
import { chainSeedOf, dataSeed } from "./coxProcessData.js";

/** Table 13 of the paper: seconds, ESS (min, median, max), s / min-ESS, relative speed. */
export const PAPER_TABLE13: Record<CoxProcessSamplerName, { seconds: number; ess: [number, number, number]; secondsPerMinEss: number; relativeSpeed: number }> = {
  "mala-transient": { seconds: 31577, ess: [3, 8, 50], secondsPerMinEss: 10605, relativeSpeed: 1 },
  "mala-stationary": { seconds: 31118, ess: [4, 16, 80], secondsPerMinEss: 7836, relativeSpeed: 1.35 },
  "mmala": { seconds: 634, ess: [26, 84, 174], secondsPerMinEss: 24.1, relativeSpeed: 440 },
  "rmhmc": { seconds: 2936, ess: [1951, 4545, 5000], secondsPerMinEss: 1.5, relativeSpeed: 7070 },
};

const cpuSeconds = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1e6;

function option(argv: string[], name: string, fallback: string): string {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
}


function main(argv: string[]): void {
  const side = Number(option(argv, "--grid", "64"));
  const runs = Number(option(argv, "--runs", "1"));
  const covariance = option(argv, "--covariance", "euclidean") as GridDistance;
  if (!GRID_DISTANCES.includes(covariance)) throw new Error(`bad --covariance ${covariance} (${GRID_DISTANCES.join(", ")})`);
  const outDir = option(argv, "--out", join("experiments", "results", covariance === "euclidean" ? "lgcp-euclidean" : "lgcp"));
  const plan = option(argv, "--plan", COX_PROCESS_SAMPLERS.map((s) => `${s}:1000:5000`).join(",")).split(",").map((entry) => {
    const [name, burn, kept] = entry.split(":");
    if (!isCoxProcessSamplerName(name) || !(Number(burn) >= 0) || !(Number(kept) >= 2)) throw new Error(`bad --plan entry ${entry} (sampler:burn-in:draws)`);
    return { name, burnIn: Number(burn), draws: Number(kept) };
  });
  getBackend().setThreads(1);
  mkdirSync(outDir, { recursive: true });
  const hyper = paperHyperparameters();
  const seed = dataSeed(side, covariance);
  const sim = simulateCoxProcess(side, hyper, seed, undefined, covariance);
  const model = coxFieldModel(side, sim.counts, hyper, covariance);
  const n = model.cells;
  const fieldRange: [number, number] = [Math.min(...sim.field), Math.max(...sim.field)];
  const png = (name: string, f: ArrayLike<number>, lo: number, hi: number) => writeFileSync(join(outDir, `figure8-${name}.png`), heatmapPng(f, side, lo, hi));
  png("data", sim.counts, 0, Math.max(...sim.counts));
  png("true-field", sim.field, ...fieldRange);
  const cells: Record<string, unknown>[] = [];
  const variancePanels: { name: string; v: Float64Array }[] = [];
  for (const { name, burnIn, draws } of plan) {
    for (let run = 0; run < runs; run++) {
      const s = coxProcessSampler(model, name);
      const init = s.init;
      const cpu0 = process.cpuUsage();
      let cpuBurnIn = 0;
      const r = runChain(s.kernel, new Rng(chainSeedOf(side, name, run, covariance)), {
        draws, burnIn, init, adapt: s.adapt, progressInterval: Math.max(1, burnIn),
        onProgress: (p) => {
          if (p.iteration === burnIn) cpuBurnIn = cpuSeconds(process.cpuUsage(cpu0));
        },
      });
      const cpuTotal = cpuSeconds(process.cpuUsage(cpu0));
      // Figure 7, right: the stationary tuning run from x = mu 1 (Gamma = 0) instead of the mode
      const stuckFromMu = name === "mala-stationary" ? runChain(s.kernel, new Rng(chainSeedOf(side, name, run, covariance), 1), { draws: 200, init: new Float64Array(n), initialTunableValue: r.tunedValue }).summary.acceptanceRate : undefined;
      const x = new Float64Array(draws * n);
      for (let i = 0; i < draws; i++) s.toField(r.samples.subarray(i * r.dim, (i + 1) * r.dim), x.subarray(i * n, (i + 1) * n));
      const ess = new Float64Array(n);
      const mean = new Float64Array(n);
      const variance = new Float64Array(n);
      const col = new Float64Array(draws);
      for (let k = 0; k < n; k++) {
        let m = 0;
        for (let i = 0; i < draws; i++) {
          col[i] = x[i * n + k];
          m += col[i] / draws;
        }
        let v = 0;
        for (let i = 0; i < draws; i++) v += (col[i] - m) ** 2 / (draws - 1);
        mean[k] = m;
        variance[k] = v;
        ess[k] = essGeyer([col]);
      }
      const sorted = Array.from(ess).sort((a, b) => a - b);
      const cell = {
        sampler: name, run, seed: chainSeedOf(side, name, run, covariance).toString(), burnIn, draws,
        setupSeconds: s.setupSeconds, burnInSeconds: r.seconds.burnIn, seconds: r.seconds.sampling,
        minEss: sorted[0], medianEss: sorted[Math.floor(n / 2)], maxEss: sorted[n - 1],
        secondsPerMinEss: r.seconds.sampling / sorted[0],
        cpuSeconds: cpuTotal - cpuBurnIn, cpuSecondsPerMinEss: (cpuTotal - cpuBurnIn) / sorted[0],
        acceptanceRate: r.summary.acceptanceRate, stepSize: r.tunedValue ?? null, leapfrogStepsPerTransition: name === "rmhmc" ? r.stats.nLeapfrog[0] : null,
        acceptanceFromMuWithStationaryScaling: stuckFromMu ?? null,
        meanAbsErrorOfPosteriorMean: mean.reduce((a, v, k) => a + Math.abs(v - sim.field[k]), 0) / n,
        meanPosteriorVariance: variance.reduce((a, v) => a + v, 0) / n,
        lpFirst: Array.from(r.stats.lp.subarray(0, Math.min(draws, 50))),
      };
      cells.push(cell);
      process.stderr.write(`${name} run ${run}: ${cell.seconds.toFixed(1)} s (CPU ${cell.cpuSeconds.toFixed(1)} s), ESS ${cell.minEss.toFixed(0)}/${cell.medianEss.toFixed(0)}/${cell.maxEss.toFixed(0)}, s/min-ESS ${cell.secondsPerMinEss.toPrecision(3)}, acceptance ${cell.acceptanceRate.toFixed(2)}\n`);
      if (run === 0) {
        png(`mean-${name}`, mean, ...fieldRange);
        variancePanels.push({ name, v: variance });
      }
    }
  }
  // one variance scale for every method, so the panels compare
  const vmax = Math.max(...variancePanels.map((p) => Math.max(...p.v)));
  for (const p of variancePanels) png(`variance-${p.name}`, p.v, 0, vmax);
  const backend = getBackend().describe();
  const result = {
    experiment: "Girolami & Calderhead 2011, Section 9.1, Table 13 and Figure 8 (reduced)",
    command: `node dist/experiments/coxProcess.js ${argv.join(" ")}`.trim(),
    grid: side, latentDimension: n, hyperparameters: hyper, covariance: covariance === "euclidean" ? "euclidean exponential (eq. 31), sigma^2 exp(-sqrt((i-i')^2 + (j-j')^2) / (n beta)), sampled in whitened coordinates of its circulant embedding" : "separable exponential, sigma^2 exp(-(|i-i'| + |j-j'|) / (n beta))",
    torus: model.covariance === "euclidean" ? model.grid.torus : null,
    dataSeed: seed, totalCount: sim.counts.reduce((a, b) => a + b, 0),
    colourScales: { field: fieldRange, variance: [0, vmax], data: [0, Math.max(...sim.counts)] },
    backend: `${backend.backend} (${backend.library})`, node: process.version, paper: PAPER_TABLE13, cells,
  };
  writeFileSync(join(outDir, "table13.json"), JSON.stringify(result, null, 1) + "\n");
}

main(process.argv.slice(2));
