/**
 * Checkpoint and resume of `gpmcmc sample` with sampled hyperparameters, on the real executable in
 * child processes: a run killed with SIGKILL at random moments, several times, and resumed each
 * time, ends with the draws of the same run never interrupted, bit for bit (theta and f, through
 * the schemes' adaptation and their K caches); each draws file present at any moment parses with
 * complete rows only. A directory in use by a running command is refused naming its process; one
 * holding a run is refused with the hint; a resume with another option names it; a resume of a
 * finished run changes nothing and exits 0.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, scratchDir } from "../fixtures.js";
import { gpmcmc, killedRunResumesToReference, MAIN, writeData } from "./resumeFixtures.js";

const runArgs = (data: string, draws = 700, scheme = "sa") => [
  "sample", "--data", data, "--likelihood", "probit", "--scheme", scheme, "--draws", String(draws), "--burn-in", "300",
  "--chains", "2", "--parallel", "1", "--seed", "11", "--quiet",
];

test("sampled hyperparameters, pm (the default): a run killed with SIGKILL at random moments and resumed each time gives the draws of the run never interrupted", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data, 30);
    await killedRunResumesToReference(runArgs(data, 400, "pm"), s.dir, 2029, "40");
  } finally {
    s.cleanup();
  }
});

test("sampled hyperparameters: a run killed with SIGKILL at random moments and resumed each time gives the draws of the run never interrupted", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data, 30);
    const out = await killedRunResumesToReference(runArgs(data), s.dir, 2027, "40");
    assert.match(gpmcmc([...runArgs(data), "--out", out]).stderr, /^gpmcmc: output ".*": holds a finished gpmcmc run; choose another directory, or use --overwrite to replace it\n$/);
  } finally {
    s.cleanup();
  }
});

test("sampled hyperparameters: a directory in use is refused naming the process; SIGTERM checkpoints; a resume with another option names it", { timeout: 60_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data, 30);
    const out = join(s.dir, "run");
    const child = spawn(process.execPath, [MAIN, ...runArgs(data, 6000).filter((a) => a !== "--quiet"), "--progress", "--out", out]);
    let stderr = "";
    let second: ReturnType<typeof gpmcmc> | undefined;
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on("data", (b: Buffer) => {
        const first = !stderr.includes("chain ");
        stderr += b.toString();
        if (first && stderr.includes("chain ")) {
          second = gpmcmc([...runArgs(data, 6000), "--out", out, "--overwrite"]);
          child.kill("SIGTERM");
        }
      });
      child.on("exit", (c) => resolve(c));
    });
    assert.equal(code, 130, stderr);
    assert.ok(second);
    assert.equal(second.status, 2);
    assert.match(second.stderr, new RegExp(`^gpmcmc: output ".*": is in use by gpmcmc sample, process ${child.pid}, since .*; wait for it to end, or choose another directory\\n$`));
    assert.match(stderr, /^gpmcmc: terminating: the draws so far are kept and checkpointed$/m);
    assert.deepEqual(readdirSync(out).filter((f) => f.startsWith("checkpoint_")).sort(), ["checkpoint_1.json", "checkpoint_2.json"]);
    assert.match(gpmcmc([...runArgs(data, 6000), "--out", out]).stderr, /^gpmcmc: output ".*": holds an interrupted gpmcmc run; continue it with --resume .*, or use --overwrite to replace it\n$/);
    const cases: [string[], RegExp][] = [
      [["--draws", "6001"], /^gpmcmc: --draws: differs from the run being resumed in .* \(it has 6000, the options given ask for 6001\)/],
      [["--scheme", "aa"], /^gpmcmc: --scheme: differs/],
      [["--theta-sampler", "hmc"], /^gpmcmc: --theta-sampler: differs/],
      [["--prior-lengthscale", "gamma:2,1"], /^gpmcmc: --prior-lengthscale: differs/],
      [["--lengthscale", "1", "--signal-sd", "1"], /^gpmcmc: --lengthscale: the run in .* samples its kernel hyperparameters; resume it without --lengthscale, --signal-sd or their log forms\n$/],
    ];
    for (const [change, message] of cases) {
      const args = runArgs(data, 6000);
      for (let i = 0; i < change.length; i += 2) {
        const k = args.indexOf(change[i]);
        if (k < 0) args.push(change[i], change[i + 1]);
        else args[k + 1] = change[i + 1];
      }
      const r = gpmcmc([...args.filter((a, i) => !(change[0] === "--lengthscale" && (a === "--scheme" || args[i - 1] === "--scheme"))), "--resume", out]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1);
    }
    const done = gpmcmc([...runArgs(data, 6000), "--resume", out, "--json"]);
    assert.equal(done.status, 0, done.stderr);
    assert.equal(JSON.parse(done.stdout).complete, true);
  } finally {
    s.cleanup();
  }
});

test("sampled hyperparameters on 250 cases (data/synth_tr.csv) checkpoint and resume: the checkpoints hold n x n factors without overflowing the stack", () => {
  const s = scratchDir();
  try {
    const args = ["sample", "--data", join(REPO_ROOT, "data", "synth_tr.csv"), "--scheme", "sa", "--draws", "4", "--burn-in", "2", "--chains", "1", "--seed", "1"];
    const out = join(s.dir, "run");
    const first = gpmcmc([...args, "--out", out, "--checkpoint-every", "2"]);
    assert.equal(first.status, 0, first.stderr);
    assert.ok(readdirSync(out).includes("draws_1.csv"));
    const again = gpmcmc([...args, "--resume", out]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /holds a finished run; nothing to do/);
  } finally {
    s.cleanup();
  }
});
