/**
 * Checkpoint and resume of `gpmcmc sample`, on the real executable in child processes: a run
 * killed with SIGKILL at random moments, several times, and resumed each time, ends with the
 * draws of the same run never interrupted, bit for bit; whenever it was killed, each draws file
 * present parses with complete rows only. A resume with another option names it; a resume of a
 * finished run changes nothing and exits 0.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readCmdStanCsv } from "../../src/io/cmdstan.js";
import { Rng } from "../../src/random/rng.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";

const MAIN = join(REPO_ROOT, "dist", "src", "cli", "main.js");

function writeData(path: string, n: number): void {
  const rows = ["y,x"];
  for (let i = 0; i < n; i++) rows.push(`${Math.sin(i) > 0 ? 1 : -1},${(i / 3).toFixed(3)}`);
  writeFileSync(path, rows.join("\n") + "\n");
}

const runArgs = (data: string) => [
  "sample", "--data", data, "--lengthscale", "1", "--signal-sd", "1", "--sampler", "hmc", "--draws", "1500", "--burn-in", "300",
  "--chains", "2", "--parallel", "1", "--seed", "11", "--quiet",
];

function gpmcmc(args: string[]) {
  return spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8" });
}

/** The data rows of a draws file (its comment lines hold timings, which differ between runs). */
function rows(path: string): string {
  return readFileSync(path, "utf8").split("\n").filter((l) => !l.startsWith("#")).join("\n");
}

/** Runs the command and kills it with SIGKILL after `ms` milliseconds, unless it ends first; true when killed. */
function runAndKill(args: string[], ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("exit", (_code, signal) => {
      clearTimeout(timer);
      resolve(signal === "SIGKILL");
    });
  });
}

test("a run killed with SIGKILL at random moments and resumed each time gives the draws of the run never interrupted", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data, 30);
    const ref = join(s.dir, "ref");
    const t0 = performance.now();
    const r = gpmcmc([...runArgs(data), "--out", ref]);
    const full = performance.now() - t0;
    assert.equal(r.status, 0, r.stderr);

    const out = join(s.dir, "run");
    const rng = new Rng(2026);
    let killedMidRun = 0;
    for (let attempt = 0; attempt < 4; attempt++) {
      const args = existsSync(join(out, "run.json")) ? [...runArgs(data), "--resume", out]
        : existsSync(out) ? [...runArgs(data), "--out", out, "--overwrite"] : [...runArgs(data), "--out", out];
      const killed = await runAndKill([...args, "--checkpoint-every", "50"], full * (0.3 + 0.6 * rng.uniform()));
      if (!killed) break;
      if (readdirSync(out).some((f) => f.startsWith("checkpoint_"))) killedMidRun++;
      // whatever the moment, each draws file there is readable, of complete rows
      for (const f of readdirSync(out).filter((f) => /^draws_\d\.csv$/.test(f))) {
        const csv = readCmdStanCsv(join(out, f));
        assert.ok(csv.values.every((col) => col.length === csv.values[0].length));
      }
    }
    assert.ok(killedMidRun >= 1, "no kill landed while chains were running: the test did not test resuming");
    const last = gpmcmc([...runArgs(data), "--resume", out]);
    assert.equal(last.status, 0, last.stderr);
    for (const f of ["draws_1.csv", "draws_2.csv"]) assert.equal(rows(join(out, f)), rows(join(ref, f)), f);
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    assert.equal(summary.complete, true);
    assert.deepEqual(readdirSync(out).filter((f) => f.startsWith("checkpoint_")), [], "a finished run keeps no checkpoints");

    // resuming the finished run changes nothing and exits 0
    const before = readdirSync(out).map((f) => [f, readFileSync(join(out, f), "utf8")]);
    const again = gpmcmc([...runArgs(data), "--resume", out]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /holds a finished run; nothing to do/);
    assert.deepEqual(readdirSync(out).map((f) => [f, readFileSync(join(out, f), "utf8")]), before);
  } finally {
    s.cleanup();
  }
});

