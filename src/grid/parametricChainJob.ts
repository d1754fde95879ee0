/**
 * The grid job kind "parametric-chain": one run of a parametric sampler on the Bayesian logistic
 * regression of a data set, as Girolami & Calderhead (2011), Section 7 and Tables 2-10, set it up
 * (prior N(0, 100 I), an intercept, raw covariates; the cubic model on Ripley's synth_tr): one
 * chain from beta = 0 (or, with the fixed setting start "mode", from the posterior mode by Fisher
 * scoring), burn-in adapting the step size by dual averaging unless stepSize is fixed (with
 * leapfrogSteps, the trajectory length too), every thin-th of draws * thin transitions kept.
 *
 * The cell names data (a CSV in data/ or the shared collection), sampler and run; the fixed
 * settings draws, burnIn, thin, start and, when given, stepSize, leapfrogSteps,
 * trajectoryLength (RMHMC's eps L, its count of steps round(trajectoryLength / eps)) and
 * smmalaTargetAcceptance (simplified mMALA's, instead of 0.7). The seed is
 * experiments/logisticRegression.ts's: the FNV-1a hash of (data set, sampler, run; a renamed sampler
 * under the name its committed runs were made with, samplers/renamedSamplers.ts) and the
 * settings that differ from the defaults (`parametricSeedParts`), and the grid must be named
 * after those settings (`parametricGridName`), so the name and the seed say the same. With the
 * spec's checkpointEvery the job checkpoints (jobChain.ts) and a retried job resumes where its
 * checkpoint left it, drawing the same chain; its figures are computed here, its draws go to the
 * grid's draws directory.
 *
 * Time is the CPU time of the sampling phase (as the paper records it; process.cpuUsage at its
 * start and end, and around the checkpoints it writes: cpuTimed), which counts every thread of
 * the process: with jobs on more than one thread at once it counts the others' work too, so
 * timings come from one job at a time.
 * A resumed job's time is the sum over its attempts of the time of the transitions it kept.
 */
import { vectorNames } from "../io/cmdstan.js";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { essGeyer } from "../diagnostics/ess.js";
import { modelInfo } from "../models/registry.js";
import type { TaskContext } from "../parallel/tasks.js";
import { Rng } from "../random/rng.js";
import { runChain } from "../samplers/chain/driver.js";
import { isParametricSamplerName, parametricSampler, parametricSamplerApplies, trajectoryStepCap, type ParametricSamplerName } from "../samplers/parametricRegistry.js";
import { stepsForLength } from "../samplers/integrators/trajectoryOptions.js";
import { parametricSeedName } from "../samplers/renamedSamplers.js";
import type { Kernel, SamplerState } from "../samplers/types.js";
import { fisherScoringMode, type DenseMetricTarget } from "../targets/denseMetric.js";
import { fnvSeed } from "./identity.js";
import { runJobChain, withStep, type JobTallies, type TallyKeeper } from "./jobChain.js";
import { fixedInteger, refuseJob } from "./jobError.js";
import type { ChainJobRecord } from "./simulatedChainJob.js";
import { registerGridJobKind, type GridJob } from "./spec.js";
import { writeJobDraws } from "./store.js";

export const PARAMETRIC_CHAIN = "parametric-chain";

/** Polynomial degree of each data set's model (Section 7.1: cubic for Ripley's). */
const DEGREE: Record<string, number> = { synth_tr: 3 };

/** The settings of a run besides its data set, sampler and run index. */
export interface ParametricSettings {
  draws: number;
  burnIn: number;
  thin: number;
  /** "mode": start at the posterior mode instead of beta = 0. */
  start: "zero" | "mode";
  /** Fixed step size (no adaptation) and, with it, a fixed leapfrog count. */
  stepSize?: number;
  leapfrogSteps?: number;
  /** RMHMC's integration time eps L (parametricRegistry's trajectoryLength); absent: 6 steps. */
  trajectoryLength?: number;
  /** Simplified mMALA's target acceptance (parametricRegistry's smmalaTargetAcceptance); absent: 0.7. */
  smmalaTargetAcceptance?: number;
  /** RMHMC's integrator (parametricRegistry's integrator); absent: the generalised leapfrog. */
  integrator?: "lagrangian";
}

