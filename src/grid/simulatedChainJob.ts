/**
 * The grid job kind "simulated-latent-chain": one chain of a latent sampler on a data set
 * simulated as the comparison paper's Section 4.1 describes (run/simulate.ts), the setting of
 * its Table 2 (f | y, theta at the true theta). The cell names likelihood, n, d, data-set,
 * sampler and chain; the fixed settings draws, burnIn and dataSeed. As in Table 2, chain c
 * starts from the c-th draw of the prior N(0, K) of its data set (the same point for every
 * sampler), adapts its tunable during burn-in by dual averaging, and runs on the generator
 * seeded from its identity (identity.ts). The job checkpoints into the grid's checkpoint
 * directory and resumes from its checkpoint when one is there (a job retried after its worker
 * died), so its draws are those of a run never interrupted.
 */
import { vectorNames } from "../io/cmdstan.js";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { drawsArray } from "../diagnostics/draws.js";
import { minEssByChain } from "../diagnostics/summary.js";
import { likelihoodByName } from "../likelihoods/registry.js";
import type { TaskContext } from "../parallel/tasks.js";
import { Rng } from "../random/rng.js";
import { decodeExact } from "../run/checkpoint.js";
import type { ChainCheckpoint } from "../samplers/chain/chainCheckpoint.js";
import { simulateLatentGp, simulateResponses, simulatedKernelMatrix, SIMULATION_LIKELIHOODS, type SimulationLikelihood } from "../run/simulate.js";
import type { ChainSummary } from "../samplers/chain/chainRecords.js";
import { runChain } from "../samplers/chain/driver.js";
import { isLatentSamplerName, latentSampler } from "../samplers/registry.js";
import type { Kernel } from "../samplers/types.js";
import { annealedLatentTarget, type AnnealedLatentTarget } from "../targets/annealedLatent.js";
import { seedOfIdentity } from "./identity.js";
import { GridJobError } from "./jobError.js";
import { registerGridJobKind, type GridJob } from "./spec.js";
import { readJobCheckpoint, writeJobCheckpoint, writeJobDraws } from "./store.js";

export const SIMULATED_LATENT_CHAIN = "simulated-latent-chain";

/** The seed of data set s at (n, d): the same for every likelihood, so X, theta and f are shared (Table 2's). */
export function dataSetSeed(base: number, n: number, d: number, s: number): number {
  return base * 1_000_003 + s * 10_007 + n * 101 + d;
}

/** What every chain job returns (stored with the job: the local results directory, or BullMQ's return value). */
export interface ChainJobRecord {
  id: string;
  identity: string;
  cell: Record<string, string | number>;
  dim: number;
  draws: number;
  /** Min over variables of the chain's Geyer ESS. */
  minEss: number;
  acceptanceRate: number;
  /** The draws file's name in the grid's draws directory. */
  drawsFile: string;
  /** Where it ran, and whether it continued from a checkpoint. */
  worker: { host: string; pid: number };
  resumed: boolean;
}

/** What a "simulated-latent-chain" job returns. */
export interface GridJobResult extends ChainJobRecord {
  tunedValue: number | undefined;
  summary: ChainSummary;
  /** Seconds of the chain (burn-in and sampling) and of the whole job. */
  seconds: { burnIn: number; sampling: number; job: number };
}

interface Cell {
  likelihood: SimulationLikelihood;
  n: number;
  d: number;
  dataSet: number;
  sampler: string;
  chain: number;
}

function cellOf(job: GridJob): Cell {
  const c = job.cell;
  const int = (k: string) => {
    const v = c[k];
    if (!Number.isInteger(v) || (v as number) < 0) throw new GridJobError(job.identity, `${k} must be a non-negative integer, got ${JSON.stringify(v)}`);
    return v as number;
  };
  if (!SIMULATION_LIKELIHOODS.includes(c.likelihood as SimulationLikelihood)) throw new GridJobError(job.identity, `unknown likelihood ${JSON.stringify(c.likelihood)}`);
  if (typeof c.sampler !== "string" || !isLatentSamplerName(c.sampler)) throw new GridJobError(job.identity, `unknown sampler ${JSON.stringify(c.sampler)}`);
  return { likelihood: c.likelihood as SimulationLikelihood, n: int("n"), d: int("d"), dataSet: int("data-set"), sampler: c.sampler, chain: int("chain") };
}

