/**
 * The grid job kind "fitzhugh-nagumo-run": one run of Girolami & Calderhead's (2011) Table 14,
 * the Fitzhugh-Nagumo parameters (a, b, c) from the paper's synthetic data (200 times on
 * [0, 20], a = b = 0.2, c = 3, V(0) = -1, R(0) = 1, noise sd 0.5; its seed the hash of "fitzhugh-
 * nagumo data") sampled by a parametric sampler, one chain started at the posterior mode (the
 * paper: "a single Markov chain initialised on the true mode"): seconds of sampling, ESS of a, b,
 * c (Geyer's initial monotone sequence), s / min-ESS, and the ODE solves the run needed, by order
 * of sensitivities. The cell names sampler and run; the fixed settings burnIn and draws. The grid
 * must be named "fitzhugh-nagumo": the run's seed is then the hash of the job's identity
 * (identity.ts), `fitzhugh-nagumo sampler=S run=R`, as experiments/fitzhughNagumo.ts always drew
 * it, with a renamed sampler S under the name its committed runs were made with
 * (samplers/renamedSamplers.ts: smmala's seed hashes "sampler=simplified-mmala"). With the spec's checkpointEvery the job checkpoints (jobChain.ts: the chain, and the counts
 * of solves so far) and a retried job resumes where its checkpoint left it, drawing the same chain
 * and counting the same solves; its seconds are then the sum over its attempts of those of the
 * transitions it kept.
 */
import { FN_PARAMETER_NAMES } from "../models/fitzhughNagumo/equations.js";
import { essGeyer } from "../diagnostics/ess.js";
import type { PosteriorMode } from "../models/fitzhughNagumo/mode.js";
import type { FitzhughNagumoModel } from "../models/fitzhughNagumo/model.js";
import { modelInfo } from "../models/registry.js";
import { simulateFitzhughNagumo } from "../models/fitzhughNagumo/simulate.js";
import type { TaskContext } from "../parallel/tasks.js";
import { Rng } from "../random/rng.js";
import { runChain } from "../samplers/chain/driver.js";
import { isParametricSamplerName, type ParametricSamplerName } from "../samplers/parametricRegistry.js";
import { parametricSeedName } from "../samplers/renamedSamplers.js";
import type { Kernel, SamplerState } from "../samplers/types.js";
import { denseMetricTarget, type DenseMetricModel } from "../targets/denseMetric.js";
import { seedOfIdentity } from "./identity.js";
import { runJobChain, withStep } from "./jobChain.js";
import { refuseJob } from "./jobError.js";
import { figuresResult, RUN_LENGTH_SETTINGS, runLength, type FiguresJobResult } from "./parametricChainJob.js";
import { registerGridJobKind, type GridJob } from "./spec.js";
import { writeJobDraws } from "./store.js";

export const FITZHUGH_NAGUMO_RUN = "fitzhugh-nagumo-run";
export const FITZHUGH_NAGUMO_GRID = "fitzhugh-nagumo";
export const DATA_IDENTITY = "fitzhugh-nagumo data";

/** One run's figures, as the experiment's result files hold them. */
export interface FitzhughNagumoCell {
  sampler: ParametricSamplerName;
  run: number;
  /** The seed (a 64-bit integer) in decimal. */
  seed: string;
  seconds: number;
  burnInSeconds: number;
  ess: number[];
  minEss: number;
  secondsPerMinEss: number;
  acceptanceRate: number;
  divergences: number;
  /** Divergent transitions of burn-in (absent in results made before they were recorded). */
  burnInDivergences?: number;
  stepSize: number | null;
  means: number[];
  sds: number[];
  solves: { statesOnly: number; firstOrder: number; secondOrder: number };
}

/** The model with counters of its solves: states only, with first-order, with second-order sensitivities. */
function counted(model: FitzhughNagumoModel): { model: DenseMetricModel; solves: number[] } {
  const solves = [0, 0, 0];
  return {
    solves,
    model: {
      dim: model.dim,
      logDensity: (x) => (solves[0]!++, model.logDensity(x)),
      logDensityAndGradient: (x, g) => (solves[1]!++, model.logDensityAndGradient(x, g)),
      denseMetric: (x, d) => (solves[d ? 2 : 1]!++, model.denseMetric(x, d)),
    },
  };
}

let problem: { model: FitzhughNagumoModel; mode: PosteriorMode } | undefined;

/** The model of the paper's data with the model's defaults and its posterior mode (kept for the next job in this thread). */
export function fitzhughNagumoProblem(): { model: FitzhughNagumoModel; mode: PosteriorMode } {
  if (!problem) {
    const { model, mode } = modelInfo["fitzhugh-nagumo"].buildTarget(simulateFitzhughNagumo({}, seedOfIdentity(DATA_IDENTITY)));
    problem = { model, mode };
  }
  return problem;
}

