/**
 * `gpmcmc sample` end to end on a small synthetic data set (n = 30, two inputs): the files it
 * writes, their CmdStan layout read back by src/io's reader, the summary's figures against the
 * draws in those files, the JSON keys, reproducibility from a seed, and the command's own bad
 * options (one line, exit code 2, nothing written). The in-process runs call runSampleCommand,
 * which is what the command's action calls; a few runs go through the real executable for the
 * exit codes and stdout.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reportError } from "../../src/cli/errors.js";
import { runSampleCommand, type RawSampleCommandOptions, type SampleReport } from "../../src/cli/sample.js";
import { essGeyer } from "../../src/diagnostics/ess.js";
import { rhatClassic } from "../../src/diagnostics/rhat.js";
import { columnValues, readCmdStanCsv, SAMPLER_COLUMNS } from "../../src/io/cmdstan.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";

const N = 30;

/** A probit data set: 30 points in [0, 3]^2, labels sign(sin 2a + cos b + noise) coded 0/1. */
function writeData(path: string): void {
  let seed = 1;
  const u = () => ((seed = (seed * 16807) % 2147483647), seed / 2147483647);
  const rows = ["y,x1,x2"];
  for (let i = 0; i < N; i++) {
    const a = 3 * u();
    const b = 3 * u();
    rows.push(`${Math.sin(2 * a) + Math.cos(b) + 0.3 * (u() - 0.5) > 0 ? 1 : 0},${a.toFixed(4)},${b.toFixed(4)}`);
  }
  writeFileSync(path, rows.join("\n") + "\n");
}

async function quietRun(raw: RawSampleCommandOptions): Promise<{ report: SampleReport; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const report = await runSampleCommand(raw, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), stderrIsTTY: false });
  return { report, stdout, stderr };
}

const base = (data: string): RawSampleCommandOptions => ({
  data, sampler: "laplace-hmc", lengthscale: "1", signalSd: "2", stepSize: "0.3", leapfrogSteps: "8", draws: "60", burnIn: "40", chains: "2", seed: "17",
});

const REQUIRED_KEYS = ["minEss", "medianEss", "maxEss", "rhatMax", "acceptanceRate", "seconds", "essPerSecond", "divergences"];

for (const sampler of ["rmhmc", "hmc"]) {
  test(`sample (${sampler}): draws files in CmdStan's layout and a summary whose ESS and R-hat are those of the files' draws`, async () => {
    const s = scratchDir();
    try {
      const data = join(s.dir, "data.csv");
      writeData(data);
      const out = join(s.dir, "run");
      const { report, stdout } = await quietRun({ ...base(data), sampler, out });
      assert.deepEqual(s.entries(), ["data.csv", "run"]);
      assert.equal((JSON.parse(readFileSync(join(out, ".gpmcmc"), "utf8")) as { complete: boolean }).complete, true);
      assert.ok(existsSync(join(out, "draws_1.csv")) && existsSync(join(out, "draws_2.csv")) && existsSync(join(out, "summary.json")));
      assert.deepEqual(report.files, ["draws_1.csv", "draws_2.csv", "summary.json"]);

      const csv = [1, 2].map((c) => readCmdStanCsv(join(out, `draws_${c}.csv`)));
      for (const f of csv) {
        assert.deepEqual(f.columns.slice(0, 6), [...SAMPLER_COLUMNS]);
        assert.deepEqual(f.variables, Array.from({ length: N }, (_, j) => `f.${j + 1}`));
        assert.equal(f.draws, 60);
        assert.equal(f.config.algorithm, sampler);
        assert.equal(f.config.seed, "17");
        assert.ok(f.stepSize !== undefined && f.stepSize > 0, "adapted step size recorded");
        assert.ok(columnValues(f, "n_leapfrog__").every((v) => v === 8));
      }
      // the summary's figures are those of the draws written
      const ess = Array.from({ length: N }, (_, j) => essGeyer(csv.map((f) => columnValues(f, `f.${j + 1}`))));
      const rhat = Array.from({ length: N }, (_, j) => rhatClassic(csv.map((f) => columnValues(f, `f.${j + 1}`))));
      assert.equal(report.minEss, Math.min(...ess));
      assert.equal(report.maxEss, Math.max(...ess));
      assert.equal(report.rhatMax, Math.max(...rhat));
      const divergent = csv.reduce((t, f) => t + columnValues(f, "divergent__").reduce((a, b) => a + b, 0), 0);
      assert.equal(report.divergences, divergent);
      assert.ok(report.acceptanceRate > 0.3 && report.acceptanceRate <= 1, `acceptance ${report.acceptanceRate}`);
      assert.equal(report.essPerSecond, report.minEss! / report.samplingSeconds);

      const written = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as Record<string, unknown>;
      for (const k of REQUIRED_KEYS) assert.equal(typeof written[k], "number", `summary.json ${k}`);
      assert.deepEqual(written.run, JSON.parse(JSON.stringify(report.run)));
      assert.match(stdout, /^(rmhmc|hmc) \(.*\n.*seed 17\n.*\nESS \(Geyer, over f\.1\.\.f\.30\): min /);
    } finally {
      s.cleanup();
    }
  });
}

test("sample: the same seed gives the same draws; another seed, other draws", async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data);
    const run = async (seed: string, dir: string) => {
      await quietRun({ ...base(data), seed, chains: "1", draws: "20", burnIn: "10", out: join(s.dir, dir) });
      return readFileSync(join(s.dir, dir, "draws_1.csv"), "utf8").split("\n").filter((l) => !l.startsWith("#")).join("\n");
    };
    const a = await run("5", "a");
    assert.equal(await run("5", "b"), a);
    assert.notEqual(await run("6", "c"), a);
  } finally {
    s.cleanup();
  }
});

