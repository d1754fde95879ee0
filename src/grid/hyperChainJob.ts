/**
 * The grid job kind "hyper-chain": one chain of a hyperparameter sampler of the comparison
 * paper's Tables 3-6 (hyperChains.ts: theta | f, theta | y, nu, or a scheme on (f, theta) | y).
 * The cell names group, n, d, data-set, method and chain; the fixed settings table, seed, draws,
 * burnIn, latentUpdates and, for real data (table 6), dataFile (a CSV relative to the package's
 * root). Simulated data set s of (n, d) is Table 2's (hyperProblems.ts); its likelihood is the
 * group's (table 4, 5) or logistic (table 3, whose theta | f does not depend on it).
 *
 * The grid's name must be `hyperTables table=<table> seed=<seed>`: the chain's seed is then the
 * hash of the job's identity (identity.ts), the seed hyperChainSeed gives, so a chain's draws are
 * the same whether it runs here, on a queue worker, or alone. With the spec's checkpointEvery
 * the job checkpoints into the grid's checkpoint directory (hyperChainLoop.ts: the chain's
 * whole state, its generator and its draws so far) and, run again after it was stopped or its
 * worker died, resumes from there: its draws and figures are those of the job never
 * interrupted. The checkpoint goes once the draws file is written.
 */
import { vectorNames } from "../io/cmdstan.js";
import { hostname } from "node:os";
import { drawsArray } from "../diagnostics/draws.js";
import { minEssByChain } from "../diagnostics/summary.js";
import { SCHEME_NAMES } from "../hyper/schemes.js";
import { THETA_SAMPLER_NAMES } from "../hyper/thetaSamplers.js";
import type { OpCounts } from "../linalg/counters.js";
import type { TaskContext } from "../parallel/tasks.js";
import { SIMULATION_LIKELIHOODS, type SimulationLikelihood } from "../run/simulate.js";
import { checkpointMismatch, type HyperChainCheckpoint } from "./hyperChainLoop.js";
import { runOneChain, type HyperChainSettings } from "./hyperChains.js";
import { csvProblem, simulatedProblem, type HyperProblem } from "./hyperProblems.js";
import { cellIdentity } from "./identity.js";
import { refuseJob } from "./jobError.js";
import type { ChainJobRecord } from "./simulatedChainJob.js";
import { registerGridJobKind, type GridJob } from "./spec.js";
import { jobCheckpointPath, readJobCheckpoint, writeJobCheckpoint, writeJobDraws } from "./store.js";

export const HYPER_CHAIN = "hyper-chain";

/** What a job returns: the chain's tallies (its draws are in the grid's draws directory). */
export interface HyperChainJobResult extends ChainJobRecord {
  /** Of the theta update after burn-in: accepted updates, leapfrog steps or density evaluations. */
  accepted: number;
  steps: number;
  /** O(n^3) operations after burn-in. */
  ops: OpCounts;
  seconds: { sampling: number; job: number };
}

interface Cell {
  group: string;
  n: number;
  d: number;
  dataSet: number;
  method: string;
  chain: number;
}

