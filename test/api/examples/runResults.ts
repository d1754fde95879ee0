import { Matrix, operationsPerIteration, runHyperGp, runLatentGp, summariseRun } from "gpmcmc";

// 20 probit labels (-1/+1) at inputs 0, 0.25, ..., 4.75.
const n = 20;
const X = new Matrix(n, 1, Float64Array.from({ length: n }, (_, i) => i / 4));
const y = Float64Array.from({ length: n }, (_, i) => (Math.sin(i / 4) + 0.5 * Math.cos(5 * i) > 0 ? 1 : -1));

// Fixed hyperparameters. What is left out takes gpmcmc sample's defaults; a sampler named alone, the registry's.
const run = await runLatentGp({ X, y }, {
  model: { logLengthscale: [0], logSignalSd: Math.log(2) },   // probit, jitter 1e-6 x the signal variance
  sampler: { sampler: "laplace-nuts" },                       // step size 0.5, depth 10, split integrator, whitened by EP
  draws: 100, burnIn: 100, chains: 2, seed: 1,                // thin 1; dual averaging to accept_stat 0.8 in burn-in
}, { inProcess: true });
const { spec, target, results, whitening } = run;             // spec: every default filled in (summary.json's "run")
const c0 = results[0]!;                                       // ChainResult: c0.samples[i * c0.dim + j] is f_j of draw i
console.log(`${spec.sampler.sampler}, jitter ${target.jitter.toExponential(1)}, whitened by ${whitening?.used}; chain 1: ${c0.draws} draws, step ${c0.tunedValue?.toFixed(2)}, accept ${c0.summary.meanAcceptStat.toFixed(2)}, ${c0.summary.divergences} divergences, ${c0.seconds.sampling.toFixed(3)} s`);
const summary = summariseRun(results, { seconds: run.seconds });  // RunSummary: ESS, R-hat, the verdict
console.log(`min ESS ${summary.minEss?.toFixed(0)}; ${summary.verdict.ok ? "no warnings" : summary.verdict.warnings.length + " warnings"}; complete: ${run.complete}, ${run.workers} workers`);

// Sampled hyperparameters: the pm scheme, the paper's priors, relative jitter 1e-6 unless given.
const hyper = await runHyperGp({ X, y }, { draws: 30, burnIn: 30, chains: 2, seed: 1 }, { inProcess: true });
const h0 = hyper.results[0]!;                                 // HyperChainResult: a ChainResult, position (log_lengthscale.1, log_signal_sd, f.1..f.n)
const ops = operationsPerIteration(hyper.results);            // O(n^3) operations per transition (h0.linalg: the chain's totals)
console.log(`${hyper.spec.sampler.scheme}: log lengthscale of the last draw ${h0.samples[(h0.draws - 1) * h0.dim]!.toFixed(2)}; ${ops.cholesky.toFixed(1)} Cholesky per transition over ${h0.transitions} transitions`);
