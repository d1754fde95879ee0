/**
 * The options of every command that builds a latent GP model from a data file (`sample`, `ais`,
 * `laplace`, `ep`): --data, --likelihood with its options --thresholds, --noise-sd and
 * --exposure-column, the kernel's --lengthscale / --log-lengthscale and --signal-sd /
 * --log-signal-sd, and --jitter. Each command registers them with `addModelOptions` (the same
 * names and help everywhere) and parses them with `parseModelOptions`, saying in its scope
 * what it cannot honour: such an option is an OptionError naming it and why, before anything is
 * read or written.
 */
import type { Command } from "commander";
import { DEFAULT_RELATIVE_JITTER, type JitterPolicy } from "../gp/jitter.js";
import { takeInputColumn, type BinaryCoding, type Dataset } from "../io/dataset.js";
import { DataError } from "../io/errors.js";
import { binaryCodingOf, likelihoods, likelihoodsWith } from "../likelihoods/registry.js";
import { checkLatentGpResponses, LATENT_GP_DEFAULTS, latentGpDataWarnings, latentGpRun } from "../models/latentGpRun.js";
import { checkKernelMatrixFits } from "./memoryBudget.js";
import type { LatentGpLikelihoodOptions, LatentGpModelSpec } from "../targets/latentGpModel.js";
import {
  OptionError,
  parseChoice,
  parseNumber,
  parseNumberList,
  parsePath,
  parsePositiveNumber,
  resolveKernelHyperparameters,
  type KernelHyperparameters,
  type RawKernelOptions,
} from "./options.js";

/** The likelihoods a model can have: the likelihood registry's (src/likelihoods/registry.ts). */
export const MODEL_LIKELIHOODS: readonly string[] = likelihoods.names();

/** The model options as Commander gives them. */
export interface RawModelOptions extends RawKernelOptions {
  data?: string;
  likelihood?: string;
  thresholds?: string;
  noiseSd?: string;
  /** poisson: the input column holding each case's exposure (taken out of the inputs). */
  exposureColumn?: string;
  jitter?: string;
}

/** What a command can honour of the model options. */
export interface ModelScope {
  /** The likelihoods it takes. */
  likelihoods: readonly string[];
  /** The message for a likelihood of MODEL_LIKELIHOODS it does not take (default: the list it takes). */
  refuseLikelihood?: (name: string) => string;
  /** Why it does not take --exposure-column (undefined: it does, for poisson). */
  noExposure?: string;
  /** Why it does not take --jitter (undefined: it does). */
  noJitter?: string;
}

/** The model options, checked (the kernel's need the data: see readModelData). */
export interface ModelOptions {
  data: string;
  likelihood: string;
  /** ordinal: thresholds and noise sd. */
  likelihoodOptions?: LatentGpLikelihoodOptions;
  exposureColumn?: string;
  /** The jitter policy (src/gp/jitter.ts); for a command that takes --jitter, relative 1e-6 unless given. */
  jitter?: JitterPolicy;
  kernel: RawKernelOptions;
}

