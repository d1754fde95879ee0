/**
 * The latent GP model's run as the model registry declares it (modelRun.ts), thin over the
 * functions the `sample`, `ais`, `laplace` and `ep` commands and the run's worker threads build
 * it with: the data reader (readDataset with the likelihood's label kind and binary coding), the
 * responses' check against the likelihood, the target (targets/latentGpModel.ts latentGpTarget)
 * and the latent samplers by name (samplers/registry.ts latentSampler), from f = 0. What the
 * command line checks of its options (the exposure column, the kernel options, the memory its
 * n x n matrices need) stays in cli/modelOptions.ts.
 */
import { DEFAULT_RELATIVE_JITTER } from "../gp/jitter.js";
import { labelKindFor, oneClassWarning, readDataset, type BinaryCoding, type Dataset } from "../io/dataset.js";
import { DataError } from "../io/errors.js";
import { binaryCodingOf, likelihoodByName } from "../likelihoods/registry.js";
import { LikelihoodDataError } from "../likelihoods/types.js";
import { latentAdaptation, latentSampler, latentSamplerSpec, type LatentSamplerName, type LatentSamplerSpecInput, type LatentSamplerSpecOf } from "../samplers/registry.js";
import type { AnnealedLatentTarget, GaussianApproximation } from "../targets/annealedLatent.js";
import { latentGpTarget, type LatentGpData, type LatentGpLikelihoodOptions, type LatentGpModelSpec } from "../targets/latentGpModel.js";
import { withDefaults, type ModelRun, type ModelSampler } from "./modelRun.js";

/** How the data file is read: the likelihood (its label kind) and, for binary labels, their coding (default: the likelihood's). */
export interface LatentGpReadOptions {
  likelihood?: string;
  binaryCoding?: BinaryCoding;
}

/** What building the target is told: where a jitter added to K is said (one line), and q for the annealed target (latentGpTarget). */
export interface LatentGpTargetHooks {
  onJitter?: (message: string) => void;
  q?: GaussianApproximation;
}

/** A latent sampler's spec fields over its defaults (targetAcceptance: also what the adaptation aims for), the burn-in (the tunable adapts over it) and whether it adapts (default true). */
export type LatentGpSamplerOptions = { [N in LatentSamplerName]: Partial<Omit<LatentSamplerSpecOf<N>, "sampler">> }[LatentSamplerName] & { burnIn?: number; adapt?: boolean };

/**
 * The model's options where not given, for the library and every command alike: the likelihood
 * (probit), the kernel's log hyperparameters (lengthscale 1, signal sd 1) and a jitter of
 * 1e-6 x the signal variance (src/gp/jitter.ts; `jitter: 0` for none), as latentGpTarget takes them.
 */
export const LATENT_GP_DEFAULTS: Readonly<LatentGpModelSpec> = { likelihood: "probit", logLengthscale: [0], logSignalSd: 0, jitter: { relative: DEFAULT_RELATIVE_JITTER } };

export interface LatentGpModelRun extends ModelRun<Dataset, LatentGpModelSpec, AnnealedLatentTarget, LatentGpSamplerOptions> {
  /** Reads the data set with the likelihood's labels (default probit: -1/+1 or 0/1, coded -1/+1). */
  readData(path: string, options?: LatentGpReadOptions): Dataset;
  /** The posterior of inputs X and responses y (a Dataset is one) under the model's options. */
  buildTarget(data: LatentGpData, options?: Partial<LatentGpModelSpec>, hooks?: LatentGpTargetHooks): AnnealedLatentTarget;
}

export const latentGpRun: LatentGpModelRun = {
  defaults: LATENT_GP_DEFAULTS,
  readData(path, options = {}) {
    const likelihood = options.likelihood ?? LATENT_GP_DEFAULTS.likelihood;
    return readDataset(path, { labels: labelKindFor(likelihood), binaryCoding: options.binaryCoding ?? binaryCodingOf(likelihood) });
  },
  buildTarget: (data, options, hooks = {}) => latentGpTarget(data.X, data.y, withDefaults(LATENT_GP_DEFAULTS, options), hooks.onJitter, hooks.q),
  sampler(target, name, options = {}) {
    const { burnIn = 0, adapt = true, ...given } = options;
    const input = { ...given, sampler: name } as LatentSamplerSpecInput;
    const kernel = latentSampler(target, input); // a name not of LATENT_SAMPLER_NAMES, or a field its spec lacks: a RangeError
    const sampler = latentSamplerSpec(input).sampler;
    const adaptation = latentAdaptation(sampler, adapt, burnIn, (given as { targetAcceptance?: number }).targetAcceptance);
    return { kernel, init: new Float64Array(target.dim), adapt: adaptation } satisfies ModelSampler;
  },
};

/**
 * Checks the data's responses against the likelihood (e.g. ordinal labels in 1..r, where the
 * reader only knows they are whole numbers); a bad one is a DataError naming the file, the case
 * and the response column.
 */
export function checkLatentGpResponses(data: Dataset, likelihood: string, options: LatentGpLikelihoodOptions = {}): void {
  try {
    likelihoodByName(likelihood, options).checkResponses(data.y);
  } catch (e) {
    if (!(e instanceof LikelihoodDataError)) throw e;
    throw new DataError({ file: data.path, columnName: data.responseName }, `data row ${e.index + 1} (after the header), column "${data.responseName}": ${e.message}`);
  }
}

/** What a user should hear of data the model still takes (labels of one class), each naming the file. */
export function latentGpDataWarnings(data: Dataset, likelihood: string): string[] {
  const oneClass = oneClassWarning(data, likelihood);
  return oneClass ? [oneClass] : [];
}
