// laplace-nuts' two integrators (samplers/integrators/laplaceDynamics.ts: split, the default, and leapfrog) on
// the comparison paper's simulated data sets of every likelihood (`gpmcmc simulate`: n cases, two
// inputs, the data set's own seed), at the true hyperparameters, as `gpmcmc sample` runs them
// (the default whitening of each likelihood, 4 chains of 1000 warm-up + 1000 draws, seed 7): min
// rank-normalised bulk ESS over f of the four chains, per gradient, the divergences after warm-up,
// the mean leapfrog steps per iteration and the largest adapted step. ESS per gradient is what the
// integrator changes; the time per gradient is the same for both.
//   npm run bench -- laplaceNutsIntegrators [--likelihoods probit,logistic,poisson,ordinal,volatility] [--seeds 4,5,6] [--n 100]
import { drawsArray, variableChains } from "../src/diagnostics/draws.js";
import { essBulk } from "../src/diagnostics/ess.js";
import { getBackend } from "../src/linalg/backend.js";
import { runLatentGp } from "../src/run/chains.js";
import { SIMULATION_LIKELIHOODS, simulateDataSet, type SimulationLikelihood } from "../src/run/simulate.js";
import { LAPLACE_INTEGRATORS } from "../src/samplers/integrators/laplaceDynamics.js";
import { defaultTargetAcceptance, latentSamplerSpec } from "../src/samplers/registry.js";
import { arg } from "./benchArgs.js";

const likelihoods = arg("--likelihoods", SIMULATION_LIKELIHOODS.join(",")).split(",") as SimulationLikelihood[];
const seeds = arg("--seeds", "4,5,6").split(",").map(Number);
const n = Number(arg("--n", "100"));
const chains = 4;
const draws = 1000;
getBackend().setThreads(1);

console.log(`laplace-nuts, ${chains} chains of ${draws} warm-up + ${draws} draws, simulated data sets of n = ${n}, d = 2`);
console.log("likelihood\tdata seed\tintegrator\tmin bulk ESS\tESS/gradient\tdivergences\tleapfrog/iteration\tlargest step");
for (const likelihood of likelihoods) {
  for (const seed of seeds) {
    const data = simulateDataSet(likelihood, n, 2, seed);
    // the simulated ordinal likelihood's thresholds and noise sd (no options for the others)
    const { thresholds, noiseSd } = data.likelihoodOptions;
    const likelihoodOptions = thresholds ? { thresholds: Array.from(thresholds), noiseSd } : {};
    const model = { likelihood, logLengthscale: Array.from(data.logLengthscale), logSignalSd: data.logSignalSd, jitter: data.jitter, likelihoodOptions };
    for (const integrator of LAPLACE_INTEGRATORS) {
      const run = await runLatentGp({ X: data.X, y: data.y }, {
        model, sampler: latentSamplerSpec({ sampler: "laplace-nuts", integrator }), draws, burnIn: draws, thin: 1, chains, seed: 7,
        adapt: { method: "dual-averaging", targetAcceptance: defaultTargetAcceptance("laplace-nuts") },
      }, { onWarning: () => undefined });
      // the chains one after another, as drawsArray takes them
      const all = new Float64Array(chains * draws * n);
      run.results.forEach((r, c) => all.set(r.samples, c * draws * n));
      const d = drawsArray(all, chains, draws, n);
      let minEss = Infinity;
      for (let v = 0; v < n; v++) minEss = Math.min(minEss, essBulk(variableChains(d, v)));
      let gradients = 0;
      let divergences = 0;
      let step = 0;
      for (const r of run.results) {
        for (const l of r.stats.nLeapfrog) gradients += l;
        for (const x of r.stats.divergent) divergences += x;
        step = Math.max(step, r.tunedValue ?? 0);
      }
      console.log([likelihood, seed, integrator, minEss.toFixed(0), (minEss / gradients).toFixed(4), divergences, (gradients / (chains * draws)).toFixed(1), step.toFixed(3)].join("\t"));
    }
  }
}
