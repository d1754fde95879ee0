/**
 * `gpmcmc sample`: draws the latent values f of a GP model given fixed kernel hyperparameters,
 * by RMHMC (the note's metric, eq. 16) or HMC (mass matrix M^-1 = K by default), writes one
 * CmdStan-layout draws file per chain and a summary.json, and prints a summary (min/median/max
 * ESS over f by Geyer's initial monotone sequence, classic R-hat, acceptance rate, divergences,
 * seconds, min ESS per chain-second of sampling) as text or, with --json, as one JSON object.
 *
 * Everything that can be checked before sampling is checked first (options, output directory,
 * data, kernel), so a bad input stops the command with one line and exit code 2 and writes
 * nothing. The run itself is src/run's runLatentGpSpec on a plain-data LatentGpRunSpec: chains on
 * worker threads (--parallel), progress on stderr (progress.ts), and Ctrl-C stopping the chains
 * through a shared flag so that their draws so far are written, marked incomplete.
 */
import { randomInt } from "node:crypto";
import type { Command } from "commander";
import type { OutputDir } from "../io/atomic.js";
import { getBackend } from "../linalg/backend.js";
import { NotPositiveDefiniteError } from "../linalg/errors.js";
import { StopFlag } from "../parallel/pool.js";
import { LAPLACE_INTEGRATORS, type LaplaceIntegrator } from "../samplers/integrators/laplaceDynamics.js";
import { runLatentGpSpec } from "../run/chains.js";
import { defaultWhitening, type WhiteningFit } from "../run/whiteningMass.js";
import { INITS, latentGpRunSpec, type InitName, type LatentGpRunSpec } from "../run/runSpec.js";
import {
  describeLeapfrogSolve,
  HMC_MASSES,
  latentSamplerInfo,
  leapfrogSteps,
  RMHMC_INTEGRATORS,
  tunableValue,
  type HmcMassName,
  type RmhmcIntegrator,
  type LatentSamplerName,
  type LatentSamplerSpecInput,
} from "../samplers/registry.js";
import { writeChainDraws } from "../run/outputs.js";
import { fileSha256 } from "../approx/approximationFile.js";
import { summariseRun, type RunSummary } from "../run/summary.js";
import { VERSION } from "../version.js";
import { relativeJitterOf } from "../gp/jitter.js";
import { describeJitter, jitterWords } from "./jitterText.js";
import { ProgressDisplay } from "./progress.js";
import { parseLastingRunOptions } from "./lastingRunOptions.js";
import { recordOptions, withRecordedOptions } from "./recordedOptions.js";
import { checkResume, lastingRunInterrupts, readResumableRun, runCheckpoints, settleCheckpoints, takeRunDir } from "./sampleResume.js";
import { acceptanceWords, dataRecord, fmt, latentVerdictOptions, publishReport, verdictSummary } from "./sampleReport.js";
import { DEFAULT_HYPER_LATENT_SAMPLER } from "../hyper/schemes.js";
import { DEFAULT_SCHEME, refuseHyperOptions, runHyperSampleCommand, samplesHyperparameters, type RawHyperOptions } from "./sampleHyper.js";
import { addModelOptions, latentGpModelSpec } from "./modelOptions.js";
import { runCoxProcessSample } from "./sampleCoxProcess.js";
import { addParametricModelOptions, isParametricModel, runParametricSample, type RawParametricOptions } from "./sampleParametric.js";
import { runVolatilitySample } from "./sampleVolatility.js";
import { addFitzhughNagumoSampleOptions, runFitzhughNagumoSample } from "./sampleFitzhughNagumo.js";
import { exclusive, OptionError, parseChoice, parsePositiveNumber, parseSamplerChoice, refuseFlagAndNegation } from "./options.js";
import {
  parseSamplerOptions,
  SAMPLE_DEFAULTS,
  SAMPLER_HELP,
  prepareSampleInputs,
  SAMPLERS,
  type RawSampleOptions,
  type RawSamplerOptions,
  type SampleInputs,
  type SamplerOptions,
} from "./sampleOptions.js";

