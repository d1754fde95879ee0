/**
 * The options of `gpmcmc sample`: the model's (modelOptions.ts), the run's (counts, seed,
 * output), the sampler's and RMHMC's leapfrog solve. Options that belong to one sampler only
 * (--alpha for mh-v1 and mh-v2, --scale for mh, --max-leapfrog-steps for hmc-v1 and hmc-v2; which
 * samplers --step-size, --leapfrog-steps and --target-acceptance apply to) given where they do not
 * apply are an OptionError naming them, so a mistyped combination stops the command before
 * anything is read or written.
 */
import { likelihoodsWithEpSites } from "../likelihoods/registry.js";
import type { BinaryCoding, Dataset } from "../io/dataset.js";
import { checkOutputDir, type OutputDirCheck, type OutputDirOptions } from "../io/atomic.js";
import { DEFAULT_LATENT_SAMPLER, LATENT_SAMPLER_NAMES, latentSamplerInfo, samplerLikelihoods, WHITENINGS, type WhiteningName } from "../samplers/registry.js";
import { LATENT_GP_DEFAULTS } from "../models/latentGpRun.js";
import { RUN_DEFAULTS } from "../run/runSpec.js";
import { checkDrawsFit } from "./memoryBudget.js";
import { MODEL_LIKELIHOODS, parseModelOptions, readModelData, type ModelOptions, type RawModelOptions } from "./modelOptions.js";
import {
  exclusive,
  OptionError,
  parseChoice,
  parseSamplerChoice,
  parseNonNegativeInteger,
  parsePath,
  parsePositiveInteger,
  parsePositiveNumber,
  type KernelHyperparameters,
  type RawKernelOptions,
} from "./options.js";

/** The sampler-specific options as Commander gives them. */
export interface RawSamplerOptions {
  targetAcceptance?: string;
  alpha?: string;
  scale?: string;
  maxLeapfrogSteps?: string;
  maxTreeDepth?: string;
  whitening?: string;
}

/** The checked values (undefined: not given, the sampler's default applies). */
export interface SamplerOptions {
  alpha?: number;
  scale?: number;
  maxLeapfrogSteps?: number;
  maxTreeDepth?: number;
  whitening?: WhiteningName;
}

/** Samplers `gpmcmc sample` knows (src/samplers/registry.ts builds them). */
export const SAMPLERS = LATENT_SAMPLER_NAMES;
/** --sampler's help: the names, the default and what it is. */
export const SAMPLER_HELP = `${LATENT_SAMPLER_NAMES.join(", ")}; ${DEFAULT_LATENT_SAMPLER} (the default) is Stan's multinomial NUTS in coordinates whitened by a Gaussian approximation's covariance (K^-1 + W)^-1 (EP's on probit, Laplace's at the mode otherwise: --whitening), laplace-hmc HMC in coordinates whitened by Laplace's with 1..8 steps, both with their step size adapted in burn-in (hmc-v1, hmc-v2, mh-v1, mh-v2, ess and smmala as in Filippone, Zhong & Girolami, Section 3)`;

/** Defaults for options not given. */
export const SAMPLE_DEFAULTS = {
  sampler: DEFAULT_LATENT_SAMPLER,
  likelihood: LATENT_GP_DEFAULTS.likelihood,
  ...RUN_DEFAULTS,
} as const;

/** `gpmcmc sample`'s options as Commander gives them (strings and flags). */
export interface RawSampleOptions extends RawModelOptions {
  sampler?: string;
  stepSize?: string;
  leapfrogSteps?: string;
  fixedPointTolerance?: string;
  fixedPointIterations?: string;
  reversibilityTolerance?: string;
  draws?: string;
  burnIn?: string;
  thin?: string;
  chains?: string;
  parallel?: string;
  seed?: string;
  out?: string;
  force?: boolean;
  json?: boolean;
  quiet?: boolean;
  progress?: boolean;
}

