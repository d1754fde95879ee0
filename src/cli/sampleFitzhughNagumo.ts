/**
 * `gpmcmc sample --model fitzhugh-nagumo`: the parameters (a, b, c) of the Fitzhugh-Nagumo ODE
 * (Girolami & Calderhead 2011, Section 10; models/fitzhughNagumo/) from observations of V and R
 * in a CSV file with the columns t, V, R (what `gpmcmc simulate --model fitzhugh-nagumo`
 * writes), by one of the parametric samplers. As in the paper, chains start at the posterior
 * mode, found by BFGS uphill from --start. Draws are written in CmdStan's layout with the
 * columns a, b, c, so `diagnose` and `report` read the run as any other. Everything is checked
 * before sampling: a bad option or data file stops with one line and exit code 2, and nothing
 * is written.
 */
import type { Command } from "commander";
import { FN_PARAMETER_NAMES } from "../models/fitzhughNagumo/equations.js";
import { FITZHUGH_NAGUMO_DEFAULTS } from "../models/fitzhughNagumo/fitzhughNagumoRun.js";
import type { ParametricSamplerName } from "../samplers/parametricRegistry.js";
import { summariseRun } from "../run/summary.js";
import { VERSION } from "../version.js";
import { OptionError, parseNumberList, parsePositiveNumber } from "./options.js";
import { parseSampleOptions, type RawSampleOptions } from "./sampleOptions.js";
import type { RawLastingRunOptions } from "./lastingRunOptions.js";
import { runModelChains, startModelRun } from "./modelRunResume.js";
import { parametricRunSpec, writeParametricChain, type ModelCommandIO } from "./sampleParametric.js";
import { modelSampler, refuseOtherModelsOptions, samplerOptionsGiven } from "./modelScope.js";
import { modelInfo } from "../models/registry.js";
import { acceptanceWords, fmt, modelRemedies, verdictSummary } from "./sampleReport.js";

/** The samplers that apply (IWLS is for generalised linear models), from the model registry. */
export const FN_SAMPLERS = modelInfo["fitzhugh-nagumo"].samplers as readonly ParametricSamplerName[];
/** The model registry's default sampler (why: EXPERIMENTS.md, "Table 14: the Fitzhugh-Nagumo ODE"). */
export const FN_DEFAULT_SAMPLER = modelInfo["fitzhugh-nagumo"].defaultSampler as ParametricSamplerName;

export interface RawFitzhughNagumoSampleOptions extends RawSampleOptions, RawLastingRunOptions {
  noiseSd?: string;
  priorSd?: string;
  initialState?: string;
  start?: string;
  adapt?: boolean;
}

/** Adds --prior-sd, --initial-state and --start to `sample` (--noise-sd is shared with the ordinal likelihood). */
export function addFitzhughNagumoSampleOptions(cmd: Command): Command {
  return cmd
    .option("--prior-sd <tau>", `fitzhugh-nagumo: sd of the N(0, tau^2) prior of a, b and c (c > 0) (default ${FITZHUGH_NAGUMO_DEFAULTS.priorSd})`)
    .option("--initial-state <v0,r0>", `fitzhugh-nagumo: the known V(0), R(0) at t = 0 (default ${FITZHUGH_NAGUMO_DEFAULTS.initialState.join(",")})`)
    .option("--start <a,b,c>", `fitzhugh-nagumo: where the search for the posterior mode starts; chains start at the mode (default ${FITZHUGH_NAGUMO_DEFAULTS.start.join(",")})`);
}

function numberList(option: string, raw: string, length: number): number[] {
  const v = parseNumberList(option, raw);
  if (v.length !== length) throw new OptionError(option, `needs ${length} comma-separated numbers, got ${v.length}`);
  return v;
}