/** `gpmcmc sample`'s options as Commander gives them: the shared ones plus this command's own. */
export interface RawSampleCommandOptions extends RawSampleOptions, RawSamplerOptions, RawHyperOptions {
  /** --adapt / --no-adapt (undefined: not given). */
  adapt?: boolean;
  mass?: string;
  integrator?: string;
  init?: string;
  checkpointEvery?: string;
  resume?: string;
  overwrite?: boolean;
}

/** This command's own options, checked. */
export interface SampleExtras {
  /** Step-size adaptation during burn-in (default: on when there is a burn-in). */
  adapt: boolean;
  targetAcceptance?: number;
  mass?: HmcMassName;
  integrator?: RmhmcIntegrator | LaplaceIntegrator;
  init: InitName;
  /** The sampler-specific options (sampleOptions.ts). */
  sampler: SamplerOptions;
}

export const INTEGRATORS = RMHMC_INTEGRATORS;

/** Checks the options only this command has (no I/O). */
export function parseSampleExtras(raw: RawSampleCommandOptions): SampleExtras {
  const sampler = raw.sampler ?? SAMPLE_DEFAULTS.sampler;
  let targetAcceptance: number | undefined;
  if (raw.targetAcceptance !== undefined) {
    targetAcceptance = parsePositiveNumber("--target-acceptance", raw.targetAcceptance);
    if (!(targetAcceptance < 1)) throw new OptionError("--target-acceptance", `must be between 0 and 1 (exclusive), got ${JSON.stringify(raw.targetAcceptance)}`);
    if (raw.adapt === false) throw new OptionError("--target-acceptance", "applies only with step-size adaptation; it cannot be combined with --no-adapt");
  }
  let mass: HmcMassName | undefined;
  if (raw.mass !== undefined) {
    mass = parseChoice("--mass", raw.mass, HMC_MASSES, "mass matrix");
    if (sampler !== "hmc") throw new OptionError("--mass", `applies only to --sampler hmc, not ${sampler}`);
  }
  let integrator: RmhmcIntegrator | LaplaceIntegrator | undefined;
  if (raw.integrator !== undefined) {
    if (sampler === "laplace-nuts") integrator = parseChoice("--integrator", raw.integrator, LAPLACE_INTEGRATORS, "integrator");
    else if (sampler === "rmhmc") integrator = parseChoice("--integrator", raw.integrator, INTEGRATORS, "integrator");
    else throw new OptionError("--integrator", `applies only to --sampler rmhmc and laplace-nuts, not ${sampler}`);
  }
  if (integrator === "lagrangian") {
    const solve = raw.fixedPointTolerance !== undefined ? "--fixed-point-tolerance" : raw.fixedPointIterations !== undefined ? "--fixed-point-iterations" : raw.reversibilityTolerance !== undefined ? "--reversibility-tolerance" : undefined;
    if (solve) throw new OptionError(solve, "does not apply to --integrator lagrangian, which solves no implicit equations");
  }
  const init = raw.init === undefined ? "zero" : parseChoice("--init", raw.init, INITS, "starting point");
  exclusive({ "--quiet": raw.quiet, "--progress": raw.progress });
  const samplerOptions = parseSamplerOptions(raw, parseSamplerChoice("--sampler", sampler, SAMPLERS));
  return { adapt: raw.adapt ?? true, targetAcceptance, mass, integrator, init, sampler: samplerOptions };
}

/** The plain-data description of the run the checked inputs ask for: the library's (latentGpRunSpec), with its defaults. */
export function runSpecFor(inputs: SampleInputs, extras: SampleExtras, seed: number): LatentGpRunSpec {
  const o = inputs.options;
  const sampler = o.sampler as LatentSamplerName;
  // Each option reaches the spec field of its own name; one a sampler does not have was refused by parseSamplerOptions.
  const given = {
    sampler,
    stepSize: o.stepSize,
    leapfrogSteps: o.leapfrogSteps,
    maxLeapfrogSteps: extras.sampler.maxLeapfrogSteps,
    maxTreeDepth: extras.sampler.maxTreeDepth,
    // Recorded as run: the default where none is given (EP's for laplace-nuts on probit).
    whitening: sampler === "laplace-hmc" || sampler === "laplace-nuts" ? extras.sampler.whitening ?? defaultWhitening(sampler, o.model.likelihood) : undefined,
    alpha: extras.sampler.alpha,
    proposalSd: extras.sampler.scale,
    fixedPoint: o.fixedPoint,
    reversibilityTolerance: o.reversibilityTolerance,
    variant: sampler === "rmhmc" ? extras.integrator : undefined,
    integrator: sampler === "laplace-nuts" ? extras.integrator : undefined,
    mass: extras.mass,
    targetAcceptance: extras.targetAcceptance,
  } as LatentSamplerSpecInput;
  return latentGpRunSpec({
    model: latentGpModelSpec(o.model, inputs),
    sampler: given,
    draws: o.draws,
    burnIn: o.burnIn,
    thin: o.thin,
    chains: o.chains,
    seed,
    // the adaptation towards the sampler's target acceptance (given, or the registry's) unless --no-adapt
    ...(extras.adapt ? {} : { adapt: false as const }),
    init: extras.init,
  });
}

