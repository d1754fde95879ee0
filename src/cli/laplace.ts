/**
 * `gpmcmc laplace`: Laplace's approximation for a latent GP with the squared-exponential kernel
 * at fixed hyperparameters, printing log Z and, with --out, writing the Gaussian approximation
 * as an ApproximationFile (exit codes: approxCommon.ts).
 */
import { likelihoodsWith } from "../likelihoods/registry.js";
import type { Command } from "commander";
import { siteMeansOf, type ApproximationFile } from "../approx/approximationFile.js";
import { laplace, NotLogConcaveError, type LaplaceOptions } from "../approx/laplace.js";
import { likelihoodByName } from "../likelihoods/registry.js";
import { VERSION } from "../version.js";
import { fileHeader, finish, loadProblem, optimizeProblem, optimizeRows, optional, parseCommon, problemFields, problemRows, registerApproxCommand, type ApproxSummary, type CommandOutcome, type RawApproxOptions } from "./approxCommon.js";
import { processIO, type CommandIO } from "./commandIO.js";
import { registerUserError } from "./errors.js";
import type { ModelScope } from "./modelOptions.js";
import { parsePositiveInteger, parsePositiveNumber } from "./options.js";

registerUserError(NotLogConcaveError);

/** The likelihoods `gpmcmc laplace` takes (log-concave, no extra options): those the likelihood registry marks so. */
export const LAPLACE_LIKELIHOODS: readonly string[] = likelihoodsWith((t) => t.laplace);

const LAPLACE_SCOPE: ModelScope = {
  likelihoods: LAPLACE_LIKELIHOODS,
  refuseLikelihood: (name) => `gpmcmc laplace takes ${LAPLACE_LIKELIHOODS.join(", ")}, not ${name}`,
  noExposure: "gpmcmc laplace takes poisson counts with exposure 1 only",
  noJitter: "gpmcmc laplace does not take it: its Newton steps factorise I + W^1/2 K W^1/2, which is positive definite whatever K",
};

export interface RawLaplaceOptions extends RawApproxOptions {
  maxIterations?: string;
  tolerance?: string;
}

/** What `gpmcmc laplace --json` prints (seconds: kernel matrix and Newton iteration). */
export interface LaplaceSummary extends ApproxSummary {
  command: "laplace";
  gradientNorm: number;
}

/** Runs `gpmcmc laplace` with the given options. Throws OptionError, DataError, OutputError on bad input. */
export function runLaplace(raw: RawLaplaceOptions, io: CommandIO = processIO): CommandOutcome<LaplaceSummary> {
  const common = parseCommon(raw, LAPLACE_SCOPE);
  const likelihood = common.model.likelihood;
  const options: LaplaceOptions = {
    maxIterations: optional(raw.maxIterations, "--max-iterations", parsePositiveInteger),
    gradientTolerance: optional(raw.tolerance, "--tolerance", parsePositiveNumber),
    onWarning: (s) => io.stderr(s + "\n"),
  };
  const p = loadProblem(common, io);
  const lik = likelihoodByName(likelihood);
  const { onWarning: _, ...searchOptions } = options;
  const optimize = common.optimize ? optimizeProblem(p, { method: "laplace", y: p.dataset.y, likelihood: lik, options: searchOptions }, (s) => io.stderr(s + "\n")) : null;
  const t0 = performance.now();
  const r = laplace(p.k, p.dataset.y, lik, options);
  const seconds = p.kernelSeconds + (performance.now() - t0) / 1000;
  const n = p.dataset.n;
  const nu = new Float64Array(n);
  for (let i = 0; i < n; i++) nu[i] = r.w[i] * r.mode[i] + r.alpha[i];
  const summary: LaplaceSummary = {
    command: "laplace", ...problemFields(common, p),
    logZ: r.logZ, iterations: r.iterations, converged: r.converged, gradientNorm: r.gradientNorm, seconds, out: null, optimize,
  };
  const file: ApproximationFile = {
    ...fileHeader("laplace", common, p),
    logZ: r.logZ, iterations: r.iterations, converged: r.converged,
    mean: Array.from(r.mode), sitePrecisions: Array.from(r.w), siteNaturalMeans: Array.from(nu), siteMeans: siteMeansOf(r.w, nu),
    details: { gradientNorm: r.gradientNorm, halvings: r.halvings, logLikelihood: r.logLikelihood, objective: r.objective },
    gpmcmcVersion: VERSION,
  };
  const human: [string, string][] = [
    ...problemRows(`Laplace (${likelihood} likelihood)`, common, p),
    ...optimizeRows(optimize),
    ["log Z", r.logZ.toFixed(6)],
    ["Newton steps", String(r.iterations)],
  ];
  return finish("Laplace's Newton iteration", common, summary, file, human, io);
}

/** Adds `laplace` to the program. */
export function registerLaplaceCommand(program: Command): void {
  const own = (cmd: Command) => cmd
    .option("--max-iterations <n>", "at most this many Newton steps (default 100)")
    .option("--tolerance <t>", "converged when max_i |d Psi / d f_i| is below this (default 1e-9)");
  registerApproxCommand(program, ["laplace", "Laplace's approximation at fixed kernel hyperparameters: print its log marginal likelihood log Z", `likelihood: ${LAPLACE_LIKELIHOODS.join(", ")} (logistic takes labels -1/+1 or 0/1, poisson counts with exposure 1)`], own, (raw: RawLaplaceOptions) => runLaplace(raw));
}