test("sample's jitter: 1e-6 x the signal variance unless given, the same model as that amount given absolutely; 0 is none; recorded in the report, the header and the text", async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data);
    const run = async (dir: string, jitter?: string) => {
      const r = await quietRun({ ...base(data), chains: "1", draws: "20", burnIn: "10", out: join(s.dir, dir), ...(jitter !== undefined ? { jitter } : {}) });
      const csv = readFileSync(join(s.dir, dir, "draws_1.csv"), "utf8");
      return { ...r, header: readCmdStanCsv(join(s.dir, dir, "draws_1.csv")).config, rows: csv.split("\n").filter((l) => !l.startsWith("#")).join("\n") };
    };
    const amount = 1e-6 * Math.exp(2 * Math.log(2)); // signal sd 2
    const byDefault = await run("default");
    assert.equal(byDefault.report.jitter, amount);
    assert.equal(byDefault.report.jitterRelative, 1e-6);
    assert.equal(Number(byDefault.header.jitter), amount);
    assert.equal(Number(byDefault.header.relative_jitter), 1e-6);
    assert.match(byDefault.stdout, /, jitter 0\.000004 \(0\.000001 x signal variance\)\n/);
    assert.equal(byDefault.stderr, "", "the model's own jitter is not a warning");
    const relative = await run("relative", "relative:1e-6");
    assert.equal(relative.rows, byDefault.rows);
    const absolute = await run("absolute", String(amount));
    assert.equal(absolute.rows, byDefault.rows, "the same K + j I, so the same draws from the same seed");
    assert.equal(absolute.report.jitterRelative, undefined);
    assert.match(absolute.stdout, new RegExp(`, jitter ${amount}\\n`));
    const none = await run("none", "0");
    assert.equal(none.report.jitter, 0);
    assert.match(none.stdout, /, no jitter\n/);
    assert.notEqual(none.rows, byDefault.rows);
  } finally {
    s.cleanup();
  }
});

test("sample --parallel 1 and --parallel 2 write bitwise the same draws; summary.json records the workers and completeness", async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data);
    const draws = async (parallel: string) => {
      const dir = join(s.dir, `p${parallel}`);
      const { report } = await quietRun({ ...base(data), chains: "3", draws: "15", burnIn: "10", parallel, out: dir });
      assert.equal(report.parallel, Number(parallel));
      const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as SampleReport;
      assert.equal(summary.complete, true);
      assert.equal(summary.parallel, Number(parallel));
      assert.equal(summary.run.seed, 17);
      assert.ok(!Number.isNaN(Date.parse(summary.startedAt)));
      assert.ok(summary.perChain.every((c) => c.complete && c.draws === 15));
      // everything but the timing block at the end
      return [1, 2, 3].map((c) => readFileSync(join(dir, `draws_${c}.csv`), "utf8").split("\n").filter((l) => !/Elapsed|seconds/.test(l)).join("\n"));
    };
    const one = await draws("1");
    const two = await draws("2");
    assert.deepEqual(two, one);
    assert.notEqual(one[0], one[1]);
  } finally {
    s.cleanup();
  }
});

