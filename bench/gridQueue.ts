/**
 * The cost of running grid jobs on the BullMQ queue against the local worker pool: 100 small
 * jobs (one chain of 20 draws, no burn-in, of elliptical slice sampling on a simulated logistic
 * data set of n = 10: a job of a few milliseconds, so that what is measured is the per-job
 * overhead), run by the local pool with 1 and 2 threads and by 1 and 2 `gpmcmc worker` processes
 * on a redis-server started here on a free loopback port. Prints wall seconds, jobs per second,
 * milliseconds per job and the ratio queue / local at the same number of workers.
 *
 *   npm run bench -- gridQueue [--jobs 100]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runGridLocally } from "../src/grid/localRunner.js";
import { awaitGrid, submitGrid } from "../src/grid/queue.js";
import "../src/grid/simulatedChainJob.js";
import { gridJobs, type LoadedGrid } from "../src/grid/spec.js";

const MAIN = fileURLToPath(new URL("../src/cli/main.js", import.meta.url));
const argJobs = process.argv.indexOf("--jobs");
const JOBS = argJobs >= 0 ? Number(process.argv[argJobs + 1]) : 100;

function grid(name: string, dir: string): LoadedGrid {
  return {
    path: join(dir, "spec.json"), outDir: join(dir, name),
    spec: {
      grid: name, kind: "simulated-latent-chain", fixed: { draws: 20, burnIn: 0, dataSeed: 1 },
      axes: { likelihood: ["logistic"], n: [10], d: [2], "data-set": [0], sampler: ["ess"], chain: Array.from({ length: JOBS }, (_, i) => i) },
      out: name,
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

function startWorker(url: string): Promise<ChildProcess> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [MAIN, "worker", "--queue", url, "--quiet"]);
    c.stderr!.on("data", (b: Buffer) => {
      if (b.toString().includes("waiting for jobs")) resolve(c);
    });
  });
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "gpmcmc-bench-grid-"));
  const port = await freePort();
  const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 500));
  const url = `redis://127.0.0.1:${port}`;
  const rows: { how: string; workers: number; seconds: number }[] = [];
  try {
    for (const workers of [1, 2]) {
      const local = grid(`local-${workers}`, dir);
      let t0 = performance.now();
      await runGridLocally(local.outDir, gridJobs(local), { parallel: workers });
      rows.push({ how: "local pool", workers, seconds: (performance.now() - t0) / 1000 });

      const procs = await Promise.all(Array.from({ length: workers }, () => startWorker(url)));
      const queued = grid(`queue-${workers}`, dir);
      t0 = performance.now();
      await submitGrid(url, gridJobs(queued));
      await awaitGrid(url, queued.outDir, gridJobs(queued));
      rows.push({ how: "BullMQ queue", workers, seconds: (performance.now() - t0) / 1000 });
      for (const p of procs) p.kill("SIGKILL");
    }
  } finally {
    redis.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${JOBS} jobs (one ess chain of 20 draws, n = 10, each)`);
  console.log("| runner | workers | wall s | jobs / s | ms / job (wall x workers / jobs) | queue / local |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) {
    const local = rows.find((x) => x.how === "local pool" && x.workers === r.workers)!;
    console.log(`| ${r.how} | ${r.workers} | ${r.seconds.toFixed(2)} | ${(JOBS / r.seconds).toFixed(1)} | ${((r.seconds * r.workers * 1000) / JOBS).toFixed(1)} | ${(r.seconds / local.seconds).toFixed(2)} |`);
  }
}

await main();
