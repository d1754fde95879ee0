/**
 * Annealed importance sampling (Neal 2001) for the marginal likelihood Z = p(y) of a latent GP
 * model, on the annealed target L_beta of the note (Paquet & Fraccaro, eq. 4):
 *   L_beta(x) = beta [log p(y | x) + log N(x; 0, K)] + (1 - beta) log q(x),
 * with q = N(mu, Sigma) the prior (AIS) or EP's approximation (the note's AISq). Both ends are
 * normalised (footnote 1), so Z_0 = 1 and Z_1 = Z, and the log weight of a run
 *   x_0 ~ q,  w = sum_{k=1..B} (beta_k - beta_{k-1}) h(x_{k-1}),
 *   h(x) = log p(y | x) + log N(x; 0, K) - log q(x)          (= log p(y | x) for q the prior),
 *   x_k = T_k(x_{k-1}),  T_k leaving exp(L_{beta_k}) invariant (k = 1..B-1),
 * has E[exp(w)] = Z. Starting from q therefore needs no separate log Z_q term: it is inside
 * log q(x) (its -1/2 log|Sigma| - n/2 log 2 pi), and leaving it out biases log Z by exactly
 * that constant (the negative control of the tests).
 *
 * One run depends only on plain data (the data, an AisSpec and the run index): run r draws from
 * the stream new Rng(seed, r), so any thread that rebuilds the target gets the same weights.
 */
import { Rng } from "../random/rng.js";
import type { RandomSource } from "../random/types.js";
import { latentSampler, type LatentSamplerSpec } from "../samplers/registry.js";
import type { Kernel, SamplerState } from "../samplers/types.js";
import type { AnnealedLatentTarget, GaussianApproximation } from "../targets/annealedLatent.js";
import type { LatentGpData, LatentGpModelSpec } from "../targets/latentGpModel.js";
import { latentGpRun } from "../models/latentGpRun.js";
import { checkAisResume, TRACE_COLUMNS, type AisPoint, type AisRunCheckpoint } from "./aisCheckpoint.js";
import { temperatureSchedule, type ScheduleSpec } from "./schedule.js";
import type { FaultOf } from "../math/negativeControl.js";

/** Where the annealing starts: the prior N(0, K), or a Gaussian q = N(mu, Sigma) with Sigma^-1 = K^-1 + diag(sitePrecisions). */
export type AisStart = { kind: "prior" } | { kind: "q"; mean: number[]; sitePrecisions: number[]; label?: string };

/** Everything that determines an AIS computation's weights, as plain data. */
export interface AisSpec {
  model: LatentGpModelSpec;
  start: AisStart;
  schedule: ScheduleSpec;
  transition: LatentSamplerSpec;
  /** Transitions at each intermediate temperature (default 1). */
  transitionsPerTemperature?: number;
  /** Number of independent runs R. */
  runs: number;
  seed: number;
}

export type { AisPoint } from "./aisCheckpoint.js";

export interface AisRunResult {
  /** 0-based run index (the Rng stream). */
  run: number;
  logWeight: number;
  /** One point per temperature, beta_0 = 0 first. */
  points: AisPoint[];
  /** Mean acceptance rate of the transitions, and their count and divergences. */
  acceptanceRate: number;
  transitions: number;
  divergences: number;
  seconds: number;
  /** True when the run was stopped (AnnealOptions.shouldStop) before beta = 1: logWeight and points are those so far. */
  stopped?: boolean;
}

export interface AisProgress {
  run: number;
  /** Temperatures done in this run (of `temperatures`). */
  temperature: number;
  temperatures: number;
  beta: number;
  seconds: number;
}

export interface AisHooks {
  /** Called after each temperature of a run (from runs on worker threads, at most every 200 ms and after the last). */
  onProgress?: (p: AisProgress) => void;
  /** Called with each run's result as it finishes. */
  onRun?: (r: AisRunResult) => void;
  /** One-line warnings (jitter added to K; default: stderr). */
  onWarning?: (message: string) => void;
}

