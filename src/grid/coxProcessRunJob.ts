/**
 * The grid job kind "lgcp-run": one run of Girolami & Calderhead's (2011) Section 9.1, Table 13 and
 * Figure 8: the latent field of the log-Gaussian Cox process on an n x n grid, hyperparameters
 * fixed at their true values, sampled by MALA on Christensen et al.'s transformation (transient
 * and stationary scalings), mMALA or RMHMC (models/coxProcess/samplers.ts). The cell names grid (n), sampler
 * and run; the fixed setting plan gives each sampler's burn-in and kept draws. The grid must be
 * named "lgcp table13": a run's seed is then the hash of the job's identity, `lgcp table13 grid=n
 * sampler=S run=R`, as experiments/coxProcess.ts always drew it, and the data's that of
 * `lgcp data grid=n`. With the spec's checkpointEvery the job checkpoints (jobChain.ts: the chain
 * with its adaptation's sums, and the CPU seconds so far) and a retried job resumes where its
 * checkpoint left it, drawing the same chain. Its result holds the run's figures and, for Figure 8, the posterior mean and variance of the
 * field (the draws, N = n^2 numbers each, are not kept).
 *
 * Seconds are wall-clock and, beside them, the process's CPU seconds (BLAS on one thread), which
 * count every thread of the process: the experiment runs one job at a time by default. A resumed
 * job's times are the sums over its attempts of those of the transitions it kept (setupSeconds is
 * the last attempt's).
 */
import { rmSync } from "node:fs";
import { essGeyer } from "../diagnostics/ess.js";
import { paperHyperparameters } from "../models/coxProcess/coxProcess.js";
import type { CoxModel } from "../models/coxProcess/fieldModel.js";
import { GRID_DISTANCES, type GridDistance } from "../models/coxProcess/gridCovariance.js";
import { simulateCoxProcess } from "../models/coxProcess/simulate.js";
import type { TaskContext } from "../parallel/tasks.js";
import { Rng } from "../random/rng.js";
import { isCoxProcessSamplerName, type CoxProcessSamplerName } from "../models/coxProcess/samplers.js";
import { modelInfo } from "../models/registry.js";
import { runChain } from "../samplers/chain/driver.js";
import { seedOfIdentity } from "./identity.js";
import { cpuClock, runJobChain } from "./jobChain.js";
import { refuseJob } from "./jobError.js";
import { figuresResult, type FiguresJobResult } from "./parametricChainJob.js";
import { registerGridJobKind, type GridJob } from "./spec.js";
import { jobCheckpointPath } from "./store.js";

export const LGCP_RUN = "lgcp-run";
export const LGCP_GRID = "lgcp table13";

/**
 * The covariance in a cell's identity: the separable runs came first and keep their identities
 * (no covariance axis); the Euclidean ones end with ` covariance=euclidean`, the grid's last axis.
 */
export const lgcpCovarianceTag = (covariance: GridDistance): string => (covariance === "separable" ? "" : ` covariance=${covariance}`);

/** The seed of the simulated data on an n x n grid (31 bits: simulateCoxProcess takes a number). */
export const lgcpDataSeed = (side: number, covariance: GridDistance = "separable"): number => Number(seedOfIdentity(`lgcp data grid=${side}${lgcpCovarianceTag(covariance)}`) % 2147483647n);

/** The seed of one chain of Table 13. */
export const lgcpChainSeed = (side: number, sampler: string, run: number, covariance: GridDistance = "separable"): bigint => seedOfIdentity(`${LGCP_GRID} grid=${side} sampler=${sampler} run=${run}${lgcpCovarianceTag(covariance)}`);

/** One run's figures, as experiments/results/lgcp/table13.json holds them. */
export interface LgcpCell {
  sampler: CoxProcessSamplerName;
  run: number;
  seed: string;
  burnIn: number;
  draws: number;
  setupSeconds: number;
  burnInSeconds: number;
  seconds: number;
  minEss: number;
  medianEss: number;
  maxEss: number;
  secondsPerMinEss: number;
  cpuSeconds: number;
  cpuSecondsPerMinEss: number;
  acceptanceRate: number;
  stepSize: number | null;
  leapfrogStepsPerTransition: number | null;
  acceptanceFromMuWithStationaryScaling: number | null;
  meanAbsErrorOfPosteriorMean: number;
  meanPosteriorVariance: number;
  lpFirst: number[];
}

