/**
 * `gpmcmc ep`: expectation propagation for GP probit classification at fixed kernel
 * hyperparameters, printing log Z_EP and its second-order correction (Opper, Paquet & Winther
 * 2013) and, with --out, writing the Gaussian approximation as an ApproximationFile (exit codes:
 * approxCommon.ts).
 */
import { likelihoodsWithEpSites, likelihoodTraits } from "../likelihoods/registry.js";
import type { Command } from "commander";
import { siteMeansOf, type ApproximationFile } from "../approx/approximationFile.js";
import { expectationPropagation, type EpOptions } from "../approx/ep.js";
import { epCorrectedLogZ } from "../approx/epCorrection.js";
import { VERSION } from "../version.js";
import { fileHeader, finish, loadProblem, optimizeProblem, optimizeRows, optional, parseCommon, problemFields, problemRows, registerApproxCommand, short, type ApproxSummary, type CommandOutcome, type RawApproxOptions } from "./approxCommon.js";
import { processIO, type CommandIO } from "./commandIO.js";
import { LAPLACE_LIKELIHOODS } from "./laplace.js";
import type { ModelScope } from "./modelOptions.js";
import { OptionError, parseChoice, parsePositiveInteger, parsePositiveNumber } from "./options.js";

/** The likelihoods EP takes: those with EP sites in the likelihood registry. */
export const EP_LIKELIHOODS: readonly string[] = likelihoodsWithEpSites();
export const EP_SCHEDULES = ["sequential", "parallel"] as const;
export const EP_CORRECTIONS = ["cumulant", "pairwise"] as const;
export const EP_ACCELERATIONS = ["anderson", "none"] as const;

const EP_SCOPE: ModelScope = {
  likelihoods: EP_LIKELIHOODS,
  refuseLikelihood: (name) => `gpmcmc ep supports only ${EP_LIKELIHOODS.join(", ")} (EP's sites are implemented for ${EP_LIKELIHOODS.join(", ")}), got "${name}"; gpmcmc laplace takes ${LAPLACE_LIKELIHOODS.join(", ")}`,
  noJitter: "gpmcmc ep does not take it: EP factorises I + S K S (S^2 the site precisions), which is positive definite whatever K",
};

export interface RawEpOptions extends RawApproxOptions {
  schedule?: string;
  acceleration?: string;
  damping?: string;
  tolerance?: string;
  logzTolerance?: string;
  maxSweeps?: string;
  correction?: string;
  correctionOrder?: string;
}

/** What `gpmcmc ep --json` prints (logZ: log Z_EP; seconds: kernel matrix, EP and the correction). */
export interface EpSummary extends ApproxSummary {
  command: "ep";
  likelihood: string;
  schedule: "sequential" | "parallel";
  /** "anderson" or "none" (parallel schedule); "none" for sequential updates. */
  acceleration: "anderson" | "none";
  damping: number;
  /** log Z_EP + correction. */
  logZCorrected: number;
  /** The second-order term R2. */
  correction: number;
  correctionForm: "cumulant" | "pairwise";
  correctionOrder: number;
  siteChange: number;
  logZChange: number;
  clampedSites: number;
}

