/**
 * Checkpoint and resume of `gpmcmc sample`, on the real executable in child processes: a run
 * killed with SIGKILL at random moments, several times, and resumed each time, ends with the
 * draws of the same run never interrupted, bit for bit; whenever it was killed, each draws file
 * present parses with complete rows only. A resume with another option names it; a resume of a
 * finished run changes nothing and exits 0.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "../fixtures.js";
import { gpmcmc, killedRunResumesToReference, MAIN, writeData } from "./resumeFixtures.js";

const runArgs = (data: string) => [
  "sample", "--data", data, "--lengthscale", "1", "--signal-sd", "1", "--sampler", "hmc", "--draws", "1500", "--burn-in", "300",
  "--chains", "2", "--parallel", "1", "--seed", "11", "--quiet",
];

test("a run killed with SIGKILL at random moments and resumed each time gives the draws of the run never interrupted", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data, 30);
    await killedRunResumesToReference(runArgs(data), s.dir, 2026, "50");
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