/** What `gpmcmc sample --json` prints and summary.json holds. */
export interface SampleReport extends RunSummary {
  gpmcmc: string;
  node: string;
  /** The linear-algebra backend; chains run with one BLAS thread each. */
  backend: string;
  /** Worker threads that ran the chains at once. */
  parallel: number;
  /** False when the run was stopped (Ctrl-C) before every chain had all its draws. */
  complete: boolean;
  /** When sampling started (ISO 8601, UTC). */
  startedAt: string;
  /** The training data: file, size, SHA-256 of its bytes, input columns (what `predict` checks a test file and the file against); the exposure column (poisson), if any. */
  data: { file: string; n: number; d: number; sha256?: string; inputNames?: string[]; exposureColumn?: string };
  /** The run as run: model, sampler, counts, seed, adaptation. */
  run: LatentGpRunSpec;
  /** laplace-hmc, laplace-nuts: what the whitening was fitted from (EP falls back to Laplace when it fails) and its CPU and wall-clock seconds, before the chains (the wall-clock ones are part of `seconds`). */
  whitening?: WhiteningFit;
  /** Jitter added to K's diagonal (0: none). */
  jitter: number;
  /** With a relative jitter (the default): jitter / signal variance. */
  jitterRelative?: number;
  /** The output directory and the files written there (none without --out). */
  out: string | null;
  files: string[];
}

export interface SampleIO {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Whether stderr is a terminal (default: process.stderr.isTTY): progress is shown there unless --quiet. */
  stderrIsTTY?: boolean;
  /** A stop request for the run (what Ctrl-C sets). */
  stop?: StopFlag;
  /** Handle SIGINT: the first stops the run and keeps its draws, the second aborts (the command line's behaviour). */
  handleSigint?: boolean;
}

/**
 * Runs `gpmcmc sample` with options as Commander gives them; returns the report. A run stopped
 * early (io.stop, Ctrl-C) still writes its draws so far, marked incomplete, and its report says
 * `complete: false`.
 */
