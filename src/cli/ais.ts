/**
 * `gpmcmc ais`: the log marginal likelihood log Z of a latent GP model at fixed kernel
 * hyperparameters by annealed importance sampling (src/annealing), from the prior (AIS; any
 * likelihood, as the annealed target takes any) or, for probit, from EP's Gaussian approximation
 * q (the note's AISq), with RMHMC, HMC or (from the prior) elliptical slice sampling transitions.
 * Prints log Z, its delta-method standard error, the runs' log weights and, for probit as
 * references, EP's log Z and its second-order correction; with --out, writes ais.json (the trace `gpmcmc report` draws) and
 * summary.json atomically.
 *
 * Every option, the output directory and the data are checked before any work (one line and
 * exit code 2 on bad input, nothing written). With --out the runs checkpoint as `sample`'s chains
 * do (sampleResume.ts, aisResume.ts): every --checkpoint-every temperatures, on Ctrl-C and
 * SIGTERM, and at each run's end; `--resume DIR` continues them to the weights of the computation
 * never stopped; a directory in use or holding a run is refused (--resume, --overwrite).
 */
import { randomInt } from "node:crypto";
import { join } from "node:path";
import type { Command } from "commander";
import { runAis, SCHEDULES, type AisProgress, type AisRunCheckpoint, type AisSpec, type ScheduleName } from "../annealing/index.js";
import { epApproximation, epCorrectedLogZ, expectationPropagation } from "../approx/index.js";
import { likelihoodsWithEpSites, likelihoodTraits } from "../likelihoods/registry.js";
import { seKernel } from "../gp/index.js";
import { AIS_TRACE_FILE, checkAisTrace, type AisTrace } from "../io/ais.js";
import { checkOutputDir, type OutputDir } from "../io/atomic.js";
import { fileSha256 } from "../approx/approximationFile.js";
import { StopFlag } from "../parallel/pool.js";
import { checkpointFileName, latestCheckpointWriter, writeCheckpointFile } from "../run/checkpoint.js";
import { getBackend } from "../linalg/backend.js";
import { describeLeapfrogSolve, HMC_MASSES, latentSamplerInfo, type HmcMassName, type LatentSamplerSpec } from "../samplers/registry.js";
import { VERSION } from "../version.js";
import { processIO, type CommandIO } from "./commandIO.js";
import { relativeJitterOf, resolveJitter } from "../gp/jitter.js";
import { jitterWords } from "./jitterText.js";
import { addModelOptions, latentGpModelSpec, MODEL_LIKELIHOODS, parseModelOptions, readModelData } from "./modelOptions.js";
import { OptionError, parseChoice, parseNonNegativeInteger, parsePath, parsePositiveInteger, parsePositiveNumber } from "./options.js";
import { parseLeapfrogSolveOptions, type RawSampleOptions } from "./sampleOptions.js";
import { parseLastingRunOptions } from "./lastingRunOptions.js";
import { checkAisFits } from "./memoryBudget.js";
import { checkResume, lastingRunInterrupts, readResumableRun, runCheckpoints, settleCheckpoints, takeRunDir } from "./sampleResume.js";
import { publishReport } from "./sampleReport.js";
import { AIS_RESUME_FIELDS, aisRecordSpec, aisRunFileNames, type AisRecordSpec } from "./aisResume.js";

export const AIS_STARTS = ["prior", "ep"] as const;
export const AIS_TRANSITIONS = ["rmhmc", "hmc", "ess"] as const;

/** `gpmcmc ais`'s options as Commander gives them. */
export interface RawAisOptions
  extends Pick<RawSampleOptions, "data" | "likelihood" | "thresholds" | "noiseSd" | "exposureColumn" | "jitter" | "lengthscale" | "logLengthscale" | "signalSd" | "logSignalSd" | "stepSize" | "leapfrogSteps" | "fixedPointIterations" | "fixedPointTolerance" | "reversibilityTolerance" | "seed" | "out" | "force" | "json" | "quiet" | "progress" | "parallel"> {
  from?: string;
  transition?: string;
  transitionsPerTemperature?: string;
  mass?: string;
  temperatures?: string;
  runs?: string;
  schedule?: string;
  betaMin?: string;
  checkpointEvery?: string;
  resume?: string;
  overwrite?: boolean;
}

