// Why `rmhmc` reports divergences on the peer's probit set (n = 100, lengthscale e^-2, variance
// e^2): one chain from f = 0 with its defaults (step 0.1, 10 leapfrog steps, fixed points to 1e-8,
// the reversibility check), step size adapted by dual averaging in burn-in; every divergent
// transition is listed with its phase, reason (StepInfo.divergence), step size and energy error.
//   node dist/bench/rmhmcDivergences.js [--peers DIR] [--burn-in 200] [--draws 200] [--seed 1]
import { join, resolve } from "node:path";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { Rng } from "../src/random/rng.js";
import { runChain } from "../src/samplers/driver.js";
import { latentSampler } from "../src/samplers/registry.js";
import type { Kernel, StepInfo } from "../src/samplers/types.js";
import { latentGpTarget } from "../src/targets/latentGpModel.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const peers = resolve(arg("--peers", process.env.GPMCMC_PEERS ?? "../shared/peers"));
const burnIn = Number(arg("--burn-in", "200"));
const draws = Number(arg("--draws", "200"));
const seed = Number(arg("--seed", "1"));
getBackend().setThreads(1);
const ds = readDataset(join(peers, "data", "gpc_synth_n100.csv"));
const y = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
const target = latentGpTarget(ds.X, y, { likelihood: "probit", logLengthscale: [-2], logSignalSd: 1, jitter: 1e-6 * Math.exp(2) }, () => undefined);
const inner = latentSampler(target, "rmhmc");
// The kernel, with every transition's StepInfo seen on its way to the driver.
let t = 0;
const counts = new Map<string, number>();
const kernel: Kernel = {
  name: inner.name, tunable: inner.tunable, init: (x0) => inner.init(x0),
  step(state, rng) {
    const r = inner.step(state, rng);
    const info: StepInfo = r.info;
    const phase = t < burnIn ? "burn-in" : "sampling";
    if (info.divergent) {
      const key = `${phase} ${info.divergence}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      console.log(`transition ${t + 1} (${phase}): ${info.divergence}, step ${info.stepSize.toFixed(4)}, energy error ${info.energyError.toPrecision(3)}, fixed-point iterations ${info.fixedPointIterations}`);
    }
    t++;
    return r;
  },
};
const res = runChain(kernel, new Rng(seed, 0), { draws, burnIn, init: new Float64Array(target.dim), adapt: { method: "dual-averaging", targetAcceptance: inner.tunable!.targetAcceptance } });
console.log(`step size after burn-in ${res.tunedValue?.toFixed(4)}; acceptance ${res.summary.acceptanceRate.toFixed(3)}; divergent transitions by phase and reason: ${[...counts].map(([k, v]) => `${k} ${v}`).join(", ") || "none"}`);
