/**
 * Girolami & Calderhead (2011), Tables 11 and 12 and Figure 6: the stochastic volatility model on
 * T = 2000 returns simulated with beta = 0.65, sigma = 0.15, phi = 0.98, sampled by the two-block
 * Gibbs sampler (models/volatility/gibbs.ts) with MALA, HMC, mMALA and RMHMC in both blocks: the
 * seconds of each run (burn-in included, as the paper's s / min-ESS divides the whole run's time),
 * ESS (Geyer's initial monotone sequence) of beta, sigma, phi and min / median / max over the
 * volatilities, and each parameter's posterior density (kernel estimate) for Figure 6.
 *
 *   node dist/experiments/volatility.js [--configs rmhmc,rmhmc;mmala,rmhmc@-,20] [--runs 1] [--first-run 0]
 *     [--burn-in 2000] [--draws 5000] [--json FILE] [--grid-dir DIR] [--parallel P] [--queue redis://HOST:PORT]
 *   node dist/experiments/volatility.js --check RESULT.json [--grid-dir DIR] [--parallel P] [--queue URL]
 *
 * A configuration is P,V (the parameters' and the volatilities' samplers), optionally @LP,LV with
 * their leapfrog steps (- keeps the default), and #EP,EV with fixed step sizes (no adaptation). The data set's seed is a stable hash of its identity,
 * each run's of (configuration, run): never a loop position. One chain per run, from
 * svInitialPoint (beta the root mean square of y, sigma 0.2, phi 0.9, x = 0), step sizes adapted
 * per block in burn-in. Runs first-run .. first-run + runs - 1 (so that runs can be spread over
 * invocations; volatilityTable.ts merges their files).
 *
 * The runs are the jobs of a grid (job kind "volatility-run", src/grid/volatilityRunJob.ts, where
 * the run itself is): on the local pool of worker threads (--parallel, default 1: the CPU seconds
 * count every thread of the process), or on a BullMQ queue (--queue, run by `gpmcmc worker`
 * processes sharing --grid-dir); --grid-dir keeps the runs' results, so a command stopped and
 * started again runs only the runs it lacks. --check recomputes the runs of a committed result
 * file (its configurations, runs, burn-in and draws) and compares every figure but the timings.
 *
 * Time is measured twice: wall-clock seconds (the driver's) and the process's CPU seconds over the
 * run (process.cpuUsage, user + system). The chain is single-threaded, so on a machine shared with
 * other jobs the CPU seconds are what the run would take alone; the tables use them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SV_TRUTH } from "../src/models/volatility/svModel.js";
import { runGridJobs, withGridRoot, type GridPlace } from "../src/grid/runGrid.js";
import { gridJobs, type GridSpec, type LoadedGrid } from "../src/grid/spec.js";
import { readJobResults } from "../src/grid/store.js";
import { parseSvConfig, svDataSeed, VOLATILITY_RUN, type SvCell, type SvConfig, type VolatilityRunJobResult } from "../src/grid/volatilityRunJob.js";
import { compareCells, experimentGridPlace, type ArithmeticRecord, optionValue, reportCheck, runAsCommand, scriptStart, wholeNumberOption } from "./experimentScript.js";

export { parseSvConfig as parseConfig, svExperimentData, volatilityRun, type SvCell, type SvConfig } from "../src/grid/volatilityRunJob.js";

/** Runs first .. first + runs - 1 of each configuration. */
export interface SvExperiment {
  configs: SvConfig[];
  runs: number;
  first: number;
  burnIn: number;
  draws: number;
}

/** The grid of an experiment: a job per (configuration, run). */
export function volatilityGridSpec(e: SvExperiment, out: string): GridSpec {
  return {
    grid: "volatility", kind: VOLATILITY_RUN, fixed: { burnIn: e.burnIn, draws: e.draws },
    axes: { config: e.configs.map((c) => c.label), run: Array.from({ length: e.runs }, (_, i) => e.first + i) },
    out,
  };
}

/** The runs as grid jobs, here or on the queue; the cells in the order configuration, run. */
export async function runVolatility(e: SvExperiment, place: GridPlace, onCell?: (c: SvCell) => void): Promise<SvCell[]> {
  return withGridRoot(place, "volatility", async (root) => {
    const g: LoadedGrid = { spec: volatilityGridSpec(e, "volatility"), path: join(root, "spec.json"), outDir: join(root, "volatility") };
    const jobs = gridJobs(g);
    await runGridJobs(place, g.outDir, jobs);
    const cells = readJobResults<VolatilityRunJobResult>(g.outDir, jobs).map((r) => r!.figures);
    cells.forEach((c) => onCell?.(c));
    return cells;
  });
}

