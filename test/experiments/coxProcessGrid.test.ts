/**
 * Girolami & Calderhead's Table 13 runs (log-Gaussian Cox process) through the grid (job kind
 * "lgcp-run") give the figures, posterior means and variances of the same runs computed directly
 * in this thread (every field but the timings), with the seeds of the committed table13.json (the
 * hash of "lgcp table13 grid=n sampler=S run=R", now the job's identity). Negative controls: a
 * run's stored result replaced by another chain's is reported; a grid named otherwise is refused.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { lgcpGridSpec, runLgcp, type LgcpExperiment } from "../../experiments/coxProcess.js";
import { compareCells } from "../../experiments/experimentScript.js";
import { lgcpChainSeed, lgcpRun, lgcpRunJob, type LgcpCell } from "../../src/grid/coxProcessRunJob.js";
import { gridJobs } from "../../src/grid/spec.js";
import { getBackend } from "../../src/linalg/backend.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";

getBackend().setThreads(1);

const TIMINGS = ["setupSeconds", "burnInSeconds", "seconds", "secondsPerMinEss", "cpuSeconds", "cpuSecondsPerMinEss"];
const compare = (a: LgcpCell[], b: LgcpCell[]) => compareCells(a, b, (c) => `${c.sampler} run ${c.run}`, TIMINGS);

test("Cox process runs through the grid = the runs computed directly, with the committed seeds; another chain's stored result is caught", async () => {
  const e: LgcpExperiment = { side: 8, runs: 2, plan: [{ name: "mala-transient", burnIn: 5, draws: 10 }, { name: "mmala", burnIn: 5, draws: 10 }] };
  const direct = e.plan.flatMap((p) => [0, 1].map((run) => lgcpRun(e.side, p.name, run, p.burnIn, p.draws)));
  const committed = JSON.parse(readFileSync(join(REPO_ROOT, "experiments", "results", "lgcp", "table13.json"), "utf8"));
  for (const c of committed.cells) assert.equal(c.seed, lgcpChainSeed(committed.grid, c.sampler, c.run).toString());
  const s = scratchDir();
  try {
    const grid = await runLgcp(e, { parallel: 2, gridDir: s.dir });
    assert.deepEqual(compare(direct.map((d) => d.cell), grid.map((r) => r.figures)), []);
    assert.deepEqual(grid.map((r) => [r.mean, r.variance]), direct.map((d) => [d.mean, d.variance]));
    // Negative control: run 1 of mMALA given the stored result of the same run with one more burn-in iteration.
    const other: LgcpExperiment = { ...e, plan: [{ name: "mmala", burnIn: 6, draws: 10 }] };
    await runLgcp(other, { parallel: 1, gridDir: join(s.dir, "other") });
    const resultOf = (x: LgcpExperiment, root: string) => {
      const jobs = gridJobs({ spec: lgcpGridSpec(x, "g"), path: join(root, "spec.json"), outDir: join(root, "lgcp-grid8") });
      return join(root, "lgcp-grid8", "results", `${jobs.find((j) => j.cell.sampler === "mmala" && j.cell.run === 1)!.id}.json`);
    };
    copyFileSync(resultOf(other, join(s.dir, "other")), resultOf(e, s.dir));
    const diffs = compare(direct.map((d) => d.cell), (await runLgcp(e, { parallel: 2, gridDir: s.dir })).map((r) => r.figures));
    assert.ok(diffs.some((l) => /^mmala run 1: meanAbsErrorOfPosteriorMean /.test(l)), diffs.join("\n"));
    assert.ok(diffs.every((l) => l.startsWith("mmala run 1: ")), diffs.join("\n"));
  } finally {
    s.cleanup();
  }
});

test("lgcp-run jobs: a grid named otherwise, or a sampler without a plan, is the spec's fault", () => {
  const spec = lgcpGridSpec({ side: 8, runs: 1, plan: [{ name: "mmala", burnIn: 2, draws: 4 }] }, "x");
  const [misnamed] = gridJobs({ spec: { ...spec, grid: "lgcp" }, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => lgcpRunJob(misnamed!), (e: Error) => e.name === "GridJobError" && /the grid must be named "lgcp table13"/.test(e.message));
  const [unplanned] = gridJobs({ spec: { ...spec, axes: { ...spec.axes, sampler: ["rmhmc"] } }, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => lgcpRunJob(unplanned!), (e: Error) => e.name === "GridJobError" && /the fixed setting plan must give rmhmc/.test(e.message));
});

test("Euclidean-covariance runs through the grid = the runs computed directly, with the seeds of the committed Euclidean table13.json; separable data is not theirs", async () => {
  const e: LgcpExperiment = { side: 8, runs: 1, covariance: "euclidean", plan: [{ name: "rmhmc", burnIn: 3, draws: 6 }, { name: "mala-stationary", burnIn: 3, draws: 6 }] };
  const direct = e.plan.map((p) => lgcpRun(e.side, p.name, 0, p.burnIn, p.draws, undefined, "euclidean"));
  const committed = JSON.parse(readFileSync(join(REPO_ROOT, "experiments", "results", "lgcp-euclidean", "table13.json"), "utf8"));
  for (const c of committed.cells) assert.equal(c.seed, lgcpChainSeed(committed.grid, c.sampler, c.run, "euclidean").toString());
  const s = scratchDir();
  try {
    const grid = await runLgcp(e, { parallel: 2, gridDir: s.dir });
    assert.deepEqual(compare(direct.map((d) => d.cell), grid.map((r) => r.figures)), []);
    assert.deepEqual(grid.map((r) => [r.mean, r.variance]), direct.map((d) => [d.mean, d.variance]));
    // Negative control: the same runs on the separable model are other runs.
    const separable = e.plan.map((p) => lgcpRun(e.side, p.name, 0, p.burnIn, p.draws, undefined, "separable"));
    assert.notEqual(compare(separable.map((d) => d.cell), grid.map((r) => r.figures)).length, 0);
  } finally {
    s.cleanup();
  }
});
