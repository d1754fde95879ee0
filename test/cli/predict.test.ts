/**
 * `gpmcmc predict`: what the command writes is the library's prediction from the run's draws
 * (fixed theta, and theta columns log_lengthscale.k / log_signal_sd before f.1) or from the EP
 * approximation; a run records its training data's SHA-256; bad input is one line, exit code 2,
 * nothing written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileSha256 } from "../../src/approx/approximationFile.js";
import { expectationPropagation, probitSites } from "../../src/approx/index.js";
import type { CommandIO } from "../../src/cli/commandIO.js";
import { runEp } from "../../src/cli/ep.js";
import { runPredict } from "../../src/cli/predict.js";
import { runSampleCommand } from "../../src/cli/sample.js";
import { seKernel } from "../../src/gp/index.js";
import { columnValues, readCmdStanCsv, readDataset } from "../../src/io/index.js";
import { predictFromApproximation, predictFromDraws } from "../../src/predict/sources.js";
import { fixture, scratchDir } from "../fixtures.js";
import { cliOutcome as cli } from "./cliRun.js";

const SMALL = fixture("data", "approx_small.csv"); // n = 20, d = 2, labels -1/+1


const silent: CommandIO = { stdout: () => {}, stderr: () => {} };

function readCsvNumbers(path: string): { header: string[]; rows: number[][] } {
  const [h, ...lines] = readFileSync(path, "utf8").trim().split("\n");
  return { header: h!.split(","), rows: lines.map((l) => l.split(",").map(Number)) };
}

/** A training copy, a test file (5 cases of other inputs, labels), and a sample run on the copy. */
async function setup() {
  const s = scratchDir();
  const train = join(s.dir, "train.csv");
  copyFileSync(SMALL, train);
  const test = join(s.dir, "test.csv");
  writeFileSync(test, "y,x1,x2\n1,0.1,0.2\n-1,-1.2,0.4\n1,1.5,-0.3\n-1,-0.5,-1.1\n1,0.8,0.9\n");
  const run = join(s.dir, "run");
  await runSampleCommand({ data: train, lengthscale: "0.8", signalSd: "1.5", sampler: "ess", draws: "40", burnIn: "20", chains: "2", seed: "5", out: run, quiet: true }, { stdout: () => {}, stderr: () => {}, stderrIsTTY: false });
  return { s, train, test, run };
}