/** Where two lists of runs differ, run by run, every field but the timings (empty: the same figures). */
export function compareSvCells(expected: readonly SvCell[], actual: readonly SvCell[], tolerance = 0): string[] {
  return compareCells(expected, actual, (c) => `${c.config} run ${c.run}`, ["seconds", "cpuSeconds"], tolerance);
}

const KNOWN = ["--configs", "--runs", "--first-run", "--burn-in", "--draws", "--json", "--grid-dir", "--parallel", "--queue", "--check"];

function printCell(cell: SvCell): void {
  const t = cell.cpuSeconds;
  process.stderr.write(
    `${cell.config} run ${cell.run}: ${t.toFixed(1)} CPU s (${cell.seconds.total.toFixed(1)} s wall); ESS beta ${cell.ess.beta.toFixed(0)}, sigma ${cell.ess.sigma.toFixed(0)}, phi ${cell.ess.phi.toFixed(0)}; ` +
      `x ${cell.volatilityEss.min.toFixed(0)}/${cell.volatilityEss.median.toFixed(0)}/${cell.volatilityEss.max.toFixed(0)}; ` +
      `s/min-ESS ${(t / Math.min(cell.ess.beta, cell.ess.sigma, cell.ess.phi)).toPrecision(3)} (parameters), ${(t / cell.volatilityEss.min).toPrecision(3)} (volatilities); ` +
      `means ${cell.means.beta.toFixed(3)} ${cell.means.sigma.toFixed(3)} ${cell.means.phi.toFixed(3)}; ${cell.blocks.map((b) => `${b.name} eps ${b.stepSize.toPrecision(3)} acc ${b.acceptanceRate.toFixed(2)}`).join(", ")}\n`,
  );
}

async function main(args: string[]): Promise<number> {
  const { arithmetic, check } = scriptStart(args, KNOWN);
  if (check) {
    const { file, rest } = check;
    const committed = JSON.parse(readFileSync(file, "utf8")) as ArithmeticRecord & { burnIn: number; draws: number; cells: SvCell[] };
    // each configuration's runs, one grid per run index range of the file
    const cells: SvCell[] = [];
    for (const label of [...new Set(committed.cells.map((c) => c.config))]) {
      const runs = committed.cells.filter((c) => c.config === label).map((c) => c.run);
      const first = Math.min(...runs);
      const e: SvExperiment = { configs: [parseSvConfig(label)], runs: Math.max(...runs) - first + 1, first, burnIn: committed.burnIn, draws: committed.draws };
      cells.push(...(await runVolatility(e, experimentGridPlace(rest), printCell)));
    }
    return reportCheck(file, committed, { ...arithmetic, cells }, (tolerance) => compareSvCells(committed.cells, cells, tolerance));
  }
  const e: SvExperiment = {
    configs: optionValue(args, "--configs", "mala,mala;hmc,hmc;mmala,mmala;rmhmc,rmhmc").split(";").map(parseSvConfig),
    runs: wholeNumberOption(args, "--runs", "1", 1), first: wholeNumberOption(args, "--first-run", "0", 0),
    burnIn: wholeNumberOption(args, "--burn-in", "2000", 0), draws: wholeNumberOption(args, "--draws", "5000", 2),
  };
  const jsonFile = args.includes("--json") ? optionValue(args, "--json", "") : undefined;
  const cells = await runVolatility(e, experimentGridPlace(args), printCell);
  const result = {
    experiment: "Girolami & Calderhead 2011, Tables 11-12 and Figure 6 (reduced)",
    data: { T: SV_TRUTH.T, beta: SV_TRUTH.beta, sigma: SV_TRUTH.sigma, phi: SV_TRUTH.phi, seed: svDataSeed() },
    burnIn: e.burnIn, draws: e.draws, runs: e.runs, ...arithmetic, node: process.version, cells,
  };
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(result) + "\n");
  else process.stdout.write(JSON.stringify(result) + "\n");
  return 0;
}

await runAsCommand(import.meta.url, "volatility", main);
