/**
 * The bad-input table's rows of whole commands (badInputs/commandRows.ts; badInput.test.ts checks
 * `sample`'s inputs through prepareSampleInputs): each row runs the built `gpmcmc` in a scratch directory, and it must print
 * exactly one line on stderr, the row's, exit with code 2 and leave the directory as it was
 * (after the row's set-up, which may make a run to resume or predict from).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { scratchDir, snapshotDir as snapshot } from "../fixtures.js";
import { CLI } from "./cliRun.js";
import { gpmcmc, KERNEL, writeSpec } from "./badInputs/rowKit.js";
import { COMMAND_ROWS } from "./badInputs/table.js";
import { procRefusal } from "./badInputs/gridRows.js";
import { redisMissing, startRedis } from "../grid/redisServer.js";
import { skipUnlessAvailable } from "../fixtures.js";

for (const row of COMMAND_ROWS) {
  test(`bad input (command line): ${row.name}`, () => {
    const s = scratchDir();
    try {
      row.setup?.(s.dir);
      const before = snapshot(s.dir);
      const r = gpmcmc(row.args(s.dir), s.dir, row.env);
      assert.equal(r.stderr, `gpmcmc: ${row.message(s.dir)}\n`);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      assert.deepEqual(snapshot(s.dir), before, "nothing was written");
    } finally {
      s.cleanup();
    }
  });
}

test("worker: SIGINT and SIGTERM stop it within a second, even while Redis does not answer", async () => {
  // a server that accepts connections and never answers: the worker waits for its first PING
  let connected = () => {};
  const silent = createServer(() => connected());
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const port = (silent.address() as AddressInfo).port;
  try {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const connecting = new Promise<void>((resolve) => (connected = resolve));
      const child = spawn(process.execPath, [CLI, "worker", "--queue", `redis://127.0.0.1:${port}`], { stdio: "ignore" });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
      await connecting; // started (its signal handlers are set before it connects), waiting for Redis
      const t0 = performance.now();
      child.kill(signal);
      assert.equal(await exited, 0);
      assert.ok(performance.now() - t0 < 2000, `${signal}: ${(performance.now() - t0).toFixed(0)} ms to stop`);
    }
  } finally {
    silent.close();
  }
});

test("grid run --queue and worker on a Redis that never answers: one line naming the 5 s connection timeout, exit 2, nothing written", async () => {
  const silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const url = `redis://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  const s = scratchDir();
  try {
    writeSpec(s.dir, {});
    const before = snapshot(s.dir);
    for (const args of [["grid", "run", "grid.json", "--queue", url], ["worker", "--queue", url]]) {
      const t0 = performance.now();
      // asynchronous: this process's server must answer the child's connections while it waits
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args], { cwd: s.dir, env: { ...process.env, GPMCMC_DEBUG: "" } });
        let stderr = "";
        child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
        child.on("exit", (code) => resolve({ code, stderr }));
      });
      assert.equal(r.stderr.replace(/^gpmcmc: using the pure TypeScript linear-algebra backend.*\n/m, ""), `gpmcmc: cannot reach Redis at ${url}: no answer within 5 s\n`);
      assert.equal(r.code, 2);
      assert.ok(performance.now() - t0 < 15_000, `${args[0]}: ${(performance.now() - t0).toFixed(0)} ms`);
    }
    assert.deepEqual(snapshot(s.dir), before, "nothing was written");
  } finally {
    s.cleanup();
    silent.close();
  }
});

test("worker: a job whose draws/ this machine cannot make (out a link to /proc): one line naming it, exit 2, nothing written", { skip: skipUnlessAvailable(redisMissing()), timeout: 60_000 }, async () => {
  const redis = await startRedis();
  const s = scratchDir();
  // the submitter makes nothing (o exists) and waits; the worker is the first to make a directory
  const submitter = spawn(process.execPath, [CLI, "grid", "run", "grid.json", "--queue", redis.url, "--quiet"], { cwd: s.dir, stdio: "ignore" });
  try {
    writeSpec(s.dir, { out: "o" });
    symlinkSync("/proc", join(s.dir, "o"));
    const before = snapshot(s.dir);
    const r = await new Promise<{ code: number | null; stderr: string; pid: number }>((resolve) => {
      const child = spawn(process.execPath, [CLI, "worker", "--queue", redis.url, "--quiet"], { cwd: s.dir, env: { ...process.env, GPMCMC_DEBUG: "" } });
      let stderr = "";
      child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
      child.on("exit", (code) => resolve({ code, stderr, pid: child.pid! }));
    });
    const refused = `gpmcmc: output ${JSON.stringify(join(s.dir, "o", "draws"))}: cannot be created: ${procRefusal(join(s.dir, "o"))}\n`;
    assert.equal(r.stderr.replace(/^gpmcmc: using the pure TypeScript linear-algebra backend.*\n/m, ""), `worker ${r.pid}: waiting for jobs on ${redis.url}\n${refused}`);
    assert.equal(r.code, 2);
    assert.deepEqual(snapshot(s.dir), before, "nothing was written");
  } finally {
    submitter.kill();
    s.cleanup();
    await redis.stop();
  }
});

test("labels all of one class: one warning line on stderr, and the command runs (the model is still defined)", () => {
  const s = scratchDir();
  try {
    writeFileSync(join(s.dir, "pos.csv"), "y,x1\n1,0.1\n1,0.5\n1,0.9\n");
    writeFileSync(join(s.dir, "neg.csv"), "y,x1\n0,0.1\n0,0.5\n0,0.9\n");
    const warning = (file: string, label: string) => `gpmcmc: warning: ${file}: all 3 labels in column "y" are ${label}: the data hold one class only (the model is still defined, but nothing in the data speaks for the other class)\n`;
    const runs: [string[], string][] = [
      [["laplace", "--data", "pos.csv", ...KERNEL], warning("pos.csv", "+1")],
      [["ep", "--data", "neg.csv", ...KERNEL], warning("neg.csv", "-1 (0 in a 0/1 file)")],
      [["sample", "--data", "neg.csv", "--likelihood", "logistic", ...KERNEL, "--draws", "10", "--burn-in", "10", "--chains", "1", "--quiet"], warning("neg.csv", "-1 (0 in a 0/1 file)")],
      [["ais", "--data", "pos.csv", ...KERNEL, "--temperatures", "3", "--runs", "2", "--quiet"], warning("pos.csv", "+1")],
      [["sample", "--data", "pos.csv", "--model", "logistic-regression", "--draws", "10", "--burn-in", "10", "--chains", "1", "--quiet"], warning("pos.csv", "+1")],
    ];
    for (const [args, stderr] of runs) {
      const r = gpmcmc(args, s.dir);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, stderr);
    }
  } finally {
    s.cleanup();
  }
});
