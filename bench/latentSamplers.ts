// Cost of the samplers of f | y, theta on GP probit classification (inputs uniform in [0, 1]^2,
// SE kernel, y drawn from the model):
//   1. HMC v2 and HMC v1 per leapfrog step at n = 100, 400, 1600: after the one factorisation
//      (none for v2, one for v1 when built) a leapfrog step is O(n^2), so 4x the points should
//      cost about 16x the time;
//   2. time per transition of each sampler at n = 400 (the registry's kernels with the tunables of
//      benchSpec below, no adaptation).
//   node dist/bench/latentSamplers.js [--sizes 100,400,1600] [--n 400]
import { seKernel } from "../src/gp/index.js";
import { getBackend } from "../src/linalg/backend.js";
import { Cholesky } from "../src/linalg/cholesky.js";
import { Matrix } from "../src/linalg/matrix.js";
import { probit } from "../src/likelihoods/probit.js";
import { Rng } from "../src/random/rng.js";
import { hmcV1, hmcV2 } from "../src/samplers/hmcGp.js";
import { latentSampler, type LatentSamplerName, type LatentSamplerSpecInput } from "../src/samplers/registry.js";
import type { Kernel, SamplerState } from "../src/samplers/types.js";
import { annealedLatentTarget, type AnnealedLatentTarget } from "../src/targets/annealedLatent.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

function problem(n: number, seed = 1): AnnealedLatentTarget {
  const rng = new Rng(seed);
  const x = new Matrix(n, 2);
  for (let i = 0; i < 2 * n; i++) x.data[i] = rng.uniform();
  const K = seKernel({ lengthscale: 0.3, signalSd: 1.5 }).matrix(x);
  for (let i = 0; i < n; i++) K.data[i + i * n] += 1e-6 * 2.25;
  const target0 = annealedLatentTarget({ likelihood: probit, y: new Float64Array(n).fill(1), kernelMatrix: K });
  const f = new Cholesky(target0.kernelCholesky.factor).multiplyLower(Float64Array.from({ length: n }, () => rng.normal()));
  const y = probit.sample(f, rng, new Float64Array(n));
  return annealedLatentTarget({ likelihood: probit, y, kernelMatrix: K });
}

/** Seconds per unit of `count(info)` over `transitions` steps, fastest of `reps` runs. */
function timePer<S extends SamplerState>(kernel: Kernel<S>, n: number, transitions: number, reps: number, count: (i: { leapfrogSteps: number }) => number): number {
  let best = Infinity;
  const rng = new Rng(7);
  let state = kernel.init(new Float64Array(n));
  for (let r = 0; r < reps; r++) {
    let units = 0;
    const t0 = performance.now();
    for (let t = 0; t < transitions; t++) {
      const out = kernel.step(state, rng);
      state = out.state;
      units += count(out.info);
    }
    best = Math.min(best, (performance.now() - t0) / 1000 / units);
  }
  return best;
}

const sizes = arg("--sizes", "100,400,1600").split(",").map(Number);
const nTable = Number(arg("--n", "400"));
console.log(`backend: ${getBackend().name}; node ${process.version}`);
console.log("\n1. seconds per leapfrog step (fastest of 3 runs), and the ratio to the smallest n beside (n / n_0)^2");
console.log("     n   hmc-v2 s/step   ratio   hmc-v1 s/step   ratio   (n/n0)^2   hmc-v1 set-up s");
let base: [number, number] | undefined;
for (const n of sizes) {
  const target = problem(n);
  const transitions = Math.max(5, Math.round(2e6 / (n * n)));
  const v2 = timePer(hmcV2(target, { stepSize: 0.01 }), n, transitions, 3, (i) => i.leapfrogSteps);
  const t0 = performance.now();
  const k1 = hmcV1(target, { stepSize: 0.01 });
  const setup = (performance.now() - t0) / 1000;
  const v1 = timePer(k1, n, transitions, 3, (i) => i.leapfrogSteps);
  base ??= [v2, v1];
  const n0 = sizes[0];
  console.log(`${String(n).padStart(6)}   ${v2.toExponential(3).padStart(13)}   ${(v2 / base[0]).toFixed(1).padStart(5)}   ${v1.toExponential(3).padStart(13)}   ${(v1 / base[1]).toFixed(1).padStart(5)}   ${((n / n0) ** 2).toFixed(0).padStart(8)}   ${setup.toFixed(3).padStart(15)}`);
}

console.log(`\n2. seconds per transition at n = ${nTable} (registry defaults, no adaptation; fastest of 3 runs)`);
const target = problem(nTable);
// BENCHMARKS.md's order (bench/rmhmc.ts times RMHMC)
for (const name of ["mh", "mh-v1", "mh-v2", "ess", "hmc", "hmc-v1", "hmc-v2", "smmala"] as const) {
  const kernel = latentSampler(target, benchSpec(name));
  const transitions = name === "smmala" ? 20 : name.startsWith("hmc") ? 30 : 300;
  const s = timePer(kernel, nTable, transitions, 3, () => 1);
  console.log(`  ${name.padEnd(8)} ${s.toExponential(3)}`);
}

/**
 * The kernels of the table in BENCHMARKS.md: small tunables, and for hmc the identity mass with
 * up to 10 steps (the row "hmc (identity mass, up to 10 steps)"), so its figures stay comparable.
 */
function benchSpec(name: LatentSamplerName): LatentSamplerSpecInput {
  switch (name) {
    case "hmc": return { sampler: name, stepSize: 0.02, mass: "identity", randomiseSteps: true };
    case "mh": return { sampler: name, proposalSd: 0.001 };
    case "mh-v1": case "mh-v2": return { sampler: name, alpha: 0.05 };
    case "ess": return { sampler: name };
    case "smmala": return { sampler: name, stepSize: 0.3 };
    default: return { sampler: name, stepSize: 0.02 };
  }
}
