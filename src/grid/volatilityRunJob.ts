/**
 * The grid job kind "volatility-run": one run of Girolami & Calderhead's (2011) Section 8.3,
 * the stochastic volatility model on T = 2000 returns simulated with beta = 0.65, sigma = 0.15,
 * phi = 0.98, sampled by the two-block Gibbs sampler (models/volatility/gibbs.ts) with a sampler of
 * MALA, HMC, mMALA and RMHMC in each block (Tables 11, 12 and Figure 6). The cell names the
 * configuration (P,V, optionally @LP,LV leapfrog steps and #EP,EV fixed step sizes: parseSvConfig)
 * and the run; the fixed settings burnIn and draws. The data set's seed is the FNV-1a hash of its
 * identity, each run's of (configuration, run), as experiments/volatility.ts always drew them;
 * the grid must be named "volatility" so that its identities say the same. One chain per run, from
 * svInitialPoint (beta the root mean square of y, sigma 0.2, phi 0.9, x = 0), step sizes adapted
 * per block in burn-in. With the spec's checkpointEvery the job checkpoints (jobChain.ts: the
 * chain with each block's step size, adaptation and tallies, and the CPU seconds so far) and a
 * retried job resumes where its checkpoint left it, drawing the same chain; the draws it keeps in
 * the grid's draws directory are those of beta, sigma and phi.
 *
 * Time is measured twice: wall-clock seconds (the driver's) and the process's CPU seconds over the
 * run (process.cpuUsage, user + system), which count every thread of the process: run one job at a
 * time (the experiment's default) for CPU times that are the run's own. A resumed job's times are
 * the sums over its attempts of those of the transitions it kept.
 */
import { essGeyer } from "../diagnostics/ess.js";
import { SV_TRUTH } from "../models/volatility/svModel.js";
import { simulateVolatility } from "../models/volatility/svSimulate.js";
import type { TaskContext } from "../parallel/tasks.js";
import { Rng } from "../random/rng.js";
import { kernelDensities } from "../report/curves.js";
import { isSvSamplerName, type SvSamplerName } from "../models/volatility/gibbs.js";
import { modelInfo } from "../models/registry.js";
import { runChain } from "../samplers/chain/driver.js";
import { fnvSeed } from "./identity.js";
import { cpuClock, runJobChain } from "./jobChain.js";
import { refuseJob } from "./jobError.js";
import { figuresResult, RUN_LENGTH_SETTINGS, runLength, type FiguresJobResult } from "./parametricChainJob.js";
import { registerGridJobKind, type GridJob } from "./spec.js";
import { writeJobDraws } from "./store.js";

export const VOLATILITY_RUN = "volatility-run";

/** The model's parameters, the columns of a job's draws (the volatilities are not kept). */
const VOLATILITY_PARAMETERS = ["beta", "sigma", "phi"] as const;

export interface SvConfig {
  label: string;
  parameters: SvSamplerName;
  volatilities: SvSamplerName;
  parameterSteps?: number;
  volatilitySteps?: number;
  /** Fixed step sizes (parameters, volatilities): no adaptation. */
  stepSizes?: [number, number];
  /** The interweaving block (models/volatility/gibbs.ts) after the two others. */
  interweave?: boolean;
}

/**
 * A configuration from its text P,V[@LP,LV][#EP,EV][+iw] ("-" for a leapfrog count keeps the
 * default; +iw adds the interweaving block, its scale adapted in burn-in).
 */
export function parseSvConfig(text: string): SvConfig {
  const [core, ...extras] = text.split("+");
  for (const e of extras) if (e !== "iw") throw new Error(`configuration ${text}: unknown addition +${e} (known: +iw)`);
  const [spec, fixed] = core!.split("#");
  const [pair, steps] = spec!.split("@");
  const [p, v] = pair!.split(",");
  if (!isSvSamplerName(p ?? "") || !isSvSamplerName(v ?? "")) throw new Error(`configuration ${text}: samplers P,V from rmhmc, mmala, mala, hmc`);
  const [lp, lv] = (steps ?? "-,-").split(",").map((s) => (s === "-" || s === undefined ? undefined : Number(s)));
  const stepSizes = fixed === undefined ? undefined : (fixed.split(",").map(Number) as [number, number]);
  if (stepSizes && !(stepSizes.length === 2 && stepSizes.every((e) => e > 0))) throw new Error(`configuration ${text}: #EP,EV, two positive step sizes`);
  return { label: text, parameters: p as SvSamplerName, volatilities: v as SvSamplerName, parameterSteps: lp, volatilitySteps: lv, stepSizes, ...(extras.length > 0 ? { interweave: true } : {}) };
}

export interface SvCell {
  config: string;
  run: number;
  seed: number;
  seconds: { burnIn: number; sampling: number; total: number };
  /** CPU seconds of the whole run (burn-in included), user + system. */
  cpuSeconds: number;
  ess: { beta: number; sigma: number; phi: number };
  volatilityEss: { min: number; median: number; max: number };
  blocks: { name: string; stepSize: number; acceptanceRate: number }[];
  means: { beta: number; sigma: number; phi: number };
  sds: { beta: number; sigma: number; phi: number };
  /** Kernel density estimates of beta, sigma, phi on their grids. */
  densities: { name: string; grid: number[]; density: number[] }[];
}

/** The seed of the data of Section 8.3: the hash of its identity. */
export function svDataSeed(): number {
  return fnvSeed("volatility", "data", SV_TRUTH.T);
}

let data: Float64Array | undefined;

