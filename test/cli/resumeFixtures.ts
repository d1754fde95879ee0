/**
 * What the resume tests of `gpmcmc sample` and `gpmcmc ais` share: a small data file, the
 * executable in a child process, a draws file's data rows, and a run killed with SIGKILL at
 * random moments and resumed each time.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readCmdStanCsv } from "../../src/io/cmdstan.js";
import { Rng } from "../../src/random/rng.js";
import { REPO_ROOT } from "../fixtures.js";

export const MAIN = join(REPO_ROOT, "dist", "src", "cli", "main.js");

/**
 * A `--model logistic-regression` run of a few seconds on data the repository ships (Ripley's,
 * cubic terms), long enough that the chains, not the process's start, take most of it (so that
 * random kills land while they run).
 */
export const LOGISTIC_DATA = join(REPO_ROOT, "data", "synth_tr.csv");
export const LOGISTIC_RUN = [
  "sample", "--model", "logistic-regression", "--data", LOGISTIC_DATA, "--polynomial-degree", "3", "--sampler", "smmala",
  "--draws", "6000", "--burn-in", "1000", "--chains", "2", "--seed", "7",
];

export function writeData(path: string, n: number): void {
  const rows = ["y,x"];
  for (let i = 0; i < n; i++) rows.push(`${Math.sin(i) > 0 ? 1 : -1},${(i / 3).toFixed(3)}`);
  writeFileSync(path, rows.join("\n") + "\n");
}

export function gpmcmc(args: string[], cwd?: string) {
  return spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8", cwd });
}

/**
 * Runs `args` into `out` (an absolute path) with a checkpoint every `every` transitions, in `cwd`,
 * and sends SIGTERM once chain 1's first checkpoint is on disk: the run stops there (exit 130),
 * its draws so far and checkpoints kept.
 */
export async function stopOnceCheckpointed(args: string[], out: string, every: string, cwd?: string): Promise<void> {
  const child = spawn(process.execPath, [MAIN, ...args, "--out", out, "--checkpoint-every", every], { cwd });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const poll = setInterval(() => {
    if (!existsSync(join(out, "checkpoint_1.json"))) return;
    clearInterval(poll);
    child.kill("SIGTERM");
  }, 20);
  const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
  clearInterval(poll);
  assert.equal(code, 130, `the run was to be stopped midway: ${stderr}`);
}

/** The data rows of a draws file (its comment lines hold timings, which differ between runs). */
export function rows(path: string): string {
  return readFileSync(path, "utf8").split("\n").filter((l) => !l.startsWith("#")).join("\n");
}

/** Runs the command and kills it with SIGKILL after `ms` milliseconds, unless it ends first; whether it was killed, and how long it ran. */
function runAndKill(args: string[], ms: number): Promise<{ killed: boolean; elapsed: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("exit", (_code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === "SIGKILL", elapsed: performance.now() - t0 });
    });
  });
}

/**
 * Runs `args` into `out`, each time killed with SIGKILL after a random fraction (0.3 to 0.9, from
 * `seed`) of `fullMs`, resuming when a run record is there, until four kills have landed while
 * the chains (or annealing runs) ran, the run ends before its kill, or twelve kills were sent (on
 * a loaded machine a start can take longer than the whole reference run did, so a kill may land
 * before any chain starts: each such kill makes the next one's window 1.5 times longer); then checks that some kill landed while chains ran and that each
 * draws file present at every moment parsed with complete rows only. A run that ends before its
 * first kill landed mid-run (the machine got faster than during the reference run) is started
 * again from nothing, its kills timed from its own length.
 */
