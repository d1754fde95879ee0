/**
 * Girolami & Calderhead (2011), Table 14: the Fitzhugh-Nagumo parameters (a, b, c)
 * from the paper's synthetic data (200 times on [0, 20], a = b = 0.2, c = 3, V(0) = -1,
 * R(0) = 1, noise sd 0.5), sampled by component-wise MH, MALA, HMC, mMALA, simplified mMALA and
 * RMHMC, one chain per run started at the posterior mode (the paper: "a single Markov chain
 * initialised on the true mode"): seconds of sampling, ESS of a, b, c (Geyer's initial monotone
 * sequence), s / min-ESS, and the ODE solves each run needed, by order of sensitivities.
 *
 *   node dist/experiments/fitzhughNagumo.js [--runs 3] [--first-run 0] [--burn-in 500] [--draws 1000]
 *     [--samplers mh-componentwise,mala,hmc,mmala,smmala,rmhmc] [--json FILE]
 *     [--grid-dir DIR] [--parallel P] [--queue redis://HOST:PORT]
 *   node dist/experiments/fitzhughNagumo.js --check RESULT.json [--samplers a,b] [--runs k] [--grid-dir DIR] [--parallel P] [--queue URL]
 *
 * Seeds come from identities through seedOfIdentity (src/grid/identity.ts): the data set's
 * from "fitzhugh-nagumo data", each run's from its sampler and run number. The runs are the jobs
 * of a grid named "fitzhugh-nagumo" (job kind "fitzhugh-nagumo-run", src/grid/fitzhughNagumoRunJob.ts,
 * where the run itself is), whose identities are those seeds' texts: on the local pool of worker
 * threads (--parallel, default 1, so that the timings are those of one run at a time), or on a
 * BullMQ queue (--queue, run by `gpmcmc worker` processes sharing --grid-dir); --grid-dir keeps
 * the runs' results, so a command stopped and started again runs only the runs it lacks.
 * Runs first-run .. first-run + runs - 1 (so that runs can be spread over invocations;
 * fitzhughNagumoTable.ts merges a sampler's runs from several files).
 * --check recomputes the runs of a committed result file (those of --samplers, runs below --runs,
 * when given) and compares every figure but the timings.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_IDENTITY, FITZHUGH_NAGUMO_GRID, FITZHUGH_NAGUMO_RUN, fitzhughNagumoProblem, type FitzhughNagumoCell, type FitzhughNagumoRunJobResult } from "../src/grid/fitzhughNagumoRunJob.js";
import { runGridJobs, withGridRoot, type GridPlace } from "../src/grid/runGrid.js";
import { gridJobs, type GridSpec, type LoadedGrid } from "../src/grid/spec.js";
import { readJobResults } from "../src/grid/store.js";
import { isParametricSamplerName, type ParametricSamplerName } from "../src/samplers/parametricRegistry.js";
import { compareCells, experimentGridPlace, type ArithmeticRecord, optionValue, readResultFile, refuseRenamedSampler, reportCheck, runAsCommand, scriptStart, wholeNumberOption } from "./experimentScript.js";

export { DATA_IDENTITY, fitzhughNagumoRun, type FitzhughNagumoCell } from "../src/grid/fitzhughNagumoRunJob.js";

export const TABLE14_SAMPLERS: ParametricSamplerName[] = ["mh-componentwise", "mala", "hmc", "mmala", "smmala", "rmhmc"];

/** Runs first .. first + runs - 1 of each sampler (first: 0 when absent). */
export interface FitzhughNagumoExperiment {
  samplers: ParametricSamplerName[];
  runs: number;
  first?: number;
  burnIn: number;
  draws: number;
}

/** The grid of an experiment: a job per (sampler, run), checkpointed every 500 transitions (three parameters a draw: cheap). */
export function fitzhughNagumoGridSpec(e: FitzhughNagumoExperiment, out: string): GridSpec {
  return {
    grid: FITZHUGH_NAGUMO_GRID, kind: FITZHUGH_NAGUMO_RUN, fixed: { burnIn: e.burnIn, draws: e.draws },
    axes: { sampler: [...e.samplers], run: Array.from({ length: e.runs }, (_, i) => (e.first ?? 0) + i) }, out, checkpointEvery: 500,
  };
}

