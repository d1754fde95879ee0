/**
 * Girolami & Calderhead (2011), Tables 4-9: Bayesian logistic regression (prior N(0, 100 I), an
 * intercept, raw covariates; Ripley's data with the cubic model) sampled by every parametric
 * sampler: min / median / max ESS over the coefficients (Geyer's initial monotone sequence),
 * the seconds of sampling, s / min-ESS, and the speed relative to the slowest method. Time is
 * the CPU time of the sampling phase (as the paper records it; `cpuSeconds`, from
 * process.cpuUsage around each transition after burn-in), which a loaded machine inflates less
 * than the wall-clock time (`seconds`).
 *
 *   node dist/experiments/logisticRegression.js [--data heart_statlog,pima532,synth_tr] [--runs 1]
 *     [--first-run 0] [--start zero|mode] [--burn-in 1000] [--draws 1000] [--samplers a,b] [--thin 1] [--step-size e --leapfrog-steps L]
 *     [--trajectory-length l] [--smmala-target-acceptance a] [--integrator lagrangian] [--json FILE] [--grid-dir DIR] [--parallel P] [--queue redis://HOST:PORT]
 *   node dist/experiments/logisticRegression.js --check RESULT.json [--grid-dir DIR] [--parallel P] [--queue URL]
 *
 * With --thin k (Table 2) each run keeps every k-th of draws * k transitions; with --step-size
 * (Table 3) the step size is fixed (no adaptation) and, with --leapfrog-steps, the trajectory
 * length too; with --trajectory-length l RMHMC takes round(l / eps) steps at its step size eps (the
 * default of `gpmcmc sample --model logistic-regression`, l = 2; without it, 6 steps) and HMC a
 * count drawn uniformly from 1..round(l / eps) (the command's default l = 6; without it, 100); with
 * --smmala-target-acceptance a simplified mMALA adapts its step size to a (the command's default
 * 0.5; without it, 0.7). Data sets are read from data/ or the shared collection (../shared/data). Each run's
 * seed is a stable hash of (data set, sampler, run), with the start, the thinning and the fixed
 * step size, leapfrog count, trajectory length, target acceptance and integrator where given: never a loop position. One chain per run.
 * With --integrator lagrangian, RMHMC integrates with the explicit Lagrangian integrator
 * (samplers/kernels/lagrangianDense.ts) instead of the generalised leapfrog.
 *
 * The runs are the jobs of one grid per data set (job kind "parametric-chain",
 * src/grid/parametricChainJob.ts): on the local pool of worker threads (--parallel, default 1,
 * since the CPU time of a run counts every thread of the process), or on a BullMQ queue (--queue,
 * run by `gpmcmc worker` processes sharing --grid-dir); --grid-dir keeps the results, so a rerun
 * runs only what is missing. --check recomputes the runs of a committed result file (its command)
 * and compares every figure but the timings.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { logisticTarget, parametricGridName, parametricRun, PARAMETRIC_CHAIN, type ParametricCell, type ParametricChainJobResult, type ParametricSettings } from "../src/grid/parametricChainJob.js";
import { runGridJobs, withGridRoot, type GridPlace } from "../src/grid/runGrid.js";
import { gridJobs, type GridSpec, type LoadedGrid } from "../src/grid/spec.js";
import { readJobResults } from "../src/grid/store.js";
import { isParametricSamplerName, PARAMETRIC_SAMPLER_NAMES, parametricSamplerApplies, type ParametricSamplerName } from "../src/samplers/parametricRegistry.js";
import { compareCells, experimentGridPlace, type ArithmeticRecord, optionValue, readResultFile, refuseRenamedSampler, reportCheck, runAsCommand, scriptStart } from "./experimentScript.js";

export { cellSeed } from "./cellSeed.js";

/** What a run of the script computes: runs first..first + runs - 1 of each sampler on each data set. */
export interface LogisticConfig extends ParametricSettings {
  sets: string[];
  samplers: ParametricSamplerName[];
  runs: number;
  /** The first run index (so that the runs of a cell can go to separate processes). */
  first: number;
}

const KNOWN = ["--data", "--samplers", "--runs", "--first-run", "--burn-in", "--draws", "--json", "--thin", "--step-size", "--start", "--leapfrog-steps", "--trajectory-length", "--smmala-target-acceptance", "--integrator", "--grid-dir", "--parallel", "--queue", "--check"];

