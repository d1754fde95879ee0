/**
 * `gpmcmc sample --model logistic-regression` stopped by SIGTERM while its chains sample (they run
 * on worker threads, so the command's thread handles the signal): exit 130 with its checkpoints; while it runs its directory
 * is locked; a resume with another option or another --model names it; --overwrite replaces it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "../fixtures.js";
import { gpmcmc, LOGISTIC_DATA as DATA, LOGISTIC_RUN as runArgs, MAIN } from "./resumeFixtures.js";

test("logistic regression: SIGTERM stops the run with its checkpoints; a resume with another option or model names it", { timeout: 60_000 }, async () => {
  const s = scratchDir();
  try {
    const out = join(s.dir, "run");
    const child = spawn(process.execPath, [MAIN, ...runArgs, "--draws", "100000", "--out", out, "--checkpoint-every", "20"]);
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    // once the first checkpoint is on disk, the chains are sampling
    let inUse = "";
    const poll = setInterval(() => {
      if (!existsSync(join(out, "checkpoint_1.json"))) return;
      clearInterval(poll);
      // while it runs, the directory is locked: another command on it is refused
      inUse = gpmcmc([...runArgs, "--out", out, "--overwrite"]).stderr;
      child.kill("SIGTERM");
    }, 50);
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    clearInterval(poll);
    assert.equal(code, 130, stderr);
    assert.match(inUse, /^gpmcmc: output ".*": is in use by gpmcmc sample, .*; wait for it to end, or choose another directory\n$/);
    assert.match(stderr, /^gpmcmc: terminating: the draws so far are kept and checkpointed$/m);
    assert.match(stderr, /^gpmcmc: stopped; the draws so far and the chains' checkpoints are in .*: continue with --resume .*$/m);
    assert.deepEqual(readdirSync(out).filter((f) => f.startsWith("checkpoint_")), ["checkpoint_1.json", "checkpoint_2.json"], "both chains ran at once and each left its checkpoint");
    const args = [...runArgs, "--draws", "100000"];
    assert.match(gpmcmc([...args, "--out", out]).stderr, /^gpmcmc: output ".*": holds an interrupted gpmcmc run; continue it with --resume .*, or use --overwrite to replace it\n$/);
    const cases: [string[], RegExp][] = [
      [["--prior-variance", "50"], /^gpmcmc: --prior-variance: differs from the run being resumed in .* \(it has 100, the options given ask for 50\)/],
      [["--sampler", "mala"], /^gpmcmc: --sampler: differs/],
      [["--seed", "8"], /^gpmcmc: --seed: differs/],
      [["--no-adapt"], /^gpmcmc: --adapt\/--no-adapt or --target-acceptance: differs/],
    ];
    for (const [change, message] of cases) {
      const r = gpmcmc([...args, ...change, "--resume", out]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    }
    const volatility = gpmcmc(["sample", "--model", "volatility", "--data", DATA, "--resume", out]);
    assert.match(volatility.stderr, /^gpmcmc: --model: the run in .* is a --model logistic-regression run; resume it with the options it was started with\n$/);
    const gp = gpmcmc(["sample", "--data", DATA, "--lengthscale", "1", "--signal-sd", "1", "--resume", out]);
    assert.match(gp.stderr, /^gpmcmc: --model: the run in .* is a --model logistic-regression run; resume it with --model logistic-regression and the options it was started with\n$/);
    assert.match(gpmcmc([...args, "--checkpoint-every", "10"]).stderr, /^gpmcmc: --checkpoint-every: needs --out/);
    assert.match(gpmcmc([...args, "--resume", out, "--overwrite"]).stderr, /^gpmcmc: --overwrite: cannot be combined with --resume/);
    // --overwrite replaces the interrupted run
    const replaced = gpmcmc([...runArgs, "--draws", "20", "--burn-in", "10", "--out", out, "--overwrite", "--json"]);
    assert.equal(replaced.status, 0, replaced.stderr);
    assert.deepEqual(readdirSync(out).filter((f) => !f.startsWith(".")).sort(), ["draws_1.csv", "draws_2.csv", "run.json", "summary.json"]);
  } finally {
    s.cleanup();
  }
});