test("predict --run: the CSV and scores are predictFromDraws on the run's draws; summary.json and the draws header record the data's SHA-256", async () => {
  const { s, train, test, run } = await setup();
  try {
    const summary = JSON.parse(readFileSync(join(run, "summary.json"), "utf8"));
    assert.equal(summary.data.sha256, fileSha256(train));
    assert.deepEqual(summary.data.inputNames, ["x1", "x2"]);
    assert.equal(readCmdStanCsv(join(run, "draws_1.csv")).config.data_sha256, fileSha256(train));
    // The default jitter is relative, 1e-6 x the signal variance, recorded in both places.
    assert.equal(summary.jitterRelative, 1e-6);
    assert.equal(summary.jitter, 1e-6 * Math.exp(2 * Math.log(1.5)));
    assert.equal(Number(readCmdStanCsv(join(run, "draws_1.csv")).config.relative_jitter), 1e-6);
    const out = join(s.dir, "p.csv");
    const got = runPredict({ run, test, out }, silent);
    const csvs = [1, 2].map((c) => readCmdStanCsv(join(run, `draws_${c}.csv`)));
    const n = 20;
    const f = csvs.map((c) => {
      const a = new Float64Array(c.draws * n);
      for (let i = 0; i < n; i++) c.values[c.columns.indexOf(`f.${i + 1}`)]!.forEach((v, d) => (a[d * n + i] = v));
      return a;
    });
    const tr = readDataset(train, { labels: "binary" });
    const te = readDataset(test, { labels: "binary" });
    const want = predictFromDraws({ likelihood: "probit" }, tr.X, { draws: 40, f, fixedTheta: { logLengthscale: [Math.log(0.8)], logSignalSd: Math.log(1.5) } }, te.X, { yStar: te.y, jitter: { relative: 1e-6 } });
    const csv = readCsvNumbers(out);
    assert.deepEqual(csv.header, ["mean_f", "sd_f", "p"]);
    csv.rows.forEach((r, j) => {
      assert.equal(r[0], want.meanF[j]);
      assert.equal(r[2], want.pPositive![j]);
    });
    assert.deepEqual(got.scores, want.scores);
    assert.ok(got.scores!.meanLogPredictiveDensityMcse > 0);
    assert.equal(got.draws, 80);

    // The layout of sampled hyperparameters: theta columns before f.1 are used draw by draw.
    for (const c of [1, 2]) {
      const path = join(run, `draws_${c}.csv`);
      let row = 0;
      const lines = readFileSync(path, "utf8").split("\n").map((l) => {
        if (l.startsWith("#") || l === "") return l;
        const cells = l.split(",");
        const at = cells.findIndex((x) => x === "f.1");
        if (at >= 0) return [...cells.slice(0, at), "log_lengthscale.1", "log_signal_sd", ...cells.slice(at)].join(",");
        const k = row++;
        const fAt = cells.length - n;
        return [...cells.slice(0, fAt), String(-0.5 + 0.02 * k), String(0.3 - 0.01 * c), ...cells.slice(fAt)].join(",");
      });
      writeFileSync(path, lines.join("\n"));
    }
    const sampled = runPredict({ run, test }, silent);
    const theta = [1, 2].map((c) => Float64Array.from({ length: 80 }, (_, i) => (i % 2 === 0 ? -0.5 + 0.02 * (i / 2) : 0.3 - 0.01 * c)));
    const wantSampled = predictFromDraws({ likelihood: "probit" }, tr.X, { draws: 40, f, theta }, te.X, { yStar: te.y, jitter: { relative: 1e-6 } });
    assert.deepEqual(sampled.scores, wantSampled.scores);
    assert.notDeepEqual(sampled.scores, want.scores);
  } finally {
    s.cleanup();
  }
});

test("predict --approx: EP's file gives predictFromApproximation of EP's sites", () => {
  const s = scratchDir();
  try {
    const train = join(s.dir, "train.csv");
    copyFileSync(SMALL, train);
    const test = join(s.dir, "test.csv");
    writeFileSync(test, "x1,x2\n0.1,0.2\n-1.2,0.4\n");
    const ep = join(s.dir, "ep.json");
    runEp({ data: train, lengthscale: "0.8", signalSd: "1.5", out: ep }, silent);
    const out = join(s.dir, "p.csv");
    const got = runPredict({ approx: ep, test, out }, silent);
    assert.equal(got.scores, null);
    const tr = readDataset(train, { labels: "binary" });
    const r = expectationPropagation(seKernel({ lengthscale: 0.8, signalSd: 1.5 }).matrix(tr.X), probitSites(tr.y), { onWarning: () => {} });
    const te = readDataset(test, { responseOptional: true });
    const want = predictFromApproximation({ likelihood: "probit" }, tr.X, { logLengthscale: [Math.log(0.8)], logSignalSd: Math.log(1.5), mean: r.mean, sitePrecisions: r.siteTau }, te.X);
    const csv = readCsvNumbers(out);
    csv.rows.forEach((row, j) => {
      assert.ok(Math.abs(row[0]! - want.meanF[j]!) < 1e-12);
      assert.ok(Math.abs(row[1]! - want.sdF[j]!) < 1e-12);
      assert.ok(Math.abs(row[2]! - want.pPositive![j]!) < 1e-12);
    });
  } finally {
    s.cleanup();
  }
});