let problem: { side: number; covariance: GridDistance; sim: ReturnType<typeof simulateCoxProcess>; model: CoxModel } | undefined;

/** The data simulated on an n x n grid from the given covariance, and its model (kept for the next job of the same grid in this thread). */
export function lgcpProblem(side: number, covariance: GridDistance = "separable"): { sim: ReturnType<typeof simulateCoxProcess>; model: CoxModel } {
  if (problem?.side !== side || problem.covariance !== covariance) {
    const hyper = paperHyperparameters();
    const sim = simulateCoxProcess(side, hyper, lgcpDataSeed(side, covariance), undefined, covariance);
    problem = { side, covariance, sim, model: modelInfo.lgcp.buildTarget({ side, counts: sim.counts }, { ...hyper, covariance }) };
  }
  return problem;
}

/**
 * Run `run` of sampler `name` on the n x n grid: its figures, and the field's posterior mean and
 * variance; given a job, checkpointed into its checkpoint directory and resumed from there.
 */
export function lgcpRun(side: number, name: CoxProcessSamplerName, run: number, burnIn: number, draws: number, job?: { job: GridJob; context?: TaskContext }, covariance: GridDistance = "separable"): { cell: LgcpCell; mean: Float64Array; variance: Float64Array; resumed: boolean } {
  const { sim, model } = lgcpProblem(side, covariance);
  const n = model.cells;
  const s = modelInfo.lgcp.sampler(model, name);
  const cpu = cpuClock();
  let cpuBurnIn = 0;
  const options = {
    draws, burnIn, init: s.init, adapt: s.adapt, progressInterval: Math.max(1, burnIn),
    onProgress: (p: { iteration: number }) => {
      if (p.iteration === burnIn) cpuBurnIn = cpu.seconds();
    },
  };
  const seed = lgcpChainSeed(side, name, run, covariance);
  const r = job
    ? runJobChain(job.job, job.context, s.kernel, seed, options, {
      save: () => ({ cpuSeconds: cpu.seconds(), cpuBurnIn }),
      restore: (t) => {
        cpu.restore(t.cpuSeconds as number);
        cpuBurnIn = t.cpuBurnIn as number;
      },
    })
    : { ...runChain(s.kernel, new Rng(seed), options), resumed: false };
  const cpuTotal = cpu.seconds();
  // Figure 7, right: the stationary tuning run from x = mu 1 (Gamma = 0) instead of the mode
  const stuckFromMu = name === "mala-stationary" ? runChain(s.kernel, new Rng(seed, 1), { draws: 200, init: new Float64Array(r.dim), initialTunableValue: r.tunedValue }).summary.acceptanceRate : undefined;
  const x = new Float64Array(draws * n);
  // the Euclidean model samples the whitened nu (r.dim numbers), MALA Christensen's Gamma: each draw mapped to the field x
  for (let i = 0; i < draws; i++) s.toField(r.samples.subarray(i * r.dim, (i + 1) * r.dim), x.subarray(i * n, (i + 1) * n));
  const ess = new Float64Array(n);
  const mean = new Float64Array(n);
  const variance = new Float64Array(n);
  const col = new Float64Array(draws);
  for (let k = 0; k < n; k++) {
    let m = 0;
    for (let i = 0; i < draws; i++) {
      col[i] = x[i * n + k]!;
      m += col[i]! / draws;
    }
    let v = 0;
    for (let i = 0; i < draws; i++) v += (col[i]! - m) ** 2 / (draws - 1);
    mean[k] = m;
    variance[k] = v;
    ess[k] = essGeyer([col]);
  }
  const sorted = Array.from(ess).sort((a, b) => a - b);
  const cell: LgcpCell = {
    sampler: name, run, seed: seed.toString(), burnIn, draws,
    setupSeconds: s.setupSeconds, burnInSeconds: r.seconds.burnIn, seconds: r.seconds.sampling,
    minEss: sorted[0]!, medianEss: sorted[Math.floor(n / 2)]!, maxEss: sorted[n - 1]!,
    secondsPerMinEss: r.seconds.sampling / sorted[0]!,
    cpuSeconds: cpuTotal - cpuBurnIn, cpuSecondsPerMinEss: (cpuTotal - cpuBurnIn) / sorted[0]!,
    acceptanceRate: r.summary.acceptanceRate, stepSize: r.tunedValue ?? null, leapfrogStepsPerTransition: name === "rmhmc" ? r.stats.nLeapfrog[0]! : null,
    acceptanceFromMuWithStationaryScaling: stuckFromMu ?? null,
    meanAbsErrorOfPosteriorMean: mean.reduce((a, v, k) => a + Math.abs(v - sim.field[k]!), 0) / n,
    meanPosteriorVariance: variance.reduce((a, v) => a + v, 0) / n,
    lpFirst: Array.from(r.stats.lp.subarray(0, Math.min(draws, 50))),
  };
  return { cell, mean, variance, resumed: r.resumed };
}