export async function runSampleCommand(raw: RawSampleCommandOptions, io: SampleIO = {}): Promise<SampleReport> {
  const stdout = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const stderr = io.stderr ?? ((s: string) => void process.stderr.write(s));
  refuseHyperOptions(raw);
  const extras = parseSampleExtras(raw);
  // Logistic takes 0/1 internally (readModelData's default); the file may hold -1/+1 or 0/1.
  const lasting = parseLastingRunOptions(raw);
  const resumed = lasting.resume !== undefined ? readResumableRun(lasting.resume) : undefined;
  const inputs = prepareSampleInputs(raw, {}, undefined, { existingRuns: "refuse", overwrite: lasting.overwrite });
  for (const w of inputs.warnings) stderr(`gpmcmc: warning: ${w}\n`);
  const o = inputs.options;
  const seed = o.seed ?? resumed?.record.spec.seed ?? randomInt(0, 2 ** 31);
  const spec = runSpecFor(inputs, extras, seed);
  const data = inputs.data;
  const dataSha256 = fileSha256(data.path);
  const outPath = o.out ?? lasting.resume;
  const checkpointEvery = raw.checkpointEvery === undefined && resumed ? resumed.record.checkpointEvery ?? 0 : lasting.checkpointEvery;
  const done = checkResume<LatentGpRunSpec, SampleReport>(resumed, false, spec, dataSha256, { json: o.json, format: formatReport, stdout, stderr });
  if (done) return done;

  let out: OutputDir | undefined;
  const files: string[] = [];
  const onChain = (r: Parameters<typeof writeChainDraws>[1]) => {
    // in chain order, whichever chain finishes first
    if (out) files[r.chain] = writeChainDraws(out, r, spec, data.path, dataSha256);
  };
  const showProgress = !o.quiet && (o.progress || (io.stderrIsTTY ?? process.stderr.isTTY === true));
  const display = showProgress
    ? new ProgressDisplay({ chains: spec.chains, tty: io.stderrIsTTY ?? process.stderr.isTTY === true, write: stderr, columns: process.stderr.columns })
    : undefined;
  const stop = io.stop ?? new StopFlag();
  const stopHandling = io.handleSigint ? lastingRunInterrupts(stop, stderr, outPath) : undefined;
  const startedAt = new Date().toISOString();
  let run;
  try {
    // The kernel matrix is built (and factorised) before the output directory is made, so a
    // K that is not positive definite writes nothing.
    run = await runLatentGpSpec(data, spec, {
      parallel: o.parallel,
      stop,
      onProgress: display && ((p) => display.update(p)),
      // about 200 reports per chain: the display throttles them
      progressInterval: display && Math.max(1, Math.ceil((spec.burnIn + spec.draws * spec.thin) / 200)),
      onWarning: (m) => stderr(m + "\n"),
      onChain,
      checkpoint: outPath !== undefined ? { dir: outPath, every: checkpointEvery, dataFile: data.path, dataSha256 } : undefined,
      resume: resumed ? runCheckpoints(resumed.dir, spec.chains, { ...spec, dim: data.n }) : undefined,
      onTargetReady: () => {
        out = takeRunDir(resumed, o.out, { force: o.force, overwrite: lasting.overwrite }, { spec, data: { file: data.path, sha256: dataSha256 }, checkpointEvery, ...recordOptions(raw) });
      },
    });
  } catch (e) {
    if (e instanceof NotPositiveDefiniteError && out === undefined) {
      throw new NotPositiveDefiniteError(e.pivotIndex, e.pivotValue, `kernel matrix K (n = ${data.n}; ${describeJitter(spec.model.jitter, spec.model.logSignalSd)}; try a larger --jitter, e.g. relative:1e-4, or a shorter --lengthscale)`);
    }
    if (out) out.finish(false);
    throw e;
  } finally {
    stopHandling?.();
  }
  if (out) settleCheckpoints(out, spec.chains, run.complete);
  const summary = summariseRun(run.results, { seconds: run.seconds, thin: spec.thin, ...latentVerdictOptions(spec) });
  const backend = getBackend().describe();
  const report: SampleReport = {
    ...summary,
    gpmcmc: VERSION,
    node: process.version,
    backend: `${backend.backend} (${backend.library}, 1 thread per chain)`,
    parallel: run.workers,
    complete: run.complete,
    startedAt,
    data: dataRecord(data, dataSha256, o.model.exposureColumn),
    run: spec,
    ...(run.whitening ? { whitening: run.whitening } : {}),
    jitter: run.target.jitter,
    ...(relativeJitterOf(spec.model.jitter) !== undefined ? { jitterRelative: relativeJitterOf(spec.model.jitter) } : {}),
    out: outPath ?? null,
    files: [...files.filter((f) => f !== undefined), ...(out ? ["summary.json"] : [])],
  };
  return publishReport(report, out, o.json, formatReport, stdout);
}

const TUNABLE_WORDS = { alpha: "alpha", proposalSd: "proposal sd", stepSize: "step size" } as const;

