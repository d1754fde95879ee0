import { Matrix, annealedLatentTarget, hmc, probit, rmhmc, sample, seKernel } from "gpmcmc";

// A target: the posterior of f for 10 probit labels (any Target will do).
const n = 10;
const X = new Matrix(n, 1, Float64Array.from({ length: n }, (_, i) => i / 2));
const y = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? -1 : 1));
const target = annealedLatentTarget({ likelihood: probit, y, kernelMatrix: seKernel({ lengthscale: 1, signalSd: 1 }).matrix(X) });
const x0 = new Float64Array(n);

// target: any Target; RMHMC needs target.geometry(x) (and uses target.inverseMetricAt(x) when present)
const kernel = rmhmc(target, { stepSize: 0.1, leapfrogSteps: 10 });          // fixed points to a tolerance (1e-8)
const asInNote = rmhmc(target, { stepSize: 0.1, leapfrogSteps: 10, fixedPointIterations: 5, variant: "reference" });
const plain = hmc(target, { stepSize: 0.1, leapfrogSteps: 10 });            // identity mass unless a mass is given
const result = sample(kernel, {
  draws: 200, burnIn: 100, thin: 1, chains: 2, seed: 1, init: x0,
  adapt: { method: "dual-averaging" },                                        // or { method: "window", window: 100 }
  // dual averaging ends burn-in below the step sizes at which transitions diverged; { ..., divergences: "ignore" } as Stan does
});
// result.samples[(c * draws + i) * dim + j]; result.stats.{lp, acceptStat, stepSize, nLeapfrog, divergent, energy}
const f1 = Array.from({ length: result.chains * result.draws }, (_, k) => result.samples[k * result.dim]);
console.log(`mean of f.1 over ${f1.length} draws: ${(f1.reduce((a, b) => a + b, 0) / f1.length).toFixed(2)}`);
const short = { draws: 10, burnIn: 10, thin: 1, chains: 1, seed: 2, init: x0, adapt: { method: "dual-averaging" as const } };
sample(asInNote, short);
sample(plain, short);