/** One run's figures, as the experiment's result files hold them. */
export interface ParametricCell {
  data: string;
  sampler: ParametricSamplerName;
  run: number;
  seed: number;
  coefficients: number;
  thin: number;
  stepSize: number | null;
  leapfrogSteps: number | null;
  /** Wall-clock seconds of sampling. */
  seconds: number;
  minEss: number;
  medianEss: number;
  maxEss: number;
  /** CPU seconds of sampling. */
  cpuSeconds: number;
  /** ESS of each coefficient (Geyer's initial monotone sequence). */
  ess: number[];
  secondsPerMinEss: number;
  acceptanceRate: number;
  divergences: number;
  means: number[];
  sds: number[];
}

/** What a job of an experiment's run returns: the run's figures as the experiment's result files hold them, with the record every chain job keeps. */
export interface FiguresJobResult<F> extends ChainJobRecord {
  figures: F;
  seconds: { sampling: number; job: number };
}

/** What a "parametric-chain" job returns. */
export type ParametricChainJobResult = FiguresJobResult<ParametricCell>;

/** A job's result from its run's figures and tallies (t0: when the job started, performance.now()). */
export function figuresResult<F>(job: GridJob, r: { dim: number; draws: number; minEss: number; acceptanceRate: number; drawsFile: string; figures: F; samplingSeconds: number; t0: number; resumed: boolean }): FiguresJobResult<F> {
  return {
    id: job.id, identity: job.identity, cell: job.cell, dim: r.dim, draws: r.draws, minEss: r.minEss, acceptanceRate: r.acceptanceRate,
    drawsFile: r.drawsFile, worker: { host: hostname(), pid: process.pid }, resumed: r.resumed,
    figures: r.figures, seconds: { sampling: r.samplingSeconds, job: (performance.now() - r.t0) / 1000 },
  };
}

/** The fixed settings of a job that runs one chain (runLength reads them). */
export const RUN_LENGTH_SETTINGS = ["burnIn", "draws"] as const;

/** The fixed settings burnIn and draws of a job that runs one chain. */
export function runLength(job: GridJob): { burnIn: number; draws: number } {
  return { burnIn: fixedInteger(job, "burnIn", 0), draws: fixedInteger(job, "draws", 2) };
}

/** The settings that differ from the defaults, as words of the identity: they enter the seed and the grid's name. */
export function parametricSeedParts(s: ParametricSettings): string[] {
  return [...(s.start === "mode" ? ["start=mode"] : []), ...(s.thin !== 1 ? [`thin=${s.thin}`] : []), ...(s.stepSize !== undefined ? [`eps=${s.stepSize}`] : []), ...(s.leapfrogSteps !== undefined ? [`L=${s.leapfrogSteps}`] : []), ...(s.trajectoryLength !== undefined ? [`epsL=${s.trajectoryLength}`] : []), ...(s.smmalaTargetAcceptance !== undefined ? [`acc=${s.smmalaTargetAcceptance}`] : []), ...(s.integrator !== undefined ? [`integrator=${s.integrator}`] : [])];
}

/** The name a grid of these settings must have. */
export function parametricGridName(s: ParametricSettings): string {
  return ["logisticRegression", ...parametricSeedParts(s)].join(" ");
}

/**
 * The seed of run `run` of `sampler` on data set `data` (a hash of what the run is, never of a loop
 * position); a renamed sampler's word is the name its committed runs were made under (parametricSeedName).
 */
export function parametricSeed(data: string, sampler: string, run: number, s: ParametricSettings): number {
  return fnvSeed(data, parametricSeedName(sampler), run, ...parametricSeedParts(s));
}

/** Where data set `name` is: data/ here, else the shared collection. */
export function parametricDataPath(name: string): string {
  for (const dir of ["data", join("..", "shared", "data"), "/work/shared/data"]) {
    const p = join(dir, `${name}.csv`);
    if (existsSync(p)) return p;
  }
  throw new Error(`data set ${name} not found in data/ or the shared collection`);
}

let cached: { name: string; target: DenseMetricTarget } | undefined;

/** The posterior of data set `name` (kept for the next job of the same data set in this thread). */
export function logisticTarget(name: string): DenseMetricTarget {
  if (cached?.name !== name) {
    const m = modelInfo["logistic-regression"];
    cached = { name, target: m.buildTarget(m.readData(parametricDataPath(name)), { polynomialDegree: DEGREE[name] }).target };
  }
  return cached.target;
}

/**
 * The kernel with the CPU time of its transitions after the first `skip` (the burn-in) up to the
 * `total`-th added up; its count of transitions and time so far go with the job's checkpoints
 * (`tallies`), its own state with the chain's (saveState, restoreState passed through). The clock
 * is read when the sampling phase starts, when a checkpoint is taken (it stops there, and starts
 * again at the next transition, so the writing is not counted) and after the last transition:
 * not around every transition, where reading it (about 1 us, a system call) would add to the
 * time of the fastest transitions (component-wise MH on Ripley's data: about 18 us). What the
 * driver does between transitions (keeping a draw) is counted.
 */
