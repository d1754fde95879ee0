// Cost of the samplers of f | y, theta on GP probit classification (inputs uniform in [0, 1]^2,
// SE kernel, y drawn from the model):
//   1. HMC v2 and HMC v1 per leapfrog step at n = 100, 400, 1600: after the one factorisation
//      (none for v2, one for v1 when built) a leapfrog step is O(n^2), so 4x the points should
//      cost about 16x the time;
//   2. time per transition of each sampler at n = 400 (the registry's kernels with the tunables of
//      benchSpec below, no adaptation).
//   node dist/bench/latentSamplers.js [--sizes 100,400,1600] [--n 400]
import { getBackend } from "../src/linalg/backend.js";
import { hmcV1, hmcV2 } from "../src/samplers/kernels/hmcGp.js";
import { latentSampler } from "../src/samplers/registry.js";
import { benchSpec, problem, timePer } from "./latentProblem.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
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
