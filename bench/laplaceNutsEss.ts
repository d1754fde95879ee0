// Min bulk ESS per gradient of laplace-nuts on the peer's probit sets under choices that change
// the sampler's efficiency but not its target: the acceptance statistic that dual averaging
// aims at in warm-up (--targets; Stan's 0.8 is the default), a step size jittered uniformly by
// +-J after warm-up (--jitters), and the whitening's diagonal W (--whitening laplace: Laplace's at
// the mode, as `gpmcmc sample` builds it; ep: EP's site precisions, whose Gaussian is closer to
// the probit posterior), and the integrator (--integrators split,leapfrog: laplaceDynamics.ts;
// split, the default, cells are named with "/split"). --log-signal-sd 2 or 3 gives harder posteriors
// (the data were drawn with 1). One chain per cell, 1000 warm-up transitions, seeds from the cell's name; ESS is
// rank-normalised bulk ESS (diagnostics/ess.ts), min over f; CPU time of the sampling phase.
// --u-covariance also prints, per chain, the range of the eigenvalues and of the diagonal of the
// draws' sample covariance in the whitened coordinates u = R^-1 f, next to the range a standard
// normal's would have (Marchenko-Pastur: (1 -+ sqrt(n / draws))^2), to judge a mass adaptation.
// --data FILE runs on a probit CSV of one's own instead (labels -1/+1 or 0/1; --n is then ignored),
// at --log-lengthscale (default -2, the peer's) with the jitter 1e-6 x the signal variance.
//   npm run bench -- laplaceNutsEss [--peers DIR] [--n 100] [--draws 2000] [--chains 2]
//        [--targets 0.65,0.8] [--jitters 0] [--whitening laplace,ep] [--integrators split,leapfrog]
//        [--log-signal-sd 1] [--u-covariance]
//        [--data FILE] [--log-lengthscale -2]
import { basename, join, resolve } from "node:path";
import { essBulk } from "../src/diagnostics/ess.js";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { Matrix } from "../src/linalg/matrix.js";
import { symmetricEigen } from "../src/linalg/symmetricEigen.js";
import { LAPLACE_INTEGRATORS, type LaplaceIntegrator } from "../src/samplers/integrators/laplaceDynamics.js";
import type { LaplaceNutsKernel } from "../src/samplers/kernels/laplaceNuts.js";
import { Rng } from "../src/random/rng.js";
import { withWhiteningMass } from "../src/run/whiteningMass.js";
import { runChain } from "../src/samplers/chain/driver.js";
import { latentSampler, latentSamplerSpec } from "../src/samplers/registry.js";
import { latentGpTarget } from "../src/targets/latentGpModel.js";
import { arg, hash } from "./benchArgs.js";

const peers = resolve(arg("--peers", process.env.GPMCMC_PEERS ?? "../shared/peers"));
const sizes = arg("--n", "100").split(",").map(Number);
const draws = Number(arg("--draws", "2000"));
const chains = Number(arg("--chains", "2"));
const targets = arg("--targets", "0.65,0.8").split(",").map(Number);
const jitters = arg("--jitters", "0").split(",").map(Number);
const whitenings = arg("--whitening", "laplace").split(",");
const integrators = arg("--integrators", "split").split(",");
const logSignalSd = Number(arg("--log-signal-sd", "1"));
const logLengthscale = Number(arg("--log-lengthscale", "-2"));
const dataFile = arg("--data", "");
const uCovariance = process.argv.includes("--u-covariance");
const burnIn = 1000;

/** Eigenvalue and diagonal ranges of the sample covariance of u = R^-1 f over the draws. */
function whitenedCovariance(kernel: LaplaceNutsKernel, samples: Float64Array, n: number, m: number): string {
  const us = Array.from({ length: m }, (_, i) => kernel.factor.solveLowerInPlace(samples.slice(i * n, (i + 1) * n)));
  const mean = new Float64Array(n);
  for (const u of us) for (let j = 0; j < n; j++) mean[j] += u[j] / m;
  const c = new Matrix(n, n);
  for (const u of us) {
    for (let b = 0; b < n; b++) for (let a = 0; a < n; a++) c.data[a + b * n] += ((u[a] - mean[a]) * (u[b] - mean[b])) / (m - 1);
  }
  const values = symmetricEigen(c).values;
  const diagonal = Array.from({ length: n }, (_, j) => c.data[j + j * n]);
  const mp = Math.sqrt(n / m);
  return `eigenvalues ${values[0].toFixed(2)}-${values[n - 1].toFixed(2)}, diagonal ${Math.min(...diagonal).toFixed(2)}-${Math.max(...diagonal).toFixed(2)}; a standard normal's eigenvalues ${((1 - mp) ** 2).toFixed(2)}-${((1 + mp) ** 2).toFixed(2)}`;
}
getBackend().setThreads(1);

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

