/**
 * `gpmcmc sample --model lgcp`: the latent field of the log-Gaussian Cox process given the counts
 * on a grid (Girolami & Calderhead 2011, Section 9) with fixed hyperparameters (--sigma2, --beta,
 * --mu; the paper's values by default), sampled by one of models/coxProcess/samplers.ts's samplers (rmhmc, the
 * default, mmala, mala-transient, mala-stationary), with the paper's Euclidean grid covariance
 * (--covariance euclidean, the default; sampled in whitened torus coordinates and mapped back) or
 * the separable one (--covariance separable). The draws are the field x.1..x.N, cell
 * (row i, column j) at N-index (i - 1) + n (j - 1) + 1, in CmdStan CSV files that `diagnose` and
 * `report` read. Everything is checked before sampling: a bad option or data file stops with one
 * line and exit code 2, and nothing is written.
 */
import { vectorNames } from "../io/cmdstan.js";
import { COX_PROCESS_SAMPLERS, type CoxProcessSamplerName } from "../models/coxProcess/samplers.js";
import { modelInfo } from "../models/registry.js";
import { modelSampler, refuseOtherModelsOptions, samplerOptionsGiven } from "./modelScope.js";
import { summariseRun } from "../run/summary.js";
import type { ChainResult } from "../samplers/chain/driver.js";
import { VERSION } from "../version.js";
import { parseCoxHyperparameters, parseGridCovariance, withEmbeddableCovariance, type RawCoxProcessOptions } from "./coxProcessOptions.js";
import { OptionError } from "./options.js";
import { runModelChains, startModelRun } from "./modelRunResume.js";
import { parametricRunSpec, writeParametricChain, type ModelCommandIO, type RawParametricOptions } from "./sampleParametric.js";
import { acceptanceWords, fmt, modelRemedies, verdictSummary } from "./sampleReport.js";
import { parseSampleOptions } from "./sampleOptions.js";

/** Runs `gpmcmc sample --model lgcp`; returns the report it printed (undefined: the run was stopped). */
export async function runCoxProcessSample(raw: RawParametricOptions & RawCoxProcessOptions, io: ModelCommandIO = {}): Promise<CoxProcessReport | undefined> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  refuseOtherModelsOptions("lgcp", raw);
  const sampler = modelSampler("lgcp", raw.sampler) as CoxProcessSamplerName;
  const o = parseSampleOptions({ ...raw, sampler }, { samplers: COX_PROCESS_SAMPLERS });
  const given = samplerOptionsGiven("lgcp", sampler, raw);
  if (sampler === "mala-transient" && raw.adapt === false) throw new OptionError("--no-adapt", "does not apply to --sampler mala-transient (its scaling is fixed)");
  const hyper = parseCoxHyperparameters(raw);
  const covariance = parseGridCovariance(raw);
  const start = startModelRun("lgcp", raw, o);
  const m = modelInfo.lgcp;
  const grid = m.readData(o.data);
  const targetOptions = { ...hyper, covariance };
  const model = withEmbeddableCovariance(() => m.buildTarget(grid, targetOptions));
  const samplerOptions = { ...given, adapt: raw.adapt };
  const s = m.sampler(model, sampler, samplerOptions);
  const spec = parametricRunSpec({ name: "lgcp", ...hyper, covariance }, sampler, o, start.seed, s.adapt, given);
  // The draws are mapped to the field x (the Euclidean model samples the whitened nu, MALA Christensen's Gamma).
  const n = model.cells;
  const toField = (r: ChainResult): ChainResult => {
    const xs = new Float64Array(r.draws * n);
    for (let i = 0; i < r.draws; i++) s.toField(r.samples.subarray(i * r.dim, (i + 1) * r.dim), xs.subarray(i * n, (i + 1) * n));
    return { ...r, dim: n, samples: xs };
  };
  const names = vectorNames("x", n);
  const settings = { grid: grid.side, covariance, ...(model.covariance === "euclidean" ? { torus: model.grid.torus } : {}), sigma2: hyper.sigma2, beta: hyper.beta, mu: hyper.mu, cell_area: model.cellArea };
  return runModelChains(start, {
    spec, dataFile: o.data, build: { model: "lgcp", targetOptions, sampler, samplerOptions }, init: s.init, adapt: s.adapt, json: o.json, stdout, stderr: io.stderr ?? ((t: string) => void process.stderr.write(t)),
    handleSigint: io.handleSigint, parallel: o.parallel,
    writeDraws: (out, r) => writeParametricChain(out, toField(r), names, { model: "lgcp", sampler, seed: spec.seed, draws: o.draws, burnIn: o.burnIn, thin: o.thin, chains: o.chains, adapt: s.kernel.tunable !== undefined, dataFile: o.data, settings }),
    report: (chains, seconds, files) => {
      const summary = summariseRun(chains.map(toField), { names, seconds, thin: o.thin, remedies: modelRemedies("lgcp", sampler, given, s.adapt) });
      return { ...summary, gpmcmc: VERSION, model: "lgcp", sampler, seed: spec.seed, covariance, hyperparameters: hyper, setupSeconds: s.setupSeconds, data: { file: o.data, grid: grid.side, cells: n }, out: start.outPath ?? null, files: start.outPath !== undefined ? [...files, "summary.json"] : [] };
    },
    format: formatCoxProcessReport,
  });
}

type CoxProcessReport = ReturnType<typeof summariseRun> & {
  sampler: string; covariance: string; hyperparameters: { sigma2: number; beta: number; mu: number }; data: { file: string; grid: number }; out: string | null; files: string[];
};

function formatCoxProcessReport(r: CoxProcessReport): string {
  const hyper = r.hyperparameters;
  const judged = verdictSummary(r);
  const lines = [
    `log-Gaussian Cox process on ${r.data.file} (${r.data.grid} x ${r.data.grid} grid, ${r.covariance} covariance; sigma^2 ${hyper.sigma2}, beta ${fmt(hyper.beta)}, mu ${fmt(hyper.mu)}), sampler ${r.sampler}`,
    `${r.chains} chains x ${r.draws} draws; ${acceptanceWords(r)}, divergences ${r.divergences}`,
    `ESS (Geyer, over x.1..x.${r.variables}): min ${fmt(r.minEss)}, median ${fmt(r.medianEss)}, max ${fmt(r.maxEss)}`,
    `R-hat (classic, max over x): ${r.chains < 2 ? "n/a with one chain" : fmt(r.rhatMax)}`,
    ...judged.figures,
    `time: ${fmt(r.samplingSeconds)} s of sampling summed over chains, ${fmt(r.seconds)} s wall-clock with burn-in; min ESS per second of sampling ${fmt(r.essPerSecond)}`,
  ];
  if (r.out !== null) lines.push(`wrote ${r.files.map((f) => `${r.out}/${f}`).join(", ")}`);
  return [...lines, ...judged.verdict].join("\n") + "\n";
}