/** The runs as grid jobs, here or on the queue; the cells in the order sampler, run. */
export async function runFitzhughNagumo(e: FitzhughNagumoExperiment, place: GridPlace): Promise<FitzhughNagumoCell[]> {
  return withGridRoot(place, "fitzhughNagumo", async (root) => {
    const g: LoadedGrid = { spec: fitzhughNagumoGridSpec(e, "fitzhugh-nagumo"), path: join(root, "spec.json"), outDir: join(root, "fitzhugh-nagumo") };
    const jobs = gridJobs(g);
    await runGridJobs(place, g.outDir, jobs);
    return readJobResults<FitzhughNagumoRunJobResult>(g.outDir, jobs).map((r) => r!.figures);
  });
}

/** Where two lists of runs differ, run by run, every field but the timings (empty: the same figures). */
export function compareFitzhughNagumoCells(expected: readonly FitzhughNagumoCell[], actual: readonly FitzhughNagumoCell[], tolerance = 0): string[] {
  return compareCells(expected, actual, (c) => `${c.sampler} run ${c.run}`, ["seconds", "burnInSeconds", "secondsPerMinEss"], tolerance);
}

const KNOWN = ["--samplers", "--runs", "--first-run", "--burn-in", "--draws", "--json", "--grid-dir", "--parallel", "--queue", "--check"];

async function main(args: string[]): Promise<number> {
  const { arithmetic, check } = scriptStart(args, KNOWN);
  const samplers = optionValue(args, "--samplers", TABLE14_SAMPLERS.join(",")).split(",");
  for (const s of samplers) refuseRenamedSampler(s);
  for (const s of samplers) if (!isParametricSamplerName(s)) throw new Error(`--samplers: unknown sampler ${JSON.stringify(s)}`);
  if (check) {
    const { file, rest } = check;
    const committed = readResultFile<ArithmeticRecord & { burnIn: number; draws: number; runs: number; cells: FitzhughNagumoCell[] }>(file);
    const first = Math.min(...committed.cells.map((c) => c.run));
    const runs = args.includes("--runs") ? Math.min(wholeNumberOption(args, "--runs", "", 1), committed.runs) : committed.runs;
    const chosen = committed.cells.filter((c) => c.run < first + runs && (!args.includes("--samplers") || samplers.includes(c.sampler)));
    const e: FitzhughNagumoExperiment = { samplers: [...new Set(chosen.map((c) => c.sampler))], runs, first, burnIn: committed.burnIn, draws: committed.draws };
    const cells = await runFitzhughNagumo(e, experimentGridPlace(rest));
    return reportCheck(file, committed, { ...arithmetic, cells }, (tolerance) => compareFitzhughNagumoCells(chosen, cells, tolerance));
  }
  const e: FitzhughNagumoExperiment = {
    samplers: samplers as ParametricSamplerName[], runs: wholeNumberOption(args, "--runs", "3", 1), first: wholeNumberOption(args, "--first-run", "0", 0),
    burnIn: wholeNumberOption(args, "--burn-in", "500", 0), draws: wholeNumberOption(args, "--draws", "1000", 2),
  };
  const jsonFile = args.includes("--json") ? optionValue(args, "--json", "") : undefined;
  const { mode } = fitzhughNagumoProblem();
  process.stderr.write(`posterior mode (${Array.from(mode.theta, (x) => x.toFixed(4)).join(", ")}), ${mode.reason}\n`);
  const cells = await runFitzhughNagumo(e, experimentGridPlace(args));
  for (const cell of cells) {
    process.stderr.write(`${cell.sampler} run ${cell.run}: ${cell.seconds.toFixed(1)} s, ESS ${cell.ess.map((x) => x.toFixed(0)).join("/")}, s/min-ESS ${cell.secondsPerMinEss.toPrecision(3)}, accept ${cell.acceptanceRate.toFixed(2)}\n`);
  }
  const result = {
    experiment: "Girolami & Calderhead 2011, Table 14 (reduced)", burnIn: e.burnIn, draws: e.draws, runs: e.runs, firstRun: e.first, dataSeedIdentity: DATA_IDENTITY,
    mode: Array.from(mode.theta), ...arithmetic, node: process.version, cells,
  };
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(result, null, 1) + "\n");
  else process.stdout.write(JSON.stringify(result) + "\n");
  return 0;
}

await runAsCommand(import.meta.url, "fitzhughNagumo", main);
