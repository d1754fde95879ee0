/**
 * `gpmcmc sample --model logistic-regression`: Bayesian logistic regression (Girolami &
 * Calderhead 2011, Section 7.1) sampled by one of the parametric samplers
 * (samplers/parametricRegistry.ts). Labels 0/1 or -1/+1; the coefficients are written as
 * beta.1 (the intercept), beta.2, ... in the order of the input columns, then the polynomial
 * terms, each named in the draws files' comments (`term.beta.k = ...`), so that `diagnose` and
 * `report` read the run as any other. Everything is checked before sampling: a bad option or
 * data file stops with one line and exit code 2, and nothing is written.
 */
import type { Command } from "commander";
import type { OutputDir } from "../io/atomic.js";
import { drawsFileName, vectorNames, writeCmdStanCsv, type DrawStats } from "../io/cmdstan.js";
import { MAX_POLYNOMIAL_DEGREE } from "../models/design.js";
import { LOGISTIC_REGRESSION_DEFAULTS } from "../models/logisticRegressionRun.js";
import type { AdaptOptions } from "../samplers/chain/adaptation.js";
import type { ChainResult } from "../samplers/chain/driver.js";
import { PARAMETRIC_SAMPLER_NAMES, type ParametricSamplerName } from "../samplers/parametricRegistry.js";
import { isModelName, modelInfo, MODEL_NAMES } from "../models/registry.js";
import { summariseRun } from "../run/summary.js";
import { VERSION } from "../version.js";
import { addCoxProcessOptions, type RawCoxProcessOptions } from "./coxProcessOptions.js";
import { modelHelp, modelSampler, refuseOtherModelsOptions, samplerOptionsGiven } from "./modelScope.js";
import type { RawLastingRunOptions } from "./lastingRunOptions.js";
import { runModelChains, startModelRun, type ModelRunSpec } from "./modelRunResume.js";
import { OptionError, parsePositiveNumber } from "./options.js";
import { parseSampleOptions, type RawSampleOptions } from "./sampleOptions.js";
import { acceptanceWords, fmt, modelRemedies, verdictSummary } from "./sampleReport.js";

/** The models `--model` names (latent-gp: the GP models of the rest of `sample`), from the model registry. */
export const SAMPLE_MODELS = MODEL_NAMES;

export interface RawParametricOptions extends RawSampleOptions, RawCoxProcessOptions, RawLastingRunOptions {
  model?: string;
  polynomialDegree?: string;
  priorVariance?: string;
  adapt?: boolean;
  /** volatility: the interweaving block, "on" (the default) or "off". */
  interweave?: string;
}

/** Adds --model, --polynomial-degree and --prior-variance to `sample`. */
export function addParametricModelOptions(cmd: Command): Command {
  return addCoxProcessOptions(cmd)
    .option("--model <name>", modelHelp())
    .option("--polynomial-degree <p>", `logistic-regression: add the powers x^2..x^p of each input column (default ${LOGISTIC_REGRESSION_DEFAULTS.polynomialDegree})`)
    .option("--interweave <on|off>", "volatility: after the two blocks, move (sigma, phi) with the innovations fixed (default on)")
    .option("--prior-variance <v>", `logistic-regression: prior variance alpha of every coefficient (default ${LOGISTIC_REGRESSION_DEFAULTS.priorVariance}); a GP with sampled hyperparameters: the prior of the signal variance, gamma:A,B, invgamma:A,B, lognormal:M,S, halfnormal:S or halft:NU,S (default invgamma:1,1; the exact Gibbs step of sa and asis needs invgamma)`);
}

/** Whether the options ask for a parametric model (and refuses its options without one; --prior-variance also serves a GP's sampled hyperparameters). */
export function isParametricModel(raw: RawParametricOptions): boolean {
  const model = raw.model ?? "latent-gp";
  if (!isModelName(model)) throw new OptionError("--model", `unknown model ${JSON.stringify(model)} (known: ${MODEL_NAMES.join(", ")})`);
  refuseOtherModelsOptions(model, raw);
  if (model === "latent-gp") return false;
  // RMHMC's explicit integrator exists for logistic regression's metric (samplers/kernels/lagrangianDense.ts); nothing else here takes one
  const integrator = (raw as { integrator?: string }).integrator;
  if (integrator !== undefined && !(model === "logistic-regression" && integrator === "lagrangian" && (raw.sampler ?? "rmhmc") === "rmhmc")) {
    throw new OptionError("--integrator", `with a --model, only lagrangian with --model logistic-regression --sampler rmhmc (got ${JSON.stringify(integrator)} with --model ${model} --sampler ${raw.sampler ?? "rmhmc"})`);
  }
  return true;
}