console.log(`laplace-nuts, ${burnIn} warm-up + ${draws} draws per chain, log signal sd ${logSignalSd}; CPU seconds of sampling`);
console.log("n\twhitening\tintegrator\ttarget acceptance\tjitter\tchain\tstep\tleapfrog/iteration\tdivergences (warm-up)\tmin bulk ESS\tESS/gradient\tus/gradient");
for (const size of dataFile ? [0] : sizes) {
  const ds = readDataset(dataFile || join(peers, "data", `gpc_synth_n${size}.csv`));
  const n = ds.y.length;
  const y = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
  const target = latentGpTarget(ds.X, y, { likelihood: "probit", logLengthscale: [logLengthscale], logSignalSd, jitter: 1e-6 * Math.exp(dataFile ? 2 * logSignalSd : 2) }, () => undefined);
  for (const [whitening, integrator] of whitenings.flatMap((w) => integrators.map((i) => [w, i] as const))) {
    if (whitening !== "ep" && whitening !== "laplace") throw new RangeError(`--whitening: laplace or ep, not ${whitening}`);
    if (!(LAPLACE_INTEGRATORS as readonly string[]).includes(integrator)) throw new RangeError(`--integrators: ${LAPLACE_INTEGRATORS.join(" or ")}, not ${integrator}`);
    const spec = withWhiteningMass(target, latentSamplerSpec({ sampler: "laplace-nuts", whitening, integrator: integrator as LaplaceIntegrator })).spec;
    for (const ta of targets) {
      for (const jitter of jitters) {
        for (let c = 0; c < chains; c++) {
          // (the leapfrog's cells keep the names they had before the split integrator existed)
          const cell = `${dataFile ? `${basename(dataFile)}/l${logLengthscale}/` : ""}n${n}/${whitening}/ta${ta}/j${jitter}/s${logSignalSd}/chain${c}${integrator === "split" ? "/split" : ""}`;
          const kernel = latentSampler(target, spec);
          const step = kernel.step.bind(kernel);
          let done = 0;
          let adapted = NaN;
          // After warm-up, each transition's step is the adapted one times 1 + jitter * U(-1, 1).
          kernel.step = (state, rng) => {
            if (++done > burnIn && jitter > 0) {
              if (Number.isNaN(adapted)) adapted = kernel.tunable!.value;
              kernel.tunable!.value = adapted * (1 + jitter * (2 * rng.uniform() - 1));
            }
            return step(state, rng);
          };
          let cpuAtSampling = NaN;
          const res = runChain(kernel, new Rng(hash(cell), 0), {
            draws, burnIn, init: new Float64Array(n), adapt: { method: "dual-averaging", targetAcceptance: ta }, progressInterval: burnIn,
            onProgress: (p) => {
              if (p.phase === "burn-in" && p.iteration === burnIn) cpuAtSampling = cpu();
            },
          });
          const seconds = cpu() - cpuAtSampling;
          const gradients = res.stats.nLeapfrog.reduce((s, v) => s + v, 0);
          let minEss = Infinity;
          const column = new Float64Array(draws);
          for (let j = 0; j < n; j++) {
            for (let i = 0; i < draws; i++) column[i] = res.samples[i * n + j];
            minEss = Math.min(minEss, essBulk([column]));
          }
          const stepSize = Number.isNaN(adapted) ? res.tunedValue! : adapted;
          if (uCovariance) console.log(`# ${cell}: covariance of u: ${whitenedCovariance(kernel as LaplaceNutsKernel, res.samples, n, draws)}`);
          console.log(`${n}\t${whitening}\t${integrator}\t${ta}\t${jitter}\t${c}\t${stepSize.toFixed(3)}\t${(gradients / draws).toFixed(2)}\t${res.summary.divergences} (${res.summary.burnInDivergences})\t${minEss.toFixed(0)}\t${(minEss / gradients).toFixed(3)}\t${((seconds / gradients) * 1e6).toFixed(1)}`);
        }
      }
    }
  }
}