function num(args: string[], name: string, fallback: string, integer = true): number {
  const raw = optionValue(args, name, fallback);
  const x = Number(raw);
  if (!Number.isFinite(x) || x < 0 || (integer && !Number.isInteger(x))) throw new Error(`${name}: ${JSON.stringify(raw)} is not a ${integer ? "whole " : ""}number >= 0`);
  return x;
}

/** The configuration the arguments ask for (the defaults are the paper's data sets and every sampler). */
export function parseLogisticArgs(args: string[]): LogisticConfig {
  for (const a of args) if (a.startsWith("--") && !KNOWN.includes(a)) throw new Error(`unknown option ${a} (known: ${KNOWN.join(" ")})`);
  const samplers = optionValue(args, "--samplers", PARAMETRIC_SAMPLER_NAMES.join(",")).split(",");
  for (const s of samplers) refuseRenamedSampler(s);
  for (const s of samplers) if (!isParametricSamplerName(s)) throw new Error(`--samplers: unknown sampler ${JSON.stringify(s)} (known: ${PARAMETRIC_SAMPLER_NAMES.join(", ")})`);
  const start = optionValue(args, "--start", "zero");
  if (start !== "zero" && start !== "mode") throw new Error(`--start must be zero or mode, got ${JSON.stringify(start)}`);
  const cfg: LogisticConfig = {
    sets: optionValue(args, "--data", "heart_statlog,pima532,synth_tr").split(","),
    samplers: samplers as ParametricSamplerName[],
    runs: num(args, "--runs", "1"), first: num(args, "--first-run", "0"),
    burnIn: num(args, "--burn-in", "1000"), draws: num(args, "--draws", "1000"), thin: num(args, "--thin", "1"),
    // --start mode: chains start at the posterior mode (Fisher scoring) instead of beta = 0
    start,
  };
  if (args.includes("--step-size")) cfg.stepSize = num(args, "--step-size", "", false);
  if (args.includes("--leapfrog-steps")) cfg.leapfrogSteps = num(args, "--leapfrog-steps", "");
  if (args.includes("--trajectory-length")) {
    if (cfg.leapfrogSteps !== undefined) throw new Error("--trajectory-length and --leapfrog-steps exclude each other");
    cfg.trajectoryLength = num(args, "--trajectory-length", "", false);
    if (!(cfg.trajectoryLength > 0)) throw new Error(`--trajectory-length must be positive, got ${cfg.trajectoryLength}`);
  }
  if (args.includes("--smmala-target-acceptance")) {
    cfg.smmalaTargetAcceptance = num(args, "--smmala-target-acceptance", "", false);
    if (!(cfg.smmalaTargetAcceptance > 0 && cfg.smmalaTargetAcceptance < 1)) throw new Error(`--smmala-target-acceptance must lie strictly between 0 and 1, got ${cfg.smmalaTargetAcceptance}`);
  }
  if (args.includes("--integrator")) {
    const integrator = optionValue(args, "--integrator", "");
    if (integrator !== "lagrangian") throw new Error(`--integrator must be lagrangian (RMHMC's explicit integrator), got ${JSON.stringify(integrator)}`);
    cfg.integrator = integrator;
  }
  return cfg;
}

function settingsOf(cfg: LogisticConfig): ParametricSettings {
  const { draws, burnIn, thin, start, stepSize, leapfrogSteps, trajectoryLength, smmalaTargetAcceptance, integrator } = cfg;
  return {
    draws, burnIn, thin, start, ...(stepSize !== undefined ? { stepSize } : {}), ...(leapfrogSteps !== undefined ? { leapfrogSteps } : {}),
    ...(trajectoryLength !== undefined ? { trajectoryLength } : {}), ...(smmalaTargetAcceptance !== undefined ? { smmalaTargetAcceptance } : {}),
    ...(integrator !== undefined ? { integrator } : {}),
  };
}

/** The samplers of cfg that apply to data set `data` (parametricSamplerApplies: holmes-held needs a binary regression's design and labels). */
function samplersFor(cfg: LogisticConfig, data: string): ParametricSamplerName[] {
  const target = logisticTarget(data);
  return cfg.samplers.filter((s) => parametricSamplerApplies(target, s));
}

/**
 * Transitions between a job's checkpoints: each rewrites the chain's draws so far (at most 87
 * coefficients a draw here), so a killed worker's job loses at most this many and resumes.
 */
export const LOGISTIC_CHECKPOINT_EVERY = 500;

