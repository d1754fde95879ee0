/**
 * Tables 3-6 through the grid (job kind "hyper-chain" on the local pool of worker threads) give
 * the figures of the same chains run one after another in this thread, bit for bit (every number
 * of every cell but the timings, and the ordering rows). Negative controls: a grid whose draws
 * file of one chain holds another chain's draws gives different figures, and the comparison says
 * so; a job whose grid is named otherwise (its seed would not be hyperChainSeed's) is refused,
 * and `gpmcmc grid run` reports such a job as one line, exit 2.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareHyperTables, hyperGridOptions, quickConfig } from "../../experiments/hyperTables.js";
import { hyperGridSpec, runHyperTables, runHyperTablesDirect } from "../../experiments/hyperTablesRun.js";
import type { HyperTablesConfig } from "../../experiments/hyperTablesTypes.js";
import { hyperChainJob } from "../../src/grid/hyperChainJob.js";
import { gridJobs } from "../../src/grid/spec.js";
import { decodeExact, encodeExact } from "../../src/run/checkpoint.js";
import { getBackend } from "../../src/linalg/backend.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";

// One BLAS thread, as the experiment's command and the grid's worker threads run: a threaded
// OpenBLAS splits the sums of n = 80 products differently, which changes draws in their last bits.
getBackend().setThreads(1);

/** Every number of every cell (not the timings) and every ordering row the same. */
function assertSameFigures(direct: ReturnType<typeof runHyperTablesDirect>, grid: ReturnType<typeof runHyperTablesDirect>) {
  assert.equal(grid.cells.length, direct.cells.length);
  assert.deepEqual(compareHyperTables(direct, grid), []);
  assert.deepEqual(grid.orderings, direct.orderings);
}

test("hyperTables through the grid (2 worker threads) = the chains run directly, Tables 4 and 6; a chain's draws swapped for another's is caught", async () => {
  const t4: HyperTablesConfig = { ...quickConfig(4), groups: ["logistic", "ordinal"], chains: 2, draws: 40, burnIn: 20, checkpoints: [20, 40] };
  assertSameFigures(runHyperTablesDirect(t4), await runHyperTables(t4, { parallel: 2 }));
  const t6: HyperTablesConfig = { ...quickConfig(6), methods: ["aa", "surr"], chains: 2, draws: 20, burnIn: 10, checkpoints: [10, 20] };
  const direct = runHyperTablesDirect(t6);
  const scratch = scratchDir();
  try {
    const grid = await runHyperTables(t6, { parallel: 2, gridDir: scratch.dir });
    assertSameFigures(direct, grid);
    // Negative control: chain 1 of SURR given chain 0's draws (as a job run on the wrong seed would); the grid's results stay, so the rerun runs nothing and reads the draws.
    const jobs = gridJobs({ spec: hyperGridSpec(t6, { group: "spect", n: 80, d: 22 }, "x"), path: join(scratch.dir, "spec.json"), outDir: join(scratch.dir, "table6-spect-n80-d22") });
    const file = (cell: Record<string, string | number>) => join(jobs[0]!.drawsDir, `${jobs.find((j) => j.cell.method === cell.method && j.cell.chain === cell.chain)!.id}.json`);
    const from = decodeExact<{ samples: Float64Array }>(readFileSync(file({ method: "surr", chain: 0 }), "utf8"));
    const to = decodeExact<{ identity: string; dim: number; draws: number; samples: Float64Array }>(readFileSync(file({ method: "surr", chain: 1 }), "utf8"));
    writeFileSync(file({ method: "surr", chain: 1 }), encodeExact({ ...to, samples: from.samples }) + "\n");
    const before = readdirSync(join(scratch.dir, "table6-spect-n80-d22", "results")).length;
    const broken = await runHyperTables(t6, { parallel: 2, gridDir: scratch.dir });
    assert.equal(readdirSync(join(scratch.dir, "table6-spect-n80-d22", "results")).length, before);
    const diffs = compareHyperTables(direct, broken);
    assert.ok(diffs.some((l) => /spect n=80 d=22 surr: (minEss|rhat)/.test(l)), diffs.join("\n"));
    assert.ok(!diffs.some((l) => / aa: /.test(l)), `AA's chains were not touched:\n${diffs.join("\n")}`);
  } finally {
    scratch.cleanup();
  }
});