async function killRepeatedly(args: string[], out: string, fullMs: number, seed: number, checkpointEvery: string): Promise<void> {
  const rng = new Rng(seed);
  let killedMidRun = 0;
  let lengthMs = fullMs;
  for (let attempt = 0; attempt < 12 && killedMidRun < 4; attempt++) {
    const how = existsSync(join(out, "run.json")) ? ["--resume", out] : existsSync(out) ? ["--out", out, "--overwrite"] : ["--out", out];
    const { killed, elapsed } = await runAndKill([...args, ...how, "--checkpoint-every", checkpointEvery], lengthMs * (0.3 + 0.6 * rng.uniform()));
    if (!killed && killedMidRun > 0) break;
    if (!killed) {
      rmSync(out, { recursive: true, force: true });
      lengthMs = elapsed;
      continue;
    }
    const midRun = existsSync(out) && readdirSync(out).some((f) => f.startsWith("checkpoint_"));
    if (midRun) killedMidRun++;
    else lengthMs *= 1.5; // killed before the chains started: the machine is slower now than during the reference run
    if (!existsSync(out)) continue; // killed before the directory was made
    for (const f of readdirSync(out).filter((f) => /^draws_\d\.csv$/.test(f))) {
      const csv = readCmdStanCsv(join(out, f));
      assert.ok(csv.values.every((col) => col.length === csv.values[0].length));
    }
  }
  assert.ok(killedMidRun >= 1, "no kill landed while chains were running: the test did not test resuming");
}

/** That a resumed run's outputs in `out` are the reference's in `ref` (default: a sample run's two draws files, row for row). */
export type SameOutputs = (out: string, ref: string) => void;

const sameDraws: SameOutputs = (out, ref) => {
  for (const f of ["draws_1.csv", "draws_2.csv"]) assert.equal(rows(join(out, f)), rows(join(ref, f)), f);
};

/** The end of a killed run's test: resumed to its end, it has the reference's outputs and keeps no checkpoints; resumed again, nothing changes (exit 0). */
function resumeMatches(args: string[], out: string, ref: string, same: SameOutputs): void {
  const last = gpmcmc([...args, "--resume", out]);
  assert.equal(last.status, 0, last.stderr);
  same(out, ref);
  assert.equal(JSON.parse(readFileSync(join(out, "summary.json"), "utf8")).complete, true);
  assert.deepEqual(readdirSync(out).filter((f) => f.startsWith("checkpoint_")), [], "a finished run keeps no checkpoints");
  const before = readdirSync(out).map((f) => [f, readFileSync(join(out, f), "utf8")]);
  const again = gpmcmc([...args, "--resume", out]);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /holds a finished run; nothing to do/);
  assert.deepEqual(readdirSync(out).map((f) => [f, readFileSync(join(out, f), "utf8")]), before);
}

/**
 * The whole check: a reference run of `args` (sample or ais) into DIR/ref, the same run killed repeatedly into
 * DIR/run (killRepeatedly) and resumed to its end (resumeMatches); returns DIR/run.
 */
export async function killedRunResumesToReference(args: string[], dir: string, seed: number, checkpointEvery: string, same: SameOutputs = sameDraws): Promise<string> {
  const ref = join(dir, "ref");
  const t0 = performance.now();
  const r = gpmcmc([...args, "--out", ref]);
  const full = performance.now() - t0;
  assert.equal(r.status, 0, r.stderr);
  const out = join(dir, "run");
  await killRepeatedly(args, out, full, seed, checkpointEvery);
  resumeMatches(args, out, ref, same);
  return out;
}

/**
 * Runs the command in a child process until its stderr first shows `marker` (its progress), then
 * calls `whileRunning` (e.g. a second command on the same directory) and sends SIGTERM; resolves
 * with the exit code, the child's pid and what it printed.
 */
export function terminateOnceRunning(args: string[], marker: string, whileRunning: () => void): Promise<{ code: number | null; pid: number | undefined; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args]);
  let stderr = "";
  let stdout = "";
  child.stdout.on("data", (b: Buffer) => void (stdout += b.toString()));
  return new Promise((resolve) => {
    child.stderr.on("data", (b: Buffer) => {
      const first = !stderr.includes(marker);
      stderr += b.toString();
      if (first && stderr.includes(marker)) {
        whileRunning();
        child.kill("SIGTERM");
      }
    });
    child.on("exit", (code) => resolve({ code, pid: child.pid, stdout, stderr }));
  });
}
