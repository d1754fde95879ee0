// Where the time of one gradient of the Laplace-whitened samplers goes (laplace-hmc: two gemv
// with R and the likelihood's derivatives with or without its logarithms; laplace-nuts: one symv
// with Sigma, also timed on the pure TypeScript backend, whose crossover with the native one
// sets SMALL_ORDER in linalg/cholesky.ts), against the time per gradient of whole chains, on the
// peer's probit sets (any n > 0 for the pieces alone: --n 16,32,64 times sizes with no data set too):
//   node dist/bench/laplaceGradient.js [--peers DIR] [--n 100,400] [--reps 5]
// All in CPU seconds of this process (process.cpuUsage), fastest of --reps, one BLAS thread.
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { jsBackend } from "../src/linalg/js.js";
import { existsSync } from "node:fs";
import { probit } from "../src/likelihoods/probit.js";
import { Rng } from "../src/random/rng.js";
import { withWhiteningMass } from "../src/run/whiteningMass.js";
import { runChain } from "../src/samplers/chain/driver.js";
import { defaultTargetAcceptance, latentSampler, latentSamplerSpec } from "../src/samplers/registry.js";
import { latentGpTarget } from "../src/targets/latentGpModel.js";
import { join, resolve } from "node:path";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const peers = resolve(arg("--peers", process.env.GPMCMC_PEERS ?? "../shared/peers"));
const sizes = arg("--n", "100,400").split(",").map(Number);
const reps = Number(arg("--reps", "5"));
const be = getBackend();
be.setThreads(1);

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Microseconds per call of fn, fastest of reps batches of `calls`. */
function perCall(fn: () => void, calls: number): number {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = cpu();
    for (let i = 0; i < calls; i++) fn();
    best = Math.min(best, ((cpu() - t0) / calls) * 1e6);
  }
  return best;
}

console.log(`backend ${be.name}; CPU microseconds, fastest of ${reps}`);
console.log("n\tgemv N\tgemv T\tsymv\tsymv (js)\tprobit gradient\tprobit score\tsampler\tus/gradient (chain)\tleapfrog/iteration");
for (const n of sizes) {
  const rng = new Rng(3);
  const y = Float64Array.from({ length: n }, () => (rng.uniform() < 0.5 ? 1 : -1));
  const a = Float64Array.from({ length: n * n }, () => rng.normal());
  const x = Float64Array.from({ length: n }, () => 2 * rng.normal());
  const out = new Float64Array(n);
  const calls = Math.max(200, Math.round(2e6 / (n * n)));
  const gN = perCall(() => be.gemv("N", n, n, 1, a, n, x, 0, out), calls);
  const gT = perCall(() => be.gemv("T", n, n, 1, a, n, x, 0, out), calls);
  const sy = perCall(() => be.symv("L", n, 1, a, n, x, 0, out), calls);
  const syJs = perCall(() => jsBackend.symv("L", n, 1, a, n, x, 0, out), calls);
  const lg = perCall(() => probit.gradient!(y, x, out), calls);
  const ls = perCall(() => probit.score!(y, x, out), calls);
  const pieces = `${n}\t${gN.toFixed(2)}\t${gT.toFixed(2)}\t${sy.toFixed(2)}\t${syJs.toFixed(2)}\t${lg.toFixed(2)}\t${ls.toFixed(2)}`;
  const csv = join(peers, "data", `gpc_synth_n${n}.csv`);
  if (!existsSync(csv)) {
    console.log(`${pieces}\t-\t-\t-`);
    continue;
  }
  const ds = readDataset(csv);
  const labels = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
  const target = latentGpTarget(ds.X, labels, { likelihood: "probit", logLengthscale: [-2], logSignalSd: 1, jitter: 1e-6 * Math.exp(2) }, () => undefined);
  for (const name of ["laplace-hmc", "laplace-nuts"] as const) {
    const spec = withWhiteningMass(target, latentSamplerSpec({ sampler: name, whitening: "laplace" })).spec;
    let best = Infinity;
    let leap = 0;
    for (let r = 0; r < Math.min(reps, 3); r++) {
      const kernel = latentSampler(target, spec);
      let cpuAtSampling = NaN;
      const res = runChain(kernel, new Rng(1, 0), {
        draws: 1000, burnIn: 1000, init: new Float64Array(n), adapt: { method: "dual-averaging", targetAcceptance: defaultTargetAcceptance(name) },
        progressInterval: 1000, onProgress: (p) => {
          if (p.phase === "burn-in" && p.iteration === 1000) cpuAtSampling = cpu();
        },
      });
      const seconds = cpu() - cpuAtSampling;
      leap = res.stats.nLeapfrog.reduce((s, v) => s + v, 0);
      best = Math.min(best, (seconds / leap) * 1e6);
    }
    console.log(`${pieces}\t${name}\t${best.toFixed(1)}\t${(leap / 1000).toFixed(1)}`);
  }
}
