/**
 * A run's files: one CmdStan-layout draws file per chain (draws_1.csv, ...; see io/cmdstan.ts),
 * whose comment block records the run's configuration, so that ArviZ, cmdstanr and
 * `readCmdStanCsv` read them as they are.
 */
import { relativeJitterOf, resolveJitter } from "../gp/jitter.js";
import type { OutputDir } from "../io/atomic.js";
import { drawsFileName, vectorNames, writeCmdStanCsv, type CmdStanRunInfo, type DrawStats } from "../io/cmdstan.js";
import type { ChainResult } from "../samplers/chain/driver.js";
import { leapfrogSteps, tunableValue } from "../samplers/registry.js";
import type { LatentGpRunSpec } from "./runSpec.js";

/** The configuration comments of chain `chain` (0-based) of a run. */
export function drawsFileInfo(spec: LatentGpRunSpec, chain: number, dataFile: string, dataSha256?: string): CmdStanRunInfo {
  const { model, sampler } = spec;
  const settings: Record<string, string | number | boolean> = {
    likelihood: model.likelihood,
    log_lengthscale: model.logLengthscale.join(" "),
    log_signal_sd: model.logSignalSd,
  };
  const lo = model.likelihoodOptions;
  if (lo?.thresholds !== undefined) settings.thresholds = lo.thresholds.join(" ");
  if (lo?.noiseSd !== undefined) settings.noise_sd = lo.noiseSd;
  if (lo?.exposure !== undefined) settings.exposure = typeof lo.exposure === "number" ? lo.exposure : "per case (--exposure-column)";
  const leapfrog = leapfrogSteps(sampler);
  if (leapfrog !== undefined) {
    settings.leapfrog_steps = leapfrog.steps;
    settings.randomise_steps = leapfrog.randomised;
  }
  // The tunable's initial value under its own name (the header's step size holds it too).
  if (sampler.sampler === "mh-v1" || sampler.sampler === "mh-v2") settings.alpha = sampler.alpha;
  if (sampler.sampler === "mh") settings.proposal_sd = sampler.proposalSd;
  // The jitter is part of the model (src/gp/jitter.ts): the amount added to K's diagonal, and its ratio to the signal variance when relative.
  const jitter = resolveJitter(model.jitter, model.logSignalSd);
  if (jitter !== undefined) settings.jitter = String(jitter);
  const relative = relativeJitterOf(model.jitter);
  if (relative !== undefined) settings.relative_jitter = relative;
  settings.init = spec.init ?? "zero";
  if (dataSha256 !== undefined) settings.data_sha256 = dataSha256;
  if (sampler.sampler === "rmhmc") {
    settings.integrator = sampler.variant ?? "fast";
    const fp = sampler.fixedPoint;
    if (fp?.kind === "iterations") settings.fixed_point_iterations = fp.iterations;
    else settings.fixed_point_tolerance = fp?.tolerance ?? 1e-8;
  } else if (sampler.sampler === "hmc") {
    settings.mass = sampler.mass ?? "prior";
  }
  if (spec.adapt) {
    settings.adapt_method = spec.adapt.method;
    if (spec.adapt.targetAcceptance !== undefined) settings.adapt_target_acceptance = spec.adapt.targetAcceptance;
  }
  return {
    ...chainRunFields(spec, chain, dataFile),
    model: `gp_${model.likelihood}`,
    sampler: sampler.sampler,
    adapt: spec.adapt !== undefined && spec.burnIn > 0,
    // ess has nothing to tune: its header records step size 0
    stepSize: tunableValue(sampler) ?? 0,
    settings,
  };
}

/** The fields of a chain's draws-file comments that every kind of run fills the same way (chain is 0-based). */
export function chainRunFields(spec: { draws: number; thin: number; burnIn: number; chains: number; seed: number }, chain: number, dataFile: string) {
  return { draws: spec.draws * spec.thin, burnIn: spec.burnIn, thin: spec.thin, chain: chain + 1, chains: spec.chains, seed: spec.seed, dataFile };
}

/** Writes one chain's draws file into `out` (atomically) and returns its name. */
export function writeChainDraws(out: OutputDir, result: ChainResult, spec: LatentGpRunSpec, dataFile: string, dataSha256?: string): string {
  return writeChainFile(out, result, drawsFileInfo(spec, result.chain, dataFile, dataSha256), vectorNames("f", result.dim));
}

/** Writes a chain's draws under the column names `variables` with the comments of `info`; returns the file's name. */
export function writeChainFile(out: OutputDir, result: ChainResult, info: CmdStanRunInfo, variables: string[]): string {
  const name = drawsFileName(result.chain + 1);
  const st = result.stats;
  const stats: DrawStats[] = Array.from({ length: result.draws }, (_, i) => ({
    lp: st.lp[i],
    acceptStat: st.acceptStat[i],
    stepSize: st.stepSize[i],
    nLeapfrog: st.nLeapfrog[i],
    divergent: st.divergent[i] === 1,
    energy: st.energy[i],
  }));
  writeCmdStanCsv(out.open(name), info, {
    variables,
    stats,
    values: result.samples,
    adaptation: result.tunedValue !== undefined ? { stepSize: result.tunedValue } : undefined,
    timing: { warmupSeconds: result.seconds.burnIn, samplingSeconds: result.seconds.sampling },
    incomplete: result.stopped === true,
  });
  return name;
}