/** How the generalised leapfrog solves its implicit equations. */
export type FixedPointRule = { kind: "tolerance"; tolerance: number } | { kind: "iterations"; iterations: number };

/**
 * --fixed-point-tolerance, --fixed-point-iterations and --reversibility-tolerance (a number, or
 * off), which apply to RMHMC's generalised leapfrog only; `samplerOption` names the option that
 * chose the sampler (--sampler, --transition) for the error.
 */
export function parseLeapfrogSolveOptions(
  raw: Pick<RawSampleOptions, "fixedPointTolerance" | "fixedPointIterations" | "reversibilityTolerance">,
  sampler: string,
  samplerOption: string,
): { fixedPoint?: FixedPointRule; reversibilityTolerance?: number | false } {
  exclusive({ "--fixed-point-tolerance": raw.fixedPointTolerance, "--fixed-point-iterations": raw.fixedPointIterations });
  let fixedPoint: FixedPointRule | undefined;
  if (raw.fixedPointTolerance !== undefined) fixedPoint = { kind: "tolerance", tolerance: parsePositiveNumber("--fixed-point-tolerance", raw.fixedPointTolerance) };
  if (raw.fixedPointIterations !== undefined) fixedPoint = { kind: "iterations", iterations: parsePositiveInteger("--fixed-point-iterations", raw.fixedPointIterations) };
  let reversibilityTolerance: number | false | undefined;
  if (raw.reversibilityTolerance !== undefined) {
    reversibilityTolerance = raw.reversibilityTolerance.trim() === "off" ? false : parsePositiveNumber("--reversibility-tolerance", raw.reversibilityTolerance);
  }
  const given = fixedPoint ? (fixedPoint.kind === "tolerance" ? "--fixed-point-tolerance" : "--fixed-point-iterations") : reversibilityTolerance !== undefined ? "--reversibility-tolerance" : undefined;
  if (given !== undefined && sampler !== "rmhmc") throw new OptionError(given, `applies only to ${samplerOption} rmhmc (the generalised leapfrog), not ${sampler}`);
  return { ...(fixedPoint ? { fixedPoint } : {}), ...(reversibilityTolerance !== undefined ? { reversibilityTolerance } : {}) };
}

/** `gpmcmc sample`'s options, checked (the kernel hyperparameters need the data: see prepareSampleInputs). */
export interface SampleOptions {
  /** The model options (modelOptions.ts); data, likelihood and kernel repeat three of them. */
  model: ModelOptions;
  data: string;
  likelihood: string;
  sampler: string;
  /** Unset: the sampler's default. */
  stepSize?: number;
  leapfrogSteps?: number;
  fixedPoint?: FixedPointRule;
  /** RMHMC's reversibility check: a tolerance, or false (off); unset: the sampler's default. */
  reversibilityTolerance?: number | false;
  draws: number;
  burnIn: number;
  thin: number;
  chains: number;
  /** Worker threads; unset: the number of cores, at most `chains`. */
  parallel?: number;
  /** Unset: the command picks one and records it. */
  seed?: number;
  /** Output directory; unset: nothing is written. */
  out?: string;
  force: boolean;
  json: boolean;
  quiet: boolean;
  progress: boolean;
  kernel: RawKernelOptions;
}

export interface SampleChoices {
  samplers?: readonly string[];
  likelihoods?: readonly string[];
}

