// What checkpointing costs `gpmcmc ais`: the same computation (one worker thread, as --parallel 1)
// with no checkpoints, and with a checkpoint of every run every N temperatures written into a
// scratch directory as the command writes them (latestCheckpointWriter, writeCheckpointFile: the
// run's state and its trace so far, fsync'd). The variants alternate, R rounds; each figure is the
// median CPU seconds of the process (the worker and the writing thread; on a shared machine less
// noisy than wall-clock time, which is printed too), with its ratio to no checkpoints in the same round.
//   npm run bench -- aisCheckpoint [--temperatures 2000] [--runs 2] [--every 1000,100,10,1] [--rounds 3]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAis, type AisRunCheckpoint, type AisSpec } from "../src/annealing/index.js";
import { readDataset } from "../src/io/index.js";
import { checkpointFileName, latestCheckpointWriter, writeCheckpointFile } from "../src/run/checkpoint.js";
import { arg, hash } from "./benchArgs.js";

const temperatures = Number(arg("--temperatures", "2000"));
const runs = Number(arg("--runs", "2"));
const everies = arg("--every", "1000,100,10,1").split(",").map(Number);
const rounds = Number(arg("--rounds", "3"));
const ds = readDataset("test/fixtures/data/approx_small.csv", { labels: "binary", binaryCoding: "plusMinusOne" });
const spec: AisSpec = {
  model: { likelihood: "probit", logLengthscale: [Math.log(0.8)], logSignalSd: Math.log(1.5), jitter: { relative: 1e-6 } },
  start: { kind: "prior" },
  schedule: { kind: "geometric", temperatures },
  transition: { sampler: "hmc", stepSize: 0.1, leapfrogSteps: 10 },
  runs,
  seed: hash("aisCheckpoint approx_small hmc"),
};

async function once(every: number | undefined): Promise<{ cpu: number; wall: number }> {
  const dir = mkdtempSync(join(tmpdir(), "gpmcmc-bench-"));
  try {
    const w = every === undefined ? undefined : latestCheckpointWriter((cp: AisRunCheckpoint) => writeCheckpointFile(join(dir, checkpointFileName(cp.run)), cp), (cp) => cp.run);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await runAis({ X: ds.X, y: ds.y }, spec, { parallel: 1, checkpoint: w && every !== undefined ? { every, onCheckpoint: w.save } : undefined });
    w?.flush();
    const c = process.cpuUsage(c0);
    return { cpu: (c.user + c.system) / 1e6, wall: (performance.now() - t0) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const variants: (number | undefined)[] = [undefined, ...everies];
const cpu = variants.map(() => [] as number[]);
const wall = variants.map(() => [] as number[]);
const ratios = variants.map(() => [] as number[]);
await once(undefined); // warm-up: worker start, code paths compiled
for (let r = 0; r < rounds; r++) {
  const t: { cpu: number; wall: number }[] = [];
  for (const v of variants) t.push(await once(v));
  t.forEach((s, i) => {
    cpu[i].push(s.cpu);
    wall[i].push(s.wall);
    ratios[i].push(s.cpu / t[0].cpu);
  });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`AIS, n = ${ds.n}, hmc (10 leapfrog steps), B = ${temperatures}, ${runs} runs on 1 worker; median of ${rounds} rounds`);
console.log("| checkpoints | CPU seconds | ratio to none (median of per-round ratios) | wall-clock seconds |");
console.log("|---|---|---|---|");
variants.forEach((v, i) => console.log(`| ${v === undefined ? "none" : `every ${v} temperatures`} | ${median(cpu[i]).toFixed(2)} | ${median(ratios[i]).toFixed(2)} | ${median(wall[i]).toFixed(2)} |`));
