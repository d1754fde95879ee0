/**
 * What the rows of the bad-input table share: their shapes, the good inputs they vary, and the
 * set-ups that make a file or a run to refuse (a killed run, a grid spec, a data set too large).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RawSampleOptions } from "../../../src/cli/sampleOptions.js";
import { fixture } from "../../fixtures.js";
import { CLI } from "../cliRun.js";

/** A row of `sample`'s inputs, checked in process through prepareSampleInputs. */
export interface SampleRow {
  name: string;
  /** Options on top of a good set; `scratch` is an empty directory for the run. */
  options: (scratch: string) => RawSampleOptions;
  /** The message after "gpmcmc: ". */
  message: (scratch: string) => string;
  /** Put files in the scratch directory before the run. */
  setup?: (scratch: string) => void;
  /** Environment variables set for the row (the memory limit, so that the line is the same on every machine). */
  env?: Record<string, string>;
}

/** A row of a whole command, run with the built `gpmcmc`. */
export interface CommandRow {
  name: string;
  /** The command's arguments; `s` is the scratch directory (also the working directory). */
  args: (s: string) => string[];
  /** The line after "gpmcmc: ". */
  message: (s: string) => string;
  setup?: (s: string) => void;
  env?: Record<string, string>;
}

export const data = (name: string) => fixture("data", name);
/** The good `sample` options the in-process rows vary. */
export const goodSampleOptions = (scratch: string): RawSampleOptions => ({
  data: data("labels_pm1.csv"),
  lengthscale: "1",
  signalSd: "1",
  out: join(scratch, "run"),
});
/** The memory limit of the rows about sizes (GPMCMC_MAX_MEMORY: the machine's memory otherwise). */
export const memory8G = { GPMCMC_MAX_MEMORY: "8e9" };
export const limit8G = "GPMCMC_MAX_MEMORY (8.00 GB)";

export const DATA = data("labels_pm1.csv");
export const KERNEL = ["--lengthscale", "1", "--signal-sd", "1"];
export const SHORT_RUN = ["sample", "--data", DATA, ...KERNEL, "--sampler", "hmc", "--draws", "20", "--burn-in", "10", "--chains", "1", "--seed", "3", "--quiet"];
export const GRID_KINDS = "simulated-latent-chain, hyper-chain, parametric-chain, volatility-run, fitzhugh-nagumo-run, lgcp-run";

/** `gpmcmc ARGS` in cwd with GPMCMC_DEBUG unset: exit code, stdout, and stderr without the js backend's notice. */
export function gpmcmc(args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd, env: { ...process.env, GPMCMC_DEBUG: "", ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(/^gpmcmc: using the pure TypeScript linear-algebra backend.*\n/m, "") };
}

/** A finished run of SHORT_RUN in s/run, then made into one killed midway: no summary, marked incomplete, with `checkpoint` as chain 1's checkpoint. */
export function killedRun(s: string, checkpoint?: string): void {
  finishedRun(s);
  rmSync(join(s, "run", "summary.json"));
  const marker = JSON.parse(readFileSync(join(s, "run", ".gpmcmc"), "utf8")) as { complete: boolean; files: string[] };
  writeFileSync(join(s, "run", ".gpmcmc"), JSON.stringify({ ...marker, complete: false, files: ["run.json", "draws_1.csv", "checkpoint_1.json", "summary.json"] }));
  if (checkpoint !== undefined) writeFileSync(join(s, "run", "checkpoint_1.json"), checkpoint);
}

/** A finished run of SHORT_RUN in s/run. */
export function finishedRun(s: string): void {
  const r = gpmcmc([...SHORT_RUN, "--out", "run"], s);
  assert.equal(r.code, 0, r.stderr);
}

let template: string | undefined;

/**
 * The set-up most command rows start from, copied into s: d.csv (binary labels), c.csv (counts),
 * run/ (a finished sample run), ep.json (an approximation file) and aisrun/ (a finished ais run),
 * made once per test process.
 */
export function base(s: string): void {
  if (template === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "gpmcmc-bad-input-base-"));
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    cpSync(DATA, join(dir, "d.csv"));
    cpSync(data("counts.csv"), join(dir, "c.csv"));
    finishedRun(dir);
    for (const args of [["ep", "--data", "d.csv", ...KERNEL, "--out", "ep.json"], ["ais", "--data", "d.csv", ...KERNEL, "--temperatures", "5", "--runs", "2", "--out", "aisrun", "--quiet"]]) {
      const r = gpmcmc(args, dir);
      assert.equal(r.code, 0, r.stderr);
    }
    template = dir;
  }
  cpSync(template, s, { recursive: true });
}

/** A row run in the set-up of `base`, from its arguments and the line it must print. */
export function inBase(name: string, args: string[], message: string, env?: Record<string, string>): CommandRow {
  return { name, setup: base, args: () => args, message: () => message, ...(env ? { env } : {}) };
}

/** A grid spec of 4 small jobs in s/grid.json, with `change` applied. */
export function writeSpec(s: string, change: Record<string, unknown>): void {
  const spec = {
    grid: "demo seed=1", kind: "simulated-latent-chain", fixed: { draws: 20, burnIn: 5, dataSeed: 1 },
    axes: { likelihood: ["logistic"], n: [10], d: [2], "data-set": [0], sampler: ["mh-v1", "ess"], chain: [0, 1] }, out: "grid-out", ...change,
  };
  writeFileSync(join(s, "grid.json"), JSON.stringify(spec));
}

/** A data set of 60000 rows in s/big.csv (1 MB, made here, not committed). */
export function writeBig(s: string): void {
  const rows = ["y,x1,x2"];
  for (let i = 0; i < 60000; i++) rows.push(`${i % 2 === 0 ? 1 : -1},${(i % 97) / 10},${(i % 89) / 10}`);
  writeFileSync(join(s, "big.csv"), rows.join("\n") + "\n");
}