test("a resume with another option, or other data, names it; --resume with --out or --overwrite is refused", { timeout: 60_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data, 30);
    const out = join(s.dir, "run");
    // SIGTERM once the chains run: they stop, checkpoint and keep their draws so far; exit 130
    const child = spawn(process.execPath, [MAIN, ...runArgs(data).filter((a) => a !== "--quiet"), "--progress", "--out", out]);
    let stderr = "";
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on("data", (b: Buffer) => {
        const first = !stderr.includes("chain ");
        stderr += b.toString();
        if (first && stderr.includes("chain ")) child.kill("SIGTERM");
      });
      child.on("exit", (c) => resolve(c));
    });
    assert.equal(code, 130, stderr);
    assert.match(stderr, /^gpmcmc: terminating: the draws so far are kept and checkpointed$/m);
    assert.deepEqual(readdirSync(out).filter((f) => f.startsWith("checkpoint_")).sort(), ["checkpoint_1.json", "checkpoint_2.json"]);
    assert.match(gpmcmc([...runArgs(data), "--out", out]).stderr, /^gpmcmc: output ".*": holds an interrupted gpmcmc run; continue it with --resume .*, or use --overwrite to replace it\n$/);
    const cases: [string[], RegExp][] = [
      [["--draws", "1600"], /^gpmcmc: --draws: differs from the run being resumed in .* \(it has 1500, the options given ask for 1600\)/],
      [["--seed", "12"], /^gpmcmc: --seed: differs/],
      [["--step-size", "0.2"], /^gpmcmc: --step-size: differs/],
      [["--lengthscale", "2"], /^gpmcmc: --lengthscale \(or --log-lengthscale\): differs/],
    ];
    for (const [change, message] of cases) {
      const args = runArgs(data);
      for (let i = 0; i < change.length; i += 2) {
        const k = args.indexOf(change[i]);
        if (k < 0) args.push(change[i], change[i + 1]);
        else args[k + 1] = change[i + 1];
      }
      const r = gpmcmc([...args, "--resume", out]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1);
    }
    const other = join(s.dir, "other.csv");
    writeData(other, 31);
    const r = gpmcmc([...runArgs(other), "--resume", out]);
    assert.match(r.stderr, /^gpmcmc: --data: is not the data the run in .* was started on/);
    assert.match(gpmcmc([...runArgs(data), "--resume", out, "--out", out]).stderr, /^gpmcmc: --resume: continues the run in its own directory/);
    assert.match(gpmcmc([...runArgs(data), "--resume", out, "--overwrite"]).stderr, /^gpmcmc: --overwrite: cannot be combined with --resume/);
    assert.match(gpmcmc([...runArgs(data), "--resume", join(s.dir, "none")]).stderr, /is not a gpmcmc output directory/);
    assert.match(gpmcmc([...runArgs(data), "--checkpoint-every", "10"]).stderr, /^gpmcmc: --checkpoint-every: needs --out/);
    assert.match(gpmcmc([...runArgs(data), "--checkpoint-every", "0", "--out", join(s.dir, "z")]).stderr, /^gpmcmc: --checkpoint-every: /);
    // a run with fixed hyperparameters is not resumed as one that samples them
    assert.match(gpmcmc(["sample", "--data", data, "--draws", "1500", "--burn-in", "300", "--chains", "2", "--seed", "11", "--quiet", "--resume", out]).stderr, /^gpmcmc: --lengthscale: the run in .* has fixed kernel hyperparameters; resume it with the --lengthscale and --signal-sd it was started with\n$/);
    // sampled hyperparameters (no --lengthscale, --signal-sd) take the same checks (sampleHyperResume.test.ts runs them)
    assert.match(gpmcmc(["sample", "--data", data, "--draws", "10", "--checkpoint-every", "5"]).stderr, /^gpmcmc: --checkpoint-every: needs --out/);
    // and with the same options it continues to the end
    const done = gpmcmc([...runArgs(data), "--resume", out, "--json"]);
    assert.equal(done.status, 0, done.stderr);
    assert.equal(JSON.parse(done.stdout).complete, true);
  } finally {
    s.cleanup();
  }
});
