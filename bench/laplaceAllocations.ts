// How much a laplace-nuts leapfrog step and a probit gradient allocate: the garbage collections
// (minor and major, from node's PerformanceObserver) during 100000 calls of each at n = 100 on
// the peer's probit set, and the CPU microseconds per call. A step that allocates nothing triggers
// almost no collection; one that boxes a number per point (16 bytes) fills the young generation
// every thousand steps or so.
//   node dist/bench/laplaceAllocations.js [--peers DIR] [--n 100] [--calls 100000]
import { join, resolve } from "node:path";
import { PerformanceObserver, constants } from "node:perf_hooks";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { probit } from "../src/likelihoods/probit.js";
import { Rng } from "../src/random/rng.js";
import { withWhiteningMass } from "../src/run/whiteningMass.js";
import { laplaceDynamics } from "../src/samplers/integrators/laplaceDynamics.js";
import { laplaceWhitening } from "../src/samplers/kernels/laplaceWhitening.js";
import { latentSamplerSpec } from "../src/samplers/registry.js";
import { latentGpTarget } from "../src/targets/latentGpModel.js";
import { arg } from "./benchArgs.js";

const peers = resolve(arg("--peers", process.env.GPMCMC_PEERS ?? "../shared/peers"));
const n = Number(arg("--n", "100"));
const calls = Number(arg("--calls", "100000"));
getBackend().setThreads(1);

const collections = { minor: 0, major: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) collections.minor++;
    else collections.major++;
  }
}).observe({ entryTypes: ["gc"] });

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Collections and CPU us per call over `calls` calls of fn (after as many to warm up). */
async function measure(name: string, fn: () => void): Promise<void> {
  for (let i = 0; i < calls; i++) fn();
  await new Promise((r) => setTimeout(r, 10)); // deliver the warm-up's entries
  collections.minor = collections.major = 0;
  const t0 = cpu();
  for (let i = 0; i < calls; i++) fn();
  const us = ((cpu() - t0) / calls) * 1e6;
  await new Promise((r) => setTimeout(r, 10));
  console.log(`${name}\t${n}\t${calls}\t${collections.minor}\t${collections.major}\t${us.toFixed(2)}`);
}

const ds = readDataset(join(peers, "data", `gpc_synth_n${n}.csv`));
const y = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
const target = latentGpTarget(ds.X, y, { likelihood: "probit", logLengthscale: [-2], logSignalSd: 1, jitter: 1e-6 * Math.exp(2) }, () => undefined);
const spec = withWhiteningMass(target, latentSamplerSpec({ sampler: "laplace-nuts", whitening: "laplace" })).spec;
const whitening = laplaceWhitening(target, "bench", spec.sampler === "laplace-nuts" ? spec.massDiagonal : undefined);
const dynamics = laplaceDynamics(target, whitening);
const point = dynamics.newPoint();
dynamics.start(dynamics.init(Float64Array.from({ length: n }, (_, i) => Math.sin(i))), new Rng(1), point);
const f = Float64Array.from({ length: n }, (_, i) => 2 * Math.sin(i));
const d1 = new Float64Array(n);
let sink = 0;

console.log("what\tn\tcalls\tminor collections\tmajor collections\tCPU us/call");
// Forth and back, so that the point stays where it started.
let forward = true;
await measure("laplace-nuts leapfrog step", () => {
  dynamics.step(point, forward ? 0.3 : -0.3);
  forward = !forward;
});
await measure("probit gradient", () => {
  sink += probit.gradient!(y, f, d1);
});
if (!Number.isFinite(sink)) console.log("(a non-finite log likelihood)");