test("hyper-chain jobs: a grid named otherwise is refused (the seeds follow the identity); bad options are one clear error", () => {
  const cfg: HyperTablesConfig = { ...quickConfig(3), chains: 2, draws: 20, burnIn: 10, checkpoints: [10, 20] };
  const spec = hyperGridSpec(cfg, { group: "f", n: 20, d: 2 }, "x");
  const [job] = gridJobs({ spec: { ...spec, grid: "hyperTables table=3 seed=2" }, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => hyperChainJob(job!), /the grid must be named "hyperTables table=3 seed=1"/);
  const [wrongMethod] = gridJobs({ spec: { ...spec, axes: { ...spec.axes, method: ["aa"] } }, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => hyperChainJob(wrongMethod!), /table 3 has no method "aa"/);
  assert.throws(() => hyperGridOptions(["--table", "3", "--queue", "http://x"]), /--queue: "http:\/\/x" is not a redis:\/\/ URL/);
  assert.throws(() => hyperGridOptions(["--table", "3", "--queue", "redis://127.0.0.1:1", "--parallel", "2"]), /--parallel applies to a local run/);
  assert.deepEqual(hyperGridOptions(["--table", "3", "--grid-dir", "g", "--parallel", "3"]), { gridDir: "g", parallel: 3, queue: undefined });
});

test("gpmcmc grid run: a job its spec cannot describe is one line naming the job, exit 2 (hyper-chain and simulated-latent-chain alike)", () => {
  const scratch = scratchDir();
  try {
    const write = (name: string, spec: unknown) => {
      writeFileSync(join(scratch.dir, name), JSON.stringify(spec));
      return spawnSync(process.execPath, [join(REPO_ROOT, "dist", "src", "cli", "main.js"), "grid", "run", join(scratch.dir, name), "--parallel", "1", "--quiet"], { encoding: "utf8" });
    };
    const hyper = write("h.json", { grid: "other", kind: "hyper-chain", fixed: { table: 3, seed: 1, draws: 20, burnIn: 10, latentUpdates: 1 }, axes: { group: ["f"], n: [20], d: [2], "data-set": [0], method: ["mh"], chain: [0] }, out: "h" });
    assert.equal(hyper.status, 2, hyper.stderr);
    assert.match(hyper.stderr, /^gpmcmc: grid job "other group=f n=20 d=2 data-set=0 method=mh chain=0": the grid must be named "hyperTables table=3 seed=1"/);
    assert.equal(hyper.stderr.trim().split("\n").length, 1);
    const latent = write("s.json", { grid: "x", kind: "simulated-latent-chain", fixed: { draws: 20, burnIn: 10, dataSeed: 1 }, axes: { likelihood: ["logistic"], n: [20], d: [2], "data-set": [0], sampler: ["nope"], chain: [0] }, out: "s" });
    assert.equal(latent.status, 2, latent.stderr);
    assert.match(latent.stderr, /^gpmcmc: grid job "x likelihood=logistic n=20 d=2 data-set=0 sampler=nope chain=0": unknown sampler "nope"\n$/);
    // A spec that runs: exit 0 (the same hyper-chain spec named as the seeds need).
    const good = write("g.json", { grid: "hyperTables table=3 seed=1", kind: "hyper-chain", fixed: { table: 3, seed: 1, draws: 20, burnIn: 10, latentUpdates: 1 }, axes: { group: ["f"], n: [20], d: [2], "data-set": [0], method: ["mh"], chain: [0] }, out: "g" });
    assert.equal(good.status, 0, good.stderr);
  } finally {
    scratch.cleanup();
  }
});