/** What `gpmcmc ais --json` prints and summary.json holds. */
export interface AisReport {
  command: "ais";
  gpmcmc: string;
  backend: string;
  data: { file: string; n: number; d: number };
  likelihood: string;
  from: "prior" | "ep";
  transition: LatentSamplerSpec;
  transitionsPerTemperature: number;
  schedule: ScheduleName;
  temperatures: number;
  runs: number;
  seed: number;
  /** Runs at once, on worker threads with one OpenBLAS thread each. */
  parallel: number;
  logZ: number;
  /** Delta-method standard error of log Z (null with one run). */
  standardError: number | null;
  effectiveSampleSize: number;
  /** Per run (of a stopped computation: so far). */
  logWeights: number[];
  acceptanceRate: number;
  divergences: number;
  /** Added to K's diagonal (src/gp/jitter.ts; "auto": only if K fails to factorise), and jitter / signal variance when relative. */
  jitter: number | "auto";
  jitterRelative?: number;
  /** EP's log Z and its second-order correction, as references (null: not probit, which EP does not take). */
  epLogZ: number | null;
  epCorrectedLogZ: number | null;
  /** Seconds of the annealing runs (EP and K excluded), and in all. */
  seconds: number;
  totalSeconds: number;
  out: string | null;
  /** False when the computation was stopped (Ctrl-C, SIGTERM) before every run reached beta = 1: log Z is then NaN (null in JSON). */
  complete: boolean;
  /** Of a stopped computation: the temperatures each run had done. */
  temperaturesDone?: number[];
}

/** Stopping a computation (what Ctrl-C sets), and whether the command installs its SIGINT and SIGTERM handlers. */
export interface AisControl {
  stop?: StopFlag;
  handleSigint?: boolean;
}

/** What the first Ctrl-C and SIGTERM say they keep (with --out, or without). */
const aisInterruptWords = (checkpointed: boolean) => checkpointed
  ? { sigint: "each run ends at its next temperature and is checkpointed", sigterm: "the runs so far are checkpointed" }
  : { sigint: "each run ends at its next temperature (without --out nothing is kept)", sigterm: "the runs end at their next temperature (without --out nothing is kept)" };

