// Efficiency of the five joint schemes of (f, theta) (comparison paper, Section 2) on a small
// simulated probit problem (the paper's design, Section 4.1: x ~ U[0,1]^d, d = 2, theta and f
// drawn from the model; src/run/simulate.ts), theta by MH (surr: slice sampling), f by HMC v2:
// min ESS over the theta columns per second of sampling, and the O(n^3) operations per
// iteration. Chain c of scheme s runs on the stream new Rng(seed, c), the seed a hash of (s, c).
//   npm run bench -- hyperSchemes [--n 50] [--draws 1000] [--chains 2]
import { essGeyer } from "../src/diagnostics/ess.js";
import { DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR } from "../src/hyper/jointKernel.js";
import { SCHEME_NAMES } from "../src/hyper/schemes.js";
import { fromPlainMatrix } from "../src/linalg/matrix.js";
import { hyperChain, operationsPerIteration, type HyperChainResult } from "../src/run/hyperRun.js";
import { simulateDataSet } from "../src/run/simulate.js";
import { latentSamplerSpec } from "../src/samplers/registry.js";
import { toPlainMatrix } from "../src/linalg/matrix.js";
import { arg, hash } from "./benchArgs.js";

const n = Number(arg("--n", "50"));
const draws = Number(arg("--draws", "1000"));
const chains = Number(arg("--chains", "2"));
const sim = simulateDataSet("probit", n, 2, 3);
const X = toPlainMatrix(sim.X);
const d = fromPlainMatrix(X).cols;
console.log(`probit, n = ${n}, d = ${d}; ${chains} chains x ${draws} draws after ${draws} burn-in`);
console.log("scheme  minESS(theta)  seconds  minESS/s  cholesky/it  solves/it  products/it");
for (const scheme of SCHEME_NAMES) {
  const results: HyperChainResult[] = [];
  for (let c = 0; c < chains; c++) {
    const spec = {
      model: { likelihood: "probit", lengthscalePrior: DEFAULT_LENGTHSCALE_PRIOR, variancePrior: DEFAULT_VARIANCE_PRIOR },
      sampler: { scheme, ...(scheme === "surr" ? {} : { thetaSampler: "mh" as const }), latent: latentSamplerSpec("hmc-v2") },
      draws, burnIn: draws, thin: 1, chains, seed: hash(`hyperSchemes/${scheme}`),
    };
    results.push(hyperChain(X, sim.y, spec, c));
  }
  let minEss = Infinity;
  for (let j = 0; j <= d; j++) {
    minEss = Math.min(minEss, essGeyer(results.map((r) => Float64Array.from({ length: r.draws }, (_, i) => r.samples[i * r.dim + j]!))));
  }
  const seconds = results.reduce((a, r) => a + r.seconds.sampling, 0);
  const ops = operationsPerIteration(results);
  console.log(`${scheme.padEnd(6)}  ${minEss.toFixed(1).padStart(13)}  ${seconds.toFixed(2).padStart(7)}  ${(minEss / seconds).toFixed(2).padStart(8)}  ${ops.cholesky.toFixed(2).padStart(11)}  ${ops.triangularSolveMatrix.toFixed(2).padStart(9)}  ${(ops.matrixProduct + ops.symmetricProduct).toFixed(2).padStart(11)}`);
}
