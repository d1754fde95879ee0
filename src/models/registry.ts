/**
 * The one registry of models `gpmcmc sample --model` and `gpmcmc simulate --model` know: for each,
 * what it is, what its data file holds, what it draws, its samplers (an entry of a sampler
 * registry of the one shape, samplers/samplerEntry.ts) and default sampler, and the options that
 * are its own. The command line derives from it the help of --model and --sampler, and where an
 * option applies ("--interweave: applies only to --model volatility", "--leapfrog-steps: applies
 * only to --sampler rmhmc, hmc, ..."), so that adding a model or an option is one entry here.
 * Each model also declares here its run (modelRun.ts: data reader, defaults, target, samplers),
 * which `gpmcmc sample`, its resume, the grid's jobs and the library build on.
 */
import { LATENT_SAMPLER_NAMES, latentSamplerInfo, DEFAULT_LATENT_SAMPLER } from "../samplers/registry.js";
import { PARAMETRIC_SAMPLER_NAMES, parametricSamplerInfo } from "../samplers/parametricRegistry.js";
import { COX_PROCESS_SAMPLERS, coxProcessSamplerInfo } from "./coxProcess/samplers.js";
import { SV_SAMPLER_NAMES, svLatentSamplerInfo } from "./volatility/gibbs.js";
import { coxProcessRun } from "./coxProcess/coxProcessRun.js";
import { fitzhughNagumoRun } from "./fitzhughNagumo/fitzhughNagumoRun.js";
import { latentGpRun } from "./latentGpRun.js";
import { logisticRegressionRun } from "./logisticRegressionRun.js";
import { volatilityRun } from "./volatility/volatilityRun.js";

export const MODEL_NAMES = ["latent-gp", "logistic-regression", "lgcp", "volatility", "fitzhugh-nagumo"] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

/** A model's own option: its name as Commander keys it (camelCase), and the value Commander fills in when it is not given. */
export interface ModelOption {
  key: string;
  /** Commander's default: a value equal to it counts as not given. */
  commanderDefault?: string;
}

export interface ModelEntry {
  /** One line for --model's help. */
  readonly description: string;
  /** What its data file holds. */
  readonly data: string;
  /** The names of what it draws. */
  readonly parameters: string;
  /** Its samplers, in the order help lists them. */
  readonly samplers: readonly string[];
  readonly defaultSampler: string;
  /** The spec fields of sampler `name` (what --step-size, --leapfrog-steps, ... may set). */
  samplerFields(name: string): readonly string[];
  /** The options that are this model's (an option several models share is each one's). */
  readonly options: readonly ModelOption[];
  /** The sampler options its command reads, each setting the spec field of its name where the sampler has one (cli/modelScope.ts). */
  readonly samplerOptions: readonly string[];
  /** Whether `gpmcmc simulate` makes a data set of it (latent-gp: without --model, by --likelihood). */
  readonly simulate: boolean;
  /** The options of `gpmcmc simulate` that are this model's. */
  readonly simulateOptions: readonly string[];
  /** The grid job kinds (grid/spec.ts) that run its chains. */
  readonly gridJobs: readonly string[];
}

/** The GP models' kernel and likelihood options. */
const GP_OPTIONS = ["likelihood", "lengthscale", "logLengthscale", "signalSd", "logSignalSd", "jitter", "thresholds", "noiseSd", "exposureColumn"];
/** The latent GP samplers' options and those of sampled hyperparameters. */
const LATENT_SAMPLER_OPTIONS = [
  "scheme", "thetaSampler", "sharedLengthscale", "priorLengthscale", "maxLeapfrogSteps", "maxTreeDepth", "whitening", "alpha", "scale", "mass",
  "fixedPointTolerance", "fixedPointIterations", "reversibilityTolerance", "integrator", "priorVariance",
];

/** The run each model declares (modelRun.ts). */
export interface ModelRuns {
  "latent-gp": typeof latentGpRun;
  "logistic-regression": typeof logisticRegressionRun;
  "lgcp": typeof coxProcessRun;
  "volatility": typeof volatilityRun;
  "fitzhugh-nagumo": typeof fitzhughNagumoRun;
}

const own = (...keys: string[]): ModelOption[] => keys.map((key) => ({ key }));
const fieldsOf = (registry: { readonly [name: string]: { fields: readonly string[] } }) => (name: string) => registry[name]?.fields ?? [];

