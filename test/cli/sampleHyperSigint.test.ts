/**
 * Ctrl-C during `gpmcmc sample` with sampled hyperparameters, as with fixed ones
 * (sampleSigint.test.ts): the real executable in a child process, on a run far too long to
 * finish, gets SIGINT once every chain has reported progress; it must write the draws so far
 * (theta columns and f), marked incomplete in the draws files, summary.json and the output
 * marker, and exit with 130; `diagnose` says the run stopped early. The negative control is the
 * same run without the signal: stopped by its own end, it is complete.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readCmdStanCsv } from "../../src/io/cmdstan.js";
import { diagnoseRun } from "../../src/io/diagnosis.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";
import { runInterruptedOnce } from "./interruptOnce.js";

function writeData(path: string, n: number): void {
  const rows = ["y,x"];
  for (let i = 0; i < n; i++) rows.push(`${Math.sin(i) > 0 ? 1 : -1},${(i / 3).toFixed(3)}`);
  writeFileSync(path, rows.join("\n") + "\n");
}

/** `gpmcmc sample` with theta sampled (no kernel option), plain progress lines on stderr; SIGINT once every chain has reported, if `interrupt`. */
async function hyperRun(dir: string, draws: number, interrupt: boolean) {
  const data = join(dir, "data.csv");
  writeData(data, 15);
  const out = join(dir, `run${draws}`);
  const child = spawn(process.execPath, [
    join(REPO_ROOT, "dist", "src", "cli", "main.js"), "sample", "--data", data, "--draws", String(draws), "--burn-in", "50",
    "--chains", "2", "--parallel", "2", "--seed", "4", "--out", out, "--progress", "--json",
  ], { env: { ...process.env, GPMCMC_DEBUG: "", GPMCMC_BACKEND: "js" } });
  const { code, stdout, stderr } = await runInterruptedOnce(child, 2, interrupt);
  return { code, stderr, stdout, out };
}

test("Ctrl-C stops sample with sampled hyperparameters cleanly: theta and f so far written, marked incomplete, exit code 130", { timeout: 90_000 }, async () => {
  const s = scratchDir();
  try {
    const r = await hyperRun(s.dir, 300_000, true);
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /^gpmcmc: stopping: the draws so far will be kept \(Ctrl-C again to abort\)$/m);
    const report = JSON.parse(r.stdout) as { complete: boolean; perChain: { draws: number; complete: boolean }[]; draws: number; theta: { name: string }[] };
    assert.equal(report.complete, false);
    assert.deepEqual(report.theta.map((c) => c.name), ["log_lengthscale.1", "log_signal_sd"]);
    const summary = JSON.parse(readFileSync(join(r.out, "summary.json"), "utf8")) as typeof report;
    assert.deepEqual(summary, report);
    assert.equal(JSON.parse(readFileSync(join(r.out, ".gpmcmc"), "utf8")).complete, false);
    for (const c of [1, 2]) {
      const csv = readCmdStanCsv(join(r.out, `draws_${c}.csv`));
      assert.deepEqual(csv.variables.slice(0, 3), ["log_lengthscale.1", "log_signal_sd", "f.1"]);
      assert.equal(csv.incomplete, true);
      assert.equal(csv.config.completed_draws, String(csv.draws));
      assert.equal(csv.draws, summary.perChain[c - 1]!.draws);
      assert.ok(csv.draws >= 1 && csv.draws < 300_000, `chain ${c}: ${csv.draws} draws`);
    }
    const d = diagnoseRun([r.out], { truncate: true });
    assert.ok(d.verdict.warnings.some(({ text: w }) => /draws_1\.csv: the run stopped early: \d+ of 300000 draws/.test(w)), d.verdict.warnings.map((w) => w.text).join("\n"));

    // Negative control: the same command left to finish is complete, with no stopping message.
    const done = await hyperRun(s.dir, 20, false);
    assert.equal(done.code, 0, done.stderr);
    assert.doesNotMatch(done.stderr, /stopping/);
    assert.equal((JSON.parse(done.stdout) as { complete: boolean }).complete, true);
    assert.equal(readCmdStanCsv(join(done.out, "draws_1.csv")).incomplete, false);
  } finally {
    s.cleanup();
  }
});