/** What the --model commands take besides their options. */
export interface ModelCommandIO {
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
  /** Handle SIGINT and SIGTERM: stop the chains with a checkpoint (the command line's behaviour). */
  handleSigint?: boolean;
}

/** Runs the sample command for --model logistic-regression; returns the report it printed (undefined: the run was stopped). */
export async function runParametricSample(raw: RawParametricOptions, io: ModelCommandIO = {}): Promise<ParametricReport | undefined> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const stderr = io.stderr ?? ((s: string) => void process.stderr.write(s));
  refuseOtherModelsOptions("logistic-regression", raw);
  const sampler = modelSampler("logistic-regression", raw.sampler) as ParametricSamplerName;
  const o = parseSampleOptions({ ...raw, sampler }, { samplers: PARAMETRIC_SAMPLER_NAMES });
  const m = modelInfo["logistic-regression"];
  let degree = m.defaults.polynomialDegree;
  if (raw.polynomialDegree !== undefined) {
    degree = Number(raw.polynomialDegree.trim());
    if (raw.polynomialDegree.trim() === "" || !Number.isInteger(degree) || degree < 1 || degree > MAX_POLYNOMIAL_DEGREE) {
      throw new OptionError("--polynomial-degree", `must be a whole number from 1 to ${MAX_POLYNOMIAL_DEGREE}, got ${JSON.stringify(raw.polynomialDegree)}`);
    }
  }
  const priorVariance = raw.priorVariance === undefined ? m.defaults.priorVariance : parsePositiveNumber("--prior-variance", raw.priorVariance);
  if (!Number.isFinite(priorVariance)) throw new OptionError("--prior-variance", `must be a finite positive number, got ${JSON.stringify(raw.priorVariance)}`);
  const given = samplerOptionsGiven("logistic-regression", sampler, raw);

  const start = startModelRun("logistic-regression", raw, o);
  const data = m.readData(o.data);
  const targetOptions = { priorVariance, polynomialDegree: degree };
  const built = m.buildTarget(data, targetOptions);
  for (const w of built.warnings) stderr(`gpmcmc: warning: ${w}\n`);
  const { model, design } = built;
  const integrator = (raw as { integrator?: string }).integrator === "lagrangian" ? "lagrangian" as const : undefined;
  const samplerOptions = { ...given, integrator, burnIn: o.burnIn, adapt: raw.adapt !== false };
  const { init, adapt } = m.sampler(built, sampler, samplerOptions);
  const spec = parametricRunSpec({ name: "logistic-regression", priorVariance, polynomialDegree: degree }, sampler, o, start.seed, adapt, { ...given, ...(integrator ? { integrator } : {}) });
  const names = vectorNames("beta", model.dim);
  const settings: Record<string, string | number> = { prior_variance: priorVariance, polynomial_degree: degree };
  design.terms.forEach((t, k) => (settings[`term.beta.${k + 1}`] = t));
  const info: ChainInfo = { model: "logistic_regression", sampler, seed: spec.seed, draws: o.draws, burnIn: o.burnIn, thin: o.thin, chains: o.chains, adapt: adapt !== undefined, dataFile: o.data, settings };
  return runModelChains(start, {
    spec, dataFile: o.data, build: { model: "logistic-regression", targetOptions, sampler, samplerOptions }, init, adapt, json: o.json, stdout, stderr, handleSigint: io.handleSigint, parallel: o.parallel,
    writeDraws: (out, r) => writeParametricChain(out, r, names, info),
    report: (chains, seconds, files) => {
      const summary = summariseRun(chains, { names, seconds, thin: o.thin, remedies: modelRemedies("logistic-regression", sampler, given, adapt) });
      return { ...summary, gpmcmc: VERSION, model: "logistic-regression", sampler, ...(integrator ? { integrator } : {}), seed: spec.seed, priorVariance, polynomialDegree: degree, terms: design.terms, data: { file: o.data, n: data.n, d: model.dim }, out: start.outPath ?? null, files: start.outPath !== undefined ? [...files, "summary.json"] : [] };
    },
    format: formatParametricReport,
  });
}

