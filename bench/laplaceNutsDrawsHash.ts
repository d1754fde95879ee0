// A fingerprint of laplace-nuts's draws: one fixed-seed chain per n on the peer's probit sets
// (the default whitening, EP's on probit; 1000 warm-up + 2000 draws), hashed with the step
// size, leapfrog counts and log densities. A change that is meant to leave the draws as they
// were must print the same lines before and after; the line also gives the chain's CPU us per
// gradient, so that one run of two builds, alternated, compares their speed too.
//   node dist/bench/laplaceNutsDrawsHash.js [--peers DIR] [--n 100,400] [--draws 2000]
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { Rng } from "../src/random/rng.js";
import { withWhiteningMass } from "../src/run/whiteningMass.js";
import { runChain } from "../src/samplers/chain/driver.js";
import { defaultTargetAcceptance, latentSampler, latentSamplerSpec } from "../src/samplers/registry.js";
import { latentGpTarget } from "../src/targets/latentGpModel.js";
import { arg } from "./benchArgs.js";

const peers = resolve(arg("--peers", process.env.GPMCMC_PEERS ?? "../shared/peers"));
const sizes = arg("--n", "100,400").split(",").map(Number);
const draws = Number(arg("--draws", "2000"));
getBackend().setThreads(1);

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

console.log("n\tsha256 (first 16)\tstep\tleapfrog steps\tus/gradient (sampling, CPU)");
for (const n of sizes) {
  const ds = readDataset(join(peers, "data", `gpc_synth_n${n}.csv`));
  const labels = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
  const target = latentGpTarget(ds.X, labels, { likelihood: "probit", logLengthscale: [-2], logSignalSd: 1, jitter: 1e-6 * Math.exp(2) }, () => undefined);
  const spec = withWhiteningMass(target, latentSamplerSpec({ sampler: "laplace-nuts" }), { onWarning: () => undefined }).spec;
  const kernel = latentSampler(target, spec);
  let cpuAtSampling = NaN;
  const res = runChain(kernel, new Rng(20261126, 0), {
    draws, burnIn: 1000, init: new Float64Array(n), adapt: { method: "dual-averaging", targetAcceptance: defaultTargetAcceptance("laplace-nuts") },
    progressInterval: 1000, onProgress: (p) => {
      if (p.phase === "burn-in" && p.iteration === 1000) cpuAtSampling = cpu();
    },
  });
  const seconds = cpu() - cpuAtSampling;
  const leap = res.stats.nLeapfrog.reduce((s, v) => s + v, 0);
  const h = createHash("sha256");
  h.update(new Uint8Array(res.samples.buffer, res.samples.byteOffset, res.samples.byteLength));
  h.update(new Uint8Array(Float64Array.from(res.stats.lp).buffer));
  h.update(new Uint8Array(Float64Array.from(res.stats.nLeapfrog).buffer));
  console.log(`${n}\t${h.digest("hex").slice(0, 16)}\t${res.tunedValue}\t${leap}\t${((seconds / leap) * 1e6).toFixed(2)}`);
}
