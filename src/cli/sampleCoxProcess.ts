/**
 * `gpmcmc sample --model lgcp`: the latent field of the log-Gaussian Cox process given the counts
 * on a grid (Girolami & Calderhead 2011, Section 9) with fixed hyperparameters (--sigma2, --beta,
 * --mu; the paper's values by default), sampled by one of run/coxProcess.ts's samplers (rmhmc, the
 * default, mmala, mala-transient, mala-stationary), with the paper's Euclidean grid covariance
 * (--covariance euclidean, the default; sampled in whitened torus coordinates and mapped back) or
 * the separable one (--covariance separable). The draws are the field x.1..x.N, cell
 * (row i, column j) at N-index (i - 1) + n (j - 1) + 1, in CmdStan CSV files that `diagnose` and
 * `report` read. Everything is checked before sampling: a bad option or data file stops with one
 * line and exit code 2, and nothing is written.
 */
import { prepareOutputDir } from "../io/atomic.js";
import { vectorNames } from "../io/cmdstan.js";
import { readCountGrid } from "../io/countGrid.js";
import { coxFieldModel } from "../models/coxProcess/fieldModel.js";
import { COX_PROCESS_SAMPLERS, coxProcessSampler, isCoxProcessSamplerName } from "../run/coxProcess.js";
import { summariseRun } from "../run/summary.js";
import { sample, type ChainResult } from "../samplers/driver.js";
import { VERSION } from "../version.js";
import { parseCoxHyperparameters, parseGridCovariance, withEmbeddableCovariance, type RawCoxProcessOptions } from "./coxProcessOptions.js";
import { OptionError } from "./options.js";
import { writeParametricChain, type RawParametricOptions } from "./sampleParametric.js";
import { parseSampleOptions } from "./sampleOptions.js";

export function runCoxProcessSample(raw: RawParametricOptions & RawCoxProcessOptions, io: { stdout?: (s: string) => void } = {}): Record<string, unknown> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  if (raw.polynomialDegree !== undefined) throw new OptionError("--polynomial-degree", "applies only to --model logistic-regression");
  if (raw.priorVariance !== undefined) throw new OptionError("--prior-variance", "does not apply to --model lgcp (the hyperparameters are fixed: --sigma2, --beta, --mu)");
  const sampler = raw.sampler ?? "rmhmc";
  if (!isCoxProcessSamplerName(sampler)) throw new OptionError("--sampler", `${sampler} does not apply to --model lgcp (its samplers: ${COX_PROCESS_SAMPLERS.join(", ")})`);
  const o = parseSampleOptions({ ...raw, sampler }, { samplers: COX_PROCESS_SAMPLERS });
  if (sampler !== "rmhmc" && o.leapfrogSteps !== undefined) throw new OptionError("--leapfrog-steps", `applies only to --sampler rmhmc, not ${sampler}`);
  if (sampler === "mala-transient" && raw.adapt === false) throw new OptionError("--no-adapt", "does not apply to --sampler mala-transient (its scaling is fixed)");
  const hyper = parseCoxHyperparameters(raw);
  const covariance = parseGridCovariance(raw);
  const grid = readCountGrid(o.data);
  const model = withEmbeddableCovariance(() => coxFieldModel(grid.side, grid.counts, hyper, covariance));
  const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
  const out = o.out !== undefined ? prepareOutputDir(o.out, { force: o.force }) : undefined;
  const t0 = performance.now();
  let chains: ChainResult[];
  let setupSeconds: number;
  try {
    const s = coxProcessSampler(model, sampler, { stepSize: o.stepSize, leapfrogSteps: o.leapfrogSteps, adapt: raw.adapt });
    setupSeconds = s.setupSeconds;
    const result = sample(s.kernel, { draws: o.draws, burnIn: o.burnIn, thin: o.thin, chains: o.chains, seed, init: s.init, adapt: s.adapt });
    // The draws are mapped to the field x (the Euclidean model samples the whitened nu, MALA Christensen's Gamma).
    chains = result.chainResults.map((r) => {
      const n = model.cells;
      const xs = new Float64Array(r.draws * n);
      for (let i = 0; i < r.draws; i++) s.toField(r.samples.subarray(i * r.dim, (i + 1) * r.dim), xs.subarray(i * n, (i + 1) * n));
      return { ...r, dim: n, samples: xs };
    });
  } catch (e) {
    out?.finish(false);
    throw e;
  }
  const names = vectorNames("x", model.cells);
  const settings = { grid: grid.side, covariance, ...(model.covariance === "euclidean" ? { torus: model.grid.torus } : {}), sigma2: hyper.sigma2, beta: hyper.beta, mu: hyper.mu, cell_area: model.cellArea };
  const files: string[] = [];
  if (out) {
    for (const r of chains) files.push(writeParametricChain(out, r, names, { model: "lgcp", sampler, seed, draws: o.draws, burnIn: o.burnIn, thin: o.thin, chains: o.chains, adapt: chains[0].tunedValue !== undefined, dataFile: o.data, settings }));
  }
  const summary = summariseRun(chains, { names, seconds: (performance.now() - t0) / 1000 });
  const report = { ...summary, gpmcmc: VERSION, model: "lgcp", sampler, seed, covariance, hyperparameters: hyper, setupSeconds, data: { file: o.data, grid: grid.side, cells: model.cells }, out: o.out ?? null, files: out ? [...files, "summary.json"] : [] };
  if (out) {
    out.writeJson("summary.json", report);
    out.finish(true);
  }
  const fmt = (x: number | null) => (x === null || !Number.isFinite(x) ? "n/a" : Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));
  const lines = [
    `log-Gaussian Cox process on ${o.data} (${grid.side} x ${grid.side} grid, ${covariance} covariance; sigma^2 ${hyper.sigma2}, beta ${fmt(hyper.beta)}, mu ${fmt(hyper.mu)}), sampler ${sampler}`,
    `${summary.chains} chains x ${summary.draws} draws; acceptance rate ${fmt(summary.acceptanceRate)}, divergences ${summary.divergences}`,
    `ESS (Geyer, over x.1..x.${summary.variables}): min ${fmt(summary.minEss)}, median ${fmt(summary.medianEss)}, max ${fmt(summary.maxEss)}`,
  ];
  if (out) lines.push(`wrote ${files.map((f) => `${o.out}/${f}`).join(", ")}, ${o.out}/summary.json`);
  if (o.json) stdout(JSON.stringify(report) + "\n");
  else stdout(lines.join("\n") + "\n");
  return report;
}
