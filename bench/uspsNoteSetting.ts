// What the EP benchmarks on USPS 3 vs 5 share: the data at the note's setting (n = 1214, log
// lengthscale 4.85, log signal sd 5.1, probit) with one BLAS thread, GPstuff's log Z_EP there, and
// a timer in CPU seconds of this process (process.cpuUsage: load from other processes on a shared
// machine inflates it far less than the wall clock).
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { probitSites } from "../src/likelihoods/epSites.js";
import { seKernel } from "../src/gp/squaredExponential.js";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";

/** GPstuff's log Z_EP at the note's setting (BENCHMARKS.md, "EP and Laplace on USPS 3 vs 5"). */
export const GPSTUFF_LOGZ = -143.4989126;

/** The problem, read once; the backend set to one thread. */
export function uspsNoteSetting() {
  const here = resolve(fileURLToPath(new URL("../..", import.meta.url)));
  const be = getBackend();
  be.setThreads(1);
  const ds = readDataset(join(here, "data/usps35_origsplit_train.csv"));
  const k = seKernel({ logLengthscale: new Float64Array(ds.d).fill(4.85), logSignalSd: 5.1 }).matrix(ds.X);
  return { be, ds, n: ds.n, k, sites: probitSites(ds.y) };
}

export function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