/** The data of Section 8.3 (kept for the next job in this thread). */
export function svExperimentData(): Float64Array {
  data ??= simulateVolatility(SV_TRUTH.T, SV_TRUTH.beta, SV_TRUTH.sigma, SV_TRUTH.phi, svDataSeed()).y;
  return data;
}

function column(samples: Float64Array, dim: number, draws: number, j: number): Float64Array {
  const col = new Float64Array(draws);
  for (let i = 0; i < draws; i++) col[i] = samples[i * dim + j]!;
  return col;
}

/** One run of one configuration, and its draws (draws x (3 + T), draw-major); given a job, checkpointed into its checkpoint directory and resumed from there. */
export function volatilityRun(y: Float64Array, config: SvConfig, run: number, burnIn: number, draws: number, job?: { job: GridJob; context?: TaskContext }): { cell: SvCell; samples: Float64Array; resumed: boolean } {
  const seed = fnvSeed("volatility", config.label, run);
  const m = modelInfo.volatility;
  const { kernel, init } = m.sampler(m.buildTarget(y, { interweave: config.interweave === true }), `${config.parameters},${config.volatilities}`, {
    parameters: { leapfrogSteps: config.parameterSteps, stepSize: config.stepSizes?.[0], adapt: !config.stepSizes },
    volatilities: { leapfrogSteps: config.volatilitySteps, stepSize: config.stepSizes?.[1], adapt: !config.stepSizes },
    adapt: burnIn > 0,
  });
  const cpu = cpuClock();
  const options = { draws, burnIn, init };
  const r = job ? runJobChain(job.job, job.context, kernel, seed, options, cpu.keeper("cpuSeconds")) : { ...runChain(kernel, new Rng(seed), options), resumed: false };
  const cpuSeconds = cpu.seconds();
  const dim = init.length;
  const cols = [0, 1, 2].map((j) => column(r.samples, dim, draws, j));
  const [eb, es, ep] = cols.map((c) => essGeyer([c])) as [number, number, number];
  const vEss = Array.from({ length: dim - 3 }, (_, k) => essGeyer([column(r.samples, dim, draws, 3 + k)])).sort((a, b) => a - b);
  const stats = cols.map((c) => {
    const m = c.reduce((a, b) => a + b, 0) / draws;
    return { m, sd: Math.sqrt(c.reduce((a, b) => a + (b - m) ** 2, 0) / (draws - 1)) };
  });
  const names = VOLATILITY_PARAMETERS;
  const densities = cols.map((c, j) => {
    const { grid, densities: d } = kernelDensities([c], 100);
    return { name: names[j]!, grid: Array.from(grid), density: Array.from(d[0] ?? []) };
  });
  const cell: SvCell = {
    config: config.label, run, seed, seconds: r.seconds, cpuSeconds,
    ess: { beta: eb, sigma: es, phi: ep },
    volatilityEss: { min: vEss[0]!, median: vEss[Math.floor(vEss.length / 2)]!, max: vEss[vEss.length - 1]! },
    blocks: kernel.summary().map(({ name, stepSize, acceptanceRate }) => ({ name, stepSize, acceptanceRate })),
    means: { beta: stats[0]!.m, sigma: stats[1]!.m, phi: stats[2]!.m },
    sds: { beta: stats[0]!.sd, sigma: stats[1]!.sd, phi: stats[2]!.sd },
    densities,
  };
  return { cell, samples: r.samples, resumed: r.resumed };
}

/** What a job of this kind returns. */
export type VolatilityRunJobResult = FiguresJobResult<SvCell>;

/** Runs one job (in whichever thread or process the pool or queue worker gives it). */
export function volatilityRunJob(job: GridJob, context?: TaskContext): VolatilityRunJobResult {
  const t0 = performance.now();
  const { burnIn, draws } = runLength(job);
  const { config: label, run } = job.cell;
  if (!Number.isInteger(run) || (run as number) < 0) refuseJob(job, `run must be a non-negative integer, got ${JSON.stringify(run)}`);
  let config: SvConfig;
  try {
    config = parseSvConfig(String(label));
  } catch (e) {
    refuseJob(job, (e as Error).message);
  }
  // The run's seed hashes ("volatility", configuration, run): the identity must say just that.
  if (job.identity !== `volatility config=${label} run=${run}`) refuseJob(job, `the grid must be named "volatility" with the axes config, run in that order (the run's seed hashes the configuration and the run)`);
  const { cell, samples, resumed } = volatilityRun(svExperimentData(), config, run as number, burnIn, draws, { job, context });
  // The draws of beta, sigma and phi (the T volatilities' would be 16 T bytes a draw; their ESS are in the figures).
  const dim = samples.length / draws;
  const parameters = new Float64Array(draws * 3);
  for (let i = 0; i < draws; i++) parameters.set(samples.subarray(i * dim, i * dim + 3), i * 3);
  const drawsFile = writeJobDraws(job, 3, draws, parameters);
  return figuresResult(job, {
    dim: 3, draws, minEss: Math.min(cell.ess.beta, cell.ess.sigma, cell.ess.phi, cell.volatilityEss.min), acceptanceRate: cell.blocks[0]?.acceptanceRate ?? NaN,
    drawsFile, figures: cell, samplingSeconds: cell.cpuSeconds, t0, resumed,
  });
}

registerGridJobKind(VOLATILITY_RUN, import.meta.url, "volatilityRunJob", RUN_LENGTH_SETTINGS, () => [...VOLATILITY_PARAMETERS]);