/** The human-readable summary. */
export function formatReport(r: SampleReport): string {
  const s = r.run.sampler;
  const how = s.sampler === "rmhmc"
    ? s.variant === "lagrangian" ? "rmhmc (lagrangian integrator: explicit, no fixed points)" : `rmhmc (${s.variant ?? "fast"} integrator, ${describeLeapfrogSolve(s)})`
    : s.sampler === "hmc" ? `hmc (mass: ${s.mass === "identity" ? "identity" : "M^-1 = K"})`
    : s.sampler === "laplace-nuts" ? `laplace-nuts (${s.integrator ?? "split"} integrator)` : s.sampler;
  const steps = r.perChain.map((c) => fmt(c.stepSize, 3)).join(", ");
  const tunable = TUNABLE_WORDS[latentSamplerInfo[s.sampler].tunable ?? "stepSize"];
  const leapfrog = leapfrogSteps(s);
  const initial = tunableValue(s);
  const moves = initial === undefined ? "no tunable"
    : `${leapfrog ? `${leapfrog.randomised ? "up to " : ""}${leapfrog.steps} leapfrog steps, ` : ""}${s.sampler === "laplace-nuts" ? `trees up to depth ${s.maxTreeDepth}, ` : ""}${tunable} ${r.run.adapt ? `adapted from ${initial} to ${steps}` : initial}`;
  const lik = r.run.model.likelihoodOptions?.thresholds
    ? `${r.run.model.likelihood} likelihood (thresholds ${r.run.model.likelihoodOptions.thresholds.join(",")}, noise sd ${r.run.model.likelihoodOptions.noiseSd ?? 1})`
    : `${r.run.model.likelihood} likelihood`;
  const ell = r.run.model.logLengthscale.map((t) => fmt(Math.exp(t), 4)).join(",");
  const judged = verdictSummary(r);
  const lines = [
    ...(r.complete ? [] : [`STOPPED EARLY: ${r.perChain.map((c) => `chain ${c.chain} ${c.draws}`).join(", ")} of ${r.run.draws} draws; the figures below are over the first ${r.draws} draws of each chain`]),
    `${how} on ${r.data.file} (n = ${r.data.n}, d = ${r.data.d}), ${lik}, lengthscale ${ell}, signal sd ${fmt(Math.exp(r.run.model.logSignalSd), 4)}, ${jitterWords(r.jitter, r.jitterRelative)}`,
    `${r.chains} chain${r.chains === 1 ? "" : "s"} (${r.parallel} at once) x ${r.draws} draws (burn-in ${r.run.burnIn}${r.run.thin > 1 ? `, thin ${r.run.thin}` : ""}) from ${r.run.init === "laplace" ? "the Laplace mode" : "f = 0"}, ${moves}, seed ${r.run.seed}`,
    `${acceptanceWords(r)}, divergences ${r.divergences}${r.burnInDivergences > 0 ? ` (and ${r.burnInDivergences} during burn-in)` : ""}` +
      (r.treeDepthSaturations === undefined ? "" : `, trees at the largest depth ${r.treeDepthSaturations}`),
    `ESS (Geyer, over f.1..f.${r.variables}): min ${fmt(r.minEss)}${r.minEssVariable ? ` (${r.minEssVariable})` : ""}, median ${fmt(r.medianEss)}, max ${fmt(r.maxEss)}`,
    `R-hat (classic, max over f): ${r.chains < 2 ? "n/a with one chain" : `${fmt(r.rhatMax, 4)}${r.rhatMaxVariable ? ` (${r.rhatMaxVariable})` : ""}`}`,
    ...judged.figures,
    // ESS per second is per chain-second (ESS_PER_SECOND_BASIS): it does not depend on how many chains ran at once.
    ...(r.whitening ? [describeWhitening(r.whitening)] : []),
    `time: ${fmt(r.samplingSeconds)} s of sampling summed over ${r.chains} chain${r.chains === 1 ? "" : "s"}, ${fmt(r.seconds)} s wall-clock with burn-in; ` +
      `min ESS per second of sampling (per chain-second) ${fmt(r.essPerSecond)}`,
  ];
  if (r.out !== null) lines.push(`wrote ${r.files.map((f) => `${r.out}/${f}`).join(", ")}`);
  return [...lines, ...judged.verdict].join("\n") + "\n";
}

const WHITENING_WORDS = { ep: "EP's covariance", laplace: "Laplace's covariance at the mode", fisher: "the Fisher information at f = 0" } as const;

/** The whitening line of the summary: what it came from and its cost (a timing line, next to the time line). */
function describeWhitening(w: WhiteningFit): string {
  const fit = `${w.epSweeps !== undefined ? `${w.epSweeps} EP sweeps, ` : ""}${fmt(w.cpuSeconds, 3)} s CPU before the chains (in the wall-clock time)`;
  return `whitened by ${WHITENING_WORDS[w.used]}${w.fallback ? ` (${w.requested} failed: ${w.fallback})` : ""}: ${fit}`;
}

