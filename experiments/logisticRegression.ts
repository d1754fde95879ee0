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
 *     [--json FILE]
 *
 * With --thin k (Table 2) each run keeps every k-th of draws * k transitions; with --step-size
 * (Table 3) the step size is fixed (no adaptation) and, with --leapfrog-steps, the trajectory
 * length too. Data sets are read from data/ or the shared collection (../shared/data). Each run's
 * seed is a stable hash of (data set, sampler, run), with the thinning and the fixed step size and
 * leapfrog count where given: never a loop position. One chain per run from beta = 0.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { essGeyer } from "../src/diagnostics/ess.js";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { regressionDesign } from "../src/models/design.js";
import { logisticRegression } from "../src/models/logisticRegression.js";
import { runChain } from "../src/samplers/driver.js";
import { PARAMETRIC_SAMPLER_NAMES, parametricSampler, parametricSamplerApplies, type ParametricSamplerName } from "../src/samplers/parametricRegistry.js";
import { Rng } from "../src/random/rng.js";
import type { Kernel, SamplerState } from "../src/samplers/types.js";
import { denseMetricTarget, fisherScoringMode } from "../src/targets/denseMetric.js";
import { cellSeed } from "./cellSeed.js";

export { cellSeed } from "./cellSeed.js";

/** Polynomial degree of each data set's model (Section 7.1: cubic for Ripley's). */
const DEGREE: Record<string, number> = { synth_tr: 3 };

function dataPath(name: string): string {
  for (const dir of ["data", join("..", "shared", "data"), "/work/shared/data"]) {
    const p = join(dir, `${name}.csv`);
    if (existsSync(p)) return p;
  }
  throw new Error(`data set ${name} not found in data/ or the shared collection`);
}

interface Cell {
  data: string;
  sampler: ParametricSamplerName;
  run: number;
  seed: number;
  coefficients: number;
  thin: number;
  stepSize: number | null;
  leapfrogSteps: number | null;
  seconds: number;
  cpuSeconds: number;
  /** ESS of each coefficient. */
  ess: number[];
  minEss: number;
  medianEss: number;
  maxEss: number;
  secondsPerMinEss: number;
  acceptanceRate: number;
  divergences: number;
  means: number[];
  sds: number[];
}

/** The kernel with the CPU time of its transitions after the first `skip` (the burn-in) added up. */
function cpuTimed<S extends SamplerState>(kernel: Kernel<S>, skip: number): { kernel: Kernel<S>; seconds: () => number } {
  let calls = 0;
  let micros = 0;
  const step: Kernel<S>["step"] = (state, rng) => {
    if (calls++ < skip) return kernel.step(state, rng);
    const t0 = process.cpuUsage();
    const out = kernel.step(state, rng);
    const t = process.cpuUsage(t0);
    micros += t.user + t.system;
    return out;
  };
  return { kernel: { name: kernel.name, init: (x) => kernel.init(x), step, tunable: kernel.tunable }, seconds: () => micros / 1e6 };
}

function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

function main(): void {
  const args = process.argv.slice(2);
  const sets = arg(args, "--data", "heart_statlog,pima532,synth_tr").split(",");
  const samplers = arg(args, "--samplers", PARAMETRIC_SAMPLER_NAMES.join(",")).split(",") as ParametricSamplerName[];
  const runs = Number(arg(args, "--runs", "1"));
  // run indices first..first + runs - 1 (so that the runs of a cell can go to separate processes)
  const first = Number(arg(args, "--first-run", "0"));
  const burnIn = Number(arg(args, "--burn-in", "1000"));
  const draws = Number(arg(args, "--draws", "1000"));
  const jsonFile = args.includes("--json") ? arg(args, "--json", "") : undefined;
  const thin = Number(arg(args, "--thin", "1"));
  const stepSize = args.includes("--step-size") ? Number(arg(args, "--step-size", "")) : undefined;
  // --start mode: chains start at the posterior mode (Fisher scoring) instead of beta = 0
  const fromMode = arg(args, "--start", "zero") === "mode";
  const leapfrogSteps = args.includes("--leapfrog-steps") ? Number(arg(args, "--leapfrog-steps", "")) : undefined;
  // cell identity beyond (data set, sampler, run): only the settings that were given
  const extra = [...(fromMode ? ["start=mode"] : []), ...(thin !== 1 ? [`thin=${thin}`] : []), ...(stepSize !== undefined ? [`eps=${stepSize}`] : []), ...(leapfrogSteps !== undefined ? [`L=${leapfrogSteps}`] : [])];
  const cells: Cell[] = [];
  for (const name of sets) {
    const data = readDataset(dataPath(name), { labels: "binary", binaryCoding: "zeroOne" });
    const design = regressionDesign(data.X, data.inputNames, DEGREE[name] ?? 1);
    const target = denseMetricTarget(logisticRegression(design.matrix, data.y));
    const d = target.dim;
    for (const sampler of samplers) {
      if (!parametricSamplerApplies(target, sampler)) continue;
      for (let run = first; run < first + runs; run++) {
        const seed = cellSeed(name, sampler, run, ...extra);
        const init = fromMode ? fisherScoringMode(target.model) : new Float64Array(d);
        const given = stepSize !== undefined ? { stepSize, leapfrogSteps, adapt: false } : {};
        const { kernel: inner, adapt } = parametricSampler(target, sampler, init, burnIn, given);
        const cpu = cpuTimed(inner, burnIn);
        const r = runChain(cpu.kernel, new Rng(seed), { draws, burnIn, thin, init, adapt });
        const ess: number[] = [];
        const means: number[] = [];
        const sds: number[] = [];
        for (let j = 0; j < d; j++) {
          const col = new Float64Array(draws);
          for (let i = 0; i < draws; i++) col[i] = r.samples[i * d + j];
          ess.push(essGeyer([col]));
          const m = col.reduce((a, b) => a + b, 0) / draws;
          means.push(m);
          sds.push(Math.sqrt(col.reduce((a, b) => a + (b - m) ** 2, 0) / (draws - 1)));
        }
        const sorted = [...ess].sort((a, b) => a - b);
        const cell: Cell = {
          data: name, sampler, run, seed, coefficients: d, thin, stepSize: r.tunedValue ?? stepSize ?? null, leapfrogSteps: leapfrogSteps ?? null, seconds: r.seconds.sampling,
          minEss: sorted[0], medianEss: sorted[Math.floor(d / 2)], maxEss: sorted[d - 1],
          cpuSeconds: cpu.seconds(),
          ess,
          secondsPerMinEss: cpu.seconds() / sorted[0],
          acceptanceRate: r.summary.acceptanceRate, divergences: r.summary.divergences, means, sds,
        };
        cells.push(cell);
        if (jsonFile) write(); // after every cell, so that a stopped run keeps what it finished
        process.stderr.write(`${name} ${sampler} run ${run}: ${cell.cpuSeconds.toFixed(2)} s CPU (${cell.seconds.toFixed(2)} s wall), min ESS ${cell.minEss.toFixed(0)}, s/min-ESS ${cell.secondsPerMinEss.toPrecision(3)}\n`);
      }
    }
  }
  write();

  function write(): void {
    const backend = getBackend().describe();
    const result = { experiment: "Girolami & Calderhead 2011, Tables 4-9 (reduced)", command: "node dist/experiments/logisticRegression.js " + args.join(" "), burnIn, draws, runs, thin, backend: `${backend.backend} (${backend.library})`, node: process.version, cells };
    if (jsonFile) writeFileSync(jsonFile, JSON.stringify(result, null, 1) + "\n");
    else process.stdout.write(JSON.stringify(result) + "\n");
  }
}

main();