let cached: { key: string; target: AnnealedLatentTarget; dataSeed: number; kernels: Map<string, Kernel> } | undefined;

/** The target of the cell's data set (kept for the next job of the same data set in this thread). */
function targetFor(cell: Cell, base: number) {
  const key = `${base}/${cell.likelihood}/${cell.n}/${cell.d}/${cell.dataSet}`;
  if (cached?.key !== key) {
    cached = undefined;
    const latent = simulateLatentGp(cell.n, cell.d, dataSetSeed(base, cell.n, cell.d, cell.dataSet));
    const data = simulateResponses(latent, cell.likelihood);
    const target = annealedLatentTarget({ likelihood: likelihoodByName(cell.likelihood, data.likelihoodOptions), y: data.y, kernelMatrix: simulatedKernelMatrix(latent) });
    cached = { key, target, dataSeed: data.seed, kernels: new Map() };
  }
  let kernel = cached.kernels.get(cell.sampler);
  if (!kernel) cached.kernels.set(cell.sampler, (kernel = latentSampler(cached.target, cell.sampler as Parameters<typeof latentSampler>[1])));
  return { target: cached.target, dataSeed: cached.dataSeed, kernel };
}

function fixedInt(job: GridJob, k: string, min: number): number {
  const v = job.fixed[k];
  if (!Number.isInteger(v) || (v as number) < min) throw new GridJobError(job.identity, `fixed setting ${k} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return v as number;
}

/** Runs one job (in whichever thread or process the pool or queue worker gives it). */
export function simulatedLatentChainJob(job: GridJob, context?: TaskContext): GridJobResult {
  const t0 = performance.now();
  const cell = cellOf(job);
  const draws = fixedInt(job, "draws", 1);
  const burnIn = fixedInt(job, "burnIn", 0);
  const base = fixedInt(job, "dataSeed", 0);
  const { target, dataSeed, kernel } = targetFor(cell, base);
  const zRng = new Rng(dataSeed, 16 + cell.chain);
  const init = target.kernelCholesky.multiplyLower(Float64Array.from({ length: cell.n }, () => zRng.normal()));
  const resume = readJobCheckpoint<ChainCheckpoint>(job);
  const r = runChain(kernel, new Rng(seedOfIdentity(job.identity)), {
    draws, burnIn, init,
    adapt: kernel.tunable && burnIn > 0 ? { method: "dual-averaging" } : undefined,
    checkpoint: job.checkpointEvery > 0 ? { every: job.checkpointEvery, save: (cp) => writeJobCheckpoint(job, cp) } : undefined,
    resume,
    shouldStop: context ? () => context.stopRequested() : undefined,
  });
  if (r.stopped) throw new Error(`${job.identity}: stopped before its end`);
  const drawsFile = writeJobDraws(job, r.dim, r.draws, r.samples);
  return {
    id: job.id, identity: job.identity, cell: job.cell, dim: r.dim, draws: r.draws,
    minEss: minEssByChain(drawsArray(r.samples, 1, r.draws, r.dim))[0],
    acceptanceRate: r.summary.acceptanceRate, tunedValue: r.tunedValue, summary: r.summary,
    seconds: { burnIn: r.seconds.burnIn, sampling: r.seconds.sampling, job: (performance.now() - t0) / 1000 },
    drawsFile, worker: { host: hostname(), pid: process.pid }, resumed: resume !== undefined,
  };
}

/** A job's draws (draw-major, draws x dim) read back from the grid's draws directory. */
export function readJobDraws(drawsDir: string, result: Pick<GridJobResult, "drawsFile">): { dim: number; draws: number; samples: Float64Array } {
  return decodeExact(readFileSync(join(drawsDir, result.drawsFile), "utf8"));
}

registerGridJobKind(SIMULATED_LATENT_CHAIN, import.meta.url, "simulatedLatentChainJob", ["draws", "burnIn", "dataSeed"], (dim) => vectorNames("f", dim));
