// gpmcmc against Stan's NUTS (rstan) on the same probit GP classification posterior, interleaved
// (Stan, then each gpmcmc sampler, per data set and seed), scored by one ESS estimator: rstan's
// bulk ESS (the peers' check/ess_from_draws.R) over the f columns of both draw files, per CPU
// second of the sampling phase (warm-up excluded, one chain each; rstan's elapsed times are CPU
// times, so gpmcmc's chain runs in this process and is timed by process.cpuUsage()). Also checks that the two posterior
// means agree (check/compare_means.R: z-scores of the differences in mean).
//
//   npm run bench -- stan [--peers DIR] [--n 100,400] [--seeds 1,2,3] [--samplers laplace-hmc,hmc-v2] [--likelihood probit|logistic]
//                         [--draws 1000] [--warmup 1000] [--out DIR]
//
// A sampler may name its whitening after a colon (laplace-nuts:laplace, laplace-nuts:ep), and
// laplace-nuts its integrator after a second (laplace-nuts:ep:leapfrog, laplace-nuts::leapfrog),
// as may rmhmc (rmhmc::lagrangian, rmhmc::fast);
// without them it runs as `gpmcmc sample` would (laplace-nuts on probit: EP's, the split integrator). The whitening's fit (EP or
// Laplace, before the chain) is timed on its own and is part of the CPU seconds before sampling.
//
// DIR is a writable copy of the Stan peer (../shared/peers: the model, its R runner, the ESS and
// mean checks, data/gpc_synth_n*.csv); rstan caches the compiled model next to the .stan file.
// Hyperparameters as the peer's data were drawn with: lengthscale e^-2, variance e^2, jitter
// 1e-6 x variance. This is a benchmark, not a test: without Rscript or rstan it says so and stops.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readDataset } from "../src/io/dataset.js";
import { getBackend } from "../src/linalg/backend.js";
import { runLatentGp, type LatentGpRunSpec } from "../src/run/index.js";
import { LAPLACE_INTEGRATORS, type LaplaceIntegrator } from "../src/samplers/integrators/laplaceDynamics.js";
import { defaultTargetAcceptance, latentSamplerSpec, RMHMC_INTEGRATORS, WHITENINGS, type LatentSamplerName, type LatentSamplerSpecInput, type WhiteningName } from "../src/samplers/registry.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const peers = resolve(arg("--peers", process.env.GPMCMC_PEERS ?? "../shared/peers"));
const sizes = arg("--n", "100,400").split(",").map(Number);
const seeds = arg("--seeds", "1,2,3").split(",").map(Number);
const samplers = arg("--samplers", "laplace-hmc,hmc-v2").split(",");
const draws = arg("--draws", "1000");
const warmup = arg("--warmup", "1000");
const out = resolve(arg("--out", "/tmp/gpmcmc-bench-stan"));
// The peer's two models: probit (gpc_probit.stan) and logistic (gpc_logit.stan), on the same data.
const likelihood = arg("--likelihood", "probit");
if (likelihood !== "probit" && likelihood !== "logistic") {
  console.error(`bench stan: --likelihood must be probit or logistic (the peer's two models), not ${likelihood}`);
  process.exit(2);
}
const stanModel = likelihood === "probit" ? "probit" : "logit";
// Files of a logistic run are named apart from the probit ones.
const tag = likelihood === "probit" ? "" : "_logistic";
const LOG_LENGTHSCALE = -2;
const LOG_VARIANCE = 2;
const JITTER = 1e-6 * Math.exp(LOG_VARIANCE);
const env = { ...process.env, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1" };

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: "utf8", env, maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status}):\n${r.stderr}`);
  return r.stdout;
}

/** Says why Stan cannot run here, or undefined when it can. */
function stanMissing(): string | undefined {
  const r = spawnSync("Rscript", ["-e", "suppressPackageStartupMessages(library(rstan)); cat(as.character(packageVersion('rstan')))"], { encoding: "utf8" });
  if (r.error) return "Rscript not found (install R and rstan: apt-get install r-cran-rstan)";
  if (r.status !== 0) return "R has no rstan package (apt-get install r-cran-rstan)";
  if (!existsSync(join(peers, "stan", "run_stan.R"))) return `no Stan peer at ${peers} (give --peers DIR, a writable copy of ../shared/peers)`;
  return undefined;
}

/** The last number after `label` in `text`. */
function numberAfter(text: string, label: RegExp): number {
  const m = text.match(label);
  if (!m) throw new Error(`no ${label} in:\n${text}`);
  return Number(m[1]);
}

/** rstan's min bulk ESS over the columns of a draws CSV (check/ess_from_draws.R). */
function minBulkEss(csv: string): number {
  return numberAfter(run("Rscript", [join(peers, "check", "ess_from_draws.R"), csv]), /rstan bulk ESS: min ([0-9.]+)/);
}

interface Row { n: number; seed: number; tool: string; seconds: number; ess: number; perSecond: number; divergences: number; note: string }

/** One Stan chain through rstan; its sampling seconds are rstan's elapsed time, CPU time (Stan 2.21 times with clock()). */
function stanRun(data: string, n: number, seed: number): Row {
  const prefix = join(out, `stan${tag}_n${n}_s${seed}`);
  const text = run("Rscript", [join(peers, "stan", "run_stan.R"), data, `exp(${LOG_LENGTHSCALE})`, `exp(${LOG_VARIANCE})`, draws, String(seed), `--warmup=${warmup}`, `--model=${stanModel}`, `--out=${prefix}`]);
  const seconds = numberAfter(text, /sampling ([0-9.]+) s \(summed/);
  const ess = minBulkEss(`${prefix}_draws.csv`);
  const divergences = numberAfter(text, /divergences (\d+)/);
  const leap = numberAfter(text, /mean leapfrog\/iter ([0-9.]+)/);
  return { n, seed, tool: "stan-nuts", seconds, ess, perSecond: ess / seconds, divergences, note: `${leap} leapfrog/iteration, ${(seconds / (leap * Number(draws)) * 1e6).toFixed(1)} us/gradient, ESS/gradient ${(ess / (leap * Number(draws))).toFixed(3)}` };
}

/** The draws of f (draw-major, n per draw) as a plain CSV with header f1..fn. */
function writeLatent(samples: Float64Array, n: number, csv: string): void {
  const rows = [Array.from({ length: n }, (_, j) => `f${j + 1}`).join(",")];
  for (let i = 0; i < samples.length / n; i++) rows.push(Array.from(samples.subarray(i * n, (i + 1) * n)).join(","));
  writeFileSync(csv, rows.join("\n") + "\n");
}

/** CPU seconds of this process so far (all its threads: the chain, the collector, the compiler). */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * One gpmcmc chain in this process (what `gpmcmc sample --chains 1` runs, with the CLI's defaults
 * for the sampler), timed in CPU seconds of the sampling phase, as rstan times Stan (its elapsed
 * times are CPU times: on a loaded machine, wall-clock times of the two would not compare), and
 * in wall-clock seconds.
 */
async function gpmcmcRun(data: string, n: number, seed: number, sampler: string): Promise<Row> {
  const ds = readDataset(data);
  // probit takes the labels as -1/+1, logistic as 0/1
  const y = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : likelihood === "probit" ? -1 : 0));
  const [base, given, integrator] = sampler.split(":");
  const name = base as LatentSamplerName;
  // "laplace-nuts::leapfrog" keeps the default whitening
  const whitening = given === "" ? undefined : given;
  if (whitening !== undefined && !(WHITENINGS as readonly string[]).includes(whitening)) throw new RangeError(`--samplers: unknown whitening ${whitening} (known: ${WHITENINGS.join(", ")})`);
  const rmhmcVariant = name === "rmhmc" && integrator !== undefined && (RMHMC_INTEGRATORS as readonly string[]).includes(integrator);
  if (integrator !== undefined && !rmhmcVariant && (name !== "laplace-nuts" || !(LAPLACE_INTEGRATORS as readonly string[]).includes(integrator))) {
    throw new RangeError(`--samplers: an integrator goes with laplace-nuts (${LAPLACE_INTEGRATORS.join(", ")}) or rmhmc (${RMHMC_INTEGRATORS.join(", ")}) only, not ${sampler}`);
  }
  const spec: LatentGpRunSpec = {
    model: { likelihood, logLengthscale: [LOG_LENGTHSCALE], logSignalSd: LOG_VARIANCE / 2, jitter: JITTER },
    sampler: latentSamplerSpec({ sampler: name, ...(whitening === undefined ? {} : { whitening: whitening as WhiteningName }), ...(integrator === undefined ? {} : rmhmcVariant ? { variant: integrator } : { integrator: integrator as LaplaceIntegrator }) } as LatentSamplerSpecInput),
    draws: Number(draws), burnIn: Number(warmup), thin: 1, chains: 1, seed,
    adapt: { method: "dual-averaging", targetAcceptance: defaultTargetAcceptance(name) },
  };
  const burnIn = Number(warmup);
  let cpuAtSampling = NaN;
  let cpuAtEnd = NaN;
  const cpuAtStart = cpuSeconds();
  const run = await runLatentGp({ X: ds.X, y }, spec, {
    inProcess: true, progressInterval: burnIn, onWarning: () => undefined,
    onProgress: (p) => {
      if (p.phase === "burn-in" && p.iteration === burnIn) cpuAtSampling = cpuSeconds();
    },
    onChain: () => {
      cpuAtEnd = cpuSeconds();
    },
  });
  const chain = run.results[0];
  const csv = join(out, `${sampler.replaceAll(":", "-")}${tag}_n${n}_s${seed}_f.csv`);
  writeLatent(chain.samples, n, csv);
  // One gradient per leapfrog step for the HMC and NUTS samplers; mgrad takes one per transition
  // (and has no leapfrog steps); exact-hmc takes none, and its n_leapfrog__ counts the pieces of
  // its trajectories (walls hit + 1), the unit its cost is reported in.
  let samplingGradients = 0;
  for (const l of chain.stats.nLeapfrog) samplingGradients += l;
  if (name === "mgrad") samplingGradients = Number(draws);
  const unit = name === "exact-hmc" ? "segment" : "gradient";
  const perIteration = name === "exact-hmc" ? "segments/iteration" : "leapfrog/iteration";
  let divergences = 0;
  for (const d of chain.stats.divergent) divergences += d;
  const seconds = cpuAtEnd - cpuAtSampling;
  const ess = minBulkEss(csv);
  const perGradient = seconds / samplingGradients;
  return { n, seed, tool: sampler, seconds, ess, perSecond: ess / seconds, divergences,
    note: `step ${chain.tunedValue?.toFixed(3) ?? "-"}, ${(samplingGradients / Number(draws)).toFixed(1)} ${perIteration}, ${(perGradient * 1e6).toFixed(1)} us/${unit}, ESS/${unit} ${(ess / samplingGradients).toFixed(3)}, wall ${chain.seconds.sampling.toFixed(2)} s, whole run ${(cpuAtEnd - cpuAtStart).toFixed(2)} CPU s, before sampling (set-up and warm-up) ${(cpuAtSampling - cpuAtStart).toFixed(2)} CPU s${run.whitening ? `, of which the whitening (${run.whitening.used}${run.whitening.epSweeps !== undefined ? `, ${run.whitening.epSweeps} sweeps` : ""}) ${(run.whitening.cpuSeconds * 1e3).toFixed(1)} CPU ms` : ""}` };
}

// One BLAS thread for the in-process chains too, as Stan runs single-threaded.
getBackend().setThreads(1);
const missing = stanMissing();
if (missing) {
  console.log(`bench stan: skipped: ${missing}`);
  process.exit(0);
}
mkdirSync(out, { recursive: true });
console.log(`bench stan: ${likelihood} likelihood, ${draws} warm-up + ${draws} draws, 1 chain each, min rstan bulk ESS over f per second of sampling; peers ${peers}`);
console.log("n\tseed\ttool\tsampling s\tmin bulk ESS\tESS/s\tratio to Stan\tdivergences\tmean check\tnote");
for (const n of sizes) {
  const data = join(peers, "data", `gpc_synth_n${n}.csv`);
  for (const seed of seeds) {
    const stan = stanRun(data, n, seed);
    console.log(`${n}\t${seed}\t${stan.tool}\t${stan.seconds.toFixed(2)}\t${stan.ess.toFixed(0)}\t${stan.perSecond.toFixed(1)}\t1\t${stan.divergences}\t-\t${stan.note}`);
    for (const sampler of samplers) {
      const g = await gpmcmcRun(data, n, seed, sampler);
      const cmp = run("Rscript", [join(peers, "check", "compare_means.R"), join(out, `stan${tag}_n${n}_s${seed}_draws.csv`), join(out, `${sampler.replaceAll(":", "-")}${tag}_n${n}_s${seed}_f.csv`)]);
      const z = numberAfter(cmp, /max\|z\| = ([0-9.]+)/);
      console.log(`${n}\t${seed}\t${g.tool}\t${g.seconds.toFixed(2)}\t${g.ess.toFixed(0)}\t${g.perSecond.toFixed(1)}\t${(g.perSecond / stan.perSecond).toFixed(2)}\t${g.divergences}\tmax|z| ${z.toFixed(2)}\t${g.note}`);
    }
  }
}
