import {
  Matrix, Rng, annealedLatentTarget, essGeyer, chainTrace, probit, rmhmc, runLatentGp, sample, seKernel, summariseRun,
} from "gpmcmc";

// A small probit classification problem: 20 inputs 0, 1/3, ..., 19/3; noisy labels -1/+1.
const rng = new Rng(1);
const n = 20;
const X = new Matrix(n, 1, Float64Array.from({ length: n }, (_, i) => i / 3));
const y = Float64Array.from({ length: n }, (_, i) => (Math.sin(X.get(i, 0)) + 0.5 * rng.normal() > 0 ? 1 : -1));

// 1. Kernels and the driver: the posterior of f given y, sampled by RMHMC in this thread.
const K = seKernel({ lengthscale: 1, signalSd: 2 }).matrix(X);
const target = annealedLatentTarget({ likelihood: probit, y, kernelMatrix: K });
const kernel = rmhmc(target, { stepSize: 0.3, leapfrogSteps: 5 });
const result = sample(kernel, { draws: 200, burnIn: 100, chains: 2, seed: 7, init: new Float64Array(n), adapt: { method: "dual-averaging" } });
const ess = essGeyer([0, 1].map((c) => chainTrace(result, c, 0)));
console.log(`f.1: ESS ${ess.toFixed(0)} from ${result.chains} x ${result.draws} draws`);

// 2. A whole run as `gpmcmc sample` does it: chains on worker threads, the same draws for any `parallel`.
const run = await runLatentGp({ X, y }, {
  model: { likelihood: "probit", logLengthscale: [0], logSignalSd: Math.log(2) },
  sampler: { sampler: "hmc", stepSize: 0.2, leapfrogSteps: 10 },
  draws: 200, burnIn: 100, thin: 1, chains: 4, seed: 7,
  adapt: { method: "dual-averaging", targetAcceptance: 0.65 },
}, { parallel: 2 });
const summary = summariseRun(run.results, { seconds: run.seconds });
console.log(`min ESS ${summary.minEss?.toFixed(0)}, max R-hat ${summary.rhatMax?.toFixed(3)}, complete: ${run.complete}`);
