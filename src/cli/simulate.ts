/**
 * `gpmcmc simulate`: writes one of the comparison paper's simulated data sets (Section 4.1;
 * src/run/simulate.ts) as a CSV file that `gpmcmc sample` reads (column y, then x1..xd), and,
 * with --truth, a JSON file with what generated it: the seed, the kernel's log-scale
 * hyperparameters, the jitter, the likelihood's options and the true latent values f.
 *
 * Everything is checked before anything is written (options, then both output paths); each file
 * is written atomically, the truth file first, so an interrupted run never leaves a data file
 * without the truth it was asked for.
 */
import { randomInt } from "node:crypto";
import { resolve } from "node:path";
import type { Command } from "commander";
import { writeFileAtomic, writeJsonAtomic } from "../io/atomic.js";
import { simulateDataSet, SIMULATION_LIKELIHOODS, type SimulatedDataSet, type SimulationLikelihood } from "../run/simulate.js";
import { VERSION } from "../version.js";
import { addCoxProcessOptions } from "./coxProcessOptions.js";
import { checkOutputFile } from "./outputFile.js";
import { runSimulateCoxProcess, type RawSimulateCoxOptions } from "./simulateCoxProcess.js";
import { runVolatilitySimulate, type RawVolatilitySimulateOptions } from "./simulateVolatility.js";
import { addFitzhughNagumoSimulateOptions, runSimulateFitzhughNagumo } from "./simulateFitzhughNagumo.js";
import { refuseOtherModelsSimulateOptions } from "./modelScope.js";
import { MODEL_NAMES, modelInfo, type ModelName } from "../models/registry.js";
import { OptionError, parseChoice, parseNonNegativeInteger, parsePath, parsePositiveInteger } from "./options.js";

export interface RawSimulateOptions {
  likelihood?: string;
  n?: string;
  d?: string;
  seed?: string;
  out?: string;
  truth?: string;
  force?: boolean;
  json?: boolean;
}

export interface SimulateOptions {
  likelihood: SimulationLikelihood;
  n: number;
  d: number;
  seed?: number;
  out: string;
  truth?: string;
  force: boolean;
  json: boolean;
}

/** Inputs up to this many columns (the paper uses 2 and 10). */
export const MAX_SIMULATED_D = 1000;
/** Cases up to this many (K is n x n). */
export const MAX_SIMULATED_N = 20000;

/** Checks the options (no I/O). */
export function parseSimulateOptions(raw: RawSimulateOptions): SimulateOptions {
  if (raw.likelihood === undefined) throw new OptionError("--likelihood", `is required: one of ${SIMULATION_LIKELIHOODS.join(", ")}`);
  const likelihood = parseChoice("--likelihood", raw.likelihood, SIMULATION_LIKELIHOODS, "likelihood");
  if (raw.n === undefined) throw new OptionError("--n", "is required: the number of cases (the paper uses 100 and 400)");
  if (raw.d === undefined) throw new OptionError("--d", "is required: the number of inputs (the paper uses 2 and 10)");
  const n = parsePositiveInteger("--n", raw.n);
  if (n > MAX_SIMULATED_N) throw new OptionError("--n", `must be at most ${MAX_SIMULATED_N} (K is n x n), got ${n}`);
  const d = parsePositiveInteger("--d", raw.d);
  if (d > MAX_SIMULATED_D) throw new OptionError("--d", `must be at most ${MAX_SIMULATED_D}, got ${d}`);
  if (raw.out === undefined) throw new OptionError("--out", "is required: the CSV file to write");
  const out = parsePath("--out", raw.out);
  const truth = raw.truth === undefined ? undefined : parsePath("--truth", raw.truth);
  if (truth !== undefined && resolve(truth) === resolve(out)) throw new OptionError("--truth", `is the --out file ${JSON.stringify(out)}; give another file name`);
  const seed = raw.seed === undefined ? undefined : parseNonNegativeInteger("--seed", raw.seed);
  return { likelihood, n, d, seed, out, truth, force: raw.force === true, json: raw.json === true };
}

/** The CSV text: header y,x1..xd, one row per case, numbers written so they read back exactly. */
export function simulatedCsv(s: SimulatedDataSet): string {
  const n = s.X.rows;
  const d = s.X.cols;
  const lines = [["y", ...Array.from({ length: d }, (_, k) => `x${k + 1}`)].join(",")];
  for (let i = 0; i < n; i++) {
    const row = [String(s.y[i])];
    for (let k = 0; k < d; k++) row.push(String(s.X.data[i + k * n]));
    lines.push(row.join(","));
  }
  return lines.join("\n") + "\n";
}

/** What --truth holds (and --json prints, without f). */
export interface SimulationTruth {
  gpmcmc: string;
  /** The comparison paper's Section 4.1 set-up. */
  design: string;
  likelihood: SimulationLikelihood;
  likelihoodOptions: { thresholds?: number[]; noiseSd?: number };
  n: number;
  d: number;
  seed: number;
  /** psi_r, one per input column x1..xd. */
  logLengthscale: number[];
  /** log of the signal sd (the variance sigma is exp(2 logSignalSd)). */
  logSignalSd: number;
  jitter: number;
  /** The data file, as given. */
  data: string;
  /** The true latent values, one per row of the data file. */
  f: number[];
}

