/**
 * Girolami & Calderhead (2011), Tables 11 and 12 and Figure 6: the stochastic volatility model on
 * T = 2000 returns simulated with beta = 0.65, sigma = 0.15, phi = 0.98, sampled by the two-block
 * Gibbs sampler (run/volatilityGibbs.ts) with MALA, HMC, mMALA and RMHMC in both blocks: the
 * seconds of each run (burn-in included, as the paper's s / min-ESS divides the whole run's time),
 * ESS (Geyer's initial monotone sequence) of beta, sigma, phi and min / median / max over the
 * volatilities, and each parameter's posterior density (kernel estimate) for Figure 6.
 *
 *   node dist/experiments/volatility.js [--configs rmhmc,rmhmc;mmala,rmhmc@-,20] [--runs 1] [--first-run 0]
 *     [--burn-in 2000] [--draws 5000] [--json FILE]
 *
 * A configuration is P,V (the parameters' and the volatilities' samplers), optionally @LP,LV with
 * their leapfrog steps (- keeps the default), and #EP,EV with fixed step sizes (no adaptation). The data set's seed is a stable hash of its identity,
 * each run's of (configuration, run): never a loop position. One chain per run, from
 * svInitialPoint (beta the root mean square of y, sigma 0.2, phi 0.9, x = 0), step sizes adapted
 * per block in burn-in. Runs first-run .. first-run + runs - 1 (so that runs can be spread over
 * invocations; volatilityTable.ts merges their files). The JSON file is rewritten after each run.
 *
 * Time is measured twice: wall-clock seconds (the driver's) and the process's CPU seconds over the
 * run (process.cpuUsage, user + system). The chain is single-threaded, so on a machine shared with
 * other jobs the CPU seconds are what the run would take alone; the tables use them.
 */
import { writeFileSync } from "node:fs";
import { essGeyer } from "../src/diagnostics/ess.js";
import { getBackend } from "../src/linalg/backend.js";
import { SV_TRUTH } from "../src/models/volatility/svModel.js";
import { simulateVolatility } from "../src/models/volatility/svSimulate.js";
import { Rng } from "../src/random/rng.js";
import { kernelDensities } from "../src/report/curves.js";
import { isSvSamplerName, svGibbsKernel, svInitialPoint, type SvSamplerName } from "../src/run/volatilityGibbs.js";
import { runChain } from "../src/samplers/driver.js";
import { cellSeed } from "./cellSeed.js";

export interface SvConfig {
  label: string;
  parameters: SvSamplerName;
  volatilities: SvSamplerName;
  parameterSteps?: number;
  volatilitySteps?: number;
  /** Fixed step sizes (parameters, volatilities): no adaptation. */
  stepSizes?: [number, number];
}

