// The pm scheme's cost per iteration and the acceptance rates of its three moves (independence,
// random walk, refresh of the importance draws) with EP's proposals made by a few sweeps from the
// mode's sites against EP run to convergence (100 sweeps at most), on `gpmcmc simulate
// --likelihood probit --n N --d 2 --seed 11`: one chain of B burn-in and S kept iterations each,
// the same seed, one BLAS thread; the mode search is timed apart.
//
//   npm run bench -- pmCost [--n 400] [--burn-in 100] [--iterations 100] [--sweeps 2,100]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { likelihoodByName } from "../src/likelihoods/registry.js";
import { Rng } from "../src/random/rng.js";
import { DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR, hyperSpace } from "../src/hyper/jointKernel.js";
import { pseudoMarginalChain } from "../src/hyper/pseudoMarginal.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : fallback;
}

const n = arg("--n", "400");
const burnIn = Number(arg("--burn-in", "100"));
const kept = Number(arg("--iterations", "100"));
const sweeps = arg("--sweeps", "2,100").split(",").map(Number);
const dir = resolve("/tmp/gpmcmc-bench-pmCost");
mkdirSync(dir, { recursive: true });
const file = join(dir, `sim_n${n}_d2_s11.csv`);
if (!existsSync(file)) spawnSync(process.execPath, [resolve("dist/src/cli/main.js"), "simulate", "--likelihood", "probit", "--n", n, "--d", "2", "--seed", "11", "--out", file], { stdio: "ignore" });
getBackend().setThreads(1);
const ds = readDataset(file);
const y = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
const problem = { space: hyperSpace(ds.X, { likelihood: "probit", lengthscalePrior: DEFAULT_LENGTHSCALE_PRIOR, variancePrior: DEFAULT_VARIANCE_PRIOR }), likelihood: likelihoodByName("probit"), y };
console.log(`bench pmCost: n = ${n}, d = 2, ${burnIn} burn-in + ${kept} iterations, one chain, seed 1`);
console.log("EP sweeps from the mode's sites\tmode search and set-up s\tms per iteration\tacceptance: independence, random walk, refresh (kept iterations)\timportance draws");
for (const s of sweeps) {
  let t0 = performance.now();
  const chain = pseudoMarginalChain(problem, { epSweeps: s }, new Float64Array(3));
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
