/**
 * `gpmcmc sample` with sampled hyperparameters: when none of --lengthscale / --log-lengthscale /
 * --signal-sd / --log-signal-sd is given, theta = (log lengthscales, log signal variance) is
 * sampled jointly with f: by default by the pseudo-marginal scheme pm (src/hyper/pseudoMarginal.ts),
 * or by one of the five schemes of Filippone, Zhong & Girolami (Section 2):
 * --scheme pm|sa|aa|asis|khr|surr, --theta-sampler mh|hmc|smmala, --prior-lengthscale and
 * --prior-variance (family:p1,p2). The five schemes' latent sampler is --sampler (default hmc-v2, the paper's).
 * The draws files gain log_lengthscale.1..d and log_signal_sd before f.1; the summary reports
 * each theta column (mean, sd, ESS, R-hat) and the O(n^3) operations per iteration. With --out,
 * the run checkpoints and resumes as the fixed-hyperparameter one does (./sampleResume.ts:
 * --checkpoint-every, --resume, --overwrite, the directory's lock).
 */
import { randomInt } from "node:crypto";
import { fileSha256 } from "../approx/approximationFile.js";
import { PriorSpecError, parsePriorSpec, type PositivePriorSpec } from "../gp/hyperpriors.js";
import { essGeyer } from "../diagnostics/ess.js";
import { rhatClassic } from "../diagnostics/rhat.js";
import { meanAndSd } from "../diagnostics/mcse.js";
import { checkOutputDir, type OutputDir } from "../io/atomic.js";
import { DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR, hyperVariableNames, lengthscalesOf } from "../hyper/jointKernel.js";
import { DEFAULT_HYPER_LATENT_SAMPLER, KERNEL_CACHE, isSchemeName, SCHEME_NAMES, type SchemeName } from "../hyper/schemes.js";
import { THETA_SAMPLER_NAMES, type ThetaSamplerName } from "../hyper/thetaSamplers.js";
import { DEFAULT_RELATIVE_JITTER, type JitterPolicy } from "../gp/jitter.js";
import type { OpCounts } from "../linalg/counters.js";
import { StopFlag } from "../parallel/pool.js";
import { DEFAULT_SCHEME, hyperRunSpec, operationsPerIteration, runHyperGp, writeHyperChainDraws, type HyperChainResult, type HyperRunSpec } from "../run/hyperRun.js";
import { summariseRun, type RunSummary } from "../run/summary.js";
import { latentSamplerSpec, type LatentSamplerName, type LatentSamplerSpecInput } from "../samplers/registry.js";
import { VERSION } from "../version.js";
import { checkDrawsFit } from "./memoryBudget.js";
import { latentGpModelSpec, readModelData } from "./modelOptions.js";
import { OptionError, parseChoice, parsePositiveInteger, parseSamplerChoice } from "./options.js";
import { ProgressDisplay } from "./progress.js";
import { dataRecord, fmt, publishReport, verdictSummary } from "./sampleReport.js";
import { parseLastingRunOptions, type RawLastingRunOptions } from "./lastingRunOptions.js";
import { recordOptions } from "./recordedOptions.js";
import { checkResume, lastingRunInterrupts, readResumableRun, runCheckpoints, settleCheckpoints, takeRunDir } from "./sampleResume.js";
import { parseSampleOptions, type RawSampleOptions } from "./sampleOptions.js";

/** The scheme `gpmcmc sample` uses unless --scheme is given: the library's (src/run/hyperRun.ts). */
export { DEFAULT_SCHEME };

export interface RawHyperOptions {
  scheme?: string;
  thetaSampler?: string;
  priorLengthscale?: string;
  sharedLengthscale?: boolean;
  priorVariance?: string;
  priorSignalSd?: string;
  importanceSamples?: string;
}

type Raw = RawSampleOptions & RawHyperOptions & RawLastingRunOptions & { maxLeapfrogSteps?: string; maxTreeDepth?: string; init?: string; adapt?: boolean; alpha?: string; scale?: string; mass?: string; integrator?: string; targetAcceptance?: string; whitening?: string };

/** Whether the command samples the hyperparameters: none of the kernel options is given. */
export function samplesHyperparameters(raw: RawSampleOptions): boolean {
  return raw.lengthscale === undefined && raw.logLengthscale === undefined && raw.signalSd === undefined && raw.logSignalSd === undefined;
}