/** What an "lgcp-run" job returns: its figures, and the field's posterior mean and variance. */
export type LgcpRunJobResult = FiguresJobResult<LgcpCell> & { mean: Float64Array; variance: Float64Array };

/** Runs one job (in whichever thread or process the pool or queue worker gives it). */
export function lgcpRunJob(job: GridJob, context?: TaskContext): LgcpRunJobResult {
  const t0 = performance.now();
  const { grid: side, sampler, run, covariance = "separable" } = job.cell;
  if (!Number.isInteger(side) || (side as number) < 2) refuseJob(job, `grid must be an integer >= 2, got ${JSON.stringify(side)}`);
  if (typeof sampler !== "string" || !isCoxProcessSamplerName(sampler)) refuseJob(job, `unknown sampler ${JSON.stringify(sampler)}`);
  if (!Number.isInteger(run) || (run as number) < 0) refuseJob(job, `run must be a non-negative integer, got ${JSON.stringify(run)}`);
  const plan = (job.fixed.plan ?? {}) as Record<string, { burnIn?: unknown; draws?: unknown }>;
  const { burnIn, draws } = plan[sampler] ?? {};
  if (!Number.isInteger(burnIn) || (burnIn as number) < 0 || !Number.isInteger(draws) || (draws as number) < 2) refuseJob(job, `the fixed setting plan must give ${sampler} an integer burnIn >= 0 and draws >= 2, got ${JSON.stringify(plan[sampler])}`);
  if (typeof covariance !== "string" || !(GRID_DISTANCES as readonly string[]).includes(covariance)) refuseJob(job, `unknown covariance ${JSON.stringify(covariance)} (${GRID_DISTANCES.join(", ")})`);
  const distance = covariance as GridDistance;
  if (job.identity !== `${LGCP_GRID} grid=${side} sampler=${sampler} run=${run}${lgcpCovarianceTag(distance)}`) refuseJob(job, `the grid must be named "${LGCP_GRID}" with the axes grid, sampler, run in that order, then covariance for the Euclidean covariance only (the run's seed is the hash of its identity)`);
  const { cell, mean, variance, resumed } = lgcpRun(side as number, sampler, run as number, burnIn as number, draws as number, { job, context }, distance);
  // no draws file (the field's draws are not kept): the checkpoint goes with the result
  rmSync(jobCheckpointPath(job), { force: true });
  return {
    ...figuresResult(job, { dim: mean.length, draws: draws as number, minEss: cell.minEss, acceptanceRate: cell.acceptanceRate, drawsFile: "", figures: cell, samplingSeconds: cell.seconds, t0, resumed }),
    mean, variance,
  };
}

registerGridJobKind(LGCP_RUN, import.meta.url, "lgcpRunJob", ["plan"]);
