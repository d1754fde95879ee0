/**
 * Girolami & Calderhead (2011), Table 14 (reduced): the Fitzhugh-Nagumo parameters (a, b, c)
 * from the paper's synthetic data (200 times on [0, 20], a = b = 0.2, c = 3, V(0) = -1,
 * R(0) = 1, noise sd 0.5), sampled by component-wise MH, MALA, HMC, mMALA, simplified mMALA and
 * RMHMC, one chain per run started at the posterior mode (the paper: "a single Markov chain
 * initialised on the true mode"): seconds of sampling, ESS of a, b, c (Geyer's initial monotone
 * sequence), s / min-ESS, and the ODE solves each run needed, by order of sensitivities.
 *
 *   node dist/experiments/fitzhughNagumo.js [--runs 3] [--burn-in 500] [--draws 1000]
 *     [--samplers mh-componentwise,mala,hmc,mmala,simplified-mmala,rmhmc] [--json FILE]
 *
 * Seeds come from identities through seedOfIdentity (experiments/table2.ts): the data set's
 * from "fitzhugh-nagumo data", each run's from its sampler and run number.
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { essGeyer } from "../src/diagnostics/ess.js";
import { getBackend } from "../src/linalg/backend.js";
import { posteriorMode } from "../src/models/fitzhughNagumo/mode.js";
import { fitzhughNagumoModel, type FitzhughNagumoModel } from "../src/models/fitzhughNagumo/model.js";
import { simulateFitzhughNagumo } from "../src/models/fitzhughNagumo/simulate.js";
import { runChain } from "../src/samplers/driver.js";
import { parametricSampler, type ParametricSamplerName } from "../src/samplers/parametricRegistry.js";
import { Rng } from "../src/random/rng.js";
import { denseMetricTarget, type DenseMetricModel } from "../src/targets/denseMetric.js";
import { seedOfIdentity } from "./table2.js";

export const TABLE14_SAMPLERS: ParametricSamplerName[] = ["mh-componentwise", "mala", "hmc", "mmala", "simplified-mmala", "rmhmc"];
export const DATA_IDENTITY = "fitzhugh-nagumo data";

/** The model with counters of its solves: states only, with first-order, with second-order sensitivities. */
function counted(model: FitzhughNagumoModel): { model: DenseMetricModel; solves: number[] } {
  const solves = [0, 0, 0];
  return {
    solves,
    model: {
      dim: model.dim,
      logDensity: (x) => (solves[0]++, model.logDensity(x)),
      logDensityAndGradient: (x, g) => (solves[1]++, model.logDensityAndGradient(x, g)),
      denseMetric: (x, d) => (solves[d ? 2 : 1]++, model.denseMetric(x, d)),
    },
  };
}

function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

function main(): void {
  const args = process.argv.slice(2);
  const samplers = arg(args, "--samplers", TABLE14_SAMPLERS.join(",")).split(",") as ParametricSamplerName[];
  const runs = Number(arg(args, "--runs", "3"));
  const burnIn = Number(arg(args, "--burn-in", "500"));
  const draws = Number(arg(args, "--draws", "1000"));
  const jsonFile = args.includes("--json") ? arg(args, "--json", "") : undefined;
  const data = simulateFitzhughNagumo({}, seedOfIdentity(DATA_IDENTITY));
  const base = fitzhughNagumoModel(data);
  const mode = posteriorMode(base, [0.2, 0.2, 3]);
  process.stderr.write(`posterior mode (${Array.from(mode.theta, (x) => x.toFixed(4)).join(", ")}), ${mode.reason}\n`);
  const cells = [];
  for (const sampler of samplers) {
    for (let run = 0; run < runs; run++) {
      const seed = seedOfIdentity(`fitzhugh-nagumo sampler=${sampler} run=${run}`);
      const { model, solves } = counted(base);
      const target = denseMetricTarget(model);
      const init = Float64Array.from(mode.theta);
      const { kernel, adapt } = parametricSampler(target, sampler, init, burnIn);
      const r = runChain(kernel, new Rng(seed), { draws, burnIn, init, adapt });
      const ess: number[] = [];
      const means: number[] = [];
      const sds: number[] = [];
      for (let j = 0; j < 3; j++) {
        const col = Float64Array.from({ length: draws }, (_, i) => r.samples[i * 3 + j]);
        ess.push(essGeyer([col]));
        const m = col.reduce((a, b) => a + b, 0) / draws;
        means.push(m);
        sds.push(Math.sqrt(col.reduce((a, b) => a + (b - m) ** 2, 0) / (draws - 1)));
      }
      const minEss = Math.min(...ess);
      const cell = {
        sampler, run, seed: seed.toString(), seconds: r.seconds.sampling, burnInSeconds: r.seconds.burnIn, ess, minEss,
        secondsPerMinEss: r.seconds.sampling / minEss, acceptanceRate: r.summary.acceptanceRate, divergences: r.summary.divergences,
        stepSize: r.tunedValue ?? null, means, sds, solves: { statesOnly: solves[0], firstOrder: solves[1], secondOrder: solves[2] },
      };
      cells.push(cell);
      process.stderr.write(`${sampler} run ${run}: ${cell.seconds.toFixed(1)} s, ESS ${ess.map((e) => e.toFixed(0)).join("/")}, s/min-ESS ${cell.secondsPerMinEss.toPrecision(3)}, accept ${cell.acceptanceRate.toFixed(2)}\n`);
    }
  }
  const backend = getBackend().describe();
  const result = {
    experiment: "Girolami & Calderhead 2011, Table 14 (reduced)", burnIn, draws, runs, dataSeedIdentity: DATA_IDENTITY,
    mode: Array.from(mode.theta), backend: `${backend.backend} (${backend.library})`, node: process.version, cells,
  };
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(result, null, 1) + "\n");
  else process.stdout.write(JSON.stringify(result) + "\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
