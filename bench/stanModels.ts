// Three latent GP models with sampled hyperparameters as Stan users write them, stated in
// `gpmcmc sample`'s options, against Stan's NUTS on the same posterior (bench/stan/gpHyperPriors.stan,
// run by bench/stan/runHyperPriors.R): the two tools' posterior means of theta and f agree
// (z-scores of the differences, MCSE from rstan's multi-chain bulk ESS, bench/essChains.R).
//
//   npm run bench -- stanModels [--n 50] [--draws 1000] [--warmup 1000] [--stan-draws 1000] [--stan-warmup 500] [--out DIR]
//
// The data: `gpmcmc simulate` of each likelihood (n inputs, d = 2, seed 7). rstan caches the
// compiled model next to the .stan file (bench/stan must be writable). A benchmark, not a test:
// without Rscript or rstan it says so and stops.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { numberAfter, run, splitDraws } from "./stanRuns.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : fallback;
}

const n = arg("--n", "50");
const draws = arg("--draws", "1000");
const warmup = arg("--warmup", "1000");
const stanDraws = arg("--stan-draws", "1000");
const stanWarmup = arg("--stan-warmup", "500");
const out = resolve(arg("--out", "/tmp/gpmcmc-bench-stanModels"));
const main = resolve("dist/src/cli/main.js");
const essScript = resolve("bench/essChains.R");
const runner = resolve("bench/stan/runHyperPriors.R");

/** A model: the likelihood, and its priors in Stan's codes and in gpmcmc's options. */
const MODELS = [
  { name: "probit, half-normal(0, 2) on the sd, lognormal(-1, 1) lengthscales", likelihood: "probit", lik: 1, ell: [3, -1, 1], sd: [1, 0, 2], options: ["--prior-lengthscale", "lognormal:-1,1", "--prior-signal-sd", "halfnormal:2"] },
  { name: "logistic, half-normal(0, 1) on the sd, inv-gamma(5, 1) lengthscales", likelihood: "logistic", lik: 2, ell: [2, 5, 1], sd: [1, 0, 1], options: ["--prior-lengthscale", "invgamma:5,1", "--prior-signal-sd", "halfnormal:1"] },
  { name: "Poisson, half-t(3, 0, 1) on the sd, gamma(2, 2) lengthscales", likelihood: "poisson", lik: 3, ell: [1, 2, 2], sd: [2, 3, 1], options: ["--prior-lengthscale", "gamma:2,2", "--prior-signal-sd", "halft:3,1"] },
] as const;

const probe = spawnSync("Rscript", ["-e", "suppressPackageStartupMessages(library(rstan))"], { encoding: "utf8" });
if (probe.error || probe.status !== 0) {
  console.log(`bench stanModels: skipped: ${probe.error ? "Rscript not found" : "R has no rstan package"} (apt-get install r-cran-rstan)`);
  process.exit(0);
}
mkdirSync(out, { recursive: true });
console.log(`bench stanModels: n = ${n}, d = 2; gpmcmc pm 4 x (${warmup} + ${draws}), Stan 4 x (${stanWarmup} + ${stanDraws}); means compared by z = difference / combined MCSE`);
console.log("model\tgpmcmc options\tmin bulk ESS theta, f (gpmcmc)\t(Stan)\tR-hat max (gpmcmc, Stan)\tmax|z| theta\tmax|z| f\tStan divergences");
for (const m of MODELS) {
  const data = join(out, `${m.likelihood}_n${n}.csv`);
  if (!existsSync(data)) run(process.execPath, [main, "simulate", "--likelihood", m.likelihood, "--n", n, "--d", "2", "--seed", "7", "--out", data]);
  const stanPrefix = join(out, `stan_${m.likelihood}`);
  const stanText = run("Rscript", [runner, data, String(m.lik), String(m.ell[0]), String(m.ell[1]), String(m.ell[2]), String(m.sd[0]), String(m.sd[1]), String(m.sd[2]), stanDraws, stanWarmup, "7", stanPrefix]);
  const dir = join(out, `gpmcmc_${m.likelihood}`);
  run(process.execPath, [main, "sample", "--data", data, "--likelihood", m.likelihood, ...m.options, "--chains", "4", "--parallel", "1", "--draws", draws, "--burn-in", warmup, "--seed", "7", "--out", dir, "--overwrite", "--quiet"]);
  const prefix = join(out, `gpmcmc_${m.likelihood}`);
  splitDraws(dir, 4, prefix);
  const part = (what: string) => run("Rscript", [essScript, `${prefix}_${what}.csv`, "4", `${stanPrefix}_${what}.csv`, "4"]);
  const stanPart = (what: string) => run("Rscript", [essScript, `${stanPrefix}_${what}.csv`, "4"]);
  const t = part("theta"), f = part("f"), st = stanPart("theta"), sf = stanPart("f");
  const ess = (s: string) => numberAfter(s, /bulk ESS: min ([0-9.]+)/).toFixed(0);
  const rhat = (s: string) => numberAfter(s, /R-hat: max ([0-9.]+)/);
  console.log([m.name, m.options.join(" "), `${ess(t)}, ${ess(f)}`, `${ess(st)}, ${ess(sf)}`, `${Math.max(rhat(t), rhat(f)).toFixed(3)}, ${Math.max(rhat(st), rhat(sf)).toFixed(3)}`,
    numberAfter(t, /max\|z\| = ([0-9.]+)/).toFixed(2), numberAfter(f, /max\|z\| = ([0-9.]+)/).toFixed(2), numberAfter(stanText, /divergences: (\d+)/)].join("\t"));
}