/** The truth of a simulated data set. */
export function simulationTruth(s: SimulatedDataSet, data: string): SimulationTruth {
  return {
    gpmcmc: VERSION,
    design: "Filippone, Zhong & Girolami, Section 4.1: x ~ U[0,1]^d, SE-ARD kernel, sigma = exp(2), psi_r ~ U[-3,-1], f ~ N(0, K)",
    likelihood: s.likelihood,
    likelihoodOptions: { ...s.likelihoodOptions, thresholds: s.likelihoodOptions.thresholds ? Array.from(s.likelihoodOptions.thresholds) : undefined },
    n: s.X.rows,
    d: s.X.cols,
    seed: s.seed,
    logLengthscale: [...s.logLengthscale],
    logSignalSd: s.logSignalSd,
    jitter: s.jitter,
    data,
    f: Array.from(s.f),
  };
}

/** The `gpmcmc sample` options that fit the data set at its true theta. */
export function sampleOptionsFor(t: SimulationTruth): string {
  const lik = t.likelihoodOptions.thresholds ? ` --thresholds=${t.likelihoodOptions.thresholds.join(",")} --noise-sd ${t.likelihoodOptions.noiseSd ?? 1}` : "";
  return `--likelihood ${t.likelihood}${lik} --log-lengthscale=${t.logLengthscale.map((x) => x.toPrecision(17)).join(",")} --log-signal-sd ${t.logSignalSd} --jitter ${t.jitter}`;
}

/** Runs `gpmcmc simulate`; returns the truth (also when no --truth file is written). */
export function runSimulateCommand(raw: RawSimulateOptions, io: { stdout?: (text: string) => void } = {}): SimulationTruth {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const o = parseSimulateOptions(raw);
  const notOurs = { is: () => false, what: "a file this command may replace", example: "data.csv" };
  checkOutputFile(o.out, o.force, notOurs);
  if (o.truth !== undefined) checkOutputFile(o.truth, o.force, { ...notOurs, example: "truth.json" });
  const seed = o.seed ?? randomInt(0, 2 ** 31);
  const s = simulateDataSet(o.likelihood, o.n, o.d, seed);
  const truth = simulationTruth(s, o.out);
  if (o.truth !== undefined) writeJsonAtomic(o.truth, truth);
  writeFileAtomic(o.out, simulatedCsv(s));
  if (o.json) {
    const { f: _f, ...rest } = truth;
    stdout(JSON.stringify({ ...rest, truth: o.truth ?? null, sampleOptions: sampleOptionsFor(truth) }) + "\n");
  } else {
    stdout(
      `wrote ${o.out} (${o.n} cases, y and x1..x${o.d}, ${o.likelihood} responses, seed ${seed})${o.truth ? ` and ${o.truth} (theta, f)` : ""}\n` +
        `sample it at the true theta: gpmcmc sample --data ${o.out} ${sampleOptionsFor(truth)}\n`,
    );
  }
  return truth;
}

/** Adds the `simulate` command to the program. */
export function registerSimulateCommand(program: Command): Command {
  const cmd = addCoxProcessOptions(program.command("simulate"), "; volatility: beta (default 0.65)")
    .description("write a simulated data set of the comparison paper (Filippone, Zhong & Girolami, Section 4.1) as CSV, or with --model the data of another model")
    .option("--likelihood <name>", `${SIMULATION_LIKELIHOODS.join(", ")} (ordinal: 4 categories, thresholds -2,0,2, noise sd 1)`)
    .option("--model <name>", "instead of --likelihood, a model's data: fitzhugh-nagumo (the ODE of Girolami & Calderhead Section 10; --a, --b, --c, --v0, --r0, --n, --t-end, --noise-sd), volatility (stochastic volatility returns, Girolami & Calderhead Section 8.3; --t, --beta, --sigma, --phi) or lgcp (the log-Gaussian Cox process of Section 9.1: counts and true field on a --grid x --grid grid; --sigma2, --beta, --mu)")
    .option("--t <T>", "volatility: number of returns (default 2000)")
    .option("--sigma <s>", "volatility: sigma (default 0.15)")
    .option("--phi <p>", "volatility: phi (default 0.98)")
    .option("--n <n>", "number of cases (the paper: 100, 400)")
    .option("--d <d>", "number of inputs, uniform in [0, 1] (the paper: 2, 10)")
    .option("--seed <s>", "random seed; X, theta and f depend on it alone, y also on the likelihood (default: chosen at random and recorded)")
    .option("--out <file>", "the CSV file to write: columns y, x1..xd")
    .option("--truth <file>", "also write the true theta and f as JSON")
    .option("--force", "replace existing files")
    .option("--json", "print one JSON object (the truth without f, and the matching gpmcmc sample options)")
    .option("--grid <n>", "lgcp: side of the grid (default 64)")
    .action((opts: RawSimulateOptions & RawSimulateCoxOptions & RawVolatilitySimulateOptions) => {
      if (opts.model !== undefined) parseChoice("--model", opts.model, SIMULATE_MODELS, "model");
      // which options belong to which data sets: the model registry's simulateOptions
      refuseOtherModelsSimulateOptions((opts.model ?? "latent-gp") as ModelName, opts);
      if (opts.model === "fitzhugh-nagumo") return void runSimulateFitzhughNagumo(opts as Record<string, unknown>);
      if (opts.model === "lgcp") return void runSimulateCoxProcess(opts);
      if (opts.model === "volatility") return void runVolatilitySimulate(opts);
      runSimulateCommand(opts);
    });
  return addFitzhughNagumoSimulateOptions(cmd);
}

/** The models `simulate --model` names (the GP data sets are made without --model): from the model registry. */
export const SIMULATE_MODELS = MODEL_NAMES.filter((m) => m !== "latent-gp" && modelInfo[m].simulate).sort();
