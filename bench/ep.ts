// EP and Laplace on USPS 3 vs 5 at the note's setting (n = 1214, log lengthscale 4.85, log
// signal sd 5.1, probit), through the CLI (`gpmcmc ep --json`, `gpmcmc laplace --json`) with one
// BLAS thread: the `seconds` each prints (the approximation alone, data reading excluded) and log Z,
// against GPstuff's log Z_EP = -143.4989126, and, with --base DIR (another built checkout), the same
// commands of that checkout run alternately with these, for a same-run ratio.
//   npm run bench -- ep [--base /work/baseline] [--reps 3]
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const GPSTUFF_LOGZ = -143.4989126;
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const here = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const base = arg("--base");
const reps = Number(arg("--reps") ?? "3");
if (base !== undefined && !existsSync(join(base, "dist/src/cli/main.js"))) {
  console.error(`ep bench: --base ${base} has no dist/src/cli/main.js (build it first)`);
  process.exit(2);
}
const data = join(here, "data/usps35_origsplit_train.csv");
const setting = ["--data", data, "--log-lengthscale", "4.85", "--log-signal-sd", "5.1", "--json"];
// [name, arguments, the base's arguments]: the plain damped parallel iteration is the base's
// parallel schedule, behind --acceleration none here (a base without the option runs its default).
const commands: [string, string[], string[]][] = [
  ["ep parallel", ["ep", ...setting, "--schedule", "parallel"], ["ep", ...setting, "--schedule", "parallel"]],
  ["ep parallel --acceleration none", ["ep", ...setting, "--schedule", "parallel", "--acceleration", "none"], ["ep", ...setting, "--schedule", "parallel"]],
  ["ep sequential", ["ep", ...setting, "--schedule", "sequential"], ["ep", ...setting, "--schedule", "sequential"]],
  ["laplace", ["laplace", "--likelihood", "probit", ...setting], ["laplace", "--likelihood", "probit", ...setting]],
];

/**
 * One command: the `seconds` it prints (wall clock), and the CPU seconds of the whole process
 * (user + system, by /usr/bin/time; data reading and start-up included), which load from other
 * processes on a shared machine inflates far less than the wall clock.
 */
function run(root: string, args: string[]): { seconds: number; cpu: number; logZ: number; iterations: number } {
  const r = spawnSync("/usr/bin/time", ["-f", "cpu %U %S", process.execPath, join(root, "dist/src/cli/main.js"), ...args], {
    encoding: "utf8", env: { ...process.env, OPENBLAS_NUM_THREADS: "1" },
  });
  if (r.status !== 0) throw new Error(`${root}: gpmcmc ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { seconds: number; logZ: number; iterations: number };
  const m = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { ...out, cpu: m ? Number(m[1]) + Number(m[2]) : NaN };
}

console.log(`one BLAS thread; fastest of ${reps} (the base's commands alternate with these)`);
console.log(`| command | seconds | CPU s | log Z | - GPstuff's | iterations |${base ? " base seconds | base CPU s | base log Z | base / this (seconds) | base / this (CPU) |" : ""}`);
console.log(`|---|---|---|---|---|---|${base ? "---|---|---|---|---|" : ""}`);
for (const [name, args, baseArgs] of commands) {
  let best = Infinity, bestBase = Infinity, cpu = Infinity, cpuBase = Infinity;
  let last: ReturnType<typeof run> | undefined, lastBase: ReturnType<typeof run> | undefined;
  for (let r = 0; r < reps; r++) {
    last = run(here, args);
    best = Math.min(best, last.seconds);
    cpu = Math.min(cpu, last.cpu);
    if (base) {
      lastBase = run(base, baseArgs);
      bestBase = Math.min(bestBase, lastBase.seconds);
      cpuBase = Math.min(cpuBase, lastBase.cpu);
    }
  }
  const diff = name.startsWith("ep") ? (last!.logZ - GPSTUFF_LOGZ).toExponential(1) : "-";
  const b = base ? ` ${bestBase.toFixed(3)} | ${cpuBase.toFixed(2)} | ${lastBase!.logZ.toFixed(7)} | ${(bestBase / best).toFixed(2)} | ${(cpuBase / cpu).toFixed(2)} |` : "";
  console.log(`| ${name} | ${best.toFixed(3)} | ${cpu.toFixed(2)} | ${last!.logZ.toFixed(7)} | ${diff} | ${last!.iterations} |${b}`);
}