/** With fixed hyperparameters, the options of sampled ones are an error naming the first given. */
export function refuseHyperOptions(raw: RawHyperOptions): void {
  const given = ([["--scheme", raw.scheme], ["--theta-sampler", raw.thetaSampler], ["--prior-lengthscale", raw.priorLengthscale], ["--prior-variance", raw.priorVariance], ["--prior-signal-sd", raw.priorSignalSd], ["--shared-lengthscale", raw.sharedLengthscale]] as const).find(([, v]) => v !== undefined);
  if (given) throw new OptionError(given[0], "applies only when the hyperparameters are sampled, i.e. without --lengthscale/--log-lengthscale and --signal-sd/--log-signal-sd");
}

function prior(option: string, text: string | undefined, fallback: PositivePriorSpec): PositivePriorSpec {
  if (text === undefined) return fallback;
  try {
    return parsePriorSpec(text, option);
  } catch (e) {
    if (e instanceof PriorSpecError) throw new OptionError(option, e.message.startsWith(`${option}: `) ? e.message.slice(option.length + 2) : e.message);
    throw e;
  }
}

/** pm draws f among its importance draws: the options of a latent sampler have no meaning there. */
function refuseLatentSamplerOptions(raw: Raw): void {
  const given: [string, unknown][] = [["--sampler", raw.sampler], ["--step-size", raw.stepSize], ["--leapfrog-steps", raw.leapfrogSteps], ["--max-leapfrog-steps", raw.maxLeapfrogSteps], ["--max-tree-depth", raw.maxTreeDepth]];
  const hit = given.find(([, v]) => v !== undefined);
  if (hit) throw new OptionError(hit[0], "does not apply to --scheme pm (it draws f among the importance draws of its estimate of p(y | theta), with no latent sampler); give --scheme aa, sa, asis, khr or surr to sample f by a latent sampler");
}

/** Options of the fixed-hyperparameter sampler that have no meaning here. */
function refuseFixedOnly(raw: Raw): void {
  const refused: [string, unknown][] = [["--init", raw.init !== undefined && raw.init !== "zero" ? raw.init : undefined], ["--no-adapt", raw.adapt === false ? true : undefined], ["--mass", raw.mass], ["--integrator", raw.integrator], ["--target-acceptance", raw.targetAcceptance], ["--alpha", raw.alpha], ["--scale", raw.scale], ["--whitening", raw.whitening]];
  const hit = refused.find(([, v]) => v !== undefined);
  if (hit) throw new OptionError(hit[0], "is not available with sampled hyperparameters (each chain starts at unit lengthscales and signal variance, f = 0, and adapts both samplers during burn-in)");
}

/**
 * The jitter of K = sigma (C + r I) + a I: relative (r, every scheme: the target stays one density
 * and the Gibbs step of sigma exact, src/hyper/covariance.ts), or absolute (a, the pm scheme
 * only: the others need K linear in sigma).
 */
function hyperJitter(policy: JitterPolicy | undefined, scheme: SchemeName): { relativeJitter?: number; absoluteJitter?: number } {
  if (policy === undefined) return {}; // the model's default (HYPER_MODEL_DEFAULTS)
  if (policy === 0) return { relativeJitter: 0 };
  if (typeof policy === "object") return { relativeJitter: policy.relative };
  if (policy === "auto") throw new OptionError("--jitter", "auto is not available with sampled hyperparameters (the jitter is part of the model, the same at every theta): give relative:R, an absolute amount, or 0");
  if (scheme !== "pm") throw new OptionError("--jitter", `an absolute jitter (K = sigma (C + R I) + J I) needs --scheme pm: the ${scheme} scheme needs K linear in the signal variance; give relative:R or 0`);
  return { relativeJitter: 0, absoluteJitter: policy };
}

export interface HyperThetaColumn {
  name: string;
  mean: number;
  sd: number;
  ess: number | null;
  rhat: number | null;
}