/** Checks the model options a command takes, writing and reading nothing. */
export function parseModelOptions(raw: RawModelOptions, scope: ModelScope): ModelOptions {
  if (raw.data === undefined) throw new OptionError("--data", "is required: the CSV data set (header line; response column y)");
  const data = parsePath("--data", raw.data);
  const likelihood = parseLikelihood(raw.likelihood, scope);
  if (raw.exposureColumn !== undefined) {
    if (scope.noExposure !== undefined) throw new OptionError("--exposure-column", scope.noExposure);
    const withExposure = likelihoodsWith((_, options) => options.includes("exposure"));
    if (!withExposure.includes(likelihood)) throw new OptionError("--exposure-column", `applies only to --likelihood ${withExposure.join(", ")}, not ${likelihood}`);
    if (raw.exposureColumn.trim() === "") throw new OptionError("--exposure-column", "needs a column name, got an empty value");
  }
  let likelihoodOptions: LatentGpLikelihoodOptions | undefined;
  const withThresholds = likelihoodsWith((_, options) => options.includes("thresholds"));
  if (!withThresholds.includes(likelihood)) {
    for (const [option, v] of [["--thresholds", raw.thresholds], ["--noise-sd", raw.noiseSd]] as const) {
      if (v !== undefined) throw new OptionError(option, `applies only to --likelihood ${withThresholds.join(", ")}, not ${likelihood}`);
    }
  } else {
    if (raw.thresholds === undefined) throw new OptionError("--thresholds", "is required with --likelihood ordinal: the thresholds b_1 < ... < b_(r-1) between the r categories, comma-separated");
    const thresholds = parseNumberList("--thresholds", raw.thresholds);
    for (let k = 1; k < thresholds.length; k++) {
      if (!(thresholds[k] > thresholds[k - 1])) {
        throw new OptionError("--thresholds", `must be strictly increasing, but value ${k + 1} (${thresholds[k]}) is not above value ${k} (${thresholds[k - 1]})`);
      }
    }
    likelihoodOptions = { thresholds };
    if (raw.noiseSd !== undefined) likelihoodOptions.noiseSd = parsePositiveNumber("--noise-sd", raw.noiseSd);
  }
  let jitter: JitterPolicy | undefined;
  if (raw.jitter !== undefined) {
    if (scope.noJitter !== undefined) throw new OptionError("--jitter", scope.noJitter);
    jitter = parseJitter(raw.jitter);
  } else if (scope.noJitter === undefined) {
    jitter = LATENT_GP_DEFAULTS.jitter;
  }
  return {
    data,
    likelihood,
    ...(likelihoodOptions ? { likelihoodOptions } : {}),
    ...(raw.exposureColumn !== undefined ? { exposureColumn: raw.exposureColumn } : {}),
    ...(jitter !== undefined ? { jitter } : {}),
    kernel: { lengthscale: raw.lengthscale, signalSd: raw.signalSd, logLengthscale: raw.logLengthscale, logSignalSd: raw.logSignalSd },
  };
}

/** The help of --jitter, on every command that takes it. */
export const JITTER_HELP = `added to the diagonal of K, part of the model: relative:R (R x the signal variance; default relative:${DEFAULT_RELATIVE_JITTER.toExponential()}), an absolute amount J (0: none), or auto (none unless K fails to factorise, then the least of 1e-10..1e-4 x mean diag K that works)`;

/** --jitter: relative:R, a number >= 0, or auto (src/gp/jitter.ts). */
export function parseJitter(raw: string): JitterPolicy {
  const t = raw.trim();
  if (t === "auto") return "auto";
  const relative = /^relative:(.*)$/.exec(t);
  const v = parseNumber("--jitter", relative ? relative[1]! : t);
  if (!(v >= 0)) throw new OptionError("--jitter", `must be relative:R, a number >= 0 or auto, got ${JSON.stringify(raw)}`);
  return relative ? { relative: v } : v;
}

function parseLikelihood(raw: string | undefined, scope: ModelScope): string {
  const name = (raw ?? "probit").trim();
  if (!scope.likelihoods.includes(name) && MODEL_LIKELIHOODS.includes(name) && scope.refuseLikelihood) {
    throw new OptionError("--likelihood", scope.refuseLikelihood(name));
  }
  return parseChoice("--likelihood", name, scope.likelihoods, "likelihood");
}

/** A model's data, read and checked. */
export interface ModelData {
  data: Dataset;
  kernel: KernelHyperparameters;
  /** With --exposure-column: each case's exposure (that column is not among data's inputs). */
  exposure?: Float64Array;
  /** What the command says on stderr (`gpmcmc: warning: ...`) about data it still takes, e.g. labels of one class. */
  warnings: string[];
}

