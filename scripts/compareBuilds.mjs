#!/usr/bin/env node
// Runs the same gpmcmc commands on two built checkouts, alternating between them, and prints a
// table of wall times (fastest of --reps runs each, so that load from other processes, which can
// only slow a run down, falls on both alike) and whether the two give the same output: the draws
// files' rows, and the --json figures other than timings (a renamed or added field counts as a
// difference there).
//
// Usage: node scripts/compareBuilds.mjs --base DIR [--new DIR] [--reps 3] [--only NAME,...]
//   DIR: a checkout with `npm ci` done (dist/ built). --new defaults to this checkout.
// The data are the first 101 and 201 cases of data/usps35_origsplit_train.csv and simulated sets
// made by `gpmcmc simulate` of the base checkout (both checkouts then read the same files).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const base = arg("--base");
const next = resolve(arg("--new", "."));
const reps = Number(arg("--reps", "3"));
const only = arg("--only")?.split(",");
if (!base || !existsSync(join(base, "dist/src/cli/main.js")) || !existsSync(join(next, "dist/src/cli/main.js"))) {
  console.error("usage: node scripts/compareBuilds.mjs --base DIR [--new DIR] [--reps 3] [--only NAME,...] (both built)");
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), "gpmcmc-compare-"));
const uspsLines = readFileSync(join(next, "data/usps35_origsplit_train.csv"), "utf8").split("\n");
writeFileSync(join(work, "usps100.csv"), uspsLines.slice(0, 101).join("\n") + "\n");
writeFileSync(join(work, "usps200.csv"), uspsLines.slice(0, 201).join("\n") + "\n");

function gpmcmc(root, args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(root, "dist/src/cli/main.js"), ...args], {
    cwd: work, encoding: "utf8", env: { ...process.env, OPENBLAS_NUM_THREADS: "1" },
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${root}: gpmcmc ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { seconds, stdout: r.stdout };
}

for (const lik of ["logistic", "poisson"]) {
  gpmcmc(base, ["simulate", "--likelihood", lik, "--n", "100", "--d", "2", "--seed", "3", "--out", `sim-${lik}.csv`, "--force"]);
}
const theta = ["--log-lengthscale", "-2", "--log-signal-sd", "1"];
const usps = ["--data", "usps100.csv", "--log-lengthscale", "4.85", "--log-signal-sd", "5.1"];
const common = ["--draws", "200", "--burn-in", "200", "--chains", "2", "--parallel", "1", "--seed", "11"];
const cases = [
  ["sample rmhmc usps100", ["sample", ...usps, "--sampler", "rmhmc", "--init", "laplace", ...common]],
  ["sample rmhmc reference", ["sample", ...usps, "--sampler", "rmhmc", "--integrator", "reference", "--fixed-point-iterations", "5", "--init", "laplace", ...common]],
  ["sample hmc usps100", ["sample", ...usps, "--sampler", "hmc", "--init", "laplace", ...common]],
  ["sample smmala logistic", ["sample", "--data", "sim-logistic.csv", "--likelihood", "logistic", ...theta, "--sampler", "smmala", ...common]],
  ["sample hmc-v1 logistic", ["sample", "--data", "sim-logistic.csv", "--likelihood", "logistic", ...theta, "--sampler", "hmc-v1", ...common]],
  ["sample hmc-v2 poisson", ["sample", "--data", "sim-poisson.csv", "--likelihood", "poisson", ...theta, "--sampler", "hmc-v2", ...common]],
  ["sample mh-v2 poisson", ["sample", "--data", "sim-poisson.csv", "--likelihood", "poisson", ...theta, "--sampler", "mh-v2", ...common]],
  ["sample ess logistic", ["sample", "--data", "sim-logistic.csv", "--likelihood", "logistic", ...theta, "--sampler", "ess", ...common]],
  ["ep usps200", ["ep", "--data", "usps200.csv", "--log-lengthscale", "4.85", "--log-signal-sd", "5.1"]],
  ["laplace usps200", ["laplace", "--data", "usps200.csv", "--log-lengthscale", "4.85", "--log-signal-sd", "5.1"]],
  ["ais usps100", ["ais", ...usps, "--from", "ep", "--transition", "rmhmc", "--temperatures", "20", "--runs", "2", "--parallel", "1", "--seed", "5"]],
].filter(([name]) => !only || only.some((o) => name.includes(o)));

/** The --json figures with timings (any key naming seconds, time or a rate per second) removed. */
function figures(stdout) {
  const strip = (v) => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === "object") {
      const out = {};
      for (const [k, x] of Object.entries(v)) {
        if (/second|time|Second|perSecond|PerSecond|startedAt|elapsed|version|backend|parallel|Basis/i.test(k)) continue;
        out[k] = strip(x);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(strip(JSON.parse(stdout)));
}

/** The draws files' data rows (comments hold dates, versions and timings). */
function drawRows(dir) {
  if (!existsSync(dir)) return "";
  return readdirSync(dir).filter((f) => /^draws_\d+\.csv$/.test(f)).sort()
    .map((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => !l.startsWith("#")).join("\n")).join("\n");
}

console.log(`# base: ${resolve(base)}\n# new: ${next}\n# ${reps} runs each, alternating; OPENBLAS_NUM_THREADS=1\n`);
console.log("| command | base s | new s | new/base | same draws | same figures |");
console.log("|---|---|---|---|---|---|");
for (const [name, args] of cases) {
  const best = { base: Infinity, next: Infinity };
  const draws = {};
  const figs = {};
  for (let r = 0; r < reps; r++) {
    for (const [key, root] of [["base", base], ["next", next]]) {
      const dir = join(work, "out");
      rmSync(dir, { recursive: true, force: true });
      const withOut = args[0] === "sample" ? [...args, "--out", dir, "--quiet"] : args;
      const { seconds, stdout } = gpmcmc(root, [...withOut, "--json"]);
      best[key] = Math.min(best[key], seconds);
      draws[key] = drawRows(dir);
      figs[key] = figures(stdout);
    }
  }
  const sameDraws = args[0] !== "sample" ? "-" : draws.base === draws.next ? "yes" : "NO";
  const sameFigures = figs.base === figs.next ? "yes" : "NO";
  console.log(`| ${name} | ${best.base.toFixed(2)} | ${best.next.toFixed(2)} | ${(best.next / best.base).toFixed(3)} | ${sameDraws} | ${sameFigures} |`);
}
rmSync(work, { recursive: true, force: true });