// The options only `sample` has, each refused with one line before anything is read or written.
const BAD: { name: string; options: RawSampleCommandOptions; message: RegExp }[] = [
  { name: "target acceptance of 1", options: { targetAcceptance: "1" }, message: /^--target-acceptance: must be between 0 and 1 \(exclusive\), got "1"$/ },
  { name: "target acceptance without adaptation", options: { targetAcceptance: "0.8", adapt: false }, message: /^--target-acceptance: applies only with step-size adaptation; it cannot be combined with --no-adapt$/ },
  { name: "a mass matrix for rmhmc", options: { sampler: "rmhmc", mass: "identity" }, message: /^--mass: applies only to --sampler hmc, not rmhmc$/ },
  { name: "an unknown mass matrix", options: { sampler: "hmc", mass: "diag" }, message: /^--mass: unknown mass matrix "diag" \(known: prior, identity\)/ },
  { name: "an integrator for hmc", options: { sampler: "hmc", integrator: "reference" }, message: /^--integrator: applies only to --sampler rmhmc and laplace-nuts, not hmc$/ },
  { name: "rmhmc's integrator for laplace-nuts", options: { sampler: "laplace-nuts", integrator: "reference" }, message: /^--integrator: .*split.*leapfrog/ },
  { name: "laplace-nuts' integrator for rmhmc", options: { sampler: "rmhmc", integrator: "split" }, message: /^--integrator: .*fast.*reference/ },
  { name: "an unknown starting point", options: { init: "mode" }, message: /^--init: unknown starting point "mode" \(known: zero, laplace\)/ },
  { name: "a negative jitter", options: { jitter: "-1" }, message: /^--jitter: must be relative:R, a number >= 0 or auto, got "-1"$/ },
  { name: "a jitter that is not a number", options: { jitter: "relative:abc" }, message: /^--jitter: must be a finite number, got "abc"$/ },
  { name: "no worker threads", options: { parallel: "0" }, message: /^--parallel: must be a whole number >= 1, got "0"$/ },
  { name: "a worker count that is not a number", options: { parallel: "abc" }, message: /^--parallel: must be a whole number >= 1, got "abc"$/ },
  { name: "--quiet with --progress", options: { quiet: true, progress: true }, message: /^--quiet: cannot be combined with --progress: give one or the other$/ },
  { name: "a fixed-point tolerance for the lagrangian integrator", options: { sampler: "rmhmc", integrator: "lagrangian", fixedPointTolerance: "1e-6" }, message: /^--fixed-point-tolerance: does not apply to --integrator lagrangian, which solves no implicit equations$/ },
  { name: "a reversibility check for the lagrangian integrator", options: { sampler: "rmhmc", integrator: "lagrangian", reversibilityTolerance: "off" }, message: /^--reversibility-tolerance: does not apply to --integrator lagrangian/ },
  { name: "fixed-point iterations for hmc", options: { sampler: "hmc", fixedPointIterations: "5" }, message: /^--fixed-point-iterations: applies only to --sampler rmhmc/ },
  {
    name: "a kernel matrix that is not positive definite",
    options: { lengthscale: "1000", jitter: "0" },
    message: /^kernel matrix K \(n = 30; no jitter; try a larger --jitter, e.g. relative:1e-4, or a shorter --lengthscale\) is not positive definite: pivot \d+ \(0-based\) is /,
  },
];

for (const row of BAD) {
  test(`sample refuses ${row.name}: one line, exit code 2, nothing written`, async () => {
    const s = scratchDir();
    try {
      const data = join(s.dir, "data.csv");
      writeData(data);
      const out = join(s.dir, "run");
      let said = "";
      let code = 0;
      try {
        await quietRun({ ...base(data), out, ...row.options });
      } catch (e) {
        code = reportError(e, { stderr: (t) => (said += t), env: {} });
      }
      assert.equal(code, 2);
      assert.ok(said.startsWith("gpmcmc: ") && said.endsWith("\n") && said.split("\n").length === 2, JSON.stringify(said));
      assert.match(said.slice("gpmcmc: ".length, -1), row.message);
      assert.deepEqual(s.entries(), ["data.csv"]);
    } finally {
      s.cleanup();
    }
  });
}

function gpmcmc(args: string[]) {
  return spawnSync(process.execPath, [join(REPO_ROOT, "dist", "src", "cli", "main.js"), ...args], {
    encoding: "utf8",
    env: { ...process.env, GPMCMC_DEBUG: "", GPMCMC_BACKEND: "js" },
  });
}

test("the gpmcmc executable: sample --json prints one JSON object and exits 0; a bad option exits 2 with one line", () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data);
    const ok = gpmcmc(["sample", "--data", data, "--lengthscale", "1", "--signal-sd", "2", "--sampler", "hmc", "--draws", "30", "--burn-in", "20", "--chains", "2", "--seed", "3", "--out", join(s.dir, "run"), "--json"]);
    assert.equal(ok.status, 0, ok.stderr);
    const lines = ok.stdout.trim().split("\n");
    assert.equal(lines.length, 1);
    const report = JSON.parse(lines[0]) as Record<string, unknown>;
    for (const k of REQUIRED_KEYS) assert.equal(typeof report[k], "number", k);
    assert.deepEqual(report.files, ["draws_1.csv", "draws_2.csv", "summary.json"]);

    const bad = gpmcmc(["sample", "--data", data, "--lengthscale", "1", "--signal-sd", "2", "--draws", "0", "--out", join(s.dir, "bad")]);
    assert.equal(bad.status, 2);
    assert.equal(bad.stdout, "");
    assert.equal(bad.stderr.replace(/^gpmcmc: using the pure TypeScript.*\n/m, ""), 'gpmcmc: --draws: must be a whole number >= 1, got "0"\n');
    assert.ok(!existsSync(join(s.dir, "bad")));

    const missing = gpmcmc(["sample", "--lengthscale", "1", "--signal-sd", "2"]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^gpmcmc: --data: is required: the CSV data set \(header line; response column y\)\n$/m);
  } finally {
    s.cleanup();
  }
});
