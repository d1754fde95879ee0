/**
 * The options of `gpmcmc sample` that belong to one sampler or one likelihood only: --alpha
 * (mh-v1, mh-v2), --scale (mh), --max-leapfrog-steps (hmc-v1, hmc-v2), --thresholds and
 * --noise-sd (ordinal), and which samplers --step-size, --leapfrog-steps and
 * --target-acceptance apply to. An option given where it does not apply is an OptionError naming
 * it, so a mistyped combination stops the command before anything is read or written.
 */
import { DataError } from "../io/errors.js";
import type { Dataset } from "../io/dataset.js";
import { likelihoodByName } from "../likelihoods/registry.js";
import { LikelihoodDataError } from "../likelihoods/types.js";
import type { LatentGpLikelihoodOptions } from "../targets/latentGpModel.js";
import { OptionError, parseNumberList, parsePositiveInteger, parsePositiveNumber } from "./options.js";

/** The options as Commander gives them. */
export interface RawSampleModelOptions {
  sampler?: string;
  likelihood?: string;
  stepSize?: string;
  leapfrogSteps?: string;
  targetAcceptance?: string;
  alpha?: string;
  scale?: string;
  maxLeapfrogSteps?: string;
  thresholds?: string;
  noiseSd?: string;
  exposureColumn?: string;
}

/** The checked values (undefined: not given, the sampler's default applies). */
export interface SampleModelExtras {
  alpha?: number;
  scale?: number;
  maxLeapfrogSteps?: number;
  likelihoodOptions?: LatentGpLikelihoodOptions;
}

/** Which samplers each sampler-specific option applies to. */
export const SAMPLER_OPTION_SCOPE: Readonly<Record<string, readonly string[]>> = {
  "--step-size": ["rmhmc", "hmc", "hmc-v1", "hmc-v2", "smmala"],
  "--leapfrog-steps": ["rmhmc", "hmc"],
  "--max-leapfrog-steps": ["hmc-v1", "hmc-v2"],
  "--alpha": ["mh-v1", "mh-v2"],
  "--scale": ["mh"],
  "--target-acceptance": ["rmhmc", "hmc", "hmc-v1", "hmc-v2", "smmala", "mh", "mh-v1", "mh-v2"],
};

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
  const why = instead ? ` (use ${instead})` : sampler === "ess" ? " (elliptical slice sampling has no tunable)" : "";
  throw new OptionError(option, `applies only to --sampler ${scope.join(", ")}, not ${sampler}${why}`);
}

/** Checks the sampler- and likelihood-specific options (no I/O). `sampler` and `likelihood` are already checked names. */
export function parseSampleModelExtras(raw: RawSampleModelOptions, sampler: string, likelihood: string): SampleModelExtras {
  checkScope("--step-size", raw.stepSize, sampler);
  checkScope("--leapfrog-steps", raw.leapfrogSteps, sampler);
  checkScope("--max-leapfrog-steps", raw.maxLeapfrogSteps, sampler);
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

  let likelihoodOptions: LatentGpLikelihoodOptions | undefined;
  if (raw.exposureColumn !== undefined) {
    if (likelihood !== "poisson") throw new OptionError("--exposure-column", `applies only to --likelihood poisson, not ${likelihood}`);
    if (raw.exposureColumn.trim() === "") throw new OptionError("--exposure-column", "needs a column name, got an empty value");
  }
  if (likelihood !== "ordinal") {
    for (const [option, v] of [["--thresholds", raw.thresholds], ["--noise-sd", raw.noiseSd]] as const) {
      if (v !== undefined) throw new OptionError(option, `applies only to --likelihood ordinal, not ${likelihood}`);
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
  return { alpha, scale, maxLeapfrogSteps, likelihoodOptions };
}

/**
 * Checks the data's responses against the likelihood (e.g. ordinal labels in 1..r, where the
 * reader only knows they are whole numbers); a bad one is a DataError naming the file, the case
 * and the response column.
 */
export function checkSampleResponses(data: Dataset, likelihood: string, options: LatentGpLikelihoodOptions = {}): void {
  try {
    likelihoodByName(likelihood, options).checkResponses(data.y);
  } catch (e) {
    if (!(e instanceof LikelihoodDataError)) throw e;
    throw new DataError({ file: data.path, columnName: data.responseName }, `data row ${e.index + 1} (after the header), column "${data.responseName}": ${e.message}`);
  }
}