/** Runs the sample command for --model fitzhugh-nagumo; returns the report it printed (undefined: the run was stopped). */
export async function runFitzhughNagumoSample(raw: RawFitzhughNagumoSampleOptions, io: ModelCommandIO = {}): Promise<FitzhughNagumoReport | undefined> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const stderr = io.stderr ?? ((s: string) => void process.stderr.write(s));
  refuseOtherModelsOptions("fitzhugh-nagumo", raw);
  const sampler = modelSampler("fitzhugh-nagumo", raw.sampler);
  // --noise-sd is this model's observation noise here, not the ordinal likelihood's
  const o = parseSampleOptions({ ...raw, sampler, noiseSd: undefined }, { samplers: FN_SAMPLERS });
  const given = samplerOptionsGiven("fitzhugh-nagumo", sampler, raw);
  const m = modelInfo["fitzhugh-nagumo"];
  const noiseSd = raw.noiseSd === undefined ? m.defaults.noiseSd : parsePositiveNumber("--noise-sd", raw.noiseSd);
  const priorSd = raw.priorSd === undefined ? m.defaults.priorSd : parsePositiveNumber("--prior-sd", raw.priorSd);
  const x0 = raw.initialState === undefined ? [...m.defaults.initialState] : numberList("--initial-state", raw.initialState, 2);
  const startPoint = raw.start === undefined ? [...m.defaults.start] : numberList("--start", raw.start, 3);
  if (!(startPoint[2] > 0)) throw new OptionError("--start", `c must be positive (the equations divide by it), got ${startPoint[2]}`);

  const start = startModelRun("fitzhugh-nagumo", raw, o);
  const data = m.readData(o.data);
  const targetOptions = { noiseSd, priorSd, initialState: x0, start: startPoint };
  const built = m.buildTarget(data, targetOptions);
  const mode = built.mode;
  if (!Number.isFinite(mode.logDensity)) throw new OptionError("--start", `the log density is not finite at ${startPoint.join(",")} (the ODE solver failed there); start elsewhere`);
  if (!mode.converged) stderr(`gpmcmc: warning: the search for the posterior mode did not converge (${mode.reason}); chains start at the best point found\n`);
  const samplerOptions = { ...given, burnIn: o.burnIn, adapt: raw.adapt !== false };
  const { init, adapt } = m.sampler(built, sampler, samplerOptions);
  const spec = parametricRunSpec({ name: "fitzhugh-nagumo", noiseSd, priorSd, initialState: x0, start: startPoint }, sampler, o, start.seed, adapt, given);
  const names = [...FN_PARAMETER_NAMES];
  const settings = { noise_sd: noiseSd, prior_sd: priorSd, initial_state: x0.join(","), mode: Array.from(init).join(",") };
  const info = { model: "fitzhugh_nagumo", sampler, seed: spec.seed, draws: o.draws, burnIn: o.burnIn, thin: o.thin, chains: o.chains, adapt: adapt !== undefined, dataFile: o.data, settings };
  return runModelChains(start, {
    spec, dataFile: o.data, build: { model: "fitzhugh-nagumo", targetOptions, sampler, samplerOptions }, init, adapt, json: o.json, stdout, stderr, handleSigint: io.handleSigint, parallel: o.parallel,
    writeDraws: (out, r) => writeParametricChain(out, r, names, info),
    report: (chains, seconds, files) => {
      const summary = summariseRun(chains, { names, seconds, thin: o.thin, remedies: modelRemedies("fitzhugh-nagumo", sampler, given, adapt) });
      const means = names.map((_, k) => {
        let s = 0;
        let n = 0;
        for (const r of chains) for (let i = 0; i < r.draws; i++, n++) s += r.samples[i * 3 + k];
        return s / n;
      });
      return {
        ...summary, gpmcmc: VERSION, model: "fitzhugh-nagumo", sampler, seed: spec.seed, noiseSd, priorSd, initialState: x0, mode: Array.from(init), means,
        data: { file: o.data, times: data.times.length, tEnd: data.times[data.times.length - 1] }, out: start.outPath ?? null, files: start.outPath !== undefined ? [...files, "summary.json"] : [],
      };
    },
    format: formatFitzhughNagumoReport,
  });
}

type FitzhughNagumoReport = ReturnType<typeof summariseRun> & {
  sampler: string; noiseSd: number; priorSd: number; mode: number[]; means: number[]; data: { file: string; times: number; tEnd: number }; out: string | null; files: string[];
};

function formatFitzhughNagumoReport(report: FitzhughNagumoReport): string {
  const names = [...FN_PARAMETER_NAMES];
  const judged = verdictSummary(report);
  const lines = [
    `fitzhugh-nagumo on ${report.data.file} (${report.data.times} times to t = ${fmt(report.data.tEnd)}, noise sd ${report.noiseSd}, prior N(0, ${report.priorSd}^2) on a, b, c > 0), sampler ${report.sampler}`,
    `chains start at the posterior mode (a, b, c) = (${report.mode.map((x) => x.toFixed(4)).join(", ")})`,
    `${report.chains} chains x ${report.draws} draws; ${acceptanceWords(report)}, divergences ${report.divergences}`,
    `posterior means: ${names.map((n, k) => `${n} ${report.means[k].toFixed(4)}`).join(", ")}`,
    `ESS (Geyer, over a, b, c): min ${fmt(report.minEss)}, median ${fmt(report.medianEss)}, max ${fmt(report.maxEss)}`,
    `R-hat (classic, max over a, b, c): ${report.chains < 2 ? "n/a with one chain" : fmt(report.rhatMax)}`,
    ...judged.figures,
    `time: ${fmt(report.samplingSeconds)} s of sampling summed over chains; min ESS per second of sampling ${fmt(report.essPerSecond)}`,
  ];
  if (report.out !== null) lines.push(`wrote ${report.files.map((f) => `${report.out}/${f}`).join(", ")}`);
  return [...lines, ...judged.verdict].join("\n") + "\n";
}