/**
 * Reads the data set through the model registry's latent-gp run (models/latentGpRun.ts: binary
 * labels -1/+1 or 0/1, coded as `binaryCoding`; logistic's default is 0/1), splits off the
 * exposure column, checks the kernel options against the input columns and the responses against
 * the likelihood, and that the model's n x n matrices fit in memory (memoryBudget.ts). Throws
 * DataError or OptionError at the first problem.
 */
export function readModelData(model: ModelOptions, binaryCoding: BinaryCoding = binaryCodingOf(model.likelihood)): ModelData {
  const read = latentGpRun.readData(model.data, { likelihood: model.likelihood, binaryCoding });
  const { data, exposure } = model.exposureColumn === undefined ? { data: read, exposure: undefined } : exposureColumn(read, model.exposureColumn);
  const kernel = resolveKernelHyperparameters(model.kernel, data.d, data.inputNames);
  checkLatentGpResponses(data, model.likelihood, model.likelihoodOptions);
  checkKernelMatrixFits(data);
  return { data, kernel, ...(exposure ? { exposure } : {}), warnings: latentGpDataWarnings(data, model.likelihood) };
}

/** The plain-data model (src/targets/latentGpModel.ts) of checked options and their data. */
export function latentGpModelSpec(model: ModelOptions, read: Pick<ModelData, "kernel" | "exposure">): LatentGpModelSpec {
  return {
    likelihood: model.likelihood,
    ...(model.likelihoodOptions ? { likelihoodOptions: model.likelihoodOptions } : {}),
    ...(read.exposure ? { likelihoodOptions: { exposure: Array.from(read.exposure) } } : {}),
    logLengthscale: Array.from(read.kernel.logLengthscale),
    logSignalSd: read.kernel.logSignalSd,
    jitter: model.jitter,
  };
}

/** Splits the --exposure-column off the inputs; each exposure must be positive. */
function exposureColumn(read: Dataset, name: string): { data: Dataset; exposure: Float64Array } {
  const taken = takeInputColumn(read, name);
  if (taken === undefined) {
    throw new OptionError("--exposure-column", `${JSON.stringify(name)} is not an input column of ${read.path} (input columns: ${read.inputNames.slice(0, 8).join(", ")}${read.inputNames.length > 8 ? ", ..." : ""})`);
  }
  if (taken.data.d === 0) throw new OptionError("--exposure-column", `${JSON.stringify(name)} is the only input column of ${read.path}; no inputs are left for the kernel`);
  const bad = taken.values.findIndex((m) => !(m > 0));
  if (bad >= 0) {
    throw new DataError({ file: read.path, columnName: name }, `data row ${bad + 1} (after the header), column ${JSON.stringify(name)}: exposure ${taken.values[bad]} is not positive`);
  }
  return { data: taken.data, exposure: taken.values };
}

/**
 * Registers the model options on a command, with the same names and help on every command;
 * `likelihoods` says which likelihoods this command takes (the --likelihood help).
 */
export function addModelOptions(cmd: Command, likelihoods: string): Command {
  return cmd.option("--data <file>", "CSV data set with a header; column y holds the responses (labels -1/+1 or 0/1, counts, ordinal categories 1..r, or returns), the others are inputs")
    .option("--likelihood <name>", likelihoods, LATENT_GP_DEFAULTS.likelihood)
    .option("--thresholds <b>", "ordinal: the r - 1 increasing thresholds between the r categories, comma-separated")
    .option("--noise-sd <s>", "ordinal: sd of the latent noise (default 1)")
    .option("--exposure-column <name>", "poisson: the input column holding each case's exposure m (rate m exp(f)); it is not an input of the kernel")
    .option("--lengthscale <l>", "squared-exponential lengthscale: one value, or one per input column (comma-separated)")
    .option("--log-lengthscale <t>", "log of the lengthscale(s), instead of --lengthscale")
    .option("--signal-sd <s>", "signal standard deviation s (k(a, a) = s^2)")
    .option("--log-signal-sd <t>", "log of the signal standard deviation, instead of --signal-sd")
    .option("--jitter <j>", JITTER_HELP);
}