/** Runs `gpmcmc ep` with the given options. Throws OptionError, DataError, OutputError on bad input. */
export function runEp(raw: RawEpOptions, io: CommandIO = processIO): CommandOutcome<EpSummary> {
  const common = parseCommon(raw, EP_SCOPE);
  const likelihood = common.model.likelihood;
  // EP_SCOPE takes only likelihoods with EP sites
  const sitesOf = likelihoodTraits(likelihood)!.epSites!;
  const schedule = parseChoice("--schedule", raw.schedule ?? "sequential", EP_SCHEDULES, "schedule");
  const acceleration = parseChoice("--acceleration", raw.acceleration ?? "anderson", EP_ACCELERATIONS, "acceleration");
  if (raw.acceleration !== undefined && schedule !== "parallel") throw new OptionError("--acceleration", "applies to --schedule parallel only");
  const damping = optional(raw.damping, "--damping", parsePositiveNumber);
  if (damping !== undefined && damping > 1) throw new OptionError("--damping", `must be in (0, 1] (1: no damping), got ${JSON.stringify(raw.damping)}`);
  const form = parseChoice("--correction", raw.correction ?? "cumulant", EP_CORRECTIONS, "correction");
  const order = optional(raw.correctionOrder, "--correction-order", parsePositiveInteger);
  if (order !== undefined && (order < 3 || order > 60)) throw new OptionError("--correction-order", `must be a whole number from 3 to 60, got ${JSON.stringify(raw.correctionOrder)}`);
  const warn = (s: string) => io.stderr(s + "\n");
  const options: EpOptions = {
    schedule,
    acceleration,
    damping,
    maxSweeps: optional(raw.maxSweeps, "--max-sweeps", parsePositiveInteger),
    siteTolerance: optional(raw.tolerance, "--tolerance", parsePositiveNumber),
    logZTolerance: optional(raw.logzTolerance, "--logz-tolerance", parsePositiveNumber),
    onWarning: warn,
  };
  const p = loadProblem(common, io);
  const { onWarning: _, ...searchOptions } = options;
  const optimize = common.optimize ? optimizeProblem(p, { method: "ep", sites: sitesOf(p.dataset.y), options: searchOptions }, warn) : null;
  const t0 = performance.now();
  const ep = expectationPropagation(p.k, sitesOf(p.dataset.y), options);
  const corr = epCorrectedLogZ(ep, { form, maxOrder: order, onWarning: warn });
  const seconds = p.kernelSeconds + (performance.now() - t0) / 1000;
  const summary: EpSummary = {
    command: "ep", ...problemFields(common, p), likelihood,
    schedule: ep.schedule, acceleration: ep.acceleration, damping: ep.damping,
    logZ: ep.logZ, logZCorrected: corr.logZ, correction: corr.correction, correctionForm: corr.form, correctionOrder: corr.maxOrder,
    iterations: ep.sweeps, converged: ep.converged, siteChange: ep.siteChange, logZChange: ep.logZChange, clampedSites: ep.clampedSites,
    seconds, out: null, optimize,
  };
  const file: ApproximationFile = {
    ...fileHeader("ep", common, p),
    logZ: ep.logZ, logZCorrected: corr.logZ,
    correction: { form: corr.form, maxOrder: corr.maxOrder, value: corr.correction, termsByOrder: Array.from(corr.termsByOrder) },
    iterations: ep.sweeps, converged: ep.converged,
    mean: Array.from(ep.mean), sitePrecisions: Array.from(ep.siteTau), siteNaturalMeans: Array.from(ep.siteNu),
    siteMeans: siteMeansOf(ep.siteTau, ep.siteNu),
    details: {
      schedule: ep.schedule, damping: ep.damping, siteChange: ep.siteChange, logZChange: ep.logZChange,
      clampedSites: ep.clampedSites, skippedSites: ep.skippedSites,
    },
    gpmcmcVersion: VERSION,
  };
  const human: [string, string][] = [
    ...problemRows(`EP (probit likelihood), ${ep.schedule} updates${ep.acceleration === "anderson" ? " with Anderson mixing" : ""}, damping ${short(ep.damping)}`, common, p),
    ...optimizeRows(optimize),
    ["log Z_EP", ep.logZ.toFixed(6)],
    ["corrected log Z", corr.logZ.toFixed(6)],
    ["R2", `${corr.correction.toExponential(4)} (${corr.form}, orders 3 to ${corr.maxOrder})`],
    ["sweeps", String(ep.sweeps)],
  ];
  return finish("EP", common, summary, file, human, io);
}

/** Adds `ep` to the program. */
export function registerEpCommand(program: Command): void {
  const own = (cmd: Command) => cmd
    .option("--schedule <s>", "site updates: sequential (default) or parallel")
    .option("--acceleration <a>", "parallel updates: anderson (default: Anderson mixing of the last residuals, from one sequential sweep) or none (plain damped sweeps)")
    .option("--damping <d>", "damping in (0, 1] on the site parameters (default 1; 0.5 for parallel with --acceleration none)")
    .option("--max-sweeps <n>", "at most this many sweeps over the sites (default 100)")
    .option("--tolerance <t>", "converged when every site moved by less than this over a sweep, relative to its marginal (default 1e-6; 1e-4 with Anderson mixing)")
    .option("--logz-tolerance <t>", "... and log Z_EP changed by less than this (default 1e-8; with Anderson mixing its estimated error, quadratic in the sites' residual)")
    .option("--correction <form>", "cumulant (default: orders 3..4 of the cumulant expansion) or pairwise (the pair expectations' Hermite series)")
    .option("--correction-order <l>", "highest order kept in the correction, 3 to 60 (default 4 cumulant, 20 pairwise)");
  registerApproxCommand(program, ["ep", "expectation propagation for GP probit classification: print log Z_EP and its second-order correction", "likelihood: probit only"], own, (raw: RawEpOptions) => runEp(raw));
}
