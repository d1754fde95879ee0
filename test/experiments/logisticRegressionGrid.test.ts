/**
 * Girolami & Calderhead's logistic-regression runs through the grid (job kind "parametric-chain",
 * two worker threads) give the figures of the same runs computed one after another in this thread,
 * every field but the timings. A committed result file is recomputed through the grid by --check:
 * identical where the BLAS kernels are the file's, within the stated tolerance elsewhere.
 * Negative controls: a run's stored result replaced by another chain's, and a committed file with one
 * figure moved by 1e-4 of itself, are both reported as differences; a job whose grid is named otherwise than its
 * settings (its seed would not follow) is refused as the spec's fault.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHECK_TOLERANCE_TEXT, readResultFile } from "../../experiments/experimentScript.js";
import { compareLogisticCells, logisticGridSpec, parseLogisticArgs, runLogisticRegression, runLogisticRegressionDirect, type LogisticConfig } from "../../experiments/logisticRegression.js";
import { parametricChainJob } from "../../src/grid/parametricChainJob.js";
import { gridJobs } from "../../src/grid/spec.js";
import { HMC_TRAJECTORY_STEP_CAP } from "../../src/samplers/parametricRegistry.js";
import { getBackend } from "../../src/linalg/backend.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";

// One BLAS thread, as the script and the grid's worker threads run.
getBackend().setThreads(1);

const SCRIPT = join(REPO_ROOT, "dist", "experiments", "logisticRegression.js");
const COMMITTED = join(REPO_ROOT, "experiments", "results", "logistic-regression", "table2", "thin1.json");

test("logistic regression through the grid (2 worker threads) = the runs computed directly; swapped results are caught", async () => {
  const cfg = parseLogisticArgs(["--data", "heart_statlog,synth_tr", "--samplers", "mala,iwls,holmes-held", "--runs", "2", "--first-run", "1", "--burn-in", "40", "--draws", "60"]);
  const direct = runLogisticRegressionDirect(cfg);
  assert.equal(direct.length, 12);
  const s = scratchDir();
  try {
    const grid = await runLogisticRegression(cfg, { parallel: 2, gridDir: s.dir });
    assert.deepEqual(compareLogisticCells(direct, grid), []);
    assert.deepEqual(grid.map((c) => [c.data, c.sampler, c.run]), direct.map((c) => [c.data, c.sampler, c.run]));
    // Negative control: the stored result of run 1 of IWLS on heart_statlog replaced by that of the same run
    // with one more burn-in iteration (another chain: what a job run with other settings would leave); the rerun runs nothing and reads it.
    const other = parseLogisticArgs(["--data", "heart_statlog", "--samplers", "iwls", "--runs", "1", "--first-run", "1", "--burn-in", "41", "--draws", "60"]);
    await runLogisticRegression(other, { parallel: 1, gridDir: join(s.dir, "other") });
    const resultOf = (c: LogisticConfig, root: string) => {
      const jobs = gridJobs({ spec: logisticGridSpec(c, "heart_statlog", "heart_statlog"), path: join(root, "spec.json"), outDir: join(root, "heart_statlog") });
      return join(root, "heart_statlog", "results", `${jobs.find((j) => j.cell.sampler === "iwls" && j.cell.run === 1)!.id}.json`);
    };
    copyFileSync(resultOf(other, join(s.dir, "other")), resultOf(cfg, s.dir));
    const diffs = compareLogisticCells(direct, await runLogisticRegression(cfg, { parallel: 2, gridDir: s.dir }));
    assert.ok(diffs.some((l) => /^heart_statlog iwls run 1: means /.test(l)), diffs.join("\n"));
    assert.ok(diffs.every((l) => l.startsWith("heart_statlog iwls run 1: ")), diffs.join("\n"));
  } finally {
    s.cleanup();
  }
});

test("parametric-chain jobs: a grid named otherwise than its settings, or an unknown sampler, is the spec's fault", () => {
  const cfg = parseLogisticArgs(["--data", "synth_tr", "--samplers", "mala", "--thin", "2", "--burn-in", "10", "--draws", "10"]);
  const spec = logisticGridSpec(cfg, "synth_tr", "x");
  assert.equal(spec.grid, "logisticRegression thin=2");
  const [misnamed] = gridJobs({ spec: { ...spec, grid: "logisticRegression" }, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => parametricChainJob(misnamed!), (e: Error) => e.name === "GridJobError" && /the grid must be named "logisticRegression thin=2"/.test(e.message));
  const [unknown] = gridJobs({ spec: { ...spec, axes: { ...spec.axes, sampler: ["nope"] } }, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => parametricChainJob(unknown!), (e: Error) => e.name === "GridJobError" && /unknown sampler "nope"/.test(e.message));
  assert.throws(() => parseLogisticArgs(["--samplers", "nope"]), /--samplers: unknown sampler "nope"/);
  assert.throws(() => parseLogisticArgs(["--bogus"]), /unknown option --bogus/);
});

test("--trajectory-length: in the grid's name and the seed, RMHMC's and HMC's recorded count of steps round(l / eps), and exclusive of --leapfrog-steps", () => {
  const cfg = parseLogisticArgs(["--data", "synth_tr", "--samplers", "rmhmc", "--trajectory-length", "3", "--burn-in", "30", "--draws", "10"]);
  const spec = logisticGridSpec(cfg, "synth_tr", "x");
  assert.equal(spec.grid, "logisticRegression epsL=3");
  const [job] = gridJobs({ spec, path: "/tmp/spec.json", outDir: "/tmp/x" });
  const cell = runLogisticRegressionDirect(cfg)[0]!;
  assert.equal(cell.leapfrogSteps, Math.min(50, Math.max(1, Math.round(3 / cell.stepSize!))));
  // without the length: another seed, and the count is not recorded (6, the registry's)
  const plain = runLogisticRegressionDirect(parseLogisticArgs(["--data", "synth_tr", "--samplers", "rmhmc", "--burn-in", "30", "--draws", "10"]))[0]!;
  assert.notEqual(plain.seed, cell.seed);
  assert.equal(plain.leapfrogSteps, null);
  assert.throws(() => parametricChainJob({ ...job!, fixed: { ...job!.fixed, trajectoryLength: -1 } }), (e: Error) => e.name === "GridJobError" && /trajectoryLength must be a positive number/.test(e.message));
  // HMC follows it too, with its own cap
  const hmcCell = runLogisticRegressionDirect(parseLogisticArgs(["--data", "synth_tr", "--samplers", "hmc", "--trajectory-length", "3", "--burn-in", "30", "--draws", "10"]))[0]!;
  assert.equal(hmcCell.leapfrogSteps, Math.min(HMC_TRAJECTORY_STEP_CAP, Math.max(1, Math.round(3 / hmcCell.stepSize!))));
  assert.throws(() => parseLogisticArgs(["--trajectory-length", "3", "--leapfrog-steps", "4"]), /exclude each other/);
  assert.throws(() => parseLogisticArgs(["--trajectory-length", "0"]), /must be positive/);
});

test("--smmala-target-acceptance: in the grid's name and the seed, simplified mMALA's step adapted to it, and checked", () => {
  const cfg = parseLogisticArgs(["--data", "synth_tr", "--samplers", "smmala", "--smmala-target-acceptance", "0.5", "--burn-in", "300", "--draws", "300"]);
  assert.equal(logisticGridSpec(cfg, "synth_tr", "x").grid, "logisticRegression acc=0.5");
  const low = runLogisticRegressionDirect(cfg)[0]!;
  const plain = runLogisticRegressionDirect(parseLogisticArgs(["--data", "synth_tr", "--samplers", "smmala", "--burn-in", "300", "--draws", "300"]))[0]!;
  assert.notEqual(low.seed, plain.seed);
  // adapted to 0.5 the step is longer and the acceptance lower than at the default 0.7
  assert.ok(low.stepSize! > plain.stepSize! && low.acceptanceRate < plain.acceptanceRate - 0.1, `${low.stepSize} ${low.acceptanceRate} against ${plain.stepSize} ${plain.acceptanceRate}`);
  for (const bad of ["0", "1", "1.5"]) assert.throws(() => parseLogisticArgs(["--smmala-target-acceptance", bad]), /strictly between 0 and 1/);
});

test("--check recomputes a committed result file through the grid: identical, or within the tolerance where the BLAS kernels differ; a figure moved by more is reported, exit 1", () => {
  const ok = spawnSync(process.execPath, [SCRIPT, "--check", COMMITTED], { encoding: "utf8", cwd: REPO_ROOT });
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  // bit for bit where the arithmetic is the file's; else within CHECK_TOLERANCE, with a note naming the kernels
  assert.match(ok.stdout, new RegExp(`5 cell\\(s\\) recomputed: (identical to|agree to tolerance ${CHECK_TOLERANCE_TEXT} \\(.*\\) with) `));
  const s = scratchDir();
  try {
    const check = (edit: (file: { cells: { means: number[] }[] }) => void) => {
      const committed = JSON.parse(readFileSync(COMMITTED, "utf8"));
      edit(committed);
      const changed = join(s.dir, "changed.json");
      writeFileSync(changed, JSON.stringify(committed));
      return spawnSync(process.execPath, [SCRIPT, "--check", changed], { encoding: "utf8", cwd: REPO_ROOT });
    };
    // A change in the last bits (1e-12 of the figure) is not identical but agrees to the tolerance, and is said so.
    const lastBits = check((f) => (f.cells[1]!.means[2]! *= 1 + 1e-12));
    assert.equal(lastBits.status, 0, lastBits.stdout + lastBits.stderr);
    assert.match(lastBits.stdout, /^note: \d+ figure\(s\) differ in their last bits \(.*OpenBLAS core/m);
    assert.match(lastBits.stdout, /5 cell\(s\) recomputed: agree to tolerance /);
    // Negative control: a figure moved by 1e-4 of itself (far less than another chain moves it) is a difference.
    const bad = check((f) => (f.cells[1]!.means[2]! *= 1 + 1e-4));
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /^DIFFERS heart_statlog mh-componentwise run 0: means /m);
    assert.match(bad.stdout, /5 cell\(s\) recomputed: different from /);
  } finally {
    s.cleanup();
  }
});

test("--check of a committed file made under a sampler's former name: its --samplers and cells read as smmala, the cell recomputed with its recorded seed; refused in --samplers", () => {
  // the simplified-mmala cell of a file whose command names the former name in --samplers
  const committed = JSON.parse(readFileSync(join(REPO_ROOT, "experiments", "results", "logistic-regression", "tables4-8-australian-part1.json"), "utf8"));
  assert.match(committed.command, /--samplers mmala,simplified-mmala,/);
  committed.cells = committed.cells.filter((c: { sampler: string }) => c.sampler === "simplified-mmala");
  assert.equal(committed.cells.length, 1);
  const s = scratchDir();
  try {
    const file = join(s.dir, "smmala.json");
    writeFileSync(file, JSON.stringify(committed));
    const read = readResultFile<{ command: string; cells: { sampler: string }[] }>(file);
    assert.match(read.command, /--samplers mmala,smmala,mala,/);
    assert.deepEqual(read.cells.map((c) => c.sampler), ["smmala"]);
    const r = spawnSync(process.execPath, [SCRIPT, "--check", file], { encoding: "utf8", cwd: REPO_ROOT });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /1 cell\(s\) recomputed: (identical to|agree to tolerance) /);
  } finally {
    s.cleanup();
  }
  assert.throws(() => parseLogisticArgs(["--samplers", "mala,simplified-mmala"]), /^Error: --samplers: "simplified-mmala" is now named "smmala"$/);
});

test("--integrator lagrangian: in the grid's name and the seed, RMHMC's explicit integrator (no fixed points), and checked", () => {
  const cfg = parseLogisticArgs(["--data", "synth_tr", "--samplers", "rmhmc", "--integrator", "lagrangian", "--trajectory-length", "2", "--burn-in", "30", "--draws", "20"]);
  const spec = logisticGridSpec(cfg, "synth_tr", "x");
  assert.equal(spec.grid, "logisticRegression epsL=2 integrator=lagrangian");
  const cell = runLogisticRegressionDirect(cfg)[0]!;
  const plain = runLogisticRegressionDirect(parseLogisticArgs(["--data", "synth_tr", "--samplers", "rmhmc", "--trajectory-length", "2", "--burn-in", "30", "--draws", "20"]))[0]!;
  assert.notEqual(cell.seed, plain.seed);
  assert.ok(cell.acceptanceRate > 0.3, `acceptance ${cell.acceptanceRate}`);
  const [job] = gridJobs({ spec, path: "/tmp/spec.json", outDir: "/tmp/x" });
  assert.throws(() => parametricChainJob({ ...job!, fixed: { ...job!.fixed, integrator: "implicit" } }), (e: Error) => e.name === "GridJobError" && /integrator must be "lagrangian"/.test(e.message));
  assert.throws(() => parseLogisticArgs(["--integrator", "leapfrog"]), /--integrator must be lagrangian/);
  // only RMHMC has it
  assert.throws(() => runLogisticRegressionDirect(parseLogisticArgs(["--data", "synth_tr", "--samplers", "mala", "--integrator", "lagrangian", "--burn-in", "2", "--draws", "2"])), /applies to rmhmc only/);
});