function settingsOf(job: GridJob): HyperChainSettings & { dataFile?: string } {
  const int = (k: string, min: number) => {
    const v = job.fixed[k];
    if (!Number.isInteger(v) || (v as number) < min) refuseJob(job, `fixed setting ${k} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
    return v as number;
  };
  const table = int("table", 3);
  if (table > 6) refuseJob(job, `fixed setting table must be 3, 4, 5 or 6, got ${table}`);
  const dataFile = job.fixed.dataFile;
  if (table === 6 && (typeof dataFile !== "string" || dataFile === "")) refuseJob(job, `table 6 needs the fixed setting dataFile (a CSV relative to the package's root)`);
  return { table, seed: int("seed", 0), draws: int("draws", 1), burnIn: int("burnIn", 0), latentUpdates: int("latentUpdates", 1), ...(table === 6 ? { dataFile: dataFile as string } : {}) };
}

function cellOf(job: GridJob, table: number): Cell {
  const c = job.cell;
  const int = (k: string) => {
    const v = c[k];
    if (!Number.isInteger(v) || (v as number) < 0) refuseJob(job, `${k} must be a non-negative integer, got ${JSON.stringify(v)}`);
    return v as number;
  };
  const methods: readonly string[] = table <= 4 ? THETA_SAMPLER_NAMES : SCHEME_NAMES;
  if (typeof c.method !== "string" || !methods.includes(c.method)) refuseJob(job, `table ${table} has no method ${JSON.stringify(c.method)} (known: ${methods.join(", ")})`);
  if (typeof c.group !== "string") refuseJob(job, `group must be a name, got ${JSON.stringify(c.group)}`);
  if ((table === 4 || table === 5) && !SIMULATION_LIKELIHOODS.includes(c.group as SimulationLikelihood)) refuseJob(job, `unknown likelihood ${JSON.stringify(c.group)}`);
  return { group: c.group, n: int("n"), d: int("d"), dataSet: int("data-set"), method: c.method, chain: int("chain") };
}

let cached: { key: string; problem: HyperProblem } | undefined;

/** The cell's data set (kept for the next job of the same data set in this thread). */
function problemFor(s: HyperChainSettings & { dataFile?: string }, cell: Cell, job: GridJob): HyperProblem {
  const key = s.table === 6 ? `file ${s.dataFile}` : `${s.seed}/${s.table === 3 ? "logistic" : cell.group}/${cell.n}/${cell.d}/${cell.dataSet}`;
  if (cached?.key !== key) {
    cached = undefined;
    const problem = s.table === 6 ? csvProblem(s.dataFile!) : simulatedProblem(s.seed, (s.table === 3 ? "logistic" : cell.group) as SimulationLikelihood, cell.n, cell.d, cell.dataSet);
    if (problem.n !== cell.n || problem.d !== cell.d) refuseJob(job, `the data set is n=${problem.n} d=${problem.d}, the cell says n=${cell.n} d=${cell.d}`);
    cached = { key, problem };
  }
  return cached.problem;
}

/** Runs one job (in whichever thread or process the pool or queue worker gives it). */
export function hyperChainJob(job: GridJob, context?: TaskContext): HyperChainJobResult {
  const t0 = performance.now();
  const s = settingsOf(job);
  const cell = cellOf(job, s.table);
  // The chain's seeds are those of this identity only if the grid is named as hyperChainSeed expects.
  const expected = cellIdentity(`hyperTables table=${s.table} seed=${s.seed}`, job.cell);
  if (job.identity !== expected) refuseJob(job, `the grid must be named "hyperTables table=${s.table} seed=${s.seed}" with the axes group, n, d, data-set, method, chain in that order (the chain's seed is the hash of "${expected}")`);
  const problem = problemFor(s, cell, job);
  const resume = readJobCheckpoint<HyperChainCheckpoint>(job);
  const m = s.table === 3 ? problem.d : problem.d + 1;
  const why = resume && checkpointMismatch(resume, { m, draws: s.draws, burnIn: s.burnIn });
  if (why) refuseJob(job, `${jobCheckpointPath(job)}: ${why}`);
  const out = runOneChain(s, cell.group, problem, cell.dataSet, cell.method, cell.chain, {
    every: job.checkpointEvery, resume,
    save: (cp) => writeJobCheckpoint(job, cp),
    shouldStop: context ? () => context.stopRequested() : undefined,
  });
  if (out.stopped) throw new Error(`${job.identity}: stopped before its end`);
  const drawsFile = writeJobDraws(job, out.m, s.draws, out.samples);
  return {
    id: job.id, identity: job.identity, cell: job.cell, dim: out.m, draws: s.draws,
    minEss: minEssByChain(drawsArray(out.samples, 1, s.draws, out.m))[0]!,
    acceptanceRate: out.accepted / s.draws, accepted: out.accepted, steps: out.steps, ops: out.ops,
    seconds: { sampling: out.samplingMs / 1000, job: (performance.now() - t0) / 1000 },
    drawsFile, worker: { host: hostname(), pid: process.pid }, resumed: resume !== undefined,
  };
}

// theta's sampled components, in the order of its chains (hyperChains.ts)
registerGridJobKind(HYPER_CHAIN, import.meta.url, "hyperChainJob", ["table", "seed", "draws", "burnIn", "latentUpdates", "dataFile"], (dim) => vectorNames("theta", dim));
