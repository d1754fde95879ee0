/**
 * Girolami & Calderhead's Table 14 runs (Fitzhugh-Nagumo) through the grid (job kind
 * "fitzhugh-nagumo-run") give the figures of the same runs computed directly in this thread, every
 * field but the timings, with the seeds of the committed result files (the hash of
 * "fitzhugh-nagumo sampler=S run=R", now the job's identity). Negative controls: a run's stored
 * result replaced by another chain's is reported; a grid named otherwise is the spec's fault.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compareFitzhughNagumoCells, fitzhughNagumoGridSpec, fitzhughNagumoRun, runFitzhughNagumo, type FitzhughNagumoExperiment } from "../../experiments/fitzhughNagumo.js";
import { fitzhughNagumoRunJob } from "../../src/grid/fitzhughNagumoRunJob.js";
import { seedOfIdentity } from "../../src/grid/identity.js";
import { gridJobs } from "../../src/grid/spec.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";

const SCRIPT = join(REPO_ROOT, "dist", "experiments", "fitzhughNagumo.js");

test("Fitzhugh-Nagumo runs through the grid = the runs computed directly, with the committed files' seeds; another chain's stored result is caught", async () => {
  const e: FitzhughNagumoExperiment = { samplers: ["mala", "smmala"], runs: 2, burnIn: 5, draws: 10 };
  const direct = e.samplers.flatMap((s) => [0, 1].map((run) => fitzhughNagumoRun(s, run, e.burnIn, e.draws).cell));
  const committed = JSON.parse(readFileSync(join(REPO_ROOT, "experiments", "results", "fitzhugh-nagumo", "table14-hmc-rmhmc.json"), "utf8"));
  const hmc1 = committed.cells.find((c: { sampler: string; run: number }) => c.sampler === "hmc" && c.run === 1);
  assert.equal(hmc1.seed, seedOfIdentity("fitzhugh-nagumo sampler=hmc run=1").toString());
  const s = scratchDir();
  try {
    const grid = await runFitzhughNagumo(e, { parallel: 2, gridDir: s.dir });
    assert.deepEqual(compareFitzhughNagumoCells(direct, grid), []);
    assert.deepEqual(grid.map((c) => [c.sampler, c.run]), direct.map((c) => [c.sampler, c.run]));
    // Negative control: run 1 of MALA given the stored result of the same run with one more burn-in iteration.
    const other: FitzhughNagumoExperiment = { ...e, samplers: ["mala"], burnIn: 6 };
    await runFitzhughNagumo(other, { parallel: 1, gridDir: join(s.dir, "other") });
    const resultOf = (x: FitzhughNagumoExperiment, root: string) => {
      const jobs = gridJobs({ spec: fitzhughNagumoGridSpec(x, "fitzhugh-nagumo"), path: join(root, "spec.json"), outDir: join(root, "fitzhugh-nagumo") });
      return join(root, "fitzhugh-nagumo", "results", `${jobs.find((j) => j.cell.sampler === "mala" && j.cell.run === 1)!.id}.json`);
    };
    copyFileSync(resultOf(other, join(s.dir, "other")), resultOf(e, s.dir));
    const diffs = compareFitzhughNagumoCells(direct, await runFitzhughNagumo(e, { parallel: 2, gridDir: s.dir }));
    assert.ok(diffs.some((l) => /^mala run 1: means /.test(l)), diffs.join("\n"));
    assert.ok(diffs.every((l) => l.startsWith("mala run 1: ")), diffs.join("\n"));
  } finally {
    s.cleanup();
  }
});

test("--check of the committed simplified-mmala runs: recomputed as smmala with their recorded seeds; the former name refused in --samplers", () => {
  const committed = join(REPO_ROOT, "experiments", "results", "fitzhugh-nagumo", "table14-first-order.json");
  const r = spawnSync(process.execPath, [SCRIPT, "--check", committed, "--samplers", "smmala", "--runs", "1"], { encoding: "utf8", cwd: REPO_ROOT });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /1 cell\(s\) recomputed: (identical to|agree to tolerance) /);
  const old = spawnSync(process.execPath, [SCRIPT, "--check", committed, "--samplers", "simplified-mmala", "--runs", "1"], { encoding: "utf8", cwd: REPO_ROOT });
  assert.notEqual(old.status, 0);
  assert.match(old.stderr, /--samplers: "simplified-mmala" is now named "smmala"/);
});

test("fitzhugh-nagumo-run jobs: a grid named otherwise is the spec's fault", () => {
  const spec = fitzhughNagumoGridSpec({ samplers: ["mala"], runs: 1, burnIn: 2, draws: 4 }, "x");
  const [misnamed] = gridJobs({ spec: { ...spec, grid: "fhn" }, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => fitzhughNagumoRunJob(misnamed!), (e: Error) => e.name === "GridJobError" && /the grid must be named "fitzhugh-nagumo"/.test(e.message));
  const [unknown] = gridJobs({ spec: { ...spec, axes: { ...spec.axes, sampler: ["nope"] } }, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => fitzhughNagumoRunJob(unknown!), (e: Error) => e.name === "GridJobError" && /unknown sampler "nope"/.test(e.message));
});

test("--first-run: runs k.. are the jobs of the same identities as in a grid from run 0, so their results merge", () => {
  const all = gridJobs({ spec: fitzhughNagumoGridSpec({ samplers: ["rmhmc"], runs: 6, burnIn: 2, draws: 4 }, "x"), path: "/tmp/spec.json", outDir: "/tmp/x" });
  const later = gridJobs({ spec: fitzhughNagumoGridSpec({ samplers: ["rmhmc"], runs: 2, first: 4, burnIn: 2, draws: 4 }, "x"), path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.deepEqual(later.map((j) => j.cell.run), [4, 5]);
  assert.deepEqual(later.map((j) => j.id), all.slice(4).map((j) => j.id));
});