export function cpuTimed<S extends SamplerState>(kernel: Kernel<S>, skip: number, total: number): { kernel: Kernel<S>; seconds: () => number; tallies: TallyKeeper<JobTallies> } {
  let calls = 0;
  let micros = 0;
  let from: NodeJS.CpuUsage | undefined; // set while the clock runs
  const stop = () => {
    if (from === undefined) return;
    const t = process.cpuUsage(from);
    micros += t.user + t.system;
    from = undefined;
  };
  const step: Kernel<S>["step"] = (state, rng) => {
    if (calls++ < skip) return kernel.step(state, rng);
    from ??= process.cpuUsage();
    const out = kernel.step(state, rng);
    if (calls >= total) stop();
    return out;
  };
  return {
    kernel: withStep(kernel, step),
    seconds: () => {
      stop();
      return micros / 1e6;
    },
    tallies: {
      save: () => {
        stop();
        return { transitions: calls, cpuMicros: micros };
      },
      restore: (t) => {
        calls = t.transitions as number;
        micros = t.cpuMicros as number;
        from = undefined;
      },
    },
  };
}

/**
 * Runs one run and computes its figures; `samples` are its draws (draws x coefficients,
 * draw-major). Given a job, the chain checkpoints into its checkpoint directory and resumes from
 * there (`resumed`).
 */
export function parametricRun(data: string, sampler: ParametricSamplerName, run: number, s: ParametricSettings, job?: { job: GridJob; context?: TaskContext }): { cell: ParametricCell; samples: Float64Array; resumed: boolean } {
  const target = logisticTarget(data);
  const d = target.dim;
  const { draws, burnIn, thin, stepSize, leapfrogSteps, trajectoryLength, smmalaTargetAcceptance, integrator } = s;
  const seed = parametricSeed(data, sampler, run, s);
  const init = s.start === "mode" ? fisherScoringMode(target.model) : new Float64Array(d);
  const given = { ...(stepSize !== undefined ? { stepSize, leapfrogSteps, adapt: false } : {}), trajectoryLength, smmalaTargetAcceptance, integrator };
  const { kernel: inner, adapt } = parametricSampler(target, sampler, init, burnIn, given);
  const cpu = cpuTimed(inner, burnIn, burnIn + draws * thin);
  const options = { draws, burnIn, thin, init, adapt };
  const r = job ? runJobChain(job.job, job.context, cpu.kernel, seed, options, cpu.tallies) : { ...runChain(cpu.kernel, new Rng(seed), options), resumed: false };
  const ess: number[] = [];
  const means: number[] = [];
  const sds: number[] = [];
  for (let j = 0; j < d; j++) {
    const col = new Float64Array(draws);
    for (let i = 0; i < draws; i++) col[i] = r.samples[i * d + j]!;
    ess.push(essGeyer([col]));
    const m = col.reduce((a, b) => a + b, 0) / draws;
    means.push(m);
    sds.push(Math.sqrt(col.reduce((a, b) => a + (b - m) ** 2, 0) / (draws - 1)));
  }
  const sorted = [...ess].sort((a, b) => a - b);
  const cell: ParametricCell = {
    data, sampler, run, seed, coefficients: d, thin, stepSize: r.tunedValue ?? stepSize ?? null, leapfrogSteps: leapfrogSteps ?? stepsAfterBurnIn(sampler, trajectoryLength, r.tunedValue ?? stepSize) ?? null, seconds: r.seconds.sampling,
    minEss: sorted[0]!, medianEss: sorted[Math.floor(d / 2)]!, maxEss: sorted[d - 1]!,
    cpuSeconds: cpu.seconds(),
    ess,
    secondsPerMinEss: cpu.seconds() / sorted[0]!,
    acceptanceRate: r.summary.acceptanceRate, divergences: r.summary.divergences, means, sds,
  };
  return { cell, samples: r.samples, resumed: r.resumed };
}

/** (RM)HMC's count of steps after burn-in where it follows a trajectory length (the cell records it). */
function stepsAfterBurnIn(sampler: ParametricSamplerName, trajectoryLength: number | undefined, stepSize: number | undefined): number | undefined {
  const cap = trajectoryStepCap(sampler);
  if (trajectoryLength === undefined || stepSize === undefined || cap === undefined) return undefined;
  return stepsForLength(trajectoryLength, stepSize, cap);
}

