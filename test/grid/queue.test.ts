/**
 * A grid on BullMQ over a real redis-server: two `gpmcmc worker` processes run a small grid that
 * `gpmcmc grid run --queue` submitted; one worker is killed with SIGKILL in the middle of a job;
 * every job completes once, the killed job on the other worker (resumed from its checkpoint),
 * and every result and draws file is that of the same grid run in a single process. Submitting
 * the grid again runs nothing. So for Table 2's simulated-latent-chain jobs and for the
 * parametric-chain jobs of Girolami & Calderhead's logistic regression; and for a worker stopped
 * with SIGTERM instead, which exits within a second, its job back on the queue.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, scratchDir, skipUnlessAvailable } from "../fixtures.js";
import { redisMissing, startRedis } from "./redisServer.js";

const MAIN = join(REPO_ROOT, "dist", "src", "cli", "main.js");

/** Grids of 4 jobs whose jobs last long enough to be killed mid-way, checkpointing often. */
const SPECS: Record<string, (out: string) => { grid: string }> = {
  "simulated-latent-chain": (out) => ({
    grid: "queue-test seed=1", kind: "simulated-latent-chain", fixed: { draws: 2500, burnIn: 200, dataSeed: 1 },
    axes: { likelihood: ["logistic"], n: [25], d: [2], "data-set": [0], sampler: ["hmc-v2", "mh-v1"], chain: [0, 1] },
    out, checkpointEvery: 100,
  }),
  "parametric-chain": (out) => ({
    grid: "logisticRegression", kind: "parametric-chain", fixed: { draws: 120, burnIn: 30, thin: 1, start: "zero" },
    axes: { data: ["heart_statlog"], sampler: ["rmhmc"], run: [0, 1, 2, 3] },
    out, checkpointEvery: 10,
  }),
};

function gpmcmc(args: string[]) {
  return spawnSync(process.execPath, [MAIN, ...args], { encoding: "utf8" });
}

/** The columns of `grid collect` that must not depend on where a job ran (all but the timings, `resumed` and the id). */
function figures(specPath: string): string[] {
  const r = gpmcmc(["grid", "collect", specPath]);
  assert.equal(r.status, 0, r.stderr);
  const rows = r.stdout.trim().split("\n").map((l) => l.split(","));
  const keep = rows[0]!.map((h) => !/seconds|^resumed$|^id$/.test(h));
  return rows.map((row) => row.filter((_, j) => keep[j]).join(","));
}

function startWorker(url: string): { child: ChildProcess; log: () => string } {
  const child = spawn(process.execPath, [MAIN, "worker", "--queue", url, "--lock-seconds", "1"]);
  let log = "";
  child.stderr!.on("data", (b: Buffer) => (log += b.toString()));
  return { child, log: () => log };
}

const missing = skipUnlessAvailable(redisMissing());

const CASES: [string, (out: string) => { grid: string }, "SIGKILL" | "SIGTERM"][] = [
  ...Object.entries(SPECS).map(([kind, spec]) => [kind, spec, "SIGKILL"] as [string, (out: string) => { grid: string }, "SIGKILL"]),
  ["simulated-latent-chain", SPECS["simulated-latent-chain"]!, "SIGTERM"],
];

for (const [kind, spec, signal] of CASES) test(`${kind}: two workers, one ${signal === "SIGKILL" ? "killed" : "stopped with SIGTERM"} mid-job: every job completes once, with the single-process results`, { skip: missing, timeout: 180_000 }, async () => {
  const s = scratchDir();
  const redis = await startRedis();
  const workers: ReturnType<typeof startWorker>[] = [];
  let run: ChildProcess | undefined;
  try {
    const localSpec = join(s.dir, "local.json");
    const queueSpec = join(s.dir, "queue.json");
    writeFileSync(localSpec, JSON.stringify(spec("local")));
    writeFileSync(queueSpec, JSON.stringify(spec("queued")));
    const local = gpmcmc(["grid", "run", localSpec, "--parallel", "1", "--quiet"]);
    assert.equal(local.status, 0, local.stderr);

    workers.push(startWorker(redis.url), startWorker(redis.url));
    run = spawn(process.execPath, [MAIN, "grid", "run", queueSpec, "--queue", redis.url, "--quiet"]);
    let runOut = "";
    run.stdout!.on("data", (b: Buffer) => (runOut += b.toString()));
    run.stderr!.on("data", (b: Buffer) => (runOut += b.toString()));
    const runExit = new Promise<number | null>((resolve) => run!.on("exit", (c) => resolve(c)));

    // kill the first worker once it has started a job and written a checkpoint of it
    const [victim, survivor] = workers;
    let killedJob: string | undefined;
    for (let i = 0; i < 600 && killedJob === undefined; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const started = /job (g[0-9a-f]+) started/.exec(victim.log());
      if (started && existsSync(join(s.dir, "queued", "checkpoints", `${started[1]}.json`)) && !victim.log().includes(`job ${started[1]} done`)) {
        const exited = new Promise<number | null>((resolve) => victim.child.on("exit", (c) => resolve(c)));
        const t0 = performance.now();
        victim.child.kill(signal);
        killedJob = started[1];
        if (signal === "SIGTERM") {
          // stopped within a second (and some time for the exit on a loaded machine), its job put back on the queue
          assert.equal(await exited, 0, victim.log());
          assert.ok(performance.now() - t0 < 2000, `the worker took ${(performance.now() - t0).toFixed(0)} ms to stop`);
          assert.match(victim.log(), new RegExp(`job ${killedJob} stopped: back on the queue`));
        }
      }
    }
    assert.ok(killedJob, `the first worker never had a job in progress to kill:\n${victim.log()}`);
    assert.equal(await runExit, 0, runOut);

    // the same figures and draws as in one process
    assert.deepEqual(figures(queueSpec), figures(localSpec));
    const draws = readdirSync(join(s.dir, "local", "draws")).sort();
    assert.equal(draws.length, 4);
    assert.deepEqual(readdirSync(join(s.dir, "queued", "draws")).sort(), draws);
    for (const f of draws) assert.equal(readFileSync(join(s.dir, "queued", "draws", f), "utf8"), readFileSync(join(s.dir, "local", "draws", f), "utf8"), f);

    // the killed job finished on the survivor, from its checkpoint; every job was done once
    const killed = JSON.parse(readFileSync(join(s.dir, "queued", "results", `${killedJob}.json`), "utf8"));
    assert.equal(killed.worker.pid, survivor.child.pid);
    assert.equal(killed.resumed, true);
    const done = [...(victim.log() + survivor.log()).matchAll(/job (g[0-9a-f]+) done/g)].map((m) => m[1]).sort();
    assert.deepEqual(done, [...new Set(done)], "a job ran to its end twice");
    assert.equal(done.length, 4);

    // submitted again: nothing runs
    const again = gpmcmc(["grid", "run", queueSpec, "--queue", redis.url, "--quiet"]);
    assert.equal(again.status, 0, again.stderr);
    const status = JSON.parse(gpmcmc(["grid", "status", queueSpec, "--queue", redis.url, "--json"]).stdout);
    assert.deepEqual(status, { grid: spec("x").grid, jobs: 4, done: 4, queue: { completed: 4 } });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal([...survivor.log().matchAll(/started/g)].length, 4 - [...victim.log().matchAll(/job (g[0-9a-f]+) done/g)].length);
  } finally {
    for (const w of workers) w.child.kill("SIGKILL");
    run?.kill("SIGKILL");
    await redis.stop();
    s.cleanup();
  }
});