/** Runs `gpmcmc ais`. Throws OptionError, DataError, OutputError on bad input (before any work). */
export async function runAisCommand(raw: RawAisOptions, io: CommandIO = processIO, isTTY = process.stderr.isTTY === true, control: AisControl = {}): Promise<AisReport> {
  const tStart = performance.now();
  const lasting = parseLastingRunOptions(raw);
  // The annealed target takes any likelihood; starting from EP's q needs EP, which has probit sites only.
  const model = parseModelOptions(raw, { likelihoods: MODEL_LIKELIHOODS });
  const dataPath = model.data;
  const from = parseChoice("--from", raw.from ?? "ep", AIS_STARTS, "starting distribution");
  const withEp = likelihoodsWithEpSites();
  if (from === "ep" && !withEp.includes(model.likelihood)) {
    throw new OptionError("--likelihood", `${model.likelihood} needs --from prior: gpmcmc ais starts from EP's q (--from ep, the default) for ${withEp.join(", ")} only, as EP's sites are implemented for ${withEp.join(", ")}`);
  }
  const transitionName = parseChoice("--transition", raw.transition ?? "rmhmc", AIS_TRANSITIONS, "transition");
  const schedule = parseChoice("--schedule", raw.schedule ?? "geometric", SCHEDULES, "schedule");
  if (raw.temperatures === undefined) throw new OptionError("--temperatures", "is required: the number B of inverse temperatures (the last is 1)");
  const temperatures = parsePositiveInteger("--temperatures", raw.temperatures);
  let betaMin: number | undefined;
  if (raw.betaMin !== undefined) {
    betaMin = parsePositiveNumber("--beta-min", raw.betaMin);
    if (!(betaMin < 1)) throw new OptionError("--beta-min", `must be in (0, 1), got ${JSON.stringify(raw.betaMin)}`);
    if (schedule !== "geometric") throw new OptionError("--beta-min", `applies only to --schedule geometric, not ${schedule}`);
  }
  const runs = parsePositiveInteger("--runs", raw.runs ?? "10");
  if (runs < 2) throw new OptionError("--runs", `must be at least 2 (the standard error needs two runs), got ${JSON.stringify(raw.runs)}`);
  checkAisFits({ temperatures, runs, out: raw.out !== undefined || raw.resume !== undefined });
  const parallel = raw.parallel === undefined ? undefined : parsePositiveInteger("--parallel", raw.parallel);
  const solve = parseLeapfrogSolveOptions(raw, transitionName, "--transition");
  let mass: HmcMassName | undefined;
  if (raw.mass !== undefined) {
    mass = parseChoice("--mass", raw.mass, HMC_MASSES, "mass matrix");
    if (transitionName !== "hmc") throw new OptionError("--mass", `applies only to --transition hmc, not ${transitionName}`);
  }
  if (transitionName === "ess") {
    // elliptical slice sampling proposes on ellipses of the prior N(0, K): the start must be the prior
    if (from !== "prior") throw new OptionError("--transition", "ess moves under the prior N(0, K) and needs --from prior");
    for (const [name, value] of [["--step-size", raw.stepSize], ["--leapfrog-steps", raw.leapfrogSteps]] as const) {
      if (value !== undefined) throw new OptionError(name, "does not apply to --transition ess (it has no step size)");
    }
  }
  const perTemperature = parsePositiveInteger("--transitions-per-temperature", raw.transitionsPerTemperature ?? "1");
  // AIS does not adapt: a transition is its step size and leapfrog steps (the registry's defaults unless given).
  let transition: LatentSamplerSpec = { sampler: "ess" };
  if (transitionName !== "ess") {
    const defaults = latentSamplerInfo[transitionName].defaults;
    const stepSize = raw.stepSize === undefined ? defaults.stepSize : parsePositiveNumber("--step-size", raw.stepSize);
    const leapfrogSteps = raw.leapfrogSteps === undefined ? defaults.leapfrogSteps : parsePositiveInteger("--leapfrog-steps", raw.leapfrogSteps);
    transition = transitionName === "rmhmc"
      ? { sampler: "rmhmc", stepSize, leapfrogSteps, ...solve }
      : { sampler: "hmc", stepSize, leapfrogSteps, ...(mass !== undefined ? { mass } : {}) };
  }
  const resumed = lasting.resume !== undefined ? readResumableRun<AisRecordSpec>(lasting.resume, "ais") : undefined;
  const seed = raw.seed === undefined ? resumed?.record.spec.seed ?? randomInt(0, 2 ** 31) : parseNonNegativeInteger("--seed", raw.seed);
  const newOut = raw.out === undefined ? undefined : parsePath("--out", raw.out);
  if (newOut !== undefined) checkOutputDir(newOut, { force: raw.force === true, existingRuns: "refuse", overwrite: lasting.overwrite });
  const outPath = newOut ?? lasting.resume;
  const read = readModelData(model);
  for (const w of read.warnings) io.stderr(`gpmcmc: warning: ${w}\n`);
  const data = read.data;
  const kernel = read.kernel;

  const warn = (s: string) => io.stderr(s + "\n");
  const jitter = resolveJitter(model.jitter, kernel.logSignalSd) ?? 0;
  const jitterRelative = relativeJitterOf(model.jitter);
  // EP's log Z and its correction are references where the likelihood has EP sites (and EP's q the start of --from ep).
  let ep: { logZ: number; corrected: number; q: ReturnType<typeof epApproximation> } | undefined;
  const epSites = likelihoodTraits(model.likelihood)?.epSites;
  if (epSites !== undefined) {
    const k = seKernel({ logLengthscale: kernel.logLengthscale.length === 1 ? kernel.logLengthscale[0] : Array.from(kernel.logLengthscale), logSignalSd: kernel.logSignalSd }).matrix(data.X);
    // EP of the same model: the same K + jitter I as the annealed target ("auto" adds jitter only where K does not factorise, which EP does not need).
    if (typeof jitter === "number") for (let i = 0; i < data.n; i++) k.data[i + i * data.n] += jitter;
    const result = expectationPropagation(k, epSites(data.y), { onWarning: warn });
    ep = { logZ: result.logZ, corrected: epCorrectedLogZ(result, { onWarning: warn }).logZ, q: epApproximation(result) };
  }
  const q = ep?.q;
  const spec: AisSpec = {
    model: latentGpModelSpec(model, read),
    start: from === "ep" && q ? { kind: "q", mean: Array.from(q.mean), sitePrecisions: Array.from(q.sitePrecisions ?? []), label: "EP" } : { kind: "prior" },
    schedule: { kind: schedule, temperatures, ...(betaMin !== undefined ? { betaMin } : {}) },
    transition,
    transitionsPerTemperature: perTemperature,
    runs,
    seed,
  };
  const dataSha256 = fileSha256(dataPath);
  const recordSpec = aisRecordSpec(from, spec);
  const checkpointEvery = raw.checkpointEvery === undefined && resumed ? resumed.record.checkpointEvery : lasting.checkpointEvery;
  const done = checkResume<AisRecordSpec, AisReport>(resumed, undefined, recordSpec, dataSha256, { json: raw.json === true, format: formatAisReport, stdout: io.stdout, stderr: io.stderr }, AIS_RESUME_FIELDS);
  if (done) return done;
  const resume = resumed ? runCheckpoints<AisRunCheckpoint>(resumed.dir, runs) : undefined;
  const showProgress = raw.quiet !== true && (raw.progress === true || isTTY);
  let lastShown = 0;
  const progress = (p: AisProgress) => {
    const now = performance.now();
    if (now - lastShown < 1000 && p.temperature !== p.temperatures) return;
    lastShown = now;
    // runs proceed at once on worker threads: add up where each one stands
    reached[p.run] = p.temperature;
    const done = reached.reduce((a, b) => a + b, 0);
    const left = p.seconds > 0 ? ((now - tRuns) / 1000 / done) * (runs * p.temperatures - done) : NaN;
    io.stderr(`ais: run ${p.run + 1}/${runs}, temperature ${p.temperature}/${p.temperatures} (beta ${p.beta.toPrecision(3)}), about ${Number.isFinite(left) ? left.toFixed(0) : "?"} s left\n`);
  };
  const reached = Array.from({ length: runs }, (_, r) => resume?.[r]?.done ?? 0);
  const tRuns = performance.now();
  let out: OutputDir | undefined;
  const stop = control.stop ?? new StopFlag();
  const stopHandling = control.handleSigint ? lastingRunInterrupts(stop, io.stderr, outPath, aisInterruptWords(outPath !== undefined)) : undefined;
  const checkpoints = outPath !== undefined ? latestCheckpointWriter((cp: AisRunCheckpoint) => writeCheckpointFile(join(outPath, checkpointFileName(cp.run)), cp), (cp) => cp.run) : undefined;
  let result;
  try {
    result = await runAis({ X: data.X, y: data.y }, spec, {
      parallel, onWarning: warn, onProgress: showProgress ? progress : undefined, stop, resume,
      checkpoint: checkpoints && { every: checkpointEvery, onCheckpoint: checkpoints.save },
      // K is built and factorised before the directory is taken: a K that fails writes nothing.
      onTargetReady: () => {
        out = takeRunDir(resumed, newOut, { force: raw.force === true, overwrite: lasting.overwrite, command: "ais", files: aisRunFileNames(runs) }, { spec: recordSpec, data: { file: dataPath, sha256: dataSha256 }, checkpointEvery });
      },
    });
    checkpoints?.flush();
  } catch (e) {
    out?.finish(false);
    throw e;
  } finally {
    stopHandling?.();
  }
  if (out) settleCheckpoints(out, runs, result.complete);
  const transitions = result.runs.reduce((s, r) => s + r.transitions, 0);
  const b = getBackend().describe();
  const report: AisReport = {
    command: "ais",
    gpmcmc: VERSION,
    backend: `${b.backend} (${b.library}, 1 thread per run)`,
    data: { file: dataPath, n: data.n, d: data.d },
    likelihood: model.likelihood,
    from, transition, transitionsPerTemperature: perTemperature, schedule, temperatures, runs, seed, parallel: result.workers,
    logZ: result.logZ,
    standardError: Number.isFinite(result.standardError) ? result.standardError : null,
    effectiveSampleSize: result.effectiveSampleSize,
    logWeights: result.logWeights,
    acceptanceRate: transitions > 0 ? result.runs.reduce((s, r) => s + (r.transitions > 0 ? r.acceptanceRate * r.transitions : 0), 0) / transitions : NaN,
    divergences: result.runs.reduce((s, r) => s + r.divergences, 0),
    jitter,
    ...(jitterRelative !== undefined ? { jitterRelative } : {}),
    epLogZ: ep?.logZ ?? null,
    epCorrectedLogZ: ep?.corrected ?? null,
    seconds: result.seconds,
    totalSeconds: (performance.now() - tStart) / 1000,
    out: outPath ?? null,
    complete: result.complete,
    ...(result.complete ? {} : { temperaturesDone: result.runs.map((r) => r.points.length - 1) }),
  };
  if (out && result.complete) {
    const trace: AisTrace = {
      logZ: result.logZ,
      standardError: report.standardError ?? 0,
      runs: result.runs.map((r) => ({ run: r.run + 1, points: r.points })),
      references: ep ? [{ label: "EP", logZ: ep.logZ }, { label: "EP, corrected", logZ: ep.corrected }] : [],
    };
    out.writeJson(AIS_TRACE_FILE, checkAisTrace(trace, out.file(AIS_TRACE_FILE)));
  }
  return publishReport(report, out, raw.json === true, formatAisReport, io.stdout);
}

