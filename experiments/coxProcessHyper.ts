/**
 * Girolami & Calderhead (2011), Section 9.1, Figure 9 (a short run): the hyperparameters
 * (sigma, beta) of the log-Gaussian Cox process sampled with the latent field by Gibbs steps, on
 * either grid covariance (--covariance):
 *
 * - euclidean (the paper's eq. 31; the default): experiments/coxProcessHyperEuclidean.ts, the Gibbs
 *   sweep of models/coxProcess/hyperGibbs.ts on the torus field w of the circulant embedding, on the
 *   data of the Euclidean Table 13 (experiments/coxProcess.ts, its data seed); results in
 *   experiments/results/lgcp-euclidean;
 * - separable (below): on the separable Table 13's data; results in experiments/results/lgcp.
 *
 * The separable scheme:
 *
 *   x | y, sigma, beta:  --x-transitions RMHMC transitions with the constant metric Lambda + Sigma^-1
 *                        (plain leapfrog, models/coxProcess/samplers.ts; 1..20 random steps of a fixed size);
 *   (log sigma, log beta) | x:  one RMHMC transition (generalised leapfrog, samplers/kernels/rmhmc.ts) with
 *                        the metric D_theta of eq. 39 and its derivatives (models/coxProcess/hyperparameters.ts,
 *                        the Kronecker traces),
 *
 * mu fixed at its true value as in the paper. The chain starts away from the truth: sigma = 1, beta = 0.1, and x a
 * draw of the field given those values (30 RMHMC transitions from its posterior mode; from x = mu 1,
 * or from the mode itself, the field is smoother than a draw and the first steps shrink sigma).
 * Writes the draws of sigma and beta, their posterior means and sds after burn-in, a kernel density
 * estimate of each (Figure 9) as an SVG, and the time.
 *
 *   node dist/experiments/coxProcessHyper.js [--covariance euclidean|separable] [--grid 64]
 *     [--iterations 300] [--burn-in 100] [--x-step 0.15] [--x-transitions 3] [--theta-step 0.5]
 *     [--start 1,0.1] [--name figure9] [--torus M] [--non-centred-steps K] (the last two: euclidean only)
 *     [--out experiments/results/lgcp-euclidean, or lgcp for the separable covariance]
 *
 * --start gives the starting (sigma, beta); --name the stem of the output files (NAME.json, NAME.svg);
 * --mean-count C simulates data with C expected points instead of the paper's 126 (mu =
 * log(C) - sigma^2/2), for data informative enough to pin (sigma, beta) down.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getBackend } from "../src/linalg/backend.js";
import { coxProcessModel, paperHyperparameters } from "../src/models/coxProcess/coxProcess.js";
import { coxHyperparameterModel } from "../src/models/coxProcess/hyperparameters.js";
import { coxProcessMode } from "../src/models/coxProcess/mode.js";
import { simulateCoxProcess } from "../src/models/coxProcess/simulate.js";
import { Rng } from "../src/random/rng.js";
import { coxProcessSampler } from "../src/models/coxProcess/samplers.js";
import { rmhmc } from "../src/samplers/kernels/rmhmc.js";
import { denseMetricTarget } from "../src/targets/denseMetric.js";
import { dataSeed } from "./coxProcessData.js";
import { euclideanFigure9 } from "./coxProcessHyperEuclidean.js";
import { runAsCommand } from "./experimentScript.js";
import { densitySvg, meanSd } from "./figure9Output.js";
import { seedOfIdentity } from "./table2.js";

function option(argv: string[], name: string, fallback: string): string {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
}

async function main(argv: string[]): Promise<number> {
  const side = Number(option(argv, "--grid", "64"));
  const iterations = Number(option(argv, "--iterations", "300"));
  const burnIn = Number(option(argv, "--burn-in", "100"));
  const xStep = Number(option(argv, "--x-step", "0.15"));
  const thetaStep = Number(option(argv, "--theta-step", "0.5"));
  const xTransitions = Number(option(argv, "--x-transitions", "3"));
  const [sigma0, beta0] = option(argv, "--start", "1,0.1").split(",").map(Number);
  const stem = option(argv, "--name", "figure9");
  const meanCount = Number(option(argv, "--mean-count", "126"));
  const covariance = option(argv, "--covariance", "euclidean");
  if (covariance !== "euclidean" && covariance !== "separable") throw new Error(`--covariance: ${covariance} is not one of euclidean, separable`);
  const outDir = option(argv, "--out", join("experiments", "results", covariance === "euclidean" ? "lgcp-euclidean" : "lgcp"));
  mkdirSync(outDir, { recursive: true });
  getBackend().setThreads(1);
  const paper = paperHyperparameters();
  const truth = { ...paper, mu: Math.log(meanCount) - paper.sigma2 / 2 };
  if (covariance === "euclidean") {
    const torus = argv.includes("--torus") ? Number(option(argv, "--torus", "")) : undefined;
    const nonCentredSteps = Number(option(argv, "--non-centred-steps", "0"));
    if (!Number.isInteger(nonCentredSteps) || nonCentredSteps < 0) throw new Error(`--non-centred-steps: ${nonCentredSteps} is not a whole number >= 0`);
    euclideanFigure9({ argv, side, iterations, burnIn, xStep, thetaStep, xTransitions, start: [sigma0, beta0], stem, meanCount, outDir, truth, torus, nonCentredSteps });
    return 0;
  }
  const sim = simulateCoxProcess(side, truth, dataSeed(side), undefined, "separable");
  const rng = new Rng(seedOfIdentity(`lgcp figure9 grid=${side} start=${sigma0},${beta0}${meanCount === 126 ? "" : ` mean-count=${meanCount}`} run=0`));
  let phi = Float64Array.of(Math.log(sigma0), Math.log(beta0));
  const startModel = coxProcessModel(side, sim.counts, { sigma2: sigma0 * sigma0, beta: beta0, mu: truth.mu });
  const warm = coxProcessSampler(startModel, "rmhmc", { stepSize: xStep, adapt: false });
  let warmState = warm.kernel.init(coxProcessMode(startModel).mode);
  for (let t = 0; t < 30; t++) warmState = warm.kernel.step(warmState, rng).state;
  let x = Float64Array.from(warmState.position);
  const sigmas: number[] = [];
  const betas: number[] = [];
  let xAccepted = 0;
  let thetaAccepted = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let it = 0; it < iterations; it++) {
    const sigma = Math.exp(phi[0]);
    const beta = Math.exp(phi[1]);
    const model = coxProcessModel(side, sim.counts, { sigma2: sigma * sigma, beta, mu: truth.mu });
    const xs = coxProcessSampler(model, "rmhmc", { stepSize: xStep, adapt: false });
    let xState = xs.kernel.init(x);
    for (let t = 0; t < xTransitions; t++) {
      const xt = xs.kernel.step(xState, rng);
      xState = xt.state;
      if (xt.info.accepted) xAccepted++;
    }
    x = Float64Array.from(xState.position);
    const th = rmhmc(denseMetricTarget(coxHyperparameterModel(side, x, truth.mu)), { stepSize: thetaStep, leapfrogSteps: 3 });
    const tt = th.step(th.init(phi), rng);
    phi = Float64Array.from(tt.state.position);
    if (tt.info.accepted) thetaAccepted++;
    sigmas.push(Math.exp(phi[0]));
    betas.push(Math.exp(phi[1]));
    if ((it + 1) % 25 === 0) process.stderr.write(`iteration ${it + 1}: sigma ${Math.exp(phi[0]).toFixed(3)}, beta ${Math.exp(phi[1]).toFixed(4)}\n`);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const kept = (v: number[]) => v.slice(burnIn);

  const result = {
    experiment: "Girolami & Calderhead 2011, Section 9.1, Figure 9 (a short Gibbs run)",
    command: `node dist/experiments/coxProcessHyper.js ${argv.join(" ")}`.trim(),
    grid: side, iterations, burnIn, xStep, thetaStep, thetaLeapfrogSteps: 3,
    truth: { sigma: Math.sqrt(truth.sigma2), beta: truth.beta, mu: truth.mu },
    meanCount, totalCount: sim.counts.reduce((a, b) => a + b, 0),
    start: { sigma: sigma0, beta: beta0 },
    seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, secondsPerIteration: seconds / iterations,
    xTransitionsPerIteration: xTransitions,
    acceptance: { x: xAccepted / (iterations * xTransitions), theta: thetaAccepted / iterations },
    posterior: { sigma: meanSd(kept(sigmas)), beta: meanSd(kept(betas)) },
    draws: { sigma: sigmas, beta: betas },
    backend: getBackend().describe().backend, node: process.version,
  };
  writeFileSync(join(outDir, `${stem}.json`), JSON.stringify(result, null, 1) + "\n");
  writeFileSync(join(outDir, `${stem}.svg`), densitySvg([
    { label: "sigma", draws: kept(sigmas), truth: Math.sqrt(truth.sigma2) },
    { label: "beta", draws: kept(betas), truth: truth.beta },
  ]));
  process.stderr.write(`${seconds.toFixed(1)} s; sigma ${result.posterior.sigma.mean.toFixed(3)} +- ${result.posterior.sigma.sd.toFixed(3)} (true ${result.truth.sigma.toFixed(3)}), beta ${result.posterior.beta.mean.toFixed(4)} +- ${result.posterior.beta.sd.toFixed(4)} (true ${truth.beta.toFixed(4)})\n`);
  return 0;
}

await runAsCommand(import.meta.url, "coxProcessHyper", main);
