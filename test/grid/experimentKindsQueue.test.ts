/**
 * The job kinds of Girolami & Calderhead's experiments on BullMQ over a real redis-server: a
 * `gpmcmc worker` process (which must know every kind) runs the jobs that the logistic-regression,
 * volatility, Fitzhugh-Nagumo and Cox process scripts submit with --queue, and each script's cells
 * are those of the same runs computed directly in this thread (every field but the timings).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { lgcpGridSpec, runLgcp } from "../../experiments/coxProcess.js";
import { compareCells } from "../../experiments/experimentScript.js";
import { compareFitzhughNagumoCells, fitzhughNagumoRun, runFitzhughNagumo } from "../../experiments/fitzhughNagumo.js";
import { compareLogisticCells, parseLogisticArgs, runLogisticRegression, runLogisticRegressionDirect } from "../../experiments/logisticRegression.js";
import { compareSvCells, parseConfig, runVolatility, svExperimentData, volatilityRun } from "../../experiments/volatility.js";
import { lgcpRun } from "../../src/grid/coxProcessRunJob.js";
import { getBackend } from "../../src/linalg/backend.js";
import { REPO_ROOT, scratchDir, skipUnlessAvailable } from "../fixtures.js";
import { redisMissing, startRedis } from "./redisServer.js";

const MAIN = join(REPO_ROOT, "dist", "src", "cli", "main.js");

getBackend().setThreads(1);

test("a gpmcmc worker runs parametric-chain, volatility-run, fitzhugh-nagumo-run and lgcp-run jobs; the cells are those computed directly", { skip: skipUnlessAvailable(redisMissing()), timeout: 120_000 }, async () => {
  const redis = await startRedis();
  const s = scratchDir();
  const worker = spawn(process.execPath, [MAIN, "worker", "--queue", redis.url, "--concurrency", "2"]);
  let log = "";
  worker.stderr.on("data", (b: Buffer) => (log += b.toString()));
  try {
    const place = { queue: redis.url, gridDir: s.dir };
    const lr = parseLogisticArgs(["--data", "synth_tr", "--samplers", "mala,iwls", "--runs", "1", "--burn-in", "10", "--draws", "20"]);
    assert.deepEqual(compareLogisticCells(runLogisticRegressionDirect(lr), await runLogisticRegression(lr, place)), []);
    const sv = { configs: [parseConfig("mala,mala")], runs: 1, first: 0, burnIn: 3, draws: 5 };
    assert.deepEqual(compareSvCells([volatilityRun(svExperimentData(), sv.configs[0]!, 0, 3, 5).cell], await runVolatility(sv, place)), []);
    const fhn = { samplers: ["mala" as const], runs: 1, burnIn: 3, draws: 5 };
    assert.deepEqual(compareFitzhughNagumoCells([fitzhughNagumoRun("mala", 0, 3, 5).cell], await runFitzhughNagumo(fhn, place)), []);
    const lgcp = { side: 6, runs: 1, plan: [{ name: "mmala" as const, burnIn: 3, draws: 5 }] };
    assert.equal(lgcpGridSpec(lgcp, "x").kind, "lgcp-run");
    const queued = await runLgcp(lgcp, place);
    assert.deepEqual(compareCells([lgcpRun(6, "mmala", 0, 3, 5).cell], queued.map((r) => r.figures), (c) => `${c.sampler} run ${c.run}`, ["setupSeconds", "burnInSeconds", "seconds", "secondsPerMinEss", "cpuSeconds", "cpuSecondsPerMinEss"]), []);
    assert.equal((log.match(/ done\n/g) ?? []).length, 5, log);
  } finally {
    worker.kill("SIGKILL");
    await redis.stop();
    s.cleanup();
  }
});