export interface AnnealOptions {
  /** The B + 1 temperatures 0 = beta_0 < ... < beta_B = 1. */
  betas: Float64Array;
  /** Builds the transition kernel at one temperature from the target at that temperature. */
  kernelAt: (target: AnnealedLatentTarget) => Kernel;
  transitionsPerTemperature?: number;
  run?: number;
  onProgress?: (p: AisProgress) => void;
  /** Polled before each temperature; once it returns true the run ends there (`stopped: true`). */
  shouldStop?: () => boolean;
  /**
   * Checkpoints of the run (the generator must then be an Rng): `save` is called after every
   * `every`-th temperature (0: none but these two), on a stop, and once at beta = 1.
   */
  checkpoint?: { every: number; save: (checkpoint: AisRunCheckpoint) => void };
  /** Continue the run from this checkpoint (of run `run` with the same target, temperatures and transitions). */
  resume?: AisRunCheckpoint;
  /**
   * Deliberately wrong weights for the tests' negative controls:
   * - "unnormalised-q": h uses log q without its normalising constant (the log Z_q term left out);
   * - "skip-first-increment": the first increment uses beta_1 - beta_1 = 0 (a wrong temperature difference).
   * @internal
   */
  broken?: FaultOf<"ais">;
}

/**
 * x ~ q = N(mu, Sigma) exactly: at beta = 0 the target's metric is G = Sigma^-1 (note eq. 16 with
 * Lambda = 0), so p ~ N(0, G) and x = mu + G^-1 p has covariance Sigma G Sigma = Sigma (one
 * factorisation; for the prior, x = K L_K^-T z = L_K z).
 */
export function drawFromStart(target: AnnealedLatentTarget, rng: RandomSource): Float64Array {
  const mu = target.qMean ?? new Float64Array(target.dim);
  const g = target.withBeta(0).geometry(mu);
  const p = new Float64Array(target.dim);
  g.sampleMomentum(rng, p);
  const x = new Float64Array(target.dim);
  g.applyInverse(p, x);
  g.release();
  for (let i = 0; i < x.length; i++) x[i] += mu[i];
  return x;
}

/** h(x) = log p(y | x) + log N(x; 0, K) - log q(x), the derivative of L_beta(x) in beta. */
function annealingIncrement(target: AnnealedLatentTarget, x: Float64Array, broken?: FaultOf<"ais">): number {
  const parts = target.logDensityParts(x);
  let logQ = parts.logQ;
  if (broken === "unnormalised-q") logQ += 0.5 * x.length * Math.log(2 * Math.PI) + 0.5 * target.logDetSigma;
  // q the prior: the two Gaussian terms are the same number and cancel exactly
  return parts.logLikelihood + (parts.logPrior - logQ);
}

