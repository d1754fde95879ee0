// gpmcmc against Stan's NUTS (rstan) on the same probit GP classification posterior, interleaved
// (Stan, then each gpmcmc sampler, per data set and seed), scored by one ESS estimator: rstan's
// bulk ESS (the peers' check/ess_from_draws.R) over the f columns of both draw files, per second
// of the sampling phase (warm-up excluded, one chain each). Also checks that the two posterior
// means agree (check/compare_means.R: z-scores of the differences in mean).
//
//   npm run bench -- stan [--peers DIR] [--n 100,400] [--seeds 1,2,3] [--samplers laplace-hmc,hmc-v2]
//                         [--draws 1000] [--warmup 1000] [--out DIR]
//
// DIR is a writable copy of the Stan peer (../shared/peers: the model, its R runner, the ESS and
// mean checks, data/gpc_synth_n*.csv); rstan caches the compiled model next to the .stan file.
// Hyperparameters as the peer's data were drawn with: lengthscale e^-2, variance e^2, jitter
// 1e-6 x variance. This is a benchmark, not a test: without Rscript or rstan it says so and stops.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

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

/** The f.* columns of a gpmcmc draws file, as a plain CSV (header f1..fn). */
function extractLatent(drawsFile: string, csv: string): void {
  const lines = readFileSync(drawsFile, "utf8").split("\n").filter((l) => l.length > 0 && !l.startsWith("#"));
  const header = lines[0].split(",");
  const cols = header.map((h, i) => (/^f\.\d+$/.test(h) ? i : -1)).filter((i) => i >= 0);
  const rows = [cols.map((i) => header[i].replace(".", "")).join(",")];
  for (const line of lines.slice(1)) {
    const v = line.split(",");
    rows.push(cols.map((i) => v[i]).join(","));
  }
  writeFileSync(csv, rows.join("\n") + "\n");
}

interface Row { n: number; seed: number; tool: string; seconds: number; ess: number; perSecond: number; divergences: number; note: string }

function stanRun(data: string, n: number, seed: number): Row {
  const prefix = join(out, `stan_n${n}_s${seed}`);
  const text = run("Rscript", [join(peers, "stan", "run_stan.R"), data, `exp(${LOG_LENGTHSCALE})`, `exp(${LOG_VARIANCE})`, draws, String(seed), `--warmup=${warmup}`, `--out=${prefix}`]);
  const seconds = numberAfter(text, /sampling ([0-9.]+) s \(summed/);
  const ess = minBulkEss(`${prefix}_draws.csv`);
  const divergences = numberAfter(text, /divergences (\d+)/);
  const leap = numberAfter(text, /mean leapfrog\/iter ([0-9.]+)/);
  return { n, seed, tool: "stan-nuts", seconds, ess, perSecond: ess / seconds, divergences, note: `${leap} leapfrog/iteration, ${(seconds / (leap * Number(draws)) * 1e6).toFixed(1)} us/gradient, ESS/gradient ${(ess / (leap * Number(draws))).toFixed(3)}` };
}

function gpmcmcRun(data: string, n: number, seed: number, sampler: string): Row {
  const dir = join(out, `${sampler}_n${n}_s${seed}`);
  const text = run(process.execPath, ["dist/src/cli/main.js", "sample", "--data", data, "--log-lengthscale", String(LOG_LENGTHSCALE),
    "--log-signal-sd", String(LOG_VARIANCE / 2), "--jitter", String(JITTER), "--sampler", sampler, "--chains", "1", "--seed", String(seed),
    "--draws", draws, "--burn-in", warmup, "--out", dir, "--force", "--json", "--quiet"]);
  const summary = JSON.parse(text);
  const chain = summary.perChain[0];
  const csv = join(out, `${sampler}_n${n}_s${seed}_f.csv`);
  extractLatent(join(dir, "draws_1.csv"), csv);
  const seconds = summary.samplingSeconds;
  const ess = minBulkEss(csv);
  // gradientCalls counts burn-in and sampling together: the sampling phase's share is estimated
  // by its share of the transitions (the step size is fixed after burn-in).
  const samplingGradients = chain.gradientCalls * (Number(draws) / (Number(draws) + Number(warmup)));
  const perGradient = chain.samplingSeconds / samplingGradients;
  return { n, seed, tool: sampler, seconds, ess, perSecond: ess / seconds, divergences: summary.divergences,
    note: `step ${chain.stepSize.toFixed(3)}, ${(perGradient * 1e6).toFixed(1)} us/gradient, ESS/gradient ~${(ess / samplingGradients).toFixed(3)}` };
}

const missing = stanMissing();
if (missing) {
  console.log(`bench stan: skipped: ${missing}`);
  process.exit(0);
}
mkdirSync(out, { recursive: true });
console.log(`bench stan: ${draws} warm-up + ${draws} draws, 1 chain each, min rstan bulk ESS over f per second of sampling; peers ${peers}`);
console.log("n\tseed\ttool\tsampling s\tmin bulk ESS\tESS/s\tratio to Stan\tdivergences\tmean check\tnote");
for (const n of sizes) {
  const data = join(peers, "data", `gpc_synth_n${n}.csv`);
  for (const seed of seeds) {
    const stan = stanRun(data, n, seed);
    console.log(`${n}\t${seed}\t${stan.tool}\t${stan.seconds.toFixed(2)}\t${stan.ess.toFixed(0)}\t${stan.perSecond.toFixed(1)}\t1\t${stan.divergences}\t-\t${stan.note}`);
    for (const sampler of samplers) {
      const g = gpmcmcRun(data, n, seed, sampler);
      const cmp = run("Rscript", [join(peers, "check", "compare_means.R"), join(out, `stan_n${n}_s${seed}_draws.csv`), join(out, `${sampler}_n${n}_s${seed}_f.csv`)]);
      const z = numberAfter(cmp, /max\|z\| = ([0-9.]+)/);
      console.log(`${n}\t${seed}\t${g.tool}\t${g.seconds.toFixed(2)}\t${g.ess.toFixed(0)}\t${g.perSecond.toFixed(1)}\t${(g.perSecond / stan.perSecond).toFixed(2)}\t${g.divergences}\tmax|z| ${z.toFixed(2)}\t${g.note}`);
    }
  }
}
