/**
 * The options of the log-Gaussian Cox process that `simulate --model lgcp` and `sample --model
 * lgcp` share: the hyperparameters sigma^2 and beta of the grid covariance (Girolami & Calderhead
 * 2011, Section 9.1: 1.91 and 1/33), and mu, which defaults to log(126) - sigma^2/2 as there.
 */
import type { Command } from "commander";
import { paperMu, PAPER_BETA, PAPER_SIGMA2, type CoxHyperparameters } from "../models/coxProcess/coxProcess.js";
import { OptionError, parseNumber, parsePositiveNumber } from "./options.js";

export interface RawCoxProcessOptions {
  sigma2?: string;
  beta?: string;
  mu?: string;
}

/** `betaAlso`: what --beta means for the command's other models, appended to its help. */
export function addCoxProcessOptions(cmd: Command, betaAlso = ""): Command {
  return cmd
    .option("--sigma2 <s>", `lgcp: variance sigma^2 of the latent field (default ${PAPER_SIGMA2})`)
    .option("--beta <b>", "lgcp: correlation length beta, in units of the grid's side (default 1/33)" + betaAlso)
    .option("--mu <m>", "lgcp: mean of the latent field (default log(126) - sigma^2/2)");
}

export function parseCoxHyperparameters(raw: RawCoxProcessOptions): CoxHyperparameters {
  const finite = (name: string, v: number) => {
    if (!Number.isFinite(v)) throw new OptionError(name, `must be finite, got ${v}`);
    return v;
  };
  const sigma2 = raw.sigma2 === undefined ? PAPER_SIGMA2 : finite("--sigma2", parsePositiveNumber("--sigma2", raw.sigma2));
  const beta = raw.beta === undefined ? PAPER_BETA : finite("--beta", parsePositiveNumber("--beta", raw.beta));
  const mu = raw.mu === undefined ? paperMu(sigma2) : finite("--mu", parseNumber("--mu", raw.mu));
  return { sigma2, beta, mu };
}

/** Refuses the lgcp options without --model lgcp. */
export function refuseCoxProcessOptions(raw: RawCoxProcessOptions, model: string): void {
  for (const [key, name] of [["sigma2", "--sigma2"], ["beta", "--beta"], ["mu", "--mu"]] as const) {
    if (raw[key] !== undefined) throw new OptionError(name, `applies only to --model lgcp, not ${model}`);
  }
}
