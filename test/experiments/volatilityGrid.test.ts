/**
 * Girolami & Calderhead's stochastic-volatility runs through the grid (job kind "volatility-run")
 * give the figures of the same runs computed directly in this thread, every field but the timings,
 * with the seeds the script always used (FNV-1a of "volatility", configuration, run). Negative
 * controls: a run's stored result replaced by another chain's is reported; a grid named otherwise,
 * or a configuration that does not parse, is the spec's fault.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { cellSeed } from "../../experiments/cellSeed.js";
import { compareSvCells, parseConfig, runVolatility, svExperimentData, volatilityGridSpec, volatilityRun, type SvExperiment } from "../../experiments/volatility.js";
import { volatilityRunJob } from "../../src/grid/volatilityRunJob.js";
import { gridJobs } from "../../src/grid/spec.js";
import { getBackend } from "../../src/linalg/backend.js";
import { scratchDir } from "../fixtures.js";

getBackend().setThreads(1);

test("volatility runs through the grid = the runs computed directly; another run's stored result is caught", async () => {
  const e: SvExperiment = { configs: ["mala,mala", "hmc,mala@3,-"].map(parseConfig), runs: 2, first: 0, burnIn: 6, draws: 8 };
  const y = svExperimentData();
  const direct = e.configs.flatMap((c) => [0, 1].map((run) => volatilityRun(y, c, run, e.burnIn, e.draws).cell));
  assert.equal(direct[1]!.seed, cellSeed("volatility", "mala,mala", 1));
  const s = scratchDir();
  try {
    const grid = await runVolatility(e, { parallel: 2, gridDir: s.dir });
    assert.deepEqual(compareSvCells(direct, grid), []);
    assert.deepEqual(grid.map((c) => [c.config, c.run]), direct.map((c) => [c.config, c.run]));
    // Negative control: run 1 of mala,mala given the stored result of the same run with one more burn-in
    // iteration (another chain: what a job run with other settings would leave); the rerun runs nothing and reads it.
    const other: SvExperiment = { ...e, configs: [parseConfig("mala,mala")], runs: 1, first: 1, burnIn: 7 };
    await runVolatility(other, { parallel: 1, gridDir: join(s.dir, "other") });
    const resultOf = (x: SvExperiment, root: string) => {
      const jobs = gridJobs({ spec: volatilityGridSpec(x, "volatility"), path: join(root, "spec.json"), outDir: join(root, "volatility") });
      return join(root, "volatility", "results", `${jobs.find((j) => j.cell.config === "mala,mala" && j.cell.run === 1)!.id}.json`);
    };
    copyFileSync(resultOf(other, join(s.dir, "other")), resultOf(e, s.dir));
    const diffs = compareSvCells(direct, await runVolatility(e, { parallel: 2, gridDir: s.dir }));
    assert.ok(diffs.some((l) => /^mala,mala run 1: means /.test(l)), diffs.join("\n"));
    assert.ok(diffs.every((l) => l.startsWith("mala,mala run 1: ")), diffs.join("\n"));
  } finally {
    s.cleanup();
  }
});

test("volatility-run jobs: a grid named otherwise, or a configuration that does not parse, is the spec's fault", () => {
  const spec = volatilityGridSpec({ configs: [parseConfig("mala,mala")], runs: 1, first: 0, burnIn: 2, draws: 4 }, "x");
  const [misnamed] = gridJobs({ spec: { ...spec, grid: "volatility2" }, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => volatilityRunJob(misnamed!), (e: Error) => e.name === "GridJobError" && /the grid must be named "volatility"/.test(e.message));
  const [unparsed] = gridJobs({ spec: { ...spec, axes: { ...spec.axes, config: ["mala,nope"] } }, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => volatilityRunJob(unparsed!), (e: Error) => e.name === "GridJobError" && /configuration mala,nope: samplers P,V/.test(e.message));
});