/** The seed of run `run` of `sampler`: the hash of its identity, the sampler under the name its committed runs were made with. */
export function fitzhughNagumoSeed(sampler: ParametricSamplerName, run: number): bigint {
  return seedOfIdentity(`${FITZHUGH_NAGUMO_GRID} sampler=${parametricSeedName(sampler)} run=${run}`);
}

/** Run `run` of `sampler` and its draws (draws x 3, draw-major); given a job, checkpointed into its checkpoint directory and resumed from there. */
export function fitzhughNagumoRun(sampler: ParametricSamplerName, run: number, burnIn: number, draws: number, job?: { job: GridJob; context?: TaskContext }): { cell: FitzhughNagumoCell; samples: Float64Array; resumed: boolean } {
  const { model: base, mode } = fitzhughNagumoProblem();
  const seed = fitzhughNagumoSeed(sampler, run);
  const { model, solves } = counted(base);
  const target = denseMetricTarget(model);
  const init = Float64Array.from(mode.theta);
  const { kernel, adapt } = modelInfo["fitzhugh-nagumo"].sampler({ model: base, mode, target, init }, sampler, { burnIn });
  // On a resume the counts become the checkpoint's at the first transition, after the solves that
  // rebuilt the chain's state (which the chain never interrupted did not need).
  const restored: { saved?: number[] } = {};
  const resumedCounts = <S extends SamplerState>(k: Kernel<S>, counts: number[]) => withStep(k, (state, rng) => {
    if (restored.saved) counts.splice(0, 3, ...restored.saved);
    restored.saved = undefined;
    return k.step(state, rng);
  });
  const options = { draws, burnIn, init, adapt };
  const r = job
    ? runJobChain(job.job, job.context, resumedCounts(kernel, solves), seed, options, { save: () => ({ solves: [...solves] }), restore: (t) => void (restored.saved = t.solves as number[]) })
    : { ...runChain(kernel, new Rng(seed), options), resumed: false };
  // (a checkpoint at the chain's end resumes into no transition: its counts are the run's)
  if (restored.saved) solves.splice(0, 3, ...restored.saved);
  const ess: number[] = [];
  const means: number[] = [];
  const sds: number[] = [];
  for (let j = 0; j < 3; j++) {
    const col = Float64Array.from({ length: draws }, (_, i) => r.samples[i * 3 + j]!);
    ess.push(essGeyer([col]));
    const m = col.reduce((a, b) => a + b, 0) / draws;
    means.push(m);
    sds.push(Math.sqrt(col.reduce((a, b) => a + (b - m) ** 2, 0) / (draws - 1)));
  }
  const minEss = Math.min(...ess);
  const cell: FitzhughNagumoCell = {
    sampler, run, seed: seed.toString(), seconds: r.seconds.sampling, burnInSeconds: r.seconds.burnIn, ess, minEss,
    secondsPerMinEss: r.seconds.sampling / minEss, acceptanceRate: r.summary.acceptanceRate, divergences: r.summary.divergences, burnInDivergences: r.summary.burnInDivergences,
    stepSize: r.tunedValue ?? null, means, sds, solves: { statesOnly: solves[0]!, firstOrder: solves[1]!, secondOrder: solves[2]! },
  };
  return { cell, samples: r.samples, resumed: r.resumed };
}

/** What a job of this kind returns. */
export type FitzhughNagumoRunJobResult = FiguresJobResult<FitzhughNagumoCell>;

/** Runs one job (in whichever thread or process the pool or queue worker gives it). */
export function fitzhughNagumoRunJob(job: GridJob, context?: TaskContext): FitzhughNagumoRunJobResult {
  const t0 = performance.now();
  const { burnIn, draws } = runLength(job);
  const { sampler, run } = job.cell;
  if (typeof sampler !== "string" || !isParametricSamplerName(sampler)) refuseJob(job, `unknown sampler ${JSON.stringify(sampler)}`);
  if (!Number.isInteger(run) || (run as number) < 0) refuseJob(job, `run must be a non-negative integer, got ${JSON.stringify(run)}`);
  if (job.identity !== `${FITZHUGH_NAGUMO_GRID} sampler=${sampler} run=${run}`) refuseJob(job, `the grid must be named "${FITZHUGH_NAGUMO_GRID}" with the axes sampler, run in that order (the run's seed is the hash of its identity)`);
  const { cell, samples, resumed } = fitzhughNagumoRun(sampler, run as number, burnIn, draws, { job, context });
  const drawsFile = writeJobDraws(job, 3, draws, samples);
  return figuresResult(job, { dim: 3, draws, minEss: cell.minEss, acceptanceRate: cell.acceptanceRate, drawsFile, figures: cell, samplingSeconds: cell.seconds, t0, resumed });
}

registerGridJobKind(FITZHUGH_NAGUMO_RUN, import.meta.url, "fitzhughNagumoRunJob", RUN_LENGTH_SETTINGS, () => [...FN_PARAMETER_NAMES]);