function settingsOf(job: GridJob): ParametricSettings {
  const f = job.fixed;
  const int = (k: string, min: number) => {
    const v = f[k];
    if (!Number.isInteger(v) || (v as number) < min) refuseJob(job, `fixed setting ${k} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
    return v as number;
  };
  const start = f.start ?? "zero";
  if (start !== "zero" && start !== "mode") refuseJob(job, `fixed setting start must be "zero" or "mode", got ${JSON.stringify(start)}`);
  if (f.stepSize !== undefined && !(typeof f.stepSize === "number" && f.stepSize > 0)) refuseJob(job, `fixed setting stepSize must be a positive number, got ${JSON.stringify(f.stepSize)}`);
  if (f.leapfrogSteps !== undefined && f.stepSize === undefined) refuseJob(job, `fixed setting leapfrogSteps needs stepSize`);
  const s: ParametricSettings = { draws: int("draws", 2), burnIn: int("burnIn", 0), thin: int("thin", 1), start };
  if (f.stepSize !== undefined) s.stepSize = f.stepSize as number;
  if (f.leapfrogSteps !== undefined) s.leapfrogSteps = int("leapfrogSteps", 1);
  if (f.trajectoryLength !== undefined) {
    if (!(typeof f.trajectoryLength === "number" && f.trajectoryLength > 0)) refuseJob(job, `fixed setting trajectoryLength must be a positive number, got ${JSON.stringify(f.trajectoryLength)}`);
    if (f.leapfrogSteps !== undefined) refuseJob(job, `fixed settings leapfrogSteps and trajectoryLength exclude each other`);
    s.trajectoryLength = f.trajectoryLength as number;
  }
  if (f.smmalaTargetAcceptance !== undefined) {
    const a = f.smmalaTargetAcceptance;
    if (!(typeof a === "number" && a > 0 && a < 1)) refuseJob(job, `fixed setting smmalaTargetAcceptance must lie strictly between 0 and 1, got ${JSON.stringify(a)}`);
    s.smmalaTargetAcceptance = a as number;
  }
  if (f.integrator !== undefined) {
    if (f.integrator !== "lagrangian") refuseJob(job, `fixed setting integrator must be "lagrangian", got ${JSON.stringify(f.integrator)}`);
    s.integrator = "lagrangian";
  }
  return s;
}

/** Runs one job (in whichever thread or process the pool or queue worker gives it). */
export function parametricChainJob(job: GridJob, context?: TaskContext): ParametricChainJobResult {
  const t0 = performance.now();
  const s = settingsOf(job);
  const { data, sampler, run } = job.cell;
  if (typeof data !== "string" || data === "") refuseJob(job, `data must name a data set, got ${JSON.stringify(data)}`);
  if (typeof sampler !== "string" || !isParametricSamplerName(sampler)) refuseJob(job, `unknown sampler ${JSON.stringify(sampler)}`);
  if (!Number.isInteger(run) || (run as number) < 0) refuseJob(job, `run must be a non-negative integer, got ${JSON.stringify(run)}`);
  // The seed is the hash of the identity's words only if the grid is named after the settings.
  const name = parametricGridName(s);
  if (job.identity !== `${name} data=${data} sampler=${sampler} run=${run}`) refuseJob(job, `the grid must be named "${name}" with the axes data, sampler, run in that order (the run's seed hashes its data set, sampler, run and ${parametricSeedParts(s).join(", ") || "no other setting"})`);
  let target: DenseMetricTarget;
  try {
    target = logisticTarget(data);
  } catch (e) {
    refuseJob(job, (e as Error).message);
  }
  if (!parametricSamplerApplies(target, sampler)) refuseJob(job, `sampler ${sampler} does not apply to data set ${data}`);
  const { cell, samples, resumed } = parametricRun(data, sampler, run as number, s, { job, context });
  const drawsFile = writeJobDraws(job, cell.coefficients, s.draws, samples);
  return figuresResult(job, { dim: cell.coefficients, draws: s.draws, minEss: cell.minEss, acceptanceRate: cell.acceptanceRate, drawsFile, figures: cell, samplingSeconds: cell.cpuSeconds, t0, resumed });
}

registerGridJobKind(PARAMETRIC_CHAIN, import.meta.url, "parametricChainJob", ["draws", "burnIn", "thin", "start", "stepSize", "leapfrogSteps", "trajectoryLength", "smmalaTargetAcceptance", "integrator"], (dim) => vectorNames("beta", dim));
