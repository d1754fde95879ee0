// Scaling with n of the latent samplers and of EP, on the probit problem of bench/latentProblem.ts:
// CPU seconds per transition of every sampler of the registry (benchSpec's tunables, no adaptation,
// from f = 0 after a few warm-up transitions) and seconds per EP run (sequential and parallel, to
// convergence), at each n, with the exponent fitted by least squares to log time against log n.
// Each cell runs transitions until --budget CPU seconds have passed (at least one), so the largest n
// gets few transitions.
//   npm run bench -- scaling [--sizes 100,200,400,800,1600] [--budget 1] [--samplers rmhmc,ess,...] [--json]
import { probitSites } from "../src/likelihoods/epSites.js";
import { expectationPropagation } from "../src/approx/ep.js";
import { getBackend } from "../src/linalg/backend.js";
import { Rng } from "../src/random/rng.js";
import { LATENT_SAMPLER_NAMES, latentSampler } from "../src/samplers/registry.js";
import { benchSpec, problem } from "./latentProblem.js";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const sizes = arg("--sizes", "100,200,400,800,1600").split(",").map(Number);
const budget = Number(arg("--budget", "1"));
const names = arg("--samplers", LATENT_SAMPLER_NAMES.join(",")).split(",") as (typeof LATENT_SAMPLER_NAMES)[number][];
const json = process.argv.includes("--json");

/**
 * CPU seconds (user + system of this process) per call of `once`, repeated until `budget` CPU
 * seconds have passed (at least `min` calls). CPU time, because on a shared machine the wall
 * clock counts the other processes' share of the cores (one BLAS thread: the process runs on one).
 */
function timeUntil(once: () => void, min = 1): number {
  let calls = 0;
  const c0 = process.cpuUsage();
  const used = () => {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1e6;
  };
  while (calls < min || used() < budget) {
    once();
    calls++;
  }
  return used() / calls;
}

/** Least-squares slope of log t against log n. */
function exponent(ns: number[], ts: number[]): number {
  const lx = ns.map(Math.log), ly = ts.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length, my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < lx.length; i++) {
    sxy += (lx[i] - mx) * (ly[i] - my);
    sxx += (lx[i] - mx) ** 2;
  }
  return sxy / sxx;
}

const rows: Record<string, number[]> = {};
for (const n of sizes) {
  const target = problem(n);
  for (const name of names) {
    const kernel = latentSampler(target, benchSpec(name));
    const rng = new Rng(7);
    let state = kernel.init(new Float64Array(n));
    const step = () => { state = kernel.step(state, rng).state; };
    step(); // warm-up (compilation, leaving f = 0), not timed
    (rows[name] ??= []).push(timeUntil(step));
  }
  for (const schedule of ["sequential", "parallel"] as const) {
    const sites = probitSites(target.y);
    (rows[`ep ${schedule}`] ??= []).push(timeUntil(() => expectationPropagation(target.kernelMatrix, sites, { schedule })));
  }
  if (!json) process.stderr.write(`n = ${n} done\n`);
}

const threads = getBackend().getThreads();
if (json) {
  console.log(JSON.stringify({ sizes, budget, threads, seconds: rows, exponent: Object.fromEntries(Object.entries(rows).map(([k, t]) => [k, exponent(sizes, t)])) }));
} else {
  console.log(`backend: ${getBackend().name}, ${threads} thread(s); node ${process.version}; CPU seconds per transition (EP: per run to convergence)`);
  console.log(`| what | ${sizes.map((n) => `n = ${n}`).join(" | ")} | exponent |`);
  console.log(`|---|${sizes.map(() => "---|").join("")}---|`);
  for (const [k, t] of Object.entries(rows)) console.log(`| ${k} | ${t.map((v) => v.toExponential(2)).join(" | ")} | ${exponent(sizes, t).toFixed(2)} |`);
}