/** One annealing run on `target` (any q) with the given random source. */
export function anneal(target: AnnealedLatentTarget, rng: RandomSource, options: AnnealOptions): AisRunResult {
  const betas = options.betas;
  const B = betas.length - 1;
  if (B < 1 || betas[0] !== 0 || betas[B] !== 1) throw new RangeError("temperatures must run from 0 to 1");
  const per = options.transitionsPerTemperature ?? 1;
  if (!Number.isInteger(per) || per < 1) throw new RangeError(`transitionsPerTemperature must be a whole number >= 1, got ${per}`);
  const run = options.run ?? 0;
  const resume = options.resume;
  if (resume) checkAisResume(resume, { run, dim: target.dim, temperatures: B });
  const t0 = performance.now();
  const before = resume?.seconds ?? 0;
  const seconds = () => before + (performance.now() - t0) / 1000;
  // Where the run starts: a draw from q, or where the checkpoint left it (the generator as it was there).
  if (resume) rng = Rng.restore(resume.rng);
  let x = resume ? Float64Array.from(resume.position) : drawFromStart(target, rng);
  let logWeight = resume?.logWeight ?? 0;
  // The trace as columns (a checkpoint copies them: a typed array is cloned to another thread and encoded whole, an array of objects one by one).
  const trace = { seconds: new Float64Array(B + 1), temperature: new Float64Array(B + 1), logWeight: new Float64Array(B + 1) };
  let last = resume?.done ?? 0; // the trace's last point
  if (resume) for (const c of TRACE_COLUMNS) trace[c].set(resume.trace[c]);
  let { accepted, transitions, divergences } = resume?.tallies ?? { accepted: 0, transitions: 0, divergences: 0 };
  const checkpoint = options.checkpoint;
  if (checkpoint && !(rng instanceof Rng)) throw new RangeError("anneal: checkpoints need an Rng generator");
  const save = (done: number) => checkpoint!.save({
    run, dim: target.dim, temperatures: B, done, position: Float64Array.from(x), logWeight, rng: (rng as Rng).snapshot(),
    tallies: { transitions, accepted, divergences }, seconds: seconds(),
    trace: { seconds: trace.seconds.slice(0, done + 1), temperature: trace.temperature.slice(0, done + 1), logWeight: trace.logWeight.slice(0, done + 1) },
  });
  const every = checkpoint?.every ?? 0;
  let stopped = false;
  for (let k = (resume?.done ?? 0) + 1; k <= B; k++) {
    if (options.shouldStop?.()) {
      stopped = true;
      if (checkpoint) save(k - 1);
      break;
    }
    const dBeta = options.broken === "skip-first-increment" && k === 1 ? 0 : betas[k] - betas[k - 1];
    logWeight += dBeta * annealingIncrement(target, x, options.broken);
    if (k < B) {
      const kernel = options.kernelAt(target.withBeta(betas[k]));
      let state: SamplerState = kernel.init(x);
      for (let t = 0; t < per; t++) {
        const { state: next, info } = kernel.step(state, rng);
        if (next !== state) releaseState(state);
        state = next;
        transitions++;
        if (info.accepted) accepted++;
        if (info.divergent) divergences++;
      }
      x = Float64Array.from(state.position);
      releaseState(state);
    }
    last = k;
    trace.seconds[k] = seconds();
    trace.temperature[k] = betas[k];
    trace.logWeight[k] = logWeight;
    options.onProgress?.({ run, temperature: k, temperatures: B, beta: betas[k], seconds: seconds() });
    if (checkpoint && (k === B || (every > 0 && k % every === 0))) save(k);
  }
  const points: AisPoint[] = Array.from({ length: last + 1 }, (_, k) => ({ seconds: trace.seconds[k], temperature: trace.temperature[k], logWeight: trace.logWeight[k] }));
  const result: AisRunResult = { run, logWeight, points, acceptanceRate: transitions > 0 ? accepted / transitions : NaN, transitions, divergences, seconds: seconds() };
  if (stopped) result.stopped = true;
  return result;
}

/** A state's geometry (RMHMC) holds an n x n workspace of the target: give it back. */
function releaseState(state: SamplerState): void {
  (state as { geometry?: { release?: () => void } }).geometry?.release?.();
}

/** The target of `spec` on `data`: K assembled and factorised, q set up. */
export function aisTarget(data: LatentGpData, spec: AisSpec, onWarning?: (message: string) => void): AnnealedLatentTarget {
  const q: GaussianApproximation | undefined = spec.start.kind === "q" ? { mean: spec.start.mean, sitePrecisions: spec.start.sitePrecisions } : undefined;
  return latentGpRun.buildTarget(data, spec.model, { onJitter: onWarning, q }); // the model's options not given: LATENT_GP_DEFAULTS
}

/** What a caller may add to run `run` of a spec: progress, a stop, checkpoints, a checkpoint to continue from. */
export type AisRunHooks = Pick<AnnealOptions, "onProgress" | "shouldStop" | "checkpoint" | "resume">;

/** Run `run` (0-based) of `spec` on an already built target (see aisRun for the plain-data form). */
export function aisRunOn(target: AnnealedLatentTarget, spec: AisSpec, run: number, hooks: AisRunHooks = {}): AisRunResult {
  return anneal(target, new Rng(spec.seed, run), {
    betas: temperatureSchedule(spec.schedule),
    kernelAt: (t) => latentSampler(t, spec.transition),
    transitionsPerTemperature: spec.transitionsPerTemperature,
    run,
    onProgress: hooks.onProgress,
    shouldStop: hooks.shouldStop,
    checkpoint: hooks.checkpoint,
    resume: hooks.resume,
  });
}

/** Run `run` of `spec` from plain data alone (what a worker thread calls). */
export function aisRun(data: LatentGpData, spec: AisSpec, run: number, hooks: Pick<AisHooks, "onProgress" | "onWarning"> = {}): AisRunResult {
  return aisRunOn(aisTarget(data, spec, hooks.onWarning), spec, run, hooks);
}