/** Checks every option that does not need the data. No I/O. */
export function parseSampleOptions(raw: RawSampleOptions, choices: SampleChoices = {}): SampleOptions {
  const model = parseModelOptions(raw, { likelihoods: choices.likelihoods ?? MODEL_LIKELIHOODS });
  const sampler = parseSamplerChoice("--sampler", raw.sampler ?? SAMPLE_DEFAULTS.sampler, choices.samplers ?? SAMPLERS);
  // A sampler that needs a likelihood's own form (exact HMC: probit's truncated Gaussian) says which in the registry.
  const only = samplerLikelihoods(sampler);
  if (only !== undefined && !only.includes(model.likelihood)) throw new OptionError("--sampler", `${sampler} applies only to --likelihood ${only.join(", ")}, not ${model.likelihood}`);
  const { fixedPoint, reversibilityTolerance } = parseLeapfrogSolveOptions(raw, sampler, "--sampler");
  const opt = <T>(v: string | undefined, f: (o: string, r: string) => T, name: string): T | undefined => (v === undefined ? undefined : f(name, v));
  return {
    model,
    data: model.data,
    likelihood: model.likelihood,
    sampler,
    stepSize: opt(raw.stepSize, parsePositiveNumber, "--step-size"),
    leapfrogSteps: opt(raw.leapfrogSteps, parsePositiveInteger, "--leapfrog-steps"),
    fixedPoint,
    reversibilityTolerance,
    draws: opt(raw.draws, parsePositiveInteger, "--draws") ?? SAMPLE_DEFAULTS.draws,
    burnIn: opt(raw.burnIn, parseNonNegativeInteger, "--burn-in") ?? SAMPLE_DEFAULTS.burnIn,
    thin: opt(raw.thin, parsePositiveInteger, "--thin") ?? SAMPLE_DEFAULTS.thin,
    chains: opt(raw.chains, parsePositiveInteger, "--chains") ?? SAMPLE_DEFAULTS.chains,
    parallel: opt(raw.parallel, parsePositiveInteger, "--parallel"),
    seed: opt(raw.seed, parseNonNegativeInteger, "--seed"),
    out: opt(raw.out, parsePath, "--out"),
    force: raw.force === true,
    json: raw.json === true,
    quiet: raw.quiet === true,
    progress: raw.progress === true,
    kernel: model.kernel,
  };
}

/** Everything `gpmcmc sample` needs before it samples, all checked. */
export interface SampleInputs {
  options: SampleOptions;
  data: Dataset;
  kernel: KernelHyperparameters;
  /** With --exposure-column: each case's exposure (that column is not among data's inputs). */
  exposure?: Float64Array;
  /** The checked output directory (create it with prepareOutputDir just before sampling). */
  outDir?: OutputDirCheck;
  /** Warnings about the data (readModelData's), for stderr. */
  warnings: string[];
}

/**
 * Checks the options, the output directory (writing nothing) and the data set, in that order
 * (cheap checks first), the kernel hyperparameters against the data's columns and the responses
 * against the likelihood, and that the draws fit in memory (and, with --out, in a chain's
 * checkpoint). Throws OptionError, OutputError or DataError at the first problem.
 */
export function prepareSampleInputs(raw: RawSampleOptions, choices: SampleChoices = {}, binaryCoding?: BinaryCoding, outOptions: OutputDirOptions = {}): SampleInputs {
  const options = parseSampleOptions(raw, choices);
  const outDir = options.out !== undefined ? checkOutputDir(options.out, { force: options.force, ...outOptions }) : undefined;
  const { data, kernel, exposure, warnings } = readModelData(options.model, binaryCoding);
  checkDrawsFit({ draws: options.draws, chains: options.chains, variables: data.n, checkpoint: options.out !== undefined });
  return { options, data, kernel, outDir, ...(exposure ? { exposure } : {}), warnings };
}

/** The registry's spec field each sampler-specific option sets. */
const OPTION_FIELDS = {
  "--step-size": "stepSize",
  "--leapfrog-steps": "leapfrogSteps",
  "--max-leapfrog-steps": "maxLeapfrogSteps",
  "--max-tree-depth": "maxTreeDepth",
  "--whitening": "whitening",
  "--alpha": "alpha",
  "--scale": "proposalSd",
  "--target-acceptance": "targetAcceptance",
} as const;

/** The order messages list samplers in: the leapfrog and Langevin samplers, then the MH ones. */
const MESSAGE_ORDER = ["laplace-hmc", "laplace-nuts", "rmhmc", "hmc", "hmc-v1", "hmc-v2", "smmala", "mgrad", "mh", "mh-v1", "mh-v2", "ess", "exact-hmc"] as const;