export const modelInfo: { readonly [M in ModelName]: ModelEntry & ModelRuns[M] } = {
  "latent-gp": {
    description: "the default: a GP model, --likelihood and the kernel options; without --lengthscale and --signal-sd its hyperparameters are sampled too (--scheme)",
    data: "input columns and a response column y (labels, counts or values, by likelihood)",
    parameters: "f.1..f.n (and the hyperparameters when sampled)",
    samplers: LATENT_SAMPLER_NAMES,
    defaultSampler: DEFAULT_LATENT_SAMPLER,
    samplerFields: fieldsOf(latentSamplerInfo),
    options: [...own(...GP_OPTIONS.filter((k) => k !== "likelihood"), ...LATENT_SAMPLER_OPTIONS), { key: "likelihood", commanderDefault: "probit" }, { key: "init", commanderDefault: "zero" }],
    samplerOptions: ["stepSize", "leapfrogSteps", "targetAcceptance"],
    simulate: true,
    simulateOptions: ["likelihood", "n", "d", "truth"],
    gridJobs: ["simulated-latent-chain", "hyper-chain"],
    ...latentGpRun,
  },
  "logistic-regression": {
    description: `Bayesian logistic regression, prior N(0, alpha I) (Girolami & Calderhead, Section 7.1); samplers ${PARAMETRIC_SAMPLER_NAMES.join(", ")}`,
    data: "input columns and labels y, 0/1 or -1/+1",
    parameters: "beta.1 (the intercept), beta.2, ...",
    samplers: PARAMETRIC_SAMPLER_NAMES,
    defaultSampler: "rmhmc",
    samplerFields: fieldsOf(parametricSamplerInfo),
    options: own("polynomialDegree", "priorVariance", "integrator"),
    samplerOptions: ["stepSize", "leapfrogSteps", "targetAcceptance"],
    simulate: false,
    simulateOptions: [],
    gridJobs: ["parametric-chain"],
    ...logisticRegressionRun,
  },
  "lgcp": {
    description: `the log-Gaussian Cox process field on a grid of counts (Section 9); samplers ${COX_PROCESS_SAMPLERS.join(", ")}`,
    data: "a square grid of counts: columns i, j, count",
    parameters: "x.1..x.N, the field on the grid's cells",
    samplers: COX_PROCESS_SAMPLERS,
    defaultSampler: "rmhmc",
    samplerFields: fieldsOf(coxProcessSamplerInfo),
    options: own("sigma2", "beta", "mu", "covariance"),
    samplerOptions: ["stepSize", "leapfrogSteps", "targetAcceptance"],
    simulate: true,
    simulateOptions: ["grid", "sigma2", "beta", "mu", "covariance"],
    gridJobs: ["lgcp-run"],
    ...coxProcessRun,
  },
  "volatility": {
    description: "the stochastic volatility model (Section 8): returns in column y; --sampler P,V for the parameters and the volatilities",
    data: "returns in column y (and an optional time column t)",
    parameters: "beta, sigma, phi, x.1..x.T",
    samplers: SV_SAMPLER_NAMES,
    defaultSampler: "rmhmc",
    samplerFields: fieldsOf(svLatentSamplerInfo),
    options: own("interweave"),
    samplerOptions: ["stepSize", "leapfrogSteps"],
    simulate: true,
    simulateOptions: ["t", "beta", "sigma", "phi", "truth"],
    gridJobs: ["volatility-run"],
    ...volatilityRun,
  },
  "fitzhugh-nagumo": {
    description: "the Fitzhugh-Nagumo ODE model (Section 10): columns t, V, R; samplers as logistic-regression but iwls",
    data: "columns t, V, R",
    parameters: "a, b, c",
    samplers: PARAMETRIC_SAMPLER_NAMES.filter((n) => n !== "iwls"),
    // why: EXPERIMENTS.md, "Table 14: the Fitzhugh-Nagumo ODE"
    defaultSampler: "smmala",
    samplerFields: fieldsOf(parametricSamplerInfo),
    options: own("noiseSd", "priorSd", "initialState", "start"),
    samplerOptions: ["stepSize", "leapfrogSteps", "targetAcceptance"],
    simulate: true,
    simulateOptions: ["a", "b", "c", "v0", "r0", "n", "tEnd", "noiseSd"],
    gridJobs: ["fitzhugh-nagumo-run"],
    ...fitzhughNagumoRun,
  },
};

export function isModelName(name: string): name is ModelName {
  return (MODEL_NAMES as readonly string[]).includes(name);
}

/** The models whose own options or sampler options of `command` include `key`. */
export function modelsWithOption(key: string, command: "sample" | "simulate" = "sample"): ModelName[] {
  if (command === "simulate") return MODEL_NAMES.filter((m) => modelInfo[m].simulateOptions.includes(key));
  return MODEL_NAMES.filter((m) => modelInfo[m].options.some((o) => o.key === key) || modelInfo[m].samplerOptions.includes(key));
}

/**
 * The first option in `given` (Commander's keys) that belongs to other models but not to `model`,
 * with the models it belongs to; undefined where there is none. A value equal to the option's
 * Commander default counts as not given.
 */
export function optionOutsideModel(model: ModelName, given: Readonly<Record<string, unknown>>, command: "sample" | "simulate" = "sample"): { key: string; models: ModelName[] } | undefined {
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const models = modelsWithOption(key, command);
    if (models.length === 0 || models.includes(model)) continue;
    // (sample's Commander defaults; simulate's options have none)
    const commanderDefault = command === "sample" ? models.map((m) => modelInfo[m].options.find((o) => o.key === key)?.commanderDefault).find((d) => d !== undefined) : undefined;
    if (commanderDefault !== undefined && value === commanderDefault) continue;
    return { key, models };
  }
  return undefined;
}

/** The samplers of `model` whose spec has `field`, in the model's order. */
export function samplersOfModelWithField(model: ModelName, field: string): string[] {
  const m = modelInfo[model];
  return m.samplers.filter((s) => m.samplerFields(s).includes(field));
}
