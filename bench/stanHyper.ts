// gpmcmc's default fully Bayesian sampler (`gpmcmc sample` with no hyperparameters given: the pm
// scheme) against Stan's NUTS (rstan) on the same posterior: the probit GP classifier with an ARD
// squared-exponential kernel, lengthscales Gamma(1, 1), signal variance inverse-Gamma(1, 1), relative
// jitter 1e-6 (the peer's stan/gpc_probit_hyper.stan, run by stan/run_stan_hyper.R), on data of the
// comparison paper's simulation design (`gpmcmc simulate --likelihood probit --n N --d D --seed S`).
// Each tool runs 4 chains with one BLAS thread, one chain at a time; both are scored by rstan's
// multi-chain bulk ESS and R-hat (bench/essChains.R), over theta and over f separately, per second
// of sampling summed over the chains (Stan: rstan's elapsed sampling times; gpmcmc: the run's
// sampling seconds, its chains one after another on one worker thread), and the two tools' means
// are compared (z-scores of the differences, MCSE from the bulk ESS).
//
//   npm run bench -- stanHyper [--peers DIR] [--cases 100x2,100x5] [--seed 11] [--draws 1000] [--warmup 1000]
//                              [--stan-draws 2000] [--stan-warmup 1000] [--schemes pm] [--reference 4000] [--reuse-stan] [--out DIR]
//                              [--gpmcmc-seeds 11,1,2,3,4,5]
//
// --schemes adds rows for other schemes of `gpmcmc sample --scheme` (e.g. pm,aa), each at the same length.
// --reuse-stan takes an earlier run's Stan output from DIR instead of running Stan again.
// --gpmcmc-seeds runs each scheme once per seed (default: --seed alone), a row each, then the
// median and range of the ratios over the seeds: one run's min ESS is a noisy figure (a chain
// that sticks for a few hundred iterations halves it), and gpmcmc's runs are cheap beside Stan's.
// --reference M (default 4000; 0: none) adds, per case, a posterior mean of theta by importance
// sampling that uses no Markov chain (bench/thetaReference.ts) and each tool's z against it: where
// the two tools disagree, it says which has the posterior.
//
// DIR is a writable copy of the Stan peer (../shared/peers); rstan caches the compiled model next
// to the .stan file. This is a benchmark, not a test: without Rscript or rstan it says so and stops.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { numberAfter, run, splitDraws } from "./stanRuns.js";
import { essBulk } from "../src/diagnostics/ess.js";
import { thetaReference } from "./thetaReference.js";

