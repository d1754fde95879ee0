/**
 * Figure 9 on the paper's Euclidean covariance (Girolami & Calderhead 2011, Section 9.1, eq. 31):
 * (sigma, beta) and the field by the Gibbs sweep of models/coxProcess/hyperGibbs.ts, on the data of the
 * Euclidean Table 13 (experiments/coxProcess.ts: the same grid, the same data seed). Each iteration:
 *
 *   (log sigma, log beta) | w:  one RMHMC transition (generalised leapfrog, 3 steps of --theta-step,
 *                        fixed points to 1e-8) with D_theta of eq. 39 for the torus field w
 *                        (models/coxProcess/euclideanHyperparameters.ts) plus the priors of
 *                        models/coxProcess/hyperparameters.ts's PRIOR;
 *   w | y, sigma, beta:  re-whitened, nu = C^-1/2 (w - mu), then --x-transitions RMHMC transitions of
 *                        nu with the constant metric I + lambda C (1..20 random steps of --x-step);
 *   (log sigma, log beta) | nu, y:  with --non-centred-steps K > 0, K random-walk Metropolis steps
 *                        (scale 0.3) with the whitened field fixed (interweaving; default 0, none).
 *
 * mu fixed at its true value as in the paper. The start: the torus field drawn from its prior at
 * the starting (sigma, beta), then 30 field transitions at those values. The torus is fixed for the
 * chain (--torus; default the smallest power of two >= 2n, 128 for n = 64): the prior on beta is
 * truncated to the betas whose embedding on it is positive definite (supportLimit, recorded).
 * Run through experiments/coxProcessHyper.ts (--covariance euclidean, its default).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { getBackend } from "../src/linalg/backend.js";
import { simulateCoxProcess } from "../src/models/coxProcess/simulate.js";
import { supportLimit } from "../src/models/coxProcess/euclideanHyperparameters.js";
import { PRIOR } from "../src/models/coxProcess/hyperparameters.js";
import type { CoxHyperparameters } from "../src/models/coxProcess/coxField.js";
import { Rng } from "../src/random/rng.js";
import { euclideanHyperGibbs } from "../src/models/coxProcess/hyperGibbs.js";
import { dataSeed } from "./coxProcessData.js";
import { densitySvg, meanSd } from "./figure9Output.js";
import { seedOfIdentity } from "./table2.js";

export interface Figure9Settings {
  argv: string[];
  side: number;
  iterations: number;
  burnIn: number;
  xStep: number;
  thetaStep: number;
  xTransitions: number;
  start: [number, number];
  stem: string;
  meanCount: number;
  outDir: string;
  truth: CoxHyperparameters;
  torus?: number;
  /** Random-walk steps of phi | nu, y per iteration (the interweaved non-centred step; 0: none). */
  nonCentredSteps: number;
}

const THETA_LEAPFROG_STEPS = 3;
const WARM_TRANSITIONS = 30;

