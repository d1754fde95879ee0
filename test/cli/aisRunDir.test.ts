/**
 * `gpmcmc ais --out` directories, on the real executable in child processes: a directory in use
 * by a running ais is refused naming the process; SIGTERM checkpoints the runs (exit 130); a
 * directory holding a run is refused with the hint; a resume with another option names it; a
 * resume of another command's run says so; --overwrite replaces a run; a resume of a finished run
 * changes nothing and exits 0.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, scratchDir } from "../fixtures.js";
import { gpmcmc, terminateOnceRunning, writeData } from "./resumeFixtures.js";

const SMALL = fixture("data", "approx_small.csv"); // n = 20, d = 2

const runArgs = (temperatures: number) => [
  "ais", "--data", SMALL, "--lengthscale", "0.8", "--signal-sd", "1.5", "--from", "prior", "--transition", "hmc", "--step-size", "0.1",
  "--temperatures", String(temperatures), "--runs", "3", "--parallel", "1", "--seed", "11", "--quiet",
];

test("ais: a directory in use is refused naming the process; SIGTERM checkpoints; a resume with another option names it; --overwrite replaces", { timeout: 60_000 }, async () => {
  const s = scratchDir();
  try {
    const out = join(s.dir, "run");
    const long = runArgs(20000);
    let second: ReturnType<typeof gpmcmc> | undefined;
    let resumedMeanwhile: ReturnType<typeof gpmcmc> | undefined;
    const { code, pid, stdout, stderr } = await terminateOnceRunning([...long.filter((a) => a !== "--quiet"), "--progress", "--out", out, "--checkpoint-every", "50"], "ais: run ", () => {
      second = gpmcmc([...long, "--out", out, "--overwrite"]);
      resumedMeanwhile = gpmcmc([...long, "--resume", out]);
    });
    assert.equal(code, 130, stderr);
    for (const r of [second, resumedMeanwhile]) {
      assert.ok(r);
      assert.equal(r.status, 2);
      assert.match(r.stderr, new RegExp(`^gpmcmc: output ".*": is in use by gpmcmc ais, process ${pid}, since .*; wait for it to end, or choose another directory\\n$`));
    }
    assert.match(stderr, /^gpmcmc: terminating: the runs so far are checkpointed$/m);
    assert.match(stdout, /^STOPPED EARLY: the runs had done \d+, \d+, \d+ of 20000 temperatures; log Z needs every run at beta = 1 \(continue with --resume .*\)$/m);
    assert.deepEqual(readdirSync(out).filter((f) => f.startsWith("checkpoint_")).sort(), ["checkpoint_1.json", "checkpoint_2.json", "checkpoint_3.json"]);
    assert.deepEqual(readdirSync(out).filter((f) => f === "ais.json"), [], "a stopped computation writes no trace");
    assert.match(gpmcmc([...long, "--out", out]).stderr, /^gpmcmc: output ".*": holds an interrupted gpmcmc run; continue it with --resume .*, or use --overwrite to replace it\n$/);
    const cases: [string[], RegExp][] = [
      [["--temperatures", "20001"], /^gpmcmc: --temperatures: differs from the run being resumed in .* \(it has 20000, the options given ask for 20001\)/],
      [["--runs", "4"], /^gpmcmc: --runs: differs/],
      [["--seed", "12"], /^gpmcmc: --seed: differs/],
      [["--step-size", "0.2"], /^gpmcmc: --step-size: differs/],
      [["--transition", "ess"], /^gpmcmc: --transition: differs/],
      [["--from", "ep"], /^gpmcmc: --from: differs from the run being resumed in .* \(it has "prior", the options given ask for "ep"\)/],
    ];
    for (const [change, message] of cases) {
      const args = [...long];
      const k = args.indexOf(change[0]);
      if (k < 0) args.push(change[0], change[1]);
      else args[k + 1] = change[1];
      if (change[0] === "--transition") args.splice(args.indexOf("--step-size"), 2);
      const r = gpmcmc([...args, "--resume", out]);
      assert.equal(r.status, 2, `${change.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1);
    }
    const other = join(s.dir, "other.csv");
    writeData(other, 20);
    assert.match(gpmcmc([...long.map((a) => (a === SMALL ? other : a)), "--resume", out]).stderr, /^gpmcmc: --data: is not the data the run in .* was started on/);
    assert.match(gpmcmc([...long, "--checkpoint-every", "10"]).stderr, /^gpmcmc: --checkpoint-every: needs --out/);
    // a sample run is not resumed by ais, nor an ais run by sample
    const sampleDir = join(s.dir, "sample");
    const sampled = gpmcmc(["sample", "--data", other, "--lengthscale", "1", "--signal-sd", "1", "--draws", "5", "--burn-in", "5", "--chains", "1", "--seed", "3", "--quiet", "--out", sampleDir]);
    assert.equal(sampled.status, 0, sampled.stderr);
    assert.match(gpmcmc([...long, "--resume", sampleDir]).stderr, /^gpmcmc: output ".*sample": holds a gpmcmc sample run; continue it with gpmcmc sample --resume .*\n$/);
    assert.match(gpmcmc(["sample", "--data", other, "--lengthscale", "1", "--signal-sd", "1", "--draws", "5", "--burn-in", "5", "--chains", "1", "--quiet", "--resume", out]).stderr, /^gpmcmc: output ".*run": holds a gpmcmc ais run; continue it with gpmcmc ais --resume .*\n$/);
    // --overwrite replaces the interrupted run with a new one, which finishes
    const fresh = gpmcmc([...runArgs(40), "--out", out, "--overwrite", "--json"]);
    assert.equal(fresh.status, 0, fresh.stderr);
    const report = JSON.parse(fresh.stdout);
    assert.equal(report.complete, true);
    assert.equal(report.temperatures, 40);
    assert.deepEqual(readdirSync(out).sort(), [".gpmcmc", "ais.json", "run.json", "summary.json"]);
    // resuming the finished run prints its report, changes nothing and exits 0
    const before = readdirSync(out).map((f) => [f, readFileSync(join(out, f), "utf8")]);
    const again = gpmcmc([...runArgs(40), "--resume", out, "--json"]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /holds a finished run; nothing to do/);
    assert.deepEqual(JSON.parse(again.stdout), report);
    assert.deepEqual(readdirSync(out).map((f) => [f, readFileSync(join(out, f), "utf8")]), before);
  } finally {
    s.cleanup();
  }
});
