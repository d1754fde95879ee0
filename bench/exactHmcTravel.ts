// exact-hmc's travel time T on the Stan comparison's probit posteriors (bench/stan.ts: the peers'
// data/gpc_synth_n*.csv, lengthscale e^-2, variance e^2, jitter 1e-6 x variance): trajectory
// pieces per transition, CPU seconds of 1000 transitions after 500 of burn-in, min bulk ESS over
// f and its rate, for T = pi/8, pi/4, pi/2 (the default, Pakman & Paninski's) and pi.
//
//   npm run bench -- exactHmcTravel [--peers DIR] [--n 100,400]
import { resolve, join } from "node:path";
import { essBulk } from "../src/diagnostics/ess.js";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { Rng } from "../src/random/rng.js";
import { runChain } from "../src/samplers/chain/driver.js";
import { exactHmc } from "../src/samplers/kernels/exactHmc.js";
import { latentGpTarget } from "../src/targets/latentGpModel.js";
import { arg, hash } from "./benchArgs.js";

const peers = resolve(arg("--peers", process.env.GPMCMC_PEERS ?? "../shared/peers"));
const sizes = arg("--n", "100,400").split(",").map(Number);
const DRAWS = 1000;
const BURN_IN = 500;

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

getBackend().setThreads(1);
console.log(`bench exactHmcTravel: ${BURN_IN} burn-in + ${DRAWS} transitions, one chain; CPU seconds of the ${DRAWS}`);
console.log("n\tT / pi\tpieces/transition\tCPU s\tmin bulk ESS\tESS/s");
for (const n of sizes) {
  const ds = readDataset(join(peers, "data", `gpc_synth_n${n}.csv`));
  const y = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
  const target = latentGpTarget(ds.X, y, { likelihood: "probit", logLengthscale: [-2], logSignalSd: 1, jitter: 1e-6 * Math.exp(2) }, () => undefined);
  for (const fraction of [0.125, 0.25, 0.5, 1]) {
    const kernel = exactHmc(target, { travelTime: fraction * Math.PI });
    const seed = hash(`exactHmcTravel n=${n} T=${fraction}`);
    const burnIn = runChain(kernel, new Rng(seed), { draws: 1, burnIn: BURN_IN, init: new Float64Array(n) });
    const t0 = cpuSeconds();
    const chain = runChain(kernel, new Rng(seed + 1), { draws: DRAWS, burnIn: 0, init: burnIn.samples.slice(0, n) });
    const seconds = cpuSeconds() - t0;
    let minEss = Infinity;
    for (let j = 0; j < n; j++) minEss = Math.min(minEss, essBulk([Float64Array.from({ length: DRAWS }, (_, i) => chain.samples[i * n + j])]));
    let pieces = 0;
    for (const p of chain.stats.nLeapfrog) pieces += p;
    console.log(`${n}\t${fraction}\t${(pieces / DRAWS).toFixed(1)}\t${seconds.toFixed(2)}\t${minEss.toFixed(0)}\t${(minEss / seconds).toFixed(0)}`);
  }
}