export interface HyperSampleReport extends RunSummary {
  gpmcmc: string;
  node: string;
  parallel: number;
  complete: boolean;
  data: { file: string; n: number; d: number; sha256: string; inputNames: string[] };
  run: HyperRunSpec;
  /** r of K = sigma (C + r I): the jitter is part of the model, relative to the signal variance (what `gpmcmc predict` reads); absent with an absolute jitter. */
  jitterRelative?: number;
  /** a of K = sigma C + a I: an absolute jitter (pm only; what `gpmcmc predict` reads). */
  jitter?: number;
  /** Per theta column: posterior mean, sd, ESS (Geyer) and classic R-hat over the chains. */
  theta: HyperThetaColumn[];
  /** O(n^3) operations per iteration (burn-in included), averaged over the chains. */
  operationsPerIteration: OpCounts;
  out: string | null;
  files: string[];
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

function thetaColumns(results: readonly HyperChainResult[], names: string[], count: number): HyperThetaColumn[] {
  const draws = Math.min(...results.map((r) => r.draws));
  return names.slice(0, count).map((name, j) => {
    const chains = results.map((r) => Float64Array.from({ length: draws }, (_, i) => r.samples[i * r.dim + j]!));
    let mean = NaN, sd = NaN, ess = NaN, rhat = NaN;
    // a run stopped in burn-in has no draws yet (its checkpoints hold the chains)
    try { ({ mean, sd } = meanAndSd(chains)); } catch { /* too few draws: n/a */ }
    try { ess = essGeyer(chains); } catch { /* too few draws: n/a */ }
    try { if (chains.length > 1) rhat = rhatClassic(chains); } catch { /* n/a */ }
    return { name, mean: finite(mean) ?? NaN, sd: finite(sd) ?? NaN, ess: finite(ess), rhat: finite(rhat) };
  });
}

/**
 * Runs `gpmcmc sample` with sampled hyperparameters. A run stopped early (io.stop, or Ctrl-C with
 * handleSigint) writes its draws so far, marked incomplete, and reports `complete: false`.
 */
export async function runHyperSampleCommand(raw: Raw, io: { stdout?: (s: string) => void; stderr?: (s: string) => void; stderrIsTTY?: boolean; stop?: StopFlag; handleSigint?: boolean } = {}): Promise<HyperSampleReport> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const stderr = io.stderr ?? ((s: string) => void process.stderr.write(s));
  const scheme = parseChoice("--scheme", raw.scheme ?? DEFAULT_SCHEME, SCHEME_NAMES, "scheme");
  if (!isSchemeName(scheme)) throw new OptionError("--scheme", `unknown scheme ${scheme}`);
  let thetaSampler: ThetaSamplerName | undefined;
  if (scheme === "surr" || scheme === "pm") {
    if (raw.thetaSampler !== undefined) throw new OptionError("--theta-sampler", scheme === "surr" ? "does not apply to --scheme surr (it slice-samples theta)" : "does not apply to --scheme pm (it proposes theta by its own independence and random-walk moves)");
  } else {
    thetaSampler = parseSamplerChoice("--theta-sampler", raw.thetaSampler ?? "mh", THETA_SAMPLER_NAMES, "theta sampler");
    if (scheme === "khr" && thetaSampler !== "mh") throw new OptionError("--theta-sampler", `--scheme khr proposes theta by random-walk MH; ${thetaSampler} does not apply`);
  }
  const lengthscalePrior = prior("--prior-lengthscale", raw.priorLengthscale, DEFAULT_LENGTHSCALE_PRIOR);
  if (raw.priorVariance !== undefined && raw.priorSignalSd !== undefined) throw new OptionError("--prior-signal-sd", "give a prior on the signal sd or, by --prior-variance, on the signal variance, not both");
  const variancePrior = raw.priorSignalSd !== undefined ? { ...prior("--prior-signal-sd", raw.priorSignalSd, DEFAULT_VARIANCE_PRIOR), on: "sd" as const } : prior("--prior-variance", raw.priorVariance, DEFAULT_VARIANCE_PRIOR);
  refuseFixedOnly(raw);
  if (scheme === "pm") refuseLatentSamplerOptions(raw);
  else if (raw.importanceSamples !== undefined) throw new OptionError("--importance-samples", `applies only to --scheme pm, not ${scheme}`);
  const importanceSamples = raw.importanceSamples === undefined ? undefined : parsePositiveInteger("--importance-samples", raw.importanceSamples);
  const options = parseSampleOptions({ ...raw, sampler: raw.sampler ?? DEFAULT_HYPER_LATENT_SAMPLER });
  const lasting = parseLastingRunOptions(raw);
  const resumed = lasting.resume !== undefined ? readResumableRun<HyperRunSpec>(lasting.resume) : undefined;
  const latentName = options.sampler as LatentSamplerName;
  let latent;
  try {
    latent = latentSamplerSpec({ sampler: latentName, stepSize: options.stepSize, leapfrogSteps: options.leapfrogSteps, maxLeapfrogSteps: raw.maxLeapfrogSteps === undefined ? undefined : Number(raw.maxLeapfrogSteps),
      maxTreeDepth: raw.maxTreeDepth === undefined ? undefined : Number(raw.maxTreeDepth) } as LatentSamplerSpecInput);
  } catch (e) {
    if (e instanceof RangeError) throw new OptionError("--sampler", e.message);
    throw e;
  }
  if (options.out !== undefined) checkOutputDir(options.out, { force: options.force, existingRuns: "refuse", overwrite: lasting.overwrite });
  // The data are read with the kernel options the fixed-hyperparameter model would need set to a
  // placeholder: the kernel here is sampled, and only the data, the likelihood and its options are used.
  const read = readModelData({ ...options.model, kernel: { logLengthscale: "0", logSignalSd: "0" } });
  for (const w of read.warnings) stderr(`gpmcmc: warning: ${w}\n`);
  const fixedSpec = latentGpModelSpec(options.model, read);
  const jitter = hyperJitter(options.model.jitter, scheme);
  const seed = options.seed ?? resumed?.record.spec.seed ?? randomInt(0, 2 ** 31);
  // the library's spec (hyperRunSpec), with its defaults for what is not given
  const spec: HyperRunSpec = hyperRunSpec({
    model: { likelihood: fixedSpec.likelihood, ...(fixedSpec.likelihoodOptions ? { likelihoodOptions: fixedSpec.likelihoodOptions } : {}), lengthscalePrior, variancePrior, ...jitter, ...(raw.sharedLengthscale ? { sharedLengthscale: true } : {}) },
    sampler: { scheme, ...(thetaSampler ? { thetaSampler } : {}), latent, ...(importanceSamples !== undefined ? { importanceSamples } : {}) },
    draws: options.draws, burnIn: options.burnIn, thin: options.thin, chains: options.chains, seed,
  });
  const data = read.data;
  const dataSha256 = fileSha256(data.path);
  const outPath = options.out ?? lasting.resume;
  // a checkpoint keeps the cache of K(theta) with its factors and KHR's Laplace factor: 2 KERNEL_CACHE + 1 n x n matrices
  checkDrawsFit({ draws: spec.draws, chains: spec.chains, variables: data.n + lengthscalesOf(spec.model, data.d) + 1, checkpoint: outPath !== undefined, checkpointExtra: (2 * KERNEL_CACHE + 1) * data.n * data.n * 8 });
  const checkpointEvery = raw.checkpointEvery === undefined && resumed ? resumed.record.checkpointEvery ?? 0 : lasting.checkpointEvery;
  const done = checkResume<HyperRunSpec, HyperSampleReport>(resumed, true, spec, dataSha256, { json: options.json, format: formatHyperReport, stdout, stderr });
  if (done) return done;
  let out: OutputDir | undefined;
  const files: string[] = [];
  const showProgress = !options.quiet && (options.progress || (io.stderrIsTTY ?? process.stderr.isTTY === true));
  const display = showProgress ? new ProgressDisplay({ chains: spec.chains, tty: io.stderrIsTTY ?? process.stderr.isTTY === true, write: stderr, columns: process.stderr.columns }) : undefined;
  // read (and checked) before the run's directory is taken up: a damaged checkpoint is named, nothing changed
  const resume = resumed ? runCheckpoints(resumed.dir, spec.chains, spec) : undefined;
  out = takeRunDir(resumed, options.out, { force: options.force, overwrite: lasting.overwrite }, { spec, data: { file: data.path, sha256: dataSha256 }, checkpointEvery, ...recordOptions(raw) });
  const stop = io.stop ?? new StopFlag();
  const stopHandling = io.handleSigint ? lastingRunInterrupts(stop, stderr, outPath) : undefined;
  const run = await runHyperGp(data, spec, {
    parallel: options.parallel,
    stop,
    onProgress: display && ((p) => display.update(p)),
    progressInterval: display && Math.max(1, Math.ceil((spec.burnIn + spec.draws * spec.thin) / 200)),
    onChain: (r) => { if (out) files[r.chain] = writeHyperChainDraws(out, r, spec, data.path, data.d); },
    checkpoint: outPath !== undefined ? { dir: outPath, every: checkpointEvery, dataFile: data.path, dataSha256 } : undefined,
    resume,
  }).catch((e) => { out?.finish(false); throw e; }).finally(() => stopHandling?.());
  if (out) settleCheckpoints(out, spec.chains, run.complete);
  const lengthscales = lengthscalesOf(spec.model, data.d);
  const names = hyperVariableNames(lengthscales, data.n);
  // pm's divergences are proposals of theta rejected for want of a usable estimate, not divergent trajectories
  const latentDepth = scheme !== "pm" && spec.sampler.latent.sampler === "laplace-nuts" ? spec.sampler.latent.maxTreeDepth : undefined;
  const summary = summariseRun(run.results, {
    names, seconds: run.seconds, thin: spec.thin, divergences: scheme !== "pm", maxTreeDepth: latentDepth,
    remedies: latentDepth !== undefined ? { maxTreeDepth: { option: "--max-tree-depth", value: latentDepth } } : {},
  });
  const report: HyperSampleReport = {
    ...summary,
    gpmcmc: VERSION,
    node: process.version,
    parallel: run.workers,
    complete: run.complete,
    data: dataRecord(data, dataSha256),
    ...(spec.model.absoluteJitter ? { jitter: spec.model.absoluteJitter } : { jitterRelative: spec.model.relativeJitter ?? DEFAULT_RELATIVE_JITTER }),
    run: spec,
    theta: thetaColumns(run.results, names, lengthscales + 1),
    operationsPerIteration: operationsPerIteration(run.results),
    out: outPath ?? null,
    files: [...files.filter((f) => f !== undefined), ...(out ? ["summary.json"] : [])],
  };
  return publishReport(report, out, options.json, formatHyperReport, stdout);
}

