/**
 * Girolami & Calderhead (2011), Section 9.1, Figure 9 (a short run): the hyperparameters
 * (sigma, beta) of the log-Gaussian Cox process sampled with the latent field by Gibbs steps,
 *
 *   x | y, sigma, beta:  --x-transitions RMHMC transitions with the constant metric Lambda + Sigma^-1
 *                        (plain leapfrog, run/coxProcess.ts; 1..20 random steps of a fixed size);
 *   (log sigma, log beta) | x:  one RMHMC transition (generalised leapfrog, samplers/rmhmc.ts) with
 *                        the metric D_theta of eq. 39 and its derivatives (models/coxProcess/hyperparameters.ts),
 *
 * mu fixed at its true value as in the paper, on the data of experiments/coxProcess.ts with the
 * separable covariance (the same grid, the same data seed): the hyperparameter model
 * (hyperparameters.ts) is written for the separable covariance's Kronecker traces only. The chain starts away from the truth: sigma = 1, beta = 0.1, and x a
 * draw of the field given those values (30 RMHMC transitions from its posterior mode; from x = mu 1,
 * or from the mode itself, the field is smoother than a draw and the first steps shrink sigma).
 * Writes the draws of sigma and beta, their posterior means and sds after burn-in, a kernel density
 * estimate of each (Figure 9) as an SVG, and the time.
 *
 *   node dist/experiments/coxProcessHyper.js [--grid 64] [--iterations 300] [--burn-in 100]
 *     [--x-step 0.15] [--x-transitions 3] [--theta-step 0.5] [--start 1,0.1] [--name figure9]
 *     [--out experiments/results/lgcp]
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
import { coxProcessSampler } from "../src/run/coxProcess.js";
import { rmhmc } from "../src/samplers/rmhmc.js";
import { denseMetricTarget } from "../src/targets/denseMetric.js";
import { dataSeed } from "./coxProcessData.js";
import { seedOfIdentity } from "./table2.js";

function option(argv: string[], name: string, fallback: string): string {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
}

/** Gaussian kernel density estimate on a grid, Silverman's bandwidth. */
function kde(v: number[], lo: number, hi: number, points = 100): { x: number[]; y: number[] } {
  const m = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1));
  const h = 1.06 * sd * Math.pow(v.length, -0.2);
  const x = Array.from({ length: points }, (_, i) => lo + ((hi - lo) * i) / (points - 1));
  const y = x.map((t) => v.reduce((a, u) => a + Math.exp(-0.5 * ((t - u) / h) ** 2), 0) / (v.length * h * Math.sqrt(2 * Math.PI)));
  return { x, y };
}

function densitySvg(panels: { label: string; draws: number[]; truth: number }[]): string {
  const w = 320;
  const h = 220;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${w * panels.length}" height="${h}" font-family="sans-serif" font-size="12">`];
  panels.forEach((p, k) => {
    const lo = Math.min(...p.draws, p.truth);
    const hi = Math.max(...p.draws, p.truth);
    const pad = 0.15 * (hi - lo);
    const d = kde(p.draws, lo - pad, hi + pad);
    const ymax = Math.max(...d.y);
    const sx = (t: number) => k * w + 30 + ((t - (lo - pad)) / (hi - lo + 2 * pad)) * (w - 50);
    const sy = (t: number) => h - 30 - (t / ymax) * (h - 60);
    parts.push(`<polyline fill="none" stroke="#3b518b" stroke-width="2" points="${d.x.map((t, i) => `${sx(t).toFixed(1)},${sy(d.y[i]).toFixed(1)}`).join(" ")}"/>`);
    parts.push(`<line x1="${sx(p.truth).toFixed(1)}" x2="${sx(p.truth).toFixed(1)}" y1="${sy(0)}" y2="${sy(ymax)}" stroke="#c0392b" stroke-dasharray="4 3"/>`);
    parts.push(`<line x1="${k * w + 30}" x2="${k * w + w - 20}" y1="${sy(0)}" y2="${sy(0)}" stroke="black"/>`);
    parts.push(`<text x="${k * w + 30}" y="18">${p.label}: density of the draws (line), true value (dashed)</text>`);
    parts.push(`<text x="${k * w + 30}" y="${h - 10}">${(lo - pad).toPrecision(3)}</text><text x="${k * w + w - 60}" y="${h - 10}">${(hi + pad).toPrecision(3)}</text>`);
  });
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}

function main(argv: string[]): void {
  const side = Number(option(argv, "--grid", "64"));
  const iterations = Number(option(argv, "--iterations", "300"));
  const burnIn = Number(option(argv, "--burn-in", "100"));
  const xStep = Number(option(argv, "--x-step", "0.15"));
  const thetaStep = Number(option(argv, "--theta-step", "0.5"));
  const xTransitions = Number(option(argv, "--x-transitions", "3"));
  const [sigma0, beta0] = option(argv, "--start", "1,0.1").split(",").map(Number);
  const stem = option(argv, "--name", "figure9");
  const meanCount = Number(option(argv, "--mean-count", "126"));
  const outDir = option(argv, "--out", join("experiments", "results", "lgcp"));
  mkdirSync(outDir, { recursive: true });
  getBackend().setThreads(1);
  const paper = paperHyperparameters();
  const truth = { ...paper, mu: Math.log(meanCount) - paper.sigma2 / 2 };
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
  const stats = (v: number[]) => {
    const m = v.reduce((a, b) => a + b, 0) / v.length;
    return { mean: m, sd: Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1)) };
  };
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
    posterior: { sigma: stats(kept(sigmas)), beta: stats(kept(betas)) },
    draws: { sigma: sigmas, beta: betas },
    backend: getBackend().describe().backend, node: process.version,
  };
  writeFileSync(join(outDir, `${stem}.json`), JSON.stringify(result, null, 1) + "\n");
  writeFileSync(join(outDir, `${stem}.svg`), densitySvg([
    { label: "sigma", draws: kept(sigmas), truth: Math.sqrt(truth.sigma2) },
    { label: "beta", draws: kept(betas), truth: truth.beta },
  ]));
  process.stderr.write(`${seconds.toFixed(1)} s; sigma ${result.posterior.sigma.mean.toFixed(3)} +- ${result.posterior.sigma.sd.toFixed(3)} (true ${result.truth.sigma.toFixed(3)}), beta ${result.posterior.beta.mean.toFixed(4)} +- ${result.posterior.beta.sd.toFixed(4)} (true ${truth.beta.toFixed(4)})\n`);
}

main(process.argv.slice(2));
