// What the benchmarks against Stan with sampled hyperparameters share (bench/stanHyper.ts,
// bench/stanModels.ts): running a command with one BLAS thread, reading a figure off its output,
// and gpmcmc's draws files as the two CSVs (theta, f; chains stacked) that bench/essChains.R reads.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { columnValues, readCmdStanCsv } from "../src/io/cmdstanReader.js";

const env = { ...process.env, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1" };

/** Runs cmd with one BLAS thread; its stdout, or an error with its stderr. */
export function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: "utf8", env, maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status}):\n${r.stderr}`);
  return r.stdout;
}

/** The number in the first group of `label` in `text`. */
export function numberAfter(text: string, label: RegExp): number {
  const m = text.match(label);
  if (!m) throw new Error(`no ${label} in:\n${text}`);
  return Number(m[1]);
}

/** gpmcmc's draws files draws_1..chains.csv in dir as PREFIX_theta.csv and PREFIX_f.csv, chains stacked. */
export function splitDraws(dir: string, chains: number, prefix: string): void {
  const theta: string[] = [], f: string[] = [];
  for (let c = 1; c <= chains; c++) {
    const csv = readCmdStanCsv(join(dir, `draws_${c}.csv`));
    const first = csv.variables.indexOf("f.1");
    const groups = [csv.variables.slice(0, first), csv.variables.slice(first)];
    groups.forEach((names, g) => {
      const lines = g === 0 ? theta : f;
      if (c === 1) lines.push(names.join(","));
      const cols = names.map((v) => columnValues(csv, v));
      for (let i = 0; i < csv.draws; i++) lines.push(cols.map((v) => v[i]).join(","));
    });
  }
  writeFileSync(`${prefix}_theta.csv`, theta.join("\n") + "\n");
  writeFileSync(`${prefix}_f.csv`, f.join("\n") + "\n");
}