export function euclideanFigure9(s: Figure9Settings): void {
  const { side, truth } = s;
  const [sigma0, beta0] = s.start;
  const sim = simulateCoxProcess(side, truth, dataSeed(side, "euclidean"), undefined, "euclidean");
  const gibbs = euclideanHyperGibbs({
    side, counts: sim.counts, mu: truth.mu, torus: s.torus,
    fieldStep: s.xStep, fieldTransitions: s.xTransitions, thetaStep: s.thetaStep, thetaLeapfrogSteps: THETA_LEAPFROG_STEPS,
    nonCentredSteps: s.nonCentredSteps,
  });
  const identity = `lgcp figure9 grid=${side} covariance=euclidean torus=${gibbs.torus} start=${sigma0},${beta0}${s.meanCount === 126 ? "" : ` mean-count=${s.meanCount}`}${s.nonCentredSteps > 0 ? ` non-centred=${s.nonCentredSteps}` : ""} run=0`;
  const rng = new Rng(seedOfIdentity(identity));
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let state = gibbs.warmField(gibbs.init(Float64Array.of(Math.log(sigma0), Math.log(beta0)), rng), rng, WARM_TRANSITIONS);
  const warmSeconds = (performance.now() - t0) / 1000;
  const sigmas: number[] = [];
  const betas: number[] = [];
  let xAccepted = 0;
  let thetaAccepted = 0;
  let nonCentredAccepted = 0;
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  for (let it = 0; it < s.iterations; it++) {
    const sweep = gibbs.sweep(state, rng);
    state = sweep.state;
    xAccepted += sweep.info.fieldAccepted;
    if (sweep.info.thetaAccepted) thetaAccepted++;
    nonCentredAccepted += sweep.info.nonCentredAccepted;
    sigmas.push(Math.exp(state.phi[0]));
    betas.push(Math.exp(state.phi[1]));
    if ((it + 1) % 25 === 0) process.stderr.write(`iteration ${it + 1}: sigma ${sigmas[it].toFixed(3)}, beta ${betas[it].toFixed(4)}\n`);
  }
  const seconds = (performance.now() - t1) / 1000;
  const cpu = process.cpuUsage(c1);
  const warmCpu = process.cpuUsage(c0);
  const kept = (v: number[]) => v.slice(s.burnIn);
  const result = {
    experiment: "Girolami & Calderhead 2011, Section 9.1, Figure 9 (a short Gibbs run), Euclidean covariance (eq. 31) on the torus field",
    command: `node dist/experiments/coxProcessHyper.js ${s.argv.join(" ")}`.trim(),
    covariance: "euclidean", grid: side, torus: gibbs.torus, betaSupportLimit: supportLimit(side, gibbs.torus), prior: PRIOR,
    iterations: s.iterations, burnIn: s.burnIn, xStep: s.xStep, thetaStep: s.thetaStep, thetaLeapfrogSteps: THETA_LEAPFROG_STEPS,
    truth: { sigma: Math.sqrt(truth.sigma2), beta: truth.beta, mu: truth.mu },
    meanCount: s.meanCount, dataSeed: dataSeed(side, "euclidean"), totalCount: sim.counts.reduce((a, b) => a + b, 0),
    start: { sigma: sigma0, beta: beta0 }, seed: identity,
    warmSeconds, warmCpuSeconds: (warmCpu.user + warmCpu.system - cpu.user - cpu.system) / 1e6,
    seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, secondsPerIteration: seconds / s.iterations,
    xTransitionsPerIteration: s.xTransitions,
    nonCentredSteps: s.nonCentredSteps,
    acceptance: { x: xAccepted / (s.iterations * s.xTransitions), theta: thetaAccepted / s.iterations, nonCentred: s.nonCentredSteps > 0 ? nonCentredAccepted / (s.iterations * s.nonCentredSteps) : null },
    // sigma^2 / beta: what a field on a fixed domain pins down (the ridge of D_theta; Zhang 2004)
    posterior: { sigma: meanSd(kept(sigmas)), beta: meanSd(kept(betas)), sigma2OverBeta: meanSd(kept(sigmas.map((v, i) => (v * v) / betas[i]))) },
    draws: { sigma: sigmas, beta: betas },
    backend: getBackend().describe().backend, node: process.version,
  };
  writeFileSync(join(s.outDir, `${s.stem}.json`), JSON.stringify(result, null, 1) + "\n");
  writeFileSync(join(s.outDir, `${s.stem}.svg`), densitySvg([
    { label: "sigma", draws: kept(sigmas), truth: Math.sqrt(truth.sigma2) },
    { label: "beta", draws: kept(betas), truth: truth.beta },
  ]));
  process.stderr.write(`${seconds.toFixed(1)} s; sigma ${result.posterior.sigma.mean.toFixed(3)} +- ${result.posterior.sigma.sd.toFixed(3)} (true ${result.truth.sigma.toFixed(3)}), beta ${result.posterior.beta.mean.toFixed(4)} +- ${result.posterior.beta.sd.toFixed(4)} (true ${truth.beta.toFixed(4)})\n`);
}