/** The run record of a parametric model's run (what a resume compares). */
export function parametricRunSpec(model: ModelRunSpec["model"], sampler: string, o: ReturnType<typeof parseSampleOptions>, seed: number, adapt: AdaptOptions | undefined, given: { stepSize?: number; leapfrogSteps?: number; targetAcceptance?: number; integrator?: "lagrangian" } = {}): ModelRunSpec {
  // the given sampler options besides step size and leapfrog steps (recorded as before: those two always, undefined where not given)
  const { stepSize: _s, leapfrogSteps: _l, ...others } = given;
  return { model, sampler: { sampler, stepSize: o.stepSize, leapfrogSteps: o.leapfrogSteps, ...others }, draws: o.draws, burnIn: o.burnIn, thin: o.thin, chains: o.chains, seed, adapt: adapt !== undefined };
}

export interface ChainInfo {
  /** The model's name in the draws file's comments. */
  model: string;
  sampler: string;
  seed: number;
  draws: number;
  burnIn: number;
  thin: number;
  chains: number;
  adapt: boolean;
  dataFile: string;
  settings: Record<string, string | number>;
}

/** Writes one chain's draws file (CmdStan CSV) into the output directory; returns its name. */
export function writeParametricChain(out: OutputDir, r: ChainResult, names: string[], info: ChainInfo): string {
  const name = drawsFileName(r.chain + 1);
  const st = r.stats;
  const stats: DrawStats[] = Array.from({ length: r.draws }, (_, i) => ({
    lp: st.lp[i], acceptStat: st.acceptStat[i], stepSize: st.stepSize[i], nLeapfrog: st.nLeapfrog[i], divergent: st.divergent[i] === 1, energy: st.energy[i],
  }));
  writeCmdStanCsv(out.open(name), {
    model: info.model, sampler: info.sampler, draws: info.draws * info.thin, burnIn: info.burnIn, thin: info.thin, chain: r.chain + 1, chains: info.chains,
    adapt: info.adapt, stepSize: r.tunedValue ?? 0, seed: info.seed, dataFile: info.dataFile, settings: info.settings,
  }, {
    variables: names, stats, values: r.samples,
    adaptation: r.tunedValue !== undefined ? { stepSize: r.tunedValue } : undefined,
    timing: { warmupSeconds: r.seconds.burnIn, samplingSeconds: r.seconds.sampling },
  });
  return name;
}

type ParametricReport = ReturnType<typeof summariseRun> & { sampler: string; integrator?: string; data: { file: string; n: number; d: number }; terms: string[]; out: string | null; files: string[] };

function formatParametricReport(r: ParametricReport): string {
  const judged = verdictSummary(r);
  const lines = [
    `logistic regression on ${r.data.file} (n = ${r.data.n}, ${r.data.d} coefficients: ${r.terms.join(", ")}), sampler ${r.sampler}${r.integrator ? ` (${r.integrator} integrator)` : ""}`,
    `${r.chains} chains x ${r.draws} draws; ${acceptanceWords(r)}, divergences ${r.divergences}`,
    `ESS (Geyer, over beta.1..beta.${r.variables}): min ${fmt(r.minEss)}, median ${fmt(r.medianEss)}, max ${fmt(r.maxEss)}`,
    `R-hat (classic, max over beta): ${r.chains < 2 ? "n/a with one chain" : fmt(r.rhatMax)}`,
    ...judged.figures,
    `time: ${fmt(r.samplingSeconds)} s of sampling summed over chains; min ESS per second of sampling ${fmt(r.essPerSecond)}`,
  ];
  if (r.out !== null) lines.push(`wrote ${r.files.map((f) => `${r.out}/${f}`).join(", ")}`);
  return [...lines, ...judged.verdict].join("\n") + "\n";
}