function num(x: number | null, digits = 4): string {
  return x === null || !Number.isFinite(x) ? "n/a" : x.toFixed(digits);
}

/** The human-readable summary. */
export function formatAisReport(r: AisReport): string {
  const t = r.transition;
  const per = r.transitionsPerTemperature > 1 ? `, ${r.transitionsPerTemperature} per temperature` : "";
  const how = t.sampler === "rmhmc"
    ? `rmhmc (step ${t.stepSize}, ${t.leapfrogSteps} leapfrog steps, ${describeLeapfrogSolve(t)}${per})`
    : t.sampler === "hmc" ? `hmc (${t.mass === "identity" ? "identity mass" : "M^-1 = K"}, step ${t.stepSize}, ${t.leapfrogSteps} leapfrog steps${per})` : `elliptical slice sampling${per}`;
  const lines = [
    ...(r.complete !== false ? [] : [`STOPPED EARLY: the runs had done ${(r.temperaturesDone ?? []).join(", ")} of ${r.temperatures} temperatures; log Z needs every run at beta = 1${r.out === null ? "" : ` (continue with --resume ${r.out})`}`]),
    `AIS${r.from === "ep" ? "q (from EP's q)" : " (from the prior)"} on ${r.data.file} (n = ${r.data.n}, d = ${r.data.d}), ${r.likelihood === "probit" ? "" : `${r.likelihood} likelihood, `}${r.schedule} schedule, B = ${r.temperatures}, ${r.runs} runs, ${how}, seed ${r.seed}`,
    `log Z            ${num(r.logZ)} +- ${num(r.standardError)} (delta-method standard error; weights' ESS ${num(r.effectiveSampleSize, 1)} of ${r.runs})`,
    ...(r.epLogZ === null ? [] : [`EP log Z         ${num(r.epLogZ)}`, `corrected EP     ${num(r.epCorrectedLogZ)}`]),
    `acceptance rate  ${num(r.acceptanceRate, 3)}, divergences ${r.divergences}`,
    `model            ${r.jitter === "auto" ? "jitter auto" : jitterWords(r.jitter, r.jitterRelative)} on K's diagonal`,
    `time             ${r.seconds.toFixed(2)} s annealing, ${r.totalSeconds.toFixed(2)} s in all`,
  ];
  if (r.out !== null) lines.push(r.complete !== false ? `wrote ${r.out}/${AIS_TRACE_FILE}, ${r.out}/summary.json` : `wrote ${r.out}/summary.json and the runs' checkpoints`);
  return lines.join("\n") + "\n";
}