const SAMPLE_LIKELIHOOD_HELP = "probit, logistic (labels -1/+1 or 0/1), poisson (counts), volatility (y ~ N(0, exp(f)^2)) or ordinal (categories 1..r; needs --thresholds)";

/** Adds the `sample` command to the program. */
export function registerSampleCommand(program: Command): Command {
  const d = latentSamplerInfo.rmhmc.defaults;
  const D = <N extends LatentSamplerName>(name: N) => latentSamplerInfo[name].defaults;
  const command = program
    .command("sample")
    .description("draw the latent values f of a GP model (RMHMC, HMC and its variants, SMMALA, MH variants, elliptical slice), with fixed kernel hyperparameters or, when none is given, sampling them too (--scheme); or the coefficients of a parametric model (--model)");
  return addParametricModelOptions(addModelOptions(addFitzhughNagumoSampleOptions(refuseFlagAndNegation(command, "adapt")), SAMPLE_LIKELIHOOD_HELP))
    .option("--sampler <name>", `${SAMPLER_HELP}; with sampled hyperparameters the default is ${DEFAULT_HYPER_LATENT_SAMPLER}, with --model logistic-regression rmhmc`)
    .option("--scheme <name>", `with sampled hyperparameters (no --lengthscale, --signal-sd or their log forms): pm (pseudo-marginal MH of theta on an importance estimate of p(y | theta) from EP's approximation, Laplace's where the likelihood has no EP sites; f among the importance draws), or sa, aa, asis, khr or surr (Filippone, Zhong & Girolami, Section 2); default ${DEFAULT_SCHEME}`)
    .option("--theta-sampler <name>", "with sampled hyperparameters: mh, hmc or smmala for theta (default mh; khr takes mh only, surr none)")
    .option("--shared-lengthscale", "with sampled hyperparameters: one lengthscale for every input column instead of one per column (ARD)")
    .option("--prior-lengthscale <spec>", "with sampled hyperparameters: prior of every lengthscale, gamma:A,B (shape, rate), invgamma:A,B (shape, scale), lognormal:M,S, halfnormal:S or halft:NU,S (default gamma:1,1)")
    .option("--importance-samples <n>", "with --scheme pm: importance draws per estimate of p(y | theta) (default: the fewest, up to 256, whose estimate's log has a variance of at most 0.05 near the mode)")
    .option("--prior-signal-sd <spec>", "with sampled hyperparameters: a prior on the signal sd (the square root of the signal variance) instead of --prior-variance's on the variance: halfnormal:S, halft:NU,S (Stan's normal(0, S) and student_t(NU, 0, S) on a positive parameter), gamma:A,B, invgamma:A,B or lognormal:M,S")
    .option("--step-size <e>", `laplace-hmc, laplace-nuts, rmhmc, hmc, hmc-v1, hmc-v2, smmala, mgrad: step size (default ${D("laplace-hmc").stepSize} for laplace-hmc and laplace-nuts, ${d.stepSize} for rmhmc and hmc, ${D("smmala").stepSize} for smmala, ${D("mgrad").stepSize} for mgrad's delta; the initial value when adapting)`)
    .option("--leapfrog-steps <n>", `laplace-hmc, rmhmc, hmc: leapfrog steps per transition (default ${d.leapfrogSteps}; for laplace-hmc drawn from 1..n, default ${D("laplace-hmc").leapfrogSteps})`)
    .option("--max-leapfrog-steps <n>", `hmc-v1, hmc-v2: the number of leapfrog steps is drawn from 1..n (default ${D("hmc-v2").maxLeapfrogSteps})`)
    .option("--max-tree-depth <n>", `laplace-nuts: the largest tree depth, at most 2^n - 1 leapfrog steps per transition (default ${D("laplace-nuts").maxTreeDepth})`)
    .option("--whitening <from>", "laplace-nuts, laplace-hmc: the Gaussian approximation whose covariance (K^-1 + W)^-1 whitens f: ep (EP's site precisions as W; the default of laplace-nuts on probit, the only likelihood with EP sites here; Laplace's is used instead, with a warning, when EP fails) or laplace (W at Laplace's mode; the default otherwise)")
    .option("--alpha <a>", `mh-v1, mh-v2: initial alpha of the proposal, in (0, 1] (default ${D("mh-v1").alpha})`)
    .option("--scale <s>", `mh: initial sd of the random-walk proposal (default ${D("mh").proposalSd})`)
    .option("--fixed-point-tolerance <t>", "rmhmc: iterate the implicit leapfrog equations to this tolerance (default 1e-8)")
    .option("--fixed-point-iterations <f>", "rmhmc: run exactly f fixed-point iterations instead (the note's f_max = 5; only approximately reversible)")
    .option("--reversibility-tolerance <t>", "rmhmc: accept only proposals the integrator returns from to this tolerance, or off (default 1e-2 with a fixed-point tolerance, off with --fixed-point-iterations)")
    .option("--integrator <name>", "rmhmc: fast (default), reference (the note's Algorithm 1 as written) or lagrangian (Riemannian manifold Lagrangian Monte Carlo: the same metric, an explicit integrator, no divergences from implicit solves); laplace-nuts: split (default: the whitening Gaussian's part of the dynamics solved exactly, a rotation about its mean) or leapfrog")
    .option("--mass <name>", "hmc: mass matrix prior (M^-1 = K, the default) or identity")
    .option("--draws <d>", "draws kept per chain", "1000")
    .option("--burn-in <b>", "transitions before the first kept draw", "1000")
    .option("--thin <k>", "keep every k-th transition after burn-in", "1")
    .option("--chains <c>", "number of chains", "4")
    .option("--seed <s>", "random seed (default: chosen at random and recorded)")
    .option("--init <where>", "starting point of every chain: zero (the prior mean) or laplace (the posterior mode)", "zero")
    .option("--adapt", "adapt the step size (alpha for mh-v1, mh-v2; proposal sd for mh) during burn-in by dual averaging (the default when there is a burn-in)")
    .option("--no-adapt", "keep the step size as given")
    .option("--target-acceptance <a>", `acceptance rate the adaptation aims for (default ${d.targetAcceptance} for rmhmc, ${D("hmc").targetAcceptance} for the HMC variants, ${D("smmala").targetAcceptance} for smmala, ${D("mh").targetAcceptance} for the MH variants; with --model logistic-regression, lgcp or fitzhugh-nagumo, the sampler's own: its model page in docs/models)`)
    .option("--out <dir>", "output directory for draws_1.csv, ... and summary.json (default: write nothing)")
    .option("--force", "write into an existing directory that is not a gpmcmc output directory")
    .option("--overwrite", "replace the run an existing --out directory holds (without it, such a directory is refused)")
    .option("--checkpoint-every <n>", "with --out: checkpoint each chain every n transitions (and on Ctrl-C or SIGTERM), so that --resume continues it; the resumed run's draws are those of a run never stopped")
    .option("--resume <dir>", "continue the interrupted run in <dir> from its checkpoints, with the options it was started with (recorded there); an option given beside --resume must agree with the run's; a finished run is left as it is")
    .option("--parallel <p>", "chains run at once, on worker threads with one BLAS thread each (default: the number of cores, at most --chains); the draws do not depend on it")
    .option("--progress", "show per-chain progress on stderr even when it is not a terminal (plain lines every 10 s)")
    .option("--quiet", "show no progress (the default when stderr is not a terminal)")
    .option("--json", "print one JSON object instead of text")
    .action(async (given: RawSampleCommandOptions & RawParametricOptions, cmd: Command) => {
      // --resume DIR: the options not given come from the run's record
      const opts = withRecordedOptions(given, (key) => !["default", undefined].includes(cmd.getOptionValueSource(key)));
      if (isParametricModel(opts)) {
        const run = { lgcp: runCoxProcessSample, volatility: runVolatilitySample, "fitzhugh-nagumo": runFitzhughNagumoSample }[opts.model as string] ?? runParametricSample;
        // undefined: stopped (Ctrl-C, SIGTERM) with its checkpoints kept
        if ((await run(opts, { handleSigint: true })) === undefined) process.exitCode = 130;
        return;
      }
      const report = samplesHyperparameters(opts) ? await runHyperSampleCommand(opts, { handleSigint: true }) : await runSampleCommand(opts, { handleSigint: true });
      // Ctrl-C: the draws so far were written and marked incomplete; exit as an interrupted command does.
      if (!report.complete) process.exitCode = 130;
    });
}
