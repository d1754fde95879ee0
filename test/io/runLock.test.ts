/**
 * The output directory's lock with real processes: a directory in use by a running `gpmcmc
 * sample` is refused, naming that process; the lock of a process killed with SIGKILL is stale
 * and the next command takes it over; of two commands started at once on one directory exactly
 * one runs. In-process: acquire/release, and a lock of another live process refused.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { OutputError } from "../../src/io/errors.js";
import { acquireRunLock, checkRunLock, liveLockHolder, releaseRunLock, RUN_LOCK } from "../../src/io/runLock.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";

const MAIN = join(REPO_ROOT, "dist", "src", "cli", "main.js");

function writeData(path: string, n: number): void {
  const rows = ["y,x"];
  for (let i = 0; i < n; i++) rows.push(`${Math.sin(i) > 0 ? 1 : -1},${(i / 3).toFixed(3)}`);
  writeFileSync(path, rows.join("\n") + "\n");
}

const sampleArgs = (data: string, draws: number) => [
  MAIN, "sample", "--data", data, "--lengthscale", "1", "--signal-sd", "1", "--sampler", "hmc", "--draws", String(draws), "--burn-in", "10",
  "--chains", "1", "--seed", "3", "--quiet",
];

test("in process: a lock is taken, held against another live process, released; a dead process's lock is stale", () => {
  const s = scratchDir();
  try {
    acquireRunLock(s.dir, "sample");
    const lock = JSON.parse(readFileSync(join(s.dir, RUN_LOCK), "utf8"));
    assert.equal(lock.pid, process.pid);
    assert.equal(lock.command, "sample");
    releaseRunLock(s.dir);
    assert.equal(existsSync(join(s.dir, RUN_LOCK)), false);
    // the parent of this process is alive (the test runner): its lock holds
    writeFileSync(join(s.dir, RUN_LOCK), JSON.stringify({ pid: process.ppid, host: hostname(), command: "ais", startedAt: "then" }));
    assert.throws(() => acquireRunLock(s.dir, "sample"), (e: unknown) => e instanceof OutputError && new RegExp(`is in use by gpmcmc ais, process ${process.ppid}, since then`).test(e.message));
    assert.throws(() => checkRunLock(s.dir), OutputError);
    // a process that has exited: stale
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    writeFileSync(join(s.dir, RUN_LOCK), JSON.stringify({ pid: Number(gone.stdout), host: hostname(), command: "ais", startedAt: "then" }));
    assert.equal(liveLockHolder(s.dir), undefined);
    acquireRunLock(s.dir, "sample");
    assert.equal(JSON.parse(readFileSync(join(s.dir, RUN_LOCK), "utf8")).pid, process.pid);
    releaseRunLock(s.dir);
    // another host's lock cannot be checked: it holds, and the message says which file to remove
    mkdirSync(join(s.dir, "x"));
    writeFileSync(join(s.dir, "x", RUN_LOCK), JSON.stringify({ pid: 1, host: "elsewhere", command: "sample", startedAt: "then" }));
    assert.throws(() => acquireRunLock(join(s.dir, "x"), "sample"), /on host elsewhere \(remove .*\.gpmcmc\.lock if that process is gone\)/);
  } finally {
    s.cleanup();
  }
});

test("a directory in use by a running sample is refused naming the process; once that process is killed, the run is interrupted, not in use", { timeout: 60_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data, 20);
    const out = join(s.dir, "run");
    const first = spawn(process.execPath, [...sampleArgs(data, 1_000_000), "--out", out], { stdio: "ignore" });
    try {
      // wait for the lock to appear
      for (let i = 0; i < 300 && !existsSync(join(out, RUN_LOCK)); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(existsSync(join(out, RUN_LOCK)), "the first run never locked its directory");
      for (const extra of [[], ["--overwrite"]]) {
        const second = spawnSync(process.execPath, [...sampleArgs(data, 10), "--out", out, ...extra], { encoding: "utf8" });
        assert.equal(second.status, 2);
        assert.equal(second.stderr, `gpmcmc: output ${JSON.stringify(out)}: is in use by gpmcmc sample, process ${first.pid}, since ${JSON.parse(readFileSync(join(out, RUN_LOCK), "utf8")).startedAt}; wait for it to end, or choose another directory\n`);
      }
      const resume = spawnSync(process.execPath, [...sampleArgs(data, 1_000_000), "--resume", out], { encoding: "utf8" });
      assert.match(resume.stderr, new RegExp(`is in use by gpmcmc sample, process ${first.pid}`));
    } finally {
      first.kill("SIGKILL");
      await new Promise((r) => first.on("exit", r));
    }
    // the lock is stale now: the directory holds an interrupted run
    const third = spawnSync(process.execPath, [...sampleArgs(data, 10), "--out", out], { encoding: "utf8" });
    assert.equal(third.status, 2);
    assert.match(third.stderr, /holds an interrupted gpmcmc run; continue it with --resume .*, or use --overwrite to replace it/);
    const replaced = spawnSync(process.execPath, [...sampleArgs(data, 10), "--out", out, "--overwrite"], { encoding: "utf8" });
    assert.equal(replaced.status, 0, replaced.stderr);
    assert.equal(existsSync(join(out, RUN_LOCK)), false, "the lock is removed when the run ends");
    const fourth = spawnSync(process.execPath, [...sampleArgs(data, 10), "--out", out], { encoding: "utf8" });
    assert.match(fourth.stderr, /holds a finished gpmcmc run; choose another directory, or use --overwrite to replace it/);
  } finally {
    s.cleanup();
  }
});

test("of two samples started at once on one directory, exactly one runs and the other is refused", { timeout: 60_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data, 20);
    const out = join(s.dir, "run");
    const run = () => new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const c = spawn(process.execPath, [...sampleArgs(data, 2000), "--out", out]);
      let stderr = "";
      c.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
      c.on("exit", (code) => resolve({ code, stderr }));
    });
    const results = await Promise.all([run(), run()]);
    const codes = results.map((r) => r.code).sort();
    assert.deepEqual(codes, [0, 2], JSON.stringify(results));
    const refused = results.find((r) => r.code === 2)!;
    // refused while the other holds the lock, while it is still writing it, or after it finished
    assert.match(refused.stderr, /is in use by gpmcmc sample, process \d+|is being taken by another gpmcmc command|holds a finished gpmcmc run/);
  } finally {
    s.cleanup();
  }
});