/** Adds the `ais` command to the program. */
export function registerAisCommand(program: Command): Command {
  const command = program
    .command("ais")
    .description("log marginal likelihood of a latent GP model by annealed importance sampling (from the prior, or for probit from EP's q)");
  return addModelOptions(command, "probit, or with --from prior: logistic, poisson, volatility or ordinal (as gpmcmc sample)")
    .option("--from <start>", "starting distribution: ep (EP's q, the note's AISq; default) or prior")
    .option("--transition <name>", "transition kernel at each temperature: rmhmc (default), hmc, or ess (elliptical slice sampling; --from prior only)")
    .option("--transitions-per-temperature <k>", "transitions at each intermediate temperature (default 1)")
    .option("--mass <name>", "hmc: mass matrix prior (M^-1 = K, the default) or identity")
    .option("--temperatures <B>", "number of inverse temperatures (beta_B = 1)")
    .option("--schedule <name>", `temperature schedule: ${SCHEDULES.join(", ")} (default geometric, from beta_1 = 1e-4)`)
    .option("--beta-min <b>", "geometric schedule: the first temperature beta_1 (default 1e-4; from the prior with a large signal sd it must be far smaller)")
    .option("--runs <R>", "independent annealing runs (>= 2; default 10)")
    .option("--step-size <e>", `leapfrog step size (default ${latentSamplerInfo.rmhmc.defaults.stepSize})`)
    .option("--leapfrog-steps <n>", `leapfrog steps per transition (default ${latentSamplerInfo.rmhmc.defaults.leapfrogSteps})`)
    .option("--fixed-point-iterations <f>", "rmhmc: exactly f fixed-point iterations (the note's 5)")
    .option("--fixed-point-tolerance <t>", "rmhmc: iterate the implicit equations to this tolerance (default 1e-8)")
    .option("--reversibility-tolerance <t>", "rmhmc: accept only proposals the integrator returns from to this tolerance, or off (default 1e-2 with a fixed-point tolerance, off with --fixed-point-iterations)")
    .option("--seed <s>", "random seed; run r uses stream r (default: chosen at random and recorded)")
    .option("--parallel <p>", "runs at once, on worker threads with one BLAS thread each (default: the number of cores, at most --runs); the weights do not depend on it")
    .option("--out <dir>", "output directory for ais.json (the trace gpmcmc report draws) and summary.json")
    .option("--force", "write into an existing directory that is not a gpmcmc output directory")
    .option("--overwrite", "replace the run an existing --out directory holds (without it, such a directory is refused)")
    .option("--checkpoint-every <n>", "with --out: checkpoint each run every n temperatures (and on Ctrl-C or SIGTERM, and at each run's end), so that --resume continues it; the resumed computation's weights are those of one never stopped")
    .option("--resume <dir>", "continue the interrupted computation in <dir> from its runs' checkpoints; give the options it was started with (--seed may be left out); a finished one is left as it is")
    .option("--json", "print one JSON object instead of text")
    .option("--progress", "progress on stderr even when it is not a terminal")
    .option("--quiet", "no progress")
    .action(async (opts: RawAisOptions) => {
      const report = await runAisCommand(opts, processIO, process.stderr.isTTY === true, { handleSigint: true });
      // Ctrl-C or SIGTERM: the runs were checkpointed; exit as an interrupted command does.
      if (!report.complete) process.exitCode = 130;
    });
}
