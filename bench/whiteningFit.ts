// The cost of laplace-nuts' whitening before the chains (src/run/whiteningMass.ts): EP's site
// precisions by the sequential and the parallel (Anderson) schedule, to the site tolerances
// 1e-6 (EP's default) and 1e-4 (the whitening's), against Laplace's W at the mode, on the peer's
// probit sets at lengthscale e^-2 and log signal sd 1 (the data's) and 3 (the hard posterior).
// CPU milliseconds of this process, the fastest of --reps (the first call of each includes the
// compiler's warm-up), one BLAS thread.
//   npm run bench -- whiteningFit [--peers DIR] [--n 100,400,1000] [--reps 3]
import { join, resolve } from "node:path";
import { expectationPropagation, type EpOptions } from "../src/approx/ep.js";
import { laplace } from "../src/approx/laplace.js";
import { probitSites } from "../src/likelihoods/epSites.js";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { WHITENING_EP_OPTIONS } from "../src/run/whiteningMass.js";
import { latentGpTarget } from "../src/targets/latentGpModel.js";
import { arg } from "./benchArgs.js";

const peers = resolve(arg("--peers", process.env.GPMCMC_PEERS ?? "../shared/peers"));
const sizes = arg("--n", "100,400,1000").split(",").map(Number);
const reps = Number(arg("--reps", "3"));
getBackend().setThreads(1);

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** The fastest of `reps` calls, in CPU ms, with the last call's result. */
function timed<T>(fn: () => T): { ms: number; result: T } {
  let best = Infinity;
  let result: T | undefined;
  for (let r = 0; r < reps; r++) {
    const t0 = cpu();
    result = fn();
    best = Math.min(best, (cpu() - t0) * 1e3);
  }
  return { ms: best, result: result! };
}

const fits: [string, EpOptions][] = [
  ["EP sequential, 1e-6", { schedule: "sequential" }],
  ["EP parallel (Anderson), 1e-6", { schedule: "parallel" }],
  ["EP parallel (Anderson), 1e-4 (the whitening's)", WHITENING_EP_OPTIONS],
];
console.log(`CPU ms, fastest of ${reps}`);
console.log("n\tlog signal sd\tfit\tsweeps\tconverged\tCPU ms");
for (const n of sizes) {
  const ds = readDataset(join(peers, "data", `gpc_synth_n${n}.csv`));
  const y = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
  for (const logSignalSd of [1, 3]) {
    const target = latentGpTarget(ds.X, y, { likelihood: "probit", logLengthscale: [-2], logSignalSd, jitter: 1e-6 * Math.exp(2 * logSignalSd) }, () => undefined);
    for (const [label, options] of fits) {
      const { ms, result } = timed(() => expectationPropagation(target.kernelMatrix, probitSites(y), { ...options, onWarning: () => undefined }));
      console.log(`${n}\t${logSignalSd}\t${label}\t${result.sweeps}\t${result.converged}\t${ms.toFixed(1)}`);
    }
    const { ms, result } = timed(() => laplace(target.kernelMatrix, target.y, target.likelihood, { onWarning: () => undefined }));
    console.log(`${n}\t${logSignalSd}\tLaplace (Newton)\t${result.iterations}\t${result.converged}\t${ms.toFixed(1)}`);
  }
}
