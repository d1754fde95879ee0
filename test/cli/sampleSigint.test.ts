/**
 * Ctrl-C during `gpmcmc sample`: the real executable in a child process, on a run far too long
 * to finish, gets SIGINT soon after every chain has reported progress; it must keep and write the
 * draws so far, mark them incomplete (the draws files' `incomplete = 1`, summary.json's
 * `complete: false`, the output marker), and exit with 130. `diagnose` then says the run
 * stopped early. A second SIGINT aborts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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

/** Starts `gpmcmc sample` in `dir` on a run far too long to finish, with plain progress lines on stderr. */
function startLongRun(dir: string) {
  const data = join(dir, "data.csv");
  writeData(data, 20);
  const out = join(dir, "run");
  const child = spawn(process.execPath, [
    join(REPO_ROOT, "dist", "src", "cli", "main.js"), "sample", "--data", data, "--lengthscale", "1", "--signal-sd", "1",
    "--sampler", "hmc", "--draws", "300000", "--burn-in", "100", "--chains", "2", "--parallel", "2", "--seed", "4",
    "--out", out, "--progress", "--json",
  ], { env: { ...process.env, GPMCMC_DEBUG: "", GPMCMC_BACKEND: "js" } });
  return { child, out };
}

test("Ctrl-C stops sample cleanly: the draws so far are written, marked incomplete, exit code 130", { timeout: 60_000 }, async () => {
  const s = scratchDir();
  try {
    const { child, out } = startLongRun(s.dir);
    const { code, stdout, stderr } = await runInterruptedOnce(child, 2);
    assert.equal(code, 130, stderr);
    assert.match(stderr, /^gpmcmc: stopping: the draws so far will be kept \(Ctrl-C again to abort\)$/m);

    const report = JSON.parse(stdout) as { complete: boolean; perChain: { draws: number; complete: boolean }[]; draws: number };
    assert.equal(report.complete, false);
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as typeof report;
    assert.deepEqual(summary, report);
    assert.equal(JSON.parse(readFileSync(join(out, ".gpmcmc"), "utf8")).complete, false);
    for (const c of [1, 2]) {
      const csv = readCmdStanCsv(join(out, `draws_${c}.csv`));
      assert.equal(csv.incomplete, true);
      assert.equal(csv.config.completed_draws, String(csv.draws));
      assert.equal(csv.draws, summary.perChain[c - 1].draws);
      assert.ok(csv.draws >= 4 && csv.draws < 300_000, `chain ${c}: ${csv.draws} draws`);
      assert.equal(summary.perChain[c - 1].complete, false);
    }
    assert.equal(summary.draws, Math.min(...summary.perChain.map((c) => c.draws)));
    const d = diagnoseRun([out], { truncate: true });
    assert.ok(d.verdict.warnings.some(({ text: w }) => /draws_1\.csv: the run stopped early: \d+ of 300000 draws/.test(w)), d.verdict.warnings.map((w) => w.text).join("\n"));
  } finally {
    s.cleanup();
  }
});

/**
 * Sends SIGINT once every chain has reported, and again as soon as the run says it is stopping.
 * On so small a problem the chains may finish stopping (and the command exit) before the second
 * signal lands; then the attempt shows nothing about the second Ctrl-C and is repeated.
 */
async function doubleInterrupt(dir: string) {
  mkdirSync(dir);
  const { child, out } = startLongRun(dir);
  let stderr = "";
  let first = false;
  let second = false;
  const code = await new Promise<number | null>((resolve) => {
    child.stderr.on("data", (b: Buffer) => {
      stderr += b.toString();
      if (!first && /^chain 2: /m.test(stderr) && /^chain 1: /m.test(stderr)) {
        first = true;
        setTimeout(() => child.kill("SIGINT"), 500);
      }
      if (first && !second && stderr.includes("gpmcmc: stopping")) {
        second = true;
        child.kill("SIGINT");
      }
    });
    child.on("exit", (c) => resolve(c));
  });
  return { code, stderr, out, aborted: /^gpmcmc: aborted; the output directory is marked incomplete$/m.test(stderr) };
}

test("a second Ctrl-C aborts at once: exit code 130, the directory marked incomplete, no half-written file", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    let r: Awaited<ReturnType<typeof doubleInterrupt>> | undefined;
    for (let attempt = 1; attempt <= 4; attempt++) {
      r = await doubleInterrupt(join(s.dir, `attempt${attempt}`));
      assert.equal(r.code, 130, r.stderr);
      assert.equal(JSON.parse(readFileSync(join(r.out, ".gpmcmc"), "utf8")).complete, false);
      assert.deepEqual(readdirSync(r.out).filter((f) => f.endsWith(".tmp")), []);
      if (r.aborted) break;
    }
    assert.ok(r?.aborted, `no attempt saw the second Ctrl-C abort the run:\n${r?.stderr}`);
  } finally {
    s.cleanup();
  }
});
