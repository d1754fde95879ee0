/**
 * Grid specs and jobs: the jobs are the cells of the axes, named by identities whose seeds are
 * Table 2's chain seeds; ids cover the fixed settings; bad specs are one line naming the field;
 * a grid run again runs only what is missing; a job's result does not depend on the thread count.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chainSeed } from "../../experiments/table2.js";
import { DataError } from "../../src/io/errors.js";
import { seedOfIdentity } from "../../src/grid/identity.js";
import { runGridLocally } from "../../src/grid/localRunner.js";
import "../../src/grid/simulatedChainJob.js";
import { checkGridSpec, gridJobs, type GridSpec, type LoadedGrid } from "../../src/grid/spec.js";
import { readJobResults } from "../../src/grid/store.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";

const SPEC: GridSpec = {
  grid: "table2 seed=1", kind: "simulated-latent-chain", fixed: { draws: 30, burnIn: 10, dataSeed: 1 },
  axes: { likelihood: ["logistic", "poisson"], n: [12], d: [2], "data-set": [0], sampler: ["mh-v1", "ess"], chain: [0, 1] },
  out: "out",
};

test("jobs are the cells of the axes, last axis fastest; identities give Table 2's chain seeds; ids cover the fixed settings", () => {
  const g: LoadedGrid = { spec: SPEC, path: "/x/spec.json", outDir: "/x/out" };
  const jobs = gridJobs(g);
  assert.equal(jobs.length, 8);
  assert.equal(jobs[1].identity, "table2 seed=1 likelihood=logistic n=12 d=2 data-set=0 sampler=mh-v1 chain=1");
  assert.equal(new Set(jobs.map((j) => j.id)).size, 8);
  for (const j of jobs) {
    const c = j.cell;
    assert.equal(seedOfIdentity(j.identity), chainSeed(1, c.likelihood as "logistic", 12, 2, 0, c.sampler as "ess", c.chain as number));
  }
  const longer = gridJobs({ ...g, spec: { ...SPEC, fixed: { ...SPEC.fixed, draws: 31 } } });
  assert.equal(longer[1].identity, jobs[1].identity, "the identity (and so the seed) names the cell");
  assert.notEqual(longer[1].id, jobs[1].id, "another length is another job");
  assert.equal(jobs[0].drawsDir, "/x/out/draws");
});

test("a bad spec is one line naming the field", () => {
  const bad: [unknown, RegExp][] = [
    [[], /a grid spec is a JSON object/],
    [{ ...SPEC, extra: 1 }, /unknown field "extra"/],
    [{ ...SPEC, axes: {} }, /"axes" has no axis/],
    [{ ...SPEC, axes: { chain: [0, 0] } }, /axis "chain" repeats a value/],
    [{ ...SPEC, axes: { chain: [] } }, /axis "chain" must be a non-empty array/],
    [{ ...SPEC, axes: { draws: [1] } }, /"draws" is both an axis and a fixed setting/],
    [{ ...SPEC, checkpointEvery: -1 }, /"checkpointEvery" must be a non-negative integer/],
    [{ ...SPEC, kind: 3 }, /"kind" must name a job kind/],
  ];
  for (const [spec, message] of bad) {
    assert.throws(() => checkGridSpec(spec, "g.json"), (e: unknown) => e instanceof DataError && message.test(e.message) && !e.message.includes("\n"), JSON.stringify(spec));
  }
  const s = scratchDir();
  try {
    writeFileSync(join(s.dir, "g.json"), "{ not json");
    const main = join(REPO_ROOT, "dist", "src", "cli", "main.js");
    const r = spawnSync(process.execPath, [main, "grid", "run", join(s.dir, "g.json")], { encoding: "utf8" });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^gpmcmc: .*g\.json: is not JSON: .*\n$/);
    writeFileSync(join(s.dir, "ok.json"), JSON.stringify(SPEC));
    const q = spawnSync(process.execPath, [main, "grid", "run", join(s.dir, "ok.json"), "--queue", "http://x:1"], { encoding: "utf8" });
    assert.equal(q.status, 2);
    assert.equal(q.stderr, `gpmcmc: --queue: "http://x:1" is not a redis:// URL (expected redis://HOST:PORT)\n`);
  } finally {
    s.cleanup();
  }
});

test("a grid run again runs only what is missing; results do not depend on the number of threads", async () => {
  const s = scratchDir();
  try {
    const one: LoadedGrid = { spec: SPEC, path: join(s.dir, "a.json"), outDir: join(s.dir, "a") };
    const two: LoadedGrid = { spec: SPEC, path: join(s.dir, "b.json"), outDir: join(s.dir, "b") };
    const jobs = (g: LoadedGrid) => gridJobs(g);
    assert.deepEqual(await runGridLocally(one.outDir, jobs(one), { parallel: 1 }), { ran: 8, skipped: 0 });
    assert.deepEqual(await runGridLocally(one.outDir, jobs(one), { parallel: 1 }), { ran: 0, skipped: 8 });
    await runGridLocally(two.outDir, jobs(two), { parallel: 2 });
    const figures = (g: LoadedGrid) => readJobResults<{ minEss: number; acceptanceRate: number; tunedValue?: number; drawsFile: string }>(g.outDir, jobs(g))
      .map((r) => [r!.minEss, r!.acceptanceRate, r!.tunedValue, readFileSync(join(g.outDir, "draws", r!.drawsFile), "utf8")]);
    assert.deepEqual(figures(two), figures(one));
  } finally {
    s.cleanup();
  }
});