/** Which samplers each sampler-specific option applies to: those whose registry spec has its field. */
export const SAMPLER_OPTION_SCOPE: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(OPTION_FIELDS).map(([option, field]) => [option, MESSAGE_ORDER.filter((name) => latentSamplerInfo[name].fields.includes(field))]),
);

/** What to use instead, where a sampler has its own name for the option. */
const INSTEAD: Readonly<Record<string, string>> = {
  "--step-size mh-v1": "--alpha", "--step-size mh-v2": "--alpha", "--step-size mh": "--scale",
  "--leapfrog-steps hmc-v1": "--max-leapfrog-steps", "--leapfrog-steps hmc-v2": "--max-leapfrog-steps",
};

function checkScope(option: string, given: unknown, sampler: string): void {
  if (given === undefined) return;
  const scope = SAMPLER_OPTION_SCOPE[option];
  if (scope.includes(sampler)) return;
  const instead = INSTEAD[`${option} ${sampler}`];
  const why = instead ? ` (use ${instead})` : sampler === "ess" ? " (elliptical slice sampling has no tunable)" : sampler === "exact-hmc" ? " (exact HMC has no tunable)" : "";
  throw new OptionError(option, `applies only to --sampler ${scope.join(", ")}, not ${sampler}${why}`);
}

/** Checks the sampler-specific options (no I/O); `sampler` is an already checked name. */
export function parseSamplerOptions(raw: RawSampleOptions & RawSamplerOptions, sampler: string): SamplerOptions {
  checkScope("--step-size", raw.stepSize, sampler);
  checkScope("--leapfrog-steps", raw.leapfrogSteps, sampler);
  checkScope("--max-leapfrog-steps", raw.maxLeapfrogSteps, sampler);
  checkScope("--max-tree-depth", raw.maxTreeDepth, sampler);
  checkScope("--whitening", raw.whitening, sampler);
  checkScope("--alpha", raw.alpha, sampler);
  checkScope("--scale", raw.scale, sampler);
  checkScope("--target-acceptance", raw.targetAcceptance, sampler);
  let alpha: number | undefined;
  if (raw.alpha !== undefined) {
    alpha = parsePositiveNumber("--alpha", raw.alpha);
    // MH v2's proposal sqrt(1 - alpha^2) f + alpha z needs alpha <= 1 (eq. 12).
    if (!(alpha <= 1)) throw new OptionError("--alpha", `must be in (0, 1], got ${JSON.stringify(raw.alpha)}`);
  }
  const scale = raw.scale === undefined ? undefined : parsePositiveNumber("--scale", raw.scale);
  const maxLeapfrogSteps = raw.maxLeapfrogSteps === undefined ? undefined : parsePositiveInteger("--max-leapfrog-steps", raw.maxLeapfrogSteps);

  let maxTreeDepth: number | undefined;
  if (raw.maxTreeDepth !== undefined) {
    maxTreeDepth = parsePositiveInteger("--max-tree-depth", raw.maxTreeDepth);
    // 2^20 - 1 leapfrog steps per transition is far beyond any use (Stan's default depth is 10).
    if (maxTreeDepth > 20) throw new OptionError("--max-tree-depth", `must be at most 20, got ${JSON.stringify(raw.maxTreeDepth)}`);
  }
  const whitening = raw.whitening === undefined ? undefined : parseChoice("--whitening", raw.whitening, WHITENINGS, "whitening");
  // EP's sites exist for probit only (approx/sites.ts); run/whiteningMass.ts says which likelihoods EP whitens.
  const likelihood = raw.likelihood ?? SAMPLE_DEFAULTS.likelihood;
  const withEp = likelihoodsWithEpSites();
  if (whitening === "ep" && !withEp.includes(likelihood)) throw new OptionError("--whitening", `ep applies only to --likelihood ${withEp.join(", ")} (the likelihood with EP sites), not ${likelihood}`);
  return { alpha, scale, maxLeapfrogSteps, maxTreeDepth, whitening };
}