/** Per column of a stacked-chains CSV: the mean and its MCSE (sd / sqrt of the multi-chain bulk ESS). */
function meansWithMcse(csv: string, chains: number): { names: string[]; mean: number[]; mcse: number[] } {
  const [head, ...rows] = readFileSync(csv, "utf8").trim().split("\n");
  const names = head!.split(",").map((v) => v.replace(/"/g, ""));
  const values = rows.map((r) => r.split(",").map(Number));
  const per = values.length / chains;
  const mean: number[] = [], mcse: number[] = [];
  names.forEach((_, j) => {
    const col = values.map((r) => r[j]!);
    const m = col.reduce((a, v) => a + v, 0) / col.length;
    const sd = Math.sqrt(col.reduce((a, v) => a + (v - m) ** 2, 0) / (col.length - 1));
    const split = Array.from({ length: chains }, (_, c) => Float64Array.from(col.slice(c * per, (c + 1) * per)));
    mean.push(m);
    mcse.push(sd / Math.sqrt(essBulk(split)));
  });
  return { names, mean, mcse };
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : fallback;
}

const peers = resolve(arg("--peers", process.env.GPMCMC_PEERS ?? "../shared/peers"));
const cases = arg("--cases", "100x2,100x5").split(",").map((c) => c.split("x").map(Number) as [number, number]);
const seed = arg("--seed", "11");
const draws = arg("--draws", "1000");
const warmup = arg("--warmup", "1000");
const stanDraws = arg("--stan-draws", "2000");
const stanWarmup = arg("--stan-warmup", "1000");
const out = resolve(arg("--out", "/tmp/gpmcmc-bench-stanHyper"));
const schemes = arg("--schemes", "pm").split(",");
const referenceDraws = Number(arg("--reference", "4000"));
const gpmcmcSeeds = arg("--gpmcmc-seeds", seed).split(",");
const CHAINS = 4;
const main = resolve("dist/src/cli/main.js");
const essScript = resolve("bench/essChains.R");

function stanMissing(): string | undefined {
  const r = spawnSync("Rscript", ["-e", "suppressPackageStartupMessages(library(rstan))"], { encoding: "utf8" });
  if (r.error) return "Rscript not found (install R and rstan: apt-get install r-cran-rstan)";
  if (r.status !== 0) return "R has no rstan package (apt-get install r-cran-rstan)";
  if (!existsSync(join(peers, "stan", "run_stan_hyper.R"))) return `no Stan peer at ${peers} (give --peers DIR, a writable copy of ../shared/peers)`;
  return undefined;
}

interface Scores { essTheta: number; rhatTheta: number; essF: number; rhatF: number }

function scores(prefix: string, chains: number): Scores {
  const t = run("Rscript", [essScript, `${prefix}_theta.csv`, String(chains)]);
  const f = run("Rscript", [essScript, `${prefix}_f.csv`, String(chains)]);
  return { essTheta: numberAfter(t, /bulk ESS: min ([0-9.]+)/), rhatTheta: numberAfter(t, /R-hat: max ([0-9.]+)/), essF: numberAfter(f, /bulk ESS: min ([0-9.]+)/), rhatF: numberAfter(f, /R-hat: max ([0-9.]+)/) };
}

const missing = stanMissing();
if (missing) {
  console.log(`bench stanHyper: skipped: ${missing}`);
  process.exit(0);
}
mkdirSync(out, { recursive: true });
console.log(`bench stanHyper: gpmcmc ${CHAINS} x (${warmup} + ${draws}), Stan ${CHAINS} x (${stanWarmup} + ${stanDraws}); rstan bulk ESS over ${CHAINS} chains per second of sampling; peers ${peers}`);
console.log("n\td\ttool\tsampling s\tmin ESS theta\tper s\tR-hat theta\tmin ESS f\tper s\tR-hat f\tratio theta\tratio f\tmeans max|z| theta, f\tnote");
for (const [n, d] of cases) {
  const data = join(out, `sim_n${n}_d${d}_s${seed}.csv`);
  if (!existsSync(data)) run(process.execPath, [main, "simulate", "--likelihood", "probit", "--n", String(n), "--d", String(d), "--seed", seed, "--out", data]);
  const stanPrefix = join(out, `stan_n${n}_d${d}`);
  // --reuse-stan: the output of an earlier Stan run of the same case (its log and draws), when there is one
  const stanLog = `${stanPrefix}.log`;
  const reuse = process.argv.includes("--reuse-stan") && existsSync(stanLog) && existsSync(`${stanPrefix}_theta.csv`);
  const stanText = reuse ? readFileSync(stanLog, "utf8") : run("Rscript", [join(peers, "stan", "run_stan_hyper.R"), data, stanDraws, seed, `--warmup=${stanWarmup}`, `--chains=${CHAINS}`, `--out=${stanPrefix}`]);
  if (!reuse) writeFileSync(stanLog, stanText);
  const stanSeconds = numberAfter(stanText, /sampling ([0-9.]+) s/);
  const stanWarm = numberAfter(stanText, /warmup ([0-9.]+) s/);
  const divergences = numberAfter(stanText, /divergences: (\d+)/);
  const stan = scores(stanPrefix, CHAINS);
  const line = (tool: string, s: Scores, seconds: number, ratios: string, z: string, note: string) =>
    console.log([n, d, tool, seconds.toFixed(1), s.essTheta.toFixed(0), (s.essTheta / seconds).toFixed(2), s.rhatTheta.toFixed(3), s.essF.toFixed(0), (s.essF / seconds).toFixed(2), s.rhatF.toFixed(3), ratios, z, note].join("\t"));
  line("stan-nuts", stan, stanSeconds, "1\t1", "-", `warm-up ${stanWarm.toFixed(1)} s, ${divergences} divergences`);
  const tools: [string, string][] = [["stan-nuts", `${stanPrefix}_theta.csv`]];
  for (const scheme of schemes) {
    const ratios: [number, number, number][] = [];
    for (const runSeed of gpmcmcSeeds) {
      const dir = join(out, `gpmcmc_${scheme}_n${n}_d${d}${runSeed === seed ? "" : `_seed${runSeed}`}`);
      const started = Date.now();
      const report = JSON.parse(run(process.execPath, [main, "sample", "--data", data, "--likelihood", "probit", "--scheme", scheme, "--chains", String(CHAINS), "--parallel", "1", "--draws", draws, "--burn-in", warmup, "--seed", runSeed, "--out", dir, "--overwrite", "--json", "--quiet"])) as { samplingSeconds: number; seconds: number; acceptanceRate: number };
      const wall = (Date.now() - started) / 1000;
      const prefix = dir;
      splitDraws(dir, CHAINS, prefix);
      const ours = scores(prefix, CHAINS);
      const zTheta = numberAfter(run("Rscript", [essScript, `${prefix}_theta.csv`, String(CHAINS), `${stanPrefix}_theta.csv`, String(CHAINS)]), /max\|z\| = ([0-9.]+)/);
      const zF = numberAfter(run("Rscript", [essScript, `${prefix}_f.csv`, String(CHAINS), `${stanPrefix}_f.csv`, String(CHAINS)]), /max\|z\| = ([0-9.]+)/);
      const tool = gpmcmcSeeds.length > 1 ? `gpmcmc ${scheme} seed ${runSeed}` : `gpmcmc ${scheme}`;
      tools.push([tool, `${prefix}_theta.csv`]);
      const ratio: [number, number, number] = [(ours.essTheta / report.samplingSeconds) / (stan.essTheta / stanSeconds), (ours.essF / report.samplingSeconds) / (stan.essF / stanSeconds), Math.max(ours.rhatTheta, ours.rhatF)];
      ratios.push(ratio);
      line(tool, ours, report.samplingSeconds, `${ratio[0].toFixed(1)}\t${ratio[1].toFixed(1)}`, `${zTheta.toFixed(2)}, ${zF.toFixed(2)}`, `whole run ${wall.toFixed(1)} s wall (with burn-in${scheme === "pm" ? " and the mode search" : ""}), theta acceptance ${report.acceptanceRate.toFixed(3)}`);
    }
    if (ratios.length > 1) {
      const median = (v: number[]) => { const s2 = [...v].sort((a, b) => a - b); const h = s2.length >> 1; return s2.length % 2 ? s2[h]! : (s2[h - 1]! + s2[h]!) / 2; };
      const range = (v: number[]) => `${Math.min(...v).toFixed(1)}-${Math.max(...v).toFixed(1)}`;
      const theta = ratios.map((r) => r[0]), f = ratios.map((r) => r[1]);
      console.log(`# n = ${n}, d = ${d}, gpmcmc ${scheme} over ${ratios.length} seeds: ratio theta median ${median(theta).toFixed(1)} (${range(theta)}), f median ${median(f).toFixed(1)} (${range(f)}); R-hat < 1.01 on theta and f in ${ratios.filter((r) => r[2] < 1.01).length} of ${ratios.length}`);
    }
  }
  if (referenceDraws > 0) {
    const ref = thetaReference(data, referenceDraws, 20140);
    console.log(`# n = ${n}, d = ${d}: theta's posterior mean by importance sampling (${referenceDraws} draws, effective ${ref.ess.toFixed(0)}): ${Array.from(ref.mean, (v, k) => `${v.toFixed(3)} (se ${ref.se[k]!.toFixed(3)})`).join(", ")}`);
    for (const [tool, csv] of tools) {
      const t = meansWithMcse(csv, CHAINS);
      const z = t.mean.map((v, k) => (v - ref.mean[k]!) / Math.hypot(t.mcse[k]!, ref.se[k]!));
      console.log(`#   ${tool}: means ${t.mean.map((v) => v.toFixed(3)).join(", ")}; z against the reference ${z.map((v) => v.toFixed(2)).join(", ")}`);
    }
  }
}