test("predict: bad input is one line naming what is wrong, exit code 2, nothing written", async () => {
  const { s, train, test, run } = await setup();
  try {
    const out = join(s.dir, "never.csv");
    const write = (name: string, text: string) => {
      const p = join(s.dir, name);
      writeFileSync(p, text);
      return p;
    };
    const swapped = write("swapped.csv", "y,x2,x1\n1,0.1,0.2\n");
    const extra = write("extra.csv", "y,x1,x2,x3\n1,0.1,0.2,0.3\n");
    const badLabel = write("label.csv", "y,x1,x2\n1,0.1,0.2\n3,0.1,0.2\n");
    const otherModel = join(s.dir, "other");
    const cases: [string[], RegExp][] = [
      [["--test", test], /--run: or --approx is required/],
      [["--run", run], /--test: is required/],
      [["--run", run, "--test", swapped], /swapped\.csv: input columns differ from the training data .*input column 1 is "x2", in the training data "x1"/],
      [["--run", run, "--test", extra], /extra\.csv: input columns differ .*3 input columns, the training data 2/],
      [["--run", run, "--test", badLabel], /label\.csv:3:1: label "3" in column "y"/],
      [["--run", s.dir, "--test", test], /no draws files/],
      [["--run", otherModel, "--test", test], /draws_1\.csv: is from another model \(model = gp_poisson/],
    ];
    // another model: the run's draws relabelled as a Poisson model's
    await runSampleCommand({ data: train, lengthscale: "0.8", signalSd: "1.5", sampler: "ess", draws: "5", burnIn: "0", chains: "1", seed: "5", out: otherModel, quiet: true }, { stdout: () => {}, stderr: () => {}, stderrIsTTY: false });
    const d1 = join(otherModel, "draws_1.csv");
    writeFileSync(d1, readFileSync(d1, "utf8").replace(/model = gp_probit/, "model = gp_poisson"));
    for (const [args, message] of cases) {
      const r = cli(["predict", ...args, "--out", out]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.ok(!existsSync(out));
    }
    // the training file changed after the run
    writeFileSync(train, readFileSync(train, "utf8").replace(/\n-1,/, "\n1,"));
    const r = cli(["predict", "--run", run, "--test", test, "--out", out]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /train\.csv: the training data file has changed since the run/);
    assert.ok(!existsSync(out));
  } finally {
    s.cleanup();
  }
});

test("predict reads a run with sampled hyperparameters: each draw's theta and the model's relative jitter, as predictFromDraws computes them", () => {
  const s = scratchDir();
  try {
    const train = join(s.dir, "train.csv");
    copyFileSync(SMALL, train);
    const run = join(s.dir, "run");
    const sampled = cli(["sample", "--data", train, "--draws", "30", "--burn-in", "30", "--chains", "2", "--seed", "5", "--out", run, "--quiet"]);
    assert.equal(sampled.code, 0, sampled.stderr);
    const summary = JSON.parse(readFileSync(join(run, "summary.json"), "utf8")) as { jitterRelative: number; data: { sha256: string } };
    assert.equal(summary.jitterRelative, 1e-6);
    assert.equal(summary.data.sha256, fileSha256(train));
    const out = join(s.dir, "pred.csv");
    const r = cli(["predict", "--run", run, "--test", train, "--out", out, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    // The same prediction from the library: each draw's theta read back, the model's relative jitter.
    const files = [1, 2].map((c) => readCmdStanCsv(join(run, `draws_${c}.csv`)));
    const data = readDataset(train);
    const thetaNames = ["log_lengthscale.1", "log_lengthscale.2", "log_signal_sd"];
    const interleave = (cols: Float64Array[], draws: number) => Float64Array.from({ length: draws * cols.length }, (_, k) => cols[k % cols.length]![Math.floor(k / cols.length)]!);
    const theta = files.map((f) => interleave(thetaNames.map((name) => columnValues(f, name)), f.draws));
    const f = files.map((file) => interleave(Array.from({ length: data.n }, (_, i) => columnValues(file, `f.${i + 1}`)), file.draws));
    const want = predictFromDraws({ likelihood: "probit" }, data.X, { draws: 30, f, theta }, data.X, { yStar: data.y, jitter: { relative: 1e-6 } });
    const got = JSON.parse(r.stdout) as { scores: unknown };
    assert.deepEqual(got.scores, JSON.parse(JSON.stringify(want.scores)));
    // Negative control: one theta for every draw gives other scores.
    const fixedFirst = predictFromDraws({ likelihood: "probit" }, data.X, { draws: 30, f, fixedTheta: { logLengthscale: [theta[0]![0]!, theta[0]![1]!], logSignalSd: theta[0]![2]! } }, data.X, { yStar: data.y, jitter: { relative: 1e-6 } });
    assert.notDeepEqual(JSON.parse(JSON.stringify(fixedFirst.scores)), got.scores);
  } finally {
    s.cleanup();
  }
});
