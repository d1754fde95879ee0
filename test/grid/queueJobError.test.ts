/**
 * A job its spec cannot describe (GridJobError) run through BullMQ on a real redis-server: `gpmcmc
 * grid run --queue` reports it as the local pool does, the same one line naming the job and exit
 * 2, and the worker tries it once (another attempt would fail the same way). Negative control: a
 * job that fails for another reason (its draws directory cannot be made) is still a failure of
 * the program, exit 1 with "failed", after the queue's three attempts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, scratchDir, skipUnlessAvailable } from "../fixtures.js";
import { jobId } from "../../src/grid/identity.js";
import { redisMissing, startRedis } from "./redisServer.js";

const MAIN = join(REPO_ROOT, "dist", "src", "cli", "main.js");

/** `gpmcmc grid run` in a child process, without blocking this one (the worker's log keeps coming in). */
function gridRun(specPath: string, ...more: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, "grid", "run", specPath, "--quiet", ...more]);
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stderr })));
}

test("grid run --queue: a job its spec cannot describe is the local pool's one line and exit 2, tried once; another failure stays exit 1", { skip: skipUnlessAvailable(redisMissing()), timeout: 120_000 }, async () => {
  const s = scratchDir();
  const redis = await startRedis();
  let worker: ChildProcess | undefined;
  try {
    const write = (name: string, spec: unknown) => {
      const path = join(s.dir, name);
      writeFileSync(path, JSON.stringify(spec));
      return path;
    };
    const latent = (out: string, sampler: string) => ({ grid: "x", kind: "simulated-latent-chain", fixed: { draws: 20, burnIn: 10, dataSeed: 1 }, axes: { likelihood: ["logistic"], n: [20], d: [2], "data-set": [0], sampler: [sampler], chain: [0] }, out });
    const specs = [
      write("s.json", latent("s", "nope")),
      write("h.json", { grid: "other", kind: "hyper-chain", fixed: { table: 3, seed: 1, draws: 20, burnIn: 10, latentUpdates: 1 }, axes: { group: ["f"], n: [20], d: [2], "data-set": [0], method: ["mh"], chain: [0] }, out: "h" }),
    ];
    const local = await Promise.all(specs.map((p) => gridRun(p, "--parallel", "1")));
    for (const r of local) assert.equal(r.status, 2, r.stderr);

    worker = spawn(process.execPath, [MAIN, "worker", "--queue", redis.url]);
    let log = "";
    worker.stderr!.on("data", (b: Buffer) => (log += b.toString()));
    for (const [i, p] of specs.entries()) {
      const queued = await gridRun(p, "--queue", redis.url);
      assert.equal(queued.status, 2, queued.stderr);
      assert.equal(queued.stderr, local[i]!.stderr);
      assert.match(queued.stderr, /^gpmcmc: grid job "[^"]+": .+\n$/);
    }
    assert.equal((log.match(/ started: /g) ?? []).length, 2, `each job was tried once:\n${log}`);
    // submitted again: the job failed for good, the same line
    const again = await gridRun(specs[0]!, "--queue", redis.url);
    assert.equal(again.status, 2);
    assert.equal(again.stderr, local[0]!.stderr);

    // Negative control: the job's checkpoint is damaged, so the job fails for a reason that is not its spec's.
    const broken = write("b.json", latent("b", "mh-v1"));
    const id = jobId("simulated-latent-chain", "x likelihood=logistic n=20 d=2 data-set=0 sampler=mh-v1 chain=0", { draws: 20, burnIn: 10, dataSeed: 1 });
    mkdirSync(join(s.dir, "b", "checkpoints"), { recursive: true });
    writeFileSync(join(s.dir, "b", "checkpoints", `${id}.json`), "{");
    const failed = await gridRun(broken, "--queue", redis.url);
    assert.equal(failed.status, 1, failed.stderr);
    assert.match(failed.stderr, /^gpmcmc: internal error: grid job x likelihood=logistic .* failed: .*JSON/);
    assert.equal((log.match(/ started: /g) ?? []).length, 5, `the other failure was tried three times:\n${log}`);
  } finally {
    worker?.kill("SIGKILL");
    await redis.stop();
    s.cleanup();
  }
});
