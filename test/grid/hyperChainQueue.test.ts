/**
 * Tables 3-6 on BullMQ over a real redis-server: the experiment submits its "hyper-chain" jobs
 * with --queue and a `gpmcmc worker` process runs them; the table is bit for bit the one of the
 * same chains run directly in one thread (every number but the timings, and the ordering rows).
 * Submitting again runs nothing new: every job already has its result.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { compareHyperTables, quickConfig } from "../../experiments/hyperTables.js";
import { runHyperTables, runHyperTablesDirect } from "../../experiments/hyperTablesRun.js";
import type { HyperTablesConfig } from "../../experiments/hyperTablesTypes.js";
import { getBackend } from "../../src/linalg/backend.js";
import { REPO_ROOT, scratchDir, skipUnlessAvailable } from "../fixtures.js";
import { redisMissing, startRedis } from "./redisServer.js";

const MAIN = join(REPO_ROOT, "dist", "src", "cli", "main.js");
const EXPERIMENT = join(REPO_ROOT, "dist", "experiments", "hyperTables.js");

// One BLAS thread, as the worker's job threads run (see test/experiments/hyperTablesGrid.test.ts).
getBackend().setThreads(1);

test("hyperTables --queue: a gpmcmc worker runs the hyper-chain jobs; the table is that of the chains run directly", { skip: skipUnlessAvailable(redisMissing()), timeout: 120_000 }, async () => {
  const cfg: HyperTablesConfig = { ...quickConfig(5), methods: ["aa", "surr"], dataSets: 1, chains: 2, draws: 30, burnIn: 10, checkpoints: [10, 30] };
  const redis = await startRedis();
  const scratch = scratchDir();
  const worker = spawn(process.execPath, [MAIN, "worker", "--queue", redis.url, "--concurrency", "2"]);
  let log = "";
  worker.stderr.on("data", (b: Buffer) => (log += b.toString()));
  try {
    const queued = await runHyperTables(cfg, { queue: redis.url, gridDir: scratch.dir });
    const direct = runHyperTablesDirect(cfg);
    assert.equal(queued.cells.length, 2);
    assert.deepEqual(compareHyperTables(direct, queued), []);
    assert.deepEqual(queued.orderings, direct.orderings);
    assert.equal((log.match(/ done\n/g) ?? []).length, 4, log);
    // The command line, again on the same queue and grid directory: nothing new runs, the table is printed.
    const again = spawnSync(process.execPath, [EXPERIMENT, "--table", "5", "--quick", "--methods", "aa,surr", "--data-sets", "1", "--chains", "2", "--draws", "30", "--burn-in", "10", "--checkpoints", "10,30", "--queue", redis.url, "--grid-dir", scratch.dir], { encoding: "utf8" });
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^ {2}SURR /m);
    assert.equal((log.match(/ done\n/g) ?? []).length, 4, log);
    assert.equal(readdirSync(join(scratch.dir, "table5-logistic-n20-d2", "results")).length, 4);
  } finally {
    worker.kill("SIGKILL");
    await redis.stop();
    scratch.cleanup();
  }
});
