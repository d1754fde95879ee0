// The pm scheme's cost per iteration and the acceptance rates of its three moves (independence,
// random walk, refresh of the importance draws) with EP's proposals made by a few sweeps from the
// mode's sites against EP run to convergence (100 sweeps at most), on `gpmcmc simulate
// --likelihood probit --n N --d 2 --seed 11` or on a data file (--data, labels coded 0/1 or
// -1/1): one chain of B burn-in and S kept iterations each, the same seed, one BLAS thread; the
// mode search is timed apart. With --shared-lengthscale, also the time of one K at the mode's
// lengthscale by the kernel's direct assembly and from the inputs' squared distances summed once.
//
//   npm run bench -- pmCost [--n 400] [--burn-in 100] [--iterations 100] [--sweeps 2,100]
//   npm run bench -- pmCost --data data/usps35_origsplit_train.csv --shared-lengthscale --prior-lengthscale lognormal:3,1 --sweeps 2 [--importance-samples 256,1024]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { likelihoodByName } from "../src/likelihoods/registry.js";
import { Rng } from "../src/random/rng.js";
import { DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR, hyperSpace } from "../src/hyper/jointKernel.js";
import { parsePriorSpec } from "../src/gp/hyperpriors.js";
import { seKernel } from "../src/gp/squaredExponential.js";
import { pseudoMarginalChain } from "../src/hyper/pseudoMarginal.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : fallback;
}

const n = arg("--n", "400");
const burnIn = Number(arg("--burn-in", "100"));
const kept = Number(arg("--iterations", "100"));
const sweeps = arg("--sweeps", "2,100").split(",").map(Number);
const sizes = arg("--importance-samples", "").split(",").filter((v) => v !== "").map(Number);
const shared = process.argv.includes("--shared-lengthscale");
const dir = resolve("/tmp/gpmcmc-bench-pmCost");
mkdirSync(dir, { recursive: true });
let file = arg("--data", "");
if (file === "") {
  file = join(dir, `sim_n${n}_d2_s11.csv`);
  if (!existsSync(file)) spawnSync(process.execPath, [resolve("dist/src/cli/main.js"), "simulate", "--likelihood", "probit", "--n", n, "--d", "2", "--seed", "11", "--out", file], { stdio: "ignore" });
}
getBackend().setThreads(1);
const ds = readDataset(file);
const y = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
const lengthscalePrior = arg("--prior-lengthscale", "") === "" ? DEFAULT_LENGTHSCALE_PRIOR : parsePriorSpec(arg("--prior-lengthscale", ""), "--prior-lengthscale");
const problem = { space: hyperSpace(ds.X, { likelihood: "probit", lengthscalePrior, variancePrior: DEFAULT_VARIANCE_PRIOR, sharedLengthscale: shared }), likelihood: likelihoodByName("probit"), y };
const m = problem.space.lengthscalePriors.length + 1;
console.log(`bench pmCost: ${file} (n = ${ds.X.rows}, d = ${ds.X.cols}${shared ? ", one shared lengthscale" : ""}), ${burnIn} burn-in + ${kept} iterations, one chain, seed 1`);
if (shared) {
  const time = (cached: boolean) => {
    const k = seKernel({ logLengthscale: 3, logSignalSd: 2, cachedDistances: cached });
    k.matrix(ds.X); // the distances, summed once
    const t0 = performance.now();
    for (let r = 0; r < 3; r++) k.matrix(ds.X);
    return (performance.now() - t0) / 3;
  };
  const direct = time(false), cached = time(true);
  console.log(`one K (n x n): direct assembly ${direct.toFixed(1)} ms, from the squared distances ${cached.toFixed(1)} ms (ratio ${(direct / cached).toFixed(1)})`);
}
console.log("EP sweeps from the mode's sites\tmode search and set-up s\tms per iteration\tacceptance: independence, random walk, refresh (kept iterations)\timportance draws");
for (const s of sweeps) for (const N of sizes.length > 0 ? sizes : [undefined]) {
  let t0 = performance.now();
  const chain = pseudoMarginalChain(problem, { epSweeps: s, ...(N !== undefined ? { importanceSamples: N } : {}) }, new Float64Array(m));
  const setup = (performance.now() - t0) / 1000;
  const rng = new Rng(1);
  const accepted = [0, 0, 0];
  t0 = performance.now();
  for (let i = 0; i < burnIn + kept; i++) {
    if (i === burnIn) chain.freeze();
    const it = chain.step(rng);
    if (i >= burnIn) [it.theta[0]!, it.theta[1]!, it.latent].forEach((info, k) => (accepted[k]! += info.accepted ? 1 : 0));
  }
  const ms = (performance.now() - t0) / (burnIn + kept);
  console.log([s, setup.toFixed(2), ms.toFixed(1), accepted.map((a) => (a / kept).toFixed(2)).join(", "), chain.tunables().latent].join("\t"));
}