/** The grid of one data set: a job per (sampler, run), checkpointed. */
export function logisticGridSpec(cfg: LogisticConfig, data: string, out: string): GridSpec {
  const s = settingsOf(cfg);
  return {
    grid: parametricGridName(s), kind: PARAMETRIC_CHAIN, fixed: { ...s },
    axes: { data: [data], sampler: samplersFor(cfg, data), run: Array.from({ length: cfg.runs }, (_, i) => cfg.first + i) },
    out, checkpointEvery: LOGISTIC_CHECKPOINT_EVERY,
  };
}

/** The runs computed one after another in this thread, in the grid's order (data set, sampler, run). */
export function runLogisticRegressionDirect(cfg: LogisticConfig): ParametricCell[] {
  const cells: ParametricCell[] = [];
  for (const data of cfg.sets) {
    for (const sampler of samplersFor(cfg, data)) {
      for (let run = cfg.first; run < cfg.first + cfg.runs; run++) cells.push(parametricRun(data, sampler, run, settingsOf(cfg)).cell);
    }
  }
  return cells;
}

/** The runs as grid jobs (one grid per data set), here or on the queue; the cells in the same order. */
export async function runLogisticRegression(cfg: LogisticConfig, place: GridPlace, onCell?: (c: ParametricCell) => void): Promise<ParametricCell[]> {
  const cells: ParametricCell[] = [];
  await withGridRoot(place, "logisticRegression", async (root) => {
    for (const data of cfg.sets) {
      const name = [data, ...settingsOfName(cfg)].join("-");
      const g: LoadedGrid = { spec: logisticGridSpec(cfg, data, name), path: join(root, "spec.json"), outDir: join(root, name) };
      const jobs = gridJobs(g);
      await runGridJobs(place, g.outDir, jobs);
      for (const r of readJobResults<ParametricChainJobResult>(g.outDir, jobs)) {
        cells.push(r!.figures);
        onCell?.(r!.figures);
      }
    }
  });
  return cells;
}

/** The words of the grid's name after "logisticRegression", for its directory. */
function settingsOfName(cfg: LogisticConfig): string[] {
  return parametricGridName(settingsOf(cfg)).split(" ").slice(1).map((w) => w.replace("=", ""));
}

/** Where two lists of cells differ, cell by cell (data set, sampler, run), every field but the timings (empty: the same figures). */
export function compareLogisticCells(expected: readonly ParametricCell[], actual: readonly ParametricCell[], tolerance = 0): string[] {
  return compareCells(expected, actual, (c) => `${c.data} ${c.sampler} run ${c.run}`, ["seconds", "cpuSeconds", "secondsPerMinEss"], tolerance);
}

interface ResultFile extends ArithmeticRecord {
  command: string;
  cells: ParametricCell[];
}

function printCell(c: ParametricCell): void {
  process.stderr.write(`${c.data} ${c.sampler} run ${c.run}: ${c.cpuSeconds.toFixed(2)} s CPU (${c.seconds.toFixed(2)} s wall), min ESS ${c.minEss.toFixed(0)}, s/min-ESS ${c.secondsPerMinEss.toPrecision(3)}\n`);
}

async function main(args: string[]): Promise<number> {
  const { arithmetic, check } = scriptStart(args, KNOWN);
  if (check) {
    const { file, rest } = check;
    const committed = readResultFile<ResultFile>(file);
    const made = committed.command.split(" ").filter((w) => w !== "").slice(2);
    const jsonAt = made.indexOf("--json");
    const cfg = parseLogisticArgs(jsonAt >= 0 ? made.filter((_, i) => i !== jsonAt && i !== jsonAt + 1) : made);
    // the file's samplers (a file made before a sampler was added to the defaults has no runs of it)
    cfg.samplers = cfg.samplers.filter((m) => committed.cells.some((c) => c.sampler === m));
    const cells = await runLogisticRegression(cfg, experimentGridPlace(rest), printCell);
    return reportCheck(file, committed, { ...arithmetic, cells }, (tolerance) => compareLogisticCells(committed.cells, cells, tolerance));
  }
  const cfg = parseLogisticArgs(args);
  const cells = await runLogisticRegression(cfg, experimentGridPlace(args), printCell);
  const jsonFile = args.includes("--json") ? optionValue(args, "--json", "") : undefined;
  const result = { experiment: "Girolami & Calderhead 2011, Tables 4-9 (reduced)", command: "node dist/experiments/logisticRegression.js " + args.join(" "), burnIn: cfg.burnIn, draws: cfg.draws, runs: cfg.runs, thin: cfg.thin, ...arithmetic, node: process.version, cells };
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(result, null, 1) + "\n");
  else process.stdout.write(JSON.stringify(result) + "\n");
  return 0;
}

await runAsCommand(import.meta.url, "logisticRegression", main);
