/**
 * "hyper-chain" jobs checkpoint and resume: a job stopped several times (in burn-in, at its end,
 * after it) and run again each time gives the draws file and every figure (min ESS, acceptance,
 * steps, O(n^3) operation counts) of the job never stopped, for the theta-only chains of
 * Tables 3 and 4 and the schemes of Table 5 (SA with its Gibbs step of sigma rescaling cached
 * factors, KHR with its kept Laplace approximation, SURR). A `gpmcmc grid run` killed with
 * SIGKILL once a checkpoint is on disk and run again gives the uninterrupted grid's results.
 * Negative control: a checkpoint whose generator state is replaced by a fresh one resumes into
 * other draws, and the comparison sees it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hyperChainJob, type HyperChainJobResult } from "../../src/grid/hyperChainJob.js";
import type { HyperChainCheckpoint } from "../../src/grid/hyperChainLoop.js";
import { runGridLocally } from "../../src/grid/localRunner.js";
import type { GridJob, GridSpec } from "../../src/grid/spec.js";
import { readJobResults } from "../../src/grid/store.js";
import { getBackend } from "../../src/linalg/backend.js";
import { Rng } from "../../src/random/rng.js";
import { decodeExact, encodeExact } from "../../src/run/checkpoint.js";
import { scratchDir } from "../fixtures.js";
import { jobsOf, runGridKilledOnce, stopAfter } from "./gridJobRuns.js";

// One BLAS thread, as the grid's worker threads run (see test/experiments/hyperTablesGrid.test.ts).
getBackend().setThreads(1);

function spec(table: number, group: string, methods: string[], out: string, draws = 40, checkpointEvery = 7): GridSpec {
  return {
    grid: `hyperTables table=${table} seed=1`, kind: "hyper-chain", fixed: { table, seed: 1, draws, burnIn: 20, latentUpdates: 1 },
    axes: { group: [group], n: [20], d: [2], "data-set": [0], method: methods, chain: [0] }, out, checkpointEvery,
  };
}

/** What must not depend on interruptions: the draws file and every figure but the timings, the worker and `resumed`. */
function figures(job: GridJob, r: HyperChainJobResult) {
  const { seconds: _s, worker: _w, resumed: _r, ...rest } = r;
  // flops is a sum of fractional counts (n^3 / 3 per factorisation) kept as a running total of the
  // thread: a difference of two totals rounds according to what ran before, so 12 digits are compared.
  return { ...rest, ops: { ...r.ops, flops: Number(r.ops.flops.toPrecision(12)) }, draws: createHash("sha256").update(readFileSync(join(job.drawsDir, r.drawsFile))).digest("hex") };
}

function checkpointOf(job: GridJob): string {
  return join(job.checkpointDir, `${job.id}.json`);
}

test("hyper-chain jobs stopped three times and resumed each time = the jobs never stopped (Tables 3, 4, 5)", () => {
  const s = scratchDir();
  try {
    const cases = [spec(3, "f", ["hmc"], "t3"), spec(4, "poisson", ["mh", "smmala"], "t4"), spec(5, "logistic", ["sa", "khr", "surr"], "t5")];
    for (const c of cases) {
      const whole = jobsOf({ ...c, out: `${c.out}-whole`, checkpointEvery: 0 }, s.dir);
      const cut = jobsOf(c, s.dir);
      whole.forEach((wj, i) => {
        const j = cut[i]!;
        assert.equal(j.id, wj.id, "checkpointEvery is not part of the job");
        const expected = figures(wj, hyperChainJob(wj));
        // stops after iterations 5 (burn-in), 20 (burn-in's end) and 33 (sampling), with checkpoints every 7 between
        for (const after of [5, 15, 13]) {
          assert.throws(() => hyperChainJob(j, stopAfter(after)), /stopped before its end/);
          assert.ok(existsSync(checkpointOf(j)));
        }
        assert.equal(decodeExact<HyperChainCheckpoint>(readFileSync(checkpointOf(j), "utf8")).done, 33);
        const r = hyperChainJob(j);
        assert.equal(r.resumed, true);
        assert.deepEqual(figures(j, r), expected, j.identity);
        assert.ok(r.ops.cholesky > 0 || c.fixed.table !== 5, "the operation counts are compared");
        assert.equal(existsSync(checkpointOf(j)), false, "the checkpoint goes once the draws are written");
      });
    }
  } finally {
    s.cleanup();
  }
});

test("negative control: a checkpoint resumed on another generator state gives other draws", () => {
  const s = scratchDir();
  try {
    const c = spec(5, "logistic", ["sa"], "a");
    const [whole] = jobsOf({ ...c, out: "whole" }, s.dir);
    const expected = figures(whole!, hyperChainJob(whole!));
    const [j] = jobsOf(c, s.dir);
    assert.throws(() => hyperChainJob(j!, stopAfter(25)), /stopped before its end/);
    const cp = decodeExact<HyperChainCheckpoint>(readFileSync(checkpointOf(j!), "utf8"));
    writeFileSync(checkpointOf(j!), encodeExact({ ...cp, rng: new Rng(7n).snapshot() }) + "\n");
    const broken = figures(j!, hyperChainJob(j!));
    assert.notEqual(broken.draws, expected.draws);
    assert.notDeepEqual(broken, expected);
    // and a checkpoint of another chain's shape is refused as the job's fault, naming the file
    assert.throws(() => hyperChainJob(j!, stopAfter(3)), /stopped/);
    const other = decodeExact<HyperChainCheckpoint>(readFileSync(checkpointOf(j!), "utf8"));
    writeFileSync(checkpointOf(j!), encodeExact({ ...other, draws: 41 }) + "\n");
    assert.throws(() => hyperChainJob(j!), (e: Error) => e.name === "GridJobError" && /checkpoints.*: the checkpoint is of a chain with draws 41, this one has 40/.test(e.message));
  } finally {
    s.cleanup();
  }
});

test("gpmcmc grid run killed (SIGKILL) in the middle of a hyper-chain job, run again: the results of the grid never killed", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    const killed = spec(5, "logistic", ["asis", "khr"], "killed", 400, 10);
    const whole = spec(5, "logistic", ["asis", "khr"], "whole", 400, 0);
    await runGridLocally(join(s.dir, "whole"), jobsOf(whole, s.dir), { parallel: 1 });
    await runGridKilledOnce(s.dir, killed);
    const read = (out: string, sp: GridSpec) => {
      const jobs = jobsOf(sp, s.dir);
      return readJobResults<HyperChainJobResult>(join(s.dir, out), jobs).map((r, i) => ({ ...figures(jobs[i]!, r!), resumed: r!.resumed }));
    };
    const a = read("killed", killed);
    const b = read("whole", whole);
    assert.ok(a.some((r) => r.resumed), "some job resumed from its checkpoint");
    assert.deepEqual(a.map(({ resumed: _r, ...x }) => x), b.map(({ resumed: _r, ...x }) => x));
  } finally {
    s.cleanup();
  }
});