export function formatHyperReport(r: HyperSampleReport): string {
  const s = r.run.sampler;
  const prior = (p: PositivePriorSpec) => p.family === "gamma" ? `gamma(${p.shape}, ${p.rate})` : p.family === "invgamma" ? `inverse-gamma(${p.shape}, ${p.scale})` : p.family === "lognormal" ? `lognormal(${p.mu}, ${p.sigma})` : p.family === "halfnormal" ? `half-normal(${p.scale})` : `half-t(${p.nu}, ${p.scale})`;
  const ops = r.operationsPerIteration;
  const judged = verdictSummary(r);
  const lines = [
    ...(r.complete ? [] : ["STOPPED EARLY: the figures below are over the draws kept"]),
    `scheme ${s.scheme} (${s.scheme === "pm" ? "theta: pseudo-marginal MH, f: among the importance draws" : `theta: ${s.thetaSampler ?? "slice sampling"}, f: ${s.latent.sampler}`}) on ${r.data.file} (n = ${r.data.n}, d = ${r.data.d}), ${r.run.model.likelihood} likelihood, priors ${r.run.model.sharedLengthscale ? "shared lengthscale" : "lengthscale"} ${prior(r.run.model.lengthscalePrior)}, ${r.run.model.variancePrior.on === "sd" ? "signal sd" : "signal variance"} ${prior(r.run.model.variancePrior)}, ${r.run.model.absoluteJitter ? `absolute jitter ${r.run.model.absoluteJitter}` : `relative jitter ${r.run.model.relativeJitter}`}`,
    `${r.chains} chain${r.chains === 1 ? "" : "s"} (${r.parallel} at once) x ${r.draws} draws (burn-in ${r.run.burnIn}${r.run.thin > 1 ? `, thin ${r.run.thin}` : ""}), seed ${r.run.seed}; theta acceptance rate ${fmt(r.acceptanceRate)}`,
    "variable            mean       sd      ESS    R-hat",
    ...r.theta.map((c) => `${c.name.padEnd(16)}${fmt(c.mean).padStart(9)}${fmt(c.sd).padStart(9)}${fmt(c.ess).padStart(9)}${fmt(c.rhat, 4).padStart(9)}`),
    `ESS (Geyer, over all ${r.variables} variables): min ${fmt(r.minEss)}${r.minEssVariable ? ` (${r.minEssVariable})` : ""}, median ${fmt(r.medianEss)}; R-hat max ${r.chains < 2 ? "n/a with one chain" : fmt(r.rhatMax, 4)}`,
    ...judged.figures,
    `O(n^3) operations per iteration: ${fmt(ops.cholesky)} Cholesky, ${fmt(ops.triangularSolveMatrix)} triangular solves with n x n right-hand sides, ${fmt(ops.symmetricProduct + ops.matrixProduct)} n x n products`,
    ...(r.divergences > 0 ? [`divergent transitions: ${r.divergences}${s.scheme === "pm" ? " (proposals of theta whose estimate of p(y | theta) had no usable importance weight, or whose K did not factorise: rejected)" : ""}`] : []),
    `time: ${fmt(r.samplingSeconds)} s of sampling summed over chains, ${fmt(r.seconds)} s wall-clock with burn-in; min ESS per second of sampling ${fmt(r.essPerSecond)}`,
  ];
  if (r.out !== null) lines.push(`wrote ${r.files.map((f) => `${r.out}/${f}`).join(", ")}`);
  return [...lines, ...judged.verdict].join("\n") + "\n";
}