export function parseConfig(text: string): SvConfig {
  const [spec, fixed] = text.split("#");
  const [pair, steps] = spec.split("@");
  const [p, v] = pair.split(",");
  if (!isSvSamplerName(p) || !isSvSamplerName(v)) throw new Error(`configuration ${text}: samplers P,V from rmhmc, mmala, mala, hmc`);
  const [lp, lv] = (steps ?? "-,-").split(",").map((s) => (s === "-" || s === undefined ? undefined : Number(s)));
  const stepSizes = fixed === undefined ? undefined : (fixed.split(",").map(Number) as [number, number]);
  if (stepSizes && !(stepSizes.length === 2 && stepSizes.every((e) => e > 0))) throw new Error(`configuration ${text}: #EP,EV, two positive step sizes`);
  return { label: text, parameters: p, volatilities: v, parameterSteps: lp, volatilitySteps: lv, stepSizes };
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

/** The data of Section 8.3: its seed is the hash of its identity. */
export function svExperimentData(): Float64Array {
  return simulateVolatility(SV_TRUTH.T, SV_TRUTH.beta, SV_TRUTH.sigma, SV_TRUTH.phi, cellSeed("volatility", "data", SV_TRUTH.T)).y;
}

function column(samples: Float64Array, dim: number, draws: number, j: number): Float64Array {
  const col = new Float64Array(draws);
  for (let i = 0; i < draws; i++) col[i] = samples[i * dim + j];
  return col;
}

/** One run of one configuration. */
export function runCell(y: Float64Array, config: SvConfig, run: number, burnIn: number, draws: number): SvCell {
  const seed = cellSeed("volatility", config.label, run);
  const kernel = svGibbsKernel(y, {
    parameters: { sampler: config.parameters, leapfrogSteps: config.parameterSteps, stepSize: config.stepSizes?.[0], adapt: !config.stepSizes },
    volatilities: { sampler: config.volatilities, leapfrogSteps: config.volatilitySteps, stepSize: config.stepSizes?.[1], adapt: !config.stepSizes },
    adaptIterations: burnIn,
  });
  const init = svInitialPoint(y);
  const cpu0 = process.cpuUsage();
  const r = runChain(kernel, new Rng(seed), { draws, burnIn, init });
  const cpu = process.cpuUsage(cpu0);
  const dim = init.length;
  const cols = [0, 1, 2].map((j) => column(r.samples, dim, draws, j));
  const [eb, es, ep] = cols.map((c) => essGeyer([c]));
  const vEss = Array.from({ length: dim - 3 }, (_, k) => essGeyer([column(r.samples, dim, draws, 3 + k)])).sort((a, b) => a - b);
  const stats = cols.map((c) => {
    const m = c.reduce((a, b) => a + b, 0) / draws;
    return { m, sd: Math.sqrt(c.reduce((a, b) => a + (b - m) ** 2, 0) / (draws - 1)) };
  });
  const names = ["beta", "sigma", "phi"];
  const densities = cols.map((c, j) => {
    const { grid, densities: d } = kernelDensities([c], 100);
    return { name: names[j], grid: Array.from(grid), density: Array.from(d[0] ?? []) };
  });
  return {
    config: config.label, run, seed, seconds: r.seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6,
    ess: { beta: eb, sigma: es, phi: ep },
    volatilityEss: { min: vEss[0], median: vEss[Math.floor(vEss.length / 2)], max: vEss[vEss.length - 1] },
    blocks: kernel.summary().map(({ name, stepSize, acceptanceRate }) => ({ name, stepSize, acceptanceRate })),
    means: { beta: stats[0].m, sigma: stats[1].m, phi: stats[2].m },
    sds: { beta: stats[0].sd, sigma: stats[1].sd, phi: stats[2].sd },
    densities,
  };
}

function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

function main(): void {
  const args = process.argv.slice(2);
  const configs = arg(args, "--configs", "mala,mala;hmc,hmc;mmala,mmala;rmhmc,rmhmc").split(";").map(parseConfig);
  const runs = Number(arg(args, "--runs", "1"));
  const firstRun = Number(arg(args, "--first-run", "0"));
  const burnIn = Number(arg(args, "--burn-in", "2000"));
  const draws = Number(arg(args, "--draws", "5000"));
  const jsonFile = args.includes("--json") ? arg(args, "--json", "") : undefined;
  const y = svExperimentData();
  const cells: SvCell[] = [];
  const backend = getBackend().describe();
  const write = () => {
    const result = {
      experiment: "Girolami & Calderhead 2011, Tables 11-12 and Figure 6 (reduced)",
      data: { T: SV_TRUTH.T, beta: SV_TRUTH.beta, sigma: SV_TRUTH.sigma, phi: SV_TRUTH.phi, seed: cellSeed("volatility", "data", SV_TRUTH.T) },
      burnIn, draws, runs, backend: `${backend.backend} (${backend.library})`, node: process.version, cells,
    };
    if (jsonFile) writeFileSync(jsonFile, JSON.stringify(result) + "\n");
    else process.stdout.write(JSON.stringify(result) + "\n");
  };
  for (const config of configs) {
    for (let run = firstRun; run < firstRun + runs; run++) {
      const cell = runCell(y, config, run, burnIn, draws);
      cells.push(cell);
      if (jsonFile) write();
      const t = cell.cpuSeconds;
      process.stderr.write(
        `${config.label} run ${run}: ${t.toFixed(1)} CPU s (${cell.seconds.total.toFixed(1)} s wall); ESS beta ${cell.ess.beta.toFixed(0)}, sigma ${cell.ess.sigma.toFixed(0)}, phi ${cell.ess.phi.toFixed(0)}; ` +
          `x ${cell.volatilityEss.min.toFixed(0)}/${cell.volatilityEss.median.toFixed(0)}/${cell.volatilityEss.max.toFixed(0)}; ` +
          `s/min-ESS ${(t / Math.min(cell.ess.beta, cell.ess.sigma, cell.ess.phi)).toPrecision(3)} (parameters), ${(t / cell.volatilityEss.min).toPrecision(3)} (volatilities); ` +
          `means ${cell.means.beta.toFixed(3)} ${cell.means.sigma.toFixed(3)} ${cell.means.phi.toFixed(3)}; ${cell.blocks.map((b) => `${b.name} eps ${b.stepSize.toPrecision(3)} acc ${b.acceptanceRate.toFixed(2)}`).join(", ")}\n`,
      );
    }
  }
  if (!jsonFile) write();
}

if (process.argv[1]?.endsWith("volatility.js")) main();
