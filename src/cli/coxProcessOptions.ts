/**
 * The options of the log-Gaussian Cox process that `simulate --model lgcp` and `sample --model
 * lgcp` share: the hyperparameters sigma^2 and beta of the grid covariance, mu, and the
 * covariance: the paper's Euclidean distance (eq. 31) or the separable L1 distance; their defaults
 * are the model's (models/coxProcess/coxProcessRun.ts, Girolami & Calderhead 2011, Section 9.1).
 */
import type { Command } from "commander";
import type { CoxHyperparameters } from "../models/coxProcess/coxProcess.js";
import { COX_PROCESS_DEFAULTS, coxProcessRunOptions } from "../models/coxProcess/coxProcessRun.js";
import { GRID_DISTANCES, type GridDistance } from "../models/coxProcess/gridCovariance.js";
import { OptionError, parseChoice, parseNumber, parsePositiveNumber } from "./options.js";

export interface RawCoxProcessOptions {
  sigma2?: string;
  beta?: string;
  mu?: string;
  covariance?: string;
}

/** `betaAlso`: what --beta means for the command's other models, appended to its help. */
export function addCoxProcessOptions(cmd: Command, betaAlso = ""): Command {
  return cmd
    .option("--sigma2 <s>", `lgcp: variance sigma^2 of the latent field (default ${COX_PROCESS_DEFAULTS.sigma2})`)
    .option("--beta <b>", "lgcp: correlation length beta, in units of the grid's side (default 1/33)" + betaAlso)
    .option("--mu <m>", "lgcp: mean of the latent field (default log(126) - sigma^2/2)")
    .option("--covariance <c>", "lgcp: the grid covariance sigma^2 exp(-d / (n beta)) with d the euclidean distance between cells (the paper's eq. 31; the default) or separable (d = |i - i'| + |j - j'|)");
}

/** --covariance: the grid's distance, euclidean by default. */
export function parseGridCovariance(raw: RawCoxProcessOptions): GridDistance {
  return raw.covariance === undefined ? COX_PROCESS_DEFAULTS.covariance : parseChoice("--covariance", raw.covariance, GRID_DISTANCES, "covariance");
}

export function parseCoxHyperparameters(raw: RawCoxProcessOptions): CoxHyperparameters {
  const finite = (name: string, v: number) => {
    if (!Number.isFinite(v)) throw new OptionError(name, `must be finite, got ${v}`);
    return v;
  };
  const sigma2 = raw.sigma2 === undefined ? undefined : finite("--sigma2", parsePositiveNumber("--sigma2", raw.sigma2));
  const beta = raw.beta === undefined ? undefined : finite("--beta", parsePositiveNumber("--beta", raw.beta));
  const mu = raw.mu === undefined ? undefined : finite("--mu", parseNumber("--mu", raw.mu));
  // the model's defaults, mu's following sigma^2
  const o = coxProcessRunOptions({ sigma2, beta, mu });
  return { sigma2: o.sigma2, beta: o.beta, mu: o.mu };
}

/** Refuses the lgcp options without --model lgcp. */
export function refuseCoxProcessOptions(raw: RawCoxProcessOptions, model: string): void {
  for (const [key, name] of [["sigma2", "--sigma2"], ["beta", "--beta"], ["mu", "--mu"], ["covariance", "--covariance"]] as const) {
    if (raw[key] !== undefined) throw new OptionError(name, `applies only to --model lgcp, not ${model}`);
  }
}

/** Runs `build`, turning a covariance the circulant embedding cannot take (circulantGrid.ts) into an error of --beta. */
export function withEmbeddableCovariance<T>(build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof RangeError && /circulant embedding/.test(e.message)) throw new OptionError("--beta", `${e.message}; a smaller --beta or --covariance separable avoids it`);
    throw e;
  }
}
