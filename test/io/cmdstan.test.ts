import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CmdStanWriter,
  DataError,
  SAMPLER_COLUMNS,
  columnValues,
  drawStatsFrom,
  findDrawsFiles,
  parseCmdStanCsv,
  prepareOutputDir,
  readCmdStanCsv,
  vectorNames,
  writeCmdStanCsv,
  type CmdStanRunInfo,
  type DrawStats,
} from "../../src/io/index.js";
import { fixture, scratchDir } from "../fixtures.js";

const INFO: CmdStanRunInfo = {
  model: "gp_probit",
  sampler: "rmhmc",
  draws: 4,
  burnIn: 10,
  thin: 1,
  chain: 2,
  chains: 3,
  adapt: true,
  stepSize: 0.1,
  seed: 42,
  dataFile: "data/usps.csv",
  settings: { leapfrog_steps: 10, fixed_point_tolerance: 1e-10, lengthscale: Math.exp(4.85), note: "a=b\nc" },
};

// Values that must survive the round trip bit for bit.
const HARD = [0.1 + 0.2, -0, 5e-324, 1.7976931348623157e308, -1e-300, 1 / 3, 123456789.12345679, NaN, Infinity, -Infinity, 2 ** 53 + 2, -7];

function stats(t: number): DrawStats {
  return { lp: -100.25 - t / 7, acceptStat: t === 0 ? 1 : 0.9 / (t + 1), stepSize: 0.1, nLeapfrog: 10, divergent: t === 2, energy: 101 + t / 3 };
}

function writeHard(path: string): { values: Float64Array; stats: DrawStats[] } {
  const m = 3;
  const draws = 4;
  const values = new Float64Array(draws * m);
  for (let k = 0; k < values.length; k++) values[k] = HARD[k % HARD.length];
  const st = Array.from({ length: draws }, (_, t) => stats(t));
  writeCmdStanCsv(path, INFO, {
    variables: vectorNames("f", m),
    stats: st,
    values,
    adaptation: { stepSize: 0.0987654321, inverseMetricDiagonal: [1, 0.5, 2] },
    timing: { warmupSeconds: 1.23456789, samplingSeconds: 2.5 },
  });
  return { values, stats: st };
}

test("write then read gives back every value bit for bit, and the sampler columns", () => {
  const s = scratchDir();
  try {
    const path = join(s.dir, "draws_2.csv");
    const { values, stats: st } = writeHard(path);
    const csv = readCmdStanCsv(path);
    assert.deepEqual(csv.columns, [...SAMPLER_COLUMNS, "f.1", "f.2", "f.3"]);
    assert.deepEqual(csv.samplerColumns, [...SAMPLER_COLUMNS]);
    assert.deepEqual(csv.variables, ["f.1", "f.2", "f.3"]);
    assert.equal(csv.draws, 4);
    for (let t = 0; t < 4; t++) {
      for (let j = 0; j < 3; j++) {
        const want = values[t * 3 + j];
        const got = columnValues(csv, `f.${j + 1}`)[t];
        assert.ok(Object.is(got, want), `draw ${t} f.${j + 1}: wrote ${want}, read ${got}`);
      }
      assert.equal(columnValues(csv, "lp__")[t], st[t].lp);
      assert.equal(columnValues(csv, "accept_stat__")[t], st[t].acceptStat);
      assert.equal(columnValues(csv, "energy__")[t], st[t].energy);
      assert.equal(columnValues(csv, "divergent__")[t], t === 2 ? 1 : 0);
      assert.equal(columnValues(csv, "n_leapfrog__")[t], 10);
    }
    assert.equal(csv.stepSize, 0.0987654321);
    assert.deepEqual(csv.inverseMetric, [1, 0.5, 2]);
    assert.deepEqual(csv.timing, { warmupSeconds: 1.23457, samplingSeconds: 2.5, totalSeconds: 3.73457 });
    assert.equal(csv.config["method"], "sample");
    assert.equal(csv.config["id"], "2");
    assert.equal(csv.config["num_samples"], "4");
    assert.equal(csv.config["seed"], "42");
    assert.equal(csv.config["file"], "data/usps.csv");
    assert.equal(csv.config["fixed_point_tolerance"], "1e-10");
    assert.equal(Number(csv.config["lengthscale"]), Math.exp(4.85));
    assert.equal(csv.config["note"], "a:b c", "a setting cannot break a line or add an =");
    assert.equal(csv.incomplete, false);
    assert.throws(() => columnValues(csv, "g.1"), DataError);
  } finally {
    s.cleanup();
  }
});

test("the writer is atomic: no file until finish, nothing after abort", () => {
  const s = scratchDir();
  try {
    const path = join(s.dir, "draws_1.csv");
    const w = new CmdStanWriter(path, INFO, vectorNames("f", 2));
    w.adaptation(0.2);
    w.draw(stats(0), [1, 2]);
    assert.equal(existsSync(path), false);
    assert.throws(() => w.draw(stats(1), [1]), /a draw has 1 values, expected 2/);
    w.abort();
    assert.deepEqual(s.entries(), []);
  } finally {
    s.cleanup();
  }
});

test("an incomplete run is marked so, with the draws it has", () => {
  const s = scratchDir();
  try {
    const out = prepareOutputDir(join(s.dir, "run"));
    const w = new CmdStanWriter(out.open("draws_1.csv"), INFO, vectorNames("f", 1));
    w.draw(stats(0), [0.5]);
    w.draw(stats(1), [0.25]);
    w.finish({ warmupSeconds: 0, samplingSeconds: 0.5 }, { incomplete: true });
    out.finish(false);
    const csv = readCmdStanCsv(join(s.dir, "run", "draws_1.csv"));
    assert.equal(csv.incomplete, true);
    assert.equal(csv.config["completed_draws"], "2");
    assert.equal(csv.draws, 2);
    assert.equal(csv.stepSize, undefined, "no adaptation block was written");
  } finally {
    s.cleanup();
  }
});

test("drawStatsFrom maps a sampler's StepInfo to the CmdStan columns", () => {
  const st = drawStatsFrom(
    { accepted: true, acceptanceProbability: 0.7, divergent: false, energy: 12, energyError: 0.1, stepSize: 0.05, leapfrogSteps: 20, gradientCalls: 20, metricCalls: 0, fixedPointIterations: 0 },
    -3.5,
  );
  assert.deepEqual(st, { lp: -3.5, acceptStat: 0.7, stepSize: 0.05, nLeapfrog: 20, divergent: false, energy: 12 });
});

test("variable names are CmdStan's: name.index, and bad names are refused", () => {
  assert.deepEqual(vectorNames("f", 3), ["f.1", "f.2", "f.3"]);
  assert.throws(() => vectorNames("f,g", 1));
  assert.throws(() => vectorNames("lp__", 1));
  const s = scratchDir();
  try {
    assert.throws(() => new CmdStanWriter(join(s.dir, "x.csv"), INFO, ["a", "a"]), /repeated/);
    assert.deepEqual(s.entries(), []);
  } finally {
    s.cleanup();
  }
});

// -------------------------------------------------------------------------------------------
// What ArviZ's from_cmdstan and cmdstanr's read_cmdstan_csv do with a file, restated as checks
// (arviz/data/io_cmdstan.py: _read_output_file, _process_configuration; cmdstanr R/csv.R:
// read_csv_metadata, read_cmdstan_csv).

/** Python's float() on a CSV cell as numpy reads it. */
function pyFloat(s: string): number {
  const t = s.trim();
  if (/^[+-]?(nan)$/i.test(t)) return NaN;
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
  throw new Error(`float() cannot read ${JSON.stringify(s)}`);
}

function checkArvizReads(text: string): { columns: string[]; rows: number[][]; conf: Record<string, string> } {
  const lines = text.split("\n");
  const comments: string[] = [];
  let columns: string[] | undefined;
  const rows: number[][] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (line.startsWith("#")) {
      comments.push(line);
      continue;
    }
    if (columns === undefined) {
      if (line === "") continue;
      columns = line.split(",");
      continue;
    }
    if (line) rows.push(line.split(",").map(pyFloat));
  }
  assert.ok(columns, "a header line");
  assert.ok(!columns.includes(""), "no empty column name (a trailing comma would make one)");
  for (const r of rows) assert.equal(r.length, columns.length, "numpy needs rectangular rows");
  const conf: Record<string, string> = {};
  for (let i = 0; i < comments.length; i++) {
    const c = comments[i].replace(/^\s*#\s*|\s*\(Default\)\s*$/g, "").trim();
    if (c.startsWith("Step size")) {
      const parts = c.split("=");
      assert.equal(parts.length, 2, `"${c}" splits into key and value`);
      pyFloat(parts[1]);
    } else if (c.includes("inverse mass matrix")) {
      const next = comments[++i].replace(/^\s*#\s*/, "").trim();
      next.split(",").forEach(pyFloat);
    } else if (c.includes("seconds") && /\((Warm-up|Sampling|Total)\)/.test(c)) {
      pyFloat(c.replace(/^Elapsed\s*Time:\s*|\s*seconds\s*\((Warm-up|Sampling|Total)\)\s*/g, ""));
    } else if (c.includes("=")) {
      const m = /^(\S+)\s*=\s*(\S+)$/.exec(c);
      if (m) conf[m[1]] = m[2];
    }
  }
  // the warm-up split: int(save_warmup) * int(num_warmup) // int(thin)
  for (const k of ["save_warmup", "num_warmup", "thin"]) {
    if (k in conf) assert.match(conf[k], /^[-+]?\d+$/, `${k} is an integer for int()`);
  }
  return { columns, rows, conf };
}

function checkCmdstanrReads(text: string): Record<string, string | number> {
  const meta = text.split("\n").filter((l) => /^[#a-zA-Z]/.test(l));
  const info: Record<string, string | number> = {};
  let header: string[] | undefined;
  const times: Record<string, number> = {};
  for (const line of meta) {
    if (!line.startsWith("#") && header === undefined) {
      header = line.split(",");
      continue;
    }
    let tmp = line.replaceAll("#", "").replaceAll("(Default)", "");
    const kv = tmp.includes("=") ? tmp.split("=").map((s) => s.trim()) : [];
    if (kv.length === 2) {
      const key = kv[0] === "Step size" ? "step_size_adaptation" : kv[0];
      const num = Number(kv[1]);
      info[key] = kv[1] !== "" && !Number.isNaN(num) ? num : kv[1];
    } else if (tmp.includes("(Warm-up)")) {
      tmp = tmp.replace("Elapsed Time:", "").replace("seconds (Warm-up)", "");
      times.warmup = Number(tmp.trim());
    } else if (tmp.includes("(Sampling)")) {
      times.sampling = Number(tmp.replace("seconds (Sampling)", "").trim());
    } else if (tmp.includes("(Total)")) {
      times.total = Number(tmp.replace("seconds (Total)", "").trim());
    }
  }
  assert.ok(header, "a header line");
  assert.equal(info["method"], "sample", "method = sample (cmdstanr stops without it)");
  for (const k of ["save_warmup", "thin", "num_warmup", "num_samples", "id"]) {
    assert.equal(typeof info[k], "number", `${k} is present and numeric`);
  }
  assert.ok(typeof info["model"] === "string" && info["model"] !== "", "model names the fit");
  for (const k of ["warmup", "sampling", "total"]) assert.ok(Number.isFinite(times[k]), `${k} time reads as a number`);
  // the draws as data.table::fread sees them after grep -v '^#'
  const data = text.split("\n").filter((l) => l !== "" && !l.startsWith("#"));
  for (const l of data) assert.equal(l.split(",").length, header.length);
  return info;
}

test("our files meet what ArviZ's from_cmdstan and cmdstanr's read_cmdstan_csv need", () => {
  const s = scratchDir();
  try {
    const path = join(s.dir, "draws_2.csv");
    writeHard(path);
    const text = readFileSync(path, "utf8");
    const az = checkArvizReads(text);
    assert.deepEqual(az.columns.filter((c) => c.endsWith("__")), [...SAMPLER_COLUMNS]);
    assert.equal(az.rows.length, 4);
    assert.equal(az.conf["save_warmup"], "0");
    const r = checkCmdstanrReads(text);
    assert.equal(r["id"], 2);
    assert.equal(r["step_size_adaptation"], 0.0987654321);
    assert.equal(r["num_samples"], 4);
    // and the layout lines themselves
    assert.match(text, /\n# Adaptation terminated\n# Step size = 0\.0987654321\n# Diagonal elements of inverse mass matrix:\n# 1, 0\.5, 2\n/);
    assert.match(text, /\n# \n#  Elapsed Time: 1\.23457 seconds \(Warm-up\)\n#                2\.5 seconds \(Sampling\)\n#                3\.73457 seconds \(Total\)\n# \n$/);
    assert.ok(text.split("\n").some((l) => l === "lp__,accept_stat__,stepsize__,n_leapfrog__,divergent__,energy__,f.1,f.2,f.3"));
  } finally {
    s.cleanup();
  }
});

test("the oracles above reject what the readers reject (negative controls)", () => {
  const s = scratchDir();
  try {
    const path = join(s.dir, "d.csv");
    writeHard(path);
    const text = readFileSync(path, "utf8");
    assert.throws(() => checkCmdstanrReads(text.replace("# method = sample\n", "")), /method = sample/);
    assert.throws(() => checkCmdstanrReads(text.replace(/# id = 2\n/, "")), /id is present/);
    assert.throws(() => checkArvizReads(text.replace("f.3\n", "f.3,\n")), /no empty column name/);
    assert.throws(() => checkArvizReads(text.replace("# Step size = 0.0987654321", "# Step size = ?")), /float\(\) cannot read/);
  } finally {
    s.cleanup();
  }
});

test("reads CmdStan's own output: comments in the middle, NUTS columns, (Default), nan/inf", () => {
  const csv = readCmdStanCsv(fixture("cmdstan", "bernoulli_nuts.csv"));
  assert.deepEqual(csv.samplerColumns, ["lp__", "accept_stat__", "stepsize__", "treedepth__", "n_leapfrog__", "divergent__", "energy__"]);
  assert.deepEqual(csv.variables, ["theta", "z.1", "z.2"]);
  assert.equal(csv.draws, 4);
  assert.deepEqual(Array.from(columnValues(csv, "theta")), [0.247746, 0.213172, 0.176389, 0.320186]);
  const z1 = columnValues(csv, "z.1");
  assert.ok(Number.isNaN(z1[1]));
  assert.equal(z1[2], -Infinity);
  assert.equal(columnValues(csv, "z.2")[1], Infinity);
  assert.equal(columnValues(csv, "z.2")[2], 1e-300);
  assert.equal(csv.config["method"], "sample");
  assert.equal(csv.config["num_warmup"], "1000");
  assert.equal(csv.config["seed"], "3252652196");
  assert.equal(csv.config["model"], "bernoulli_model");
  assert.equal(csv.config["file"], "bernoulli.data.json", "the first of repeated keys (the data file, not the output file)");
  assert.equal(csv.config["stancflags"], "");
  assert.equal(csv.stepSize, 0.932037);
  assert.deepEqual(csv.inverseMetric, [0.512241, 1.2, 0.75]);
  assert.deepEqual(csv.timing, { warmupSeconds: 0.004, samplingSeconds: 0.011, totalSeconds: 0.015 });
  assert.equal(csv.warmupValues[0].length, 0);
});

test("saved warm-up rows are split off, and a dense inverse metric is read", () => {
  const csv = readCmdStanCsv(fixture("cmdstan", "dense_saved_warmup.csv"));
  // num_warmup 3, thin 2: ceil(3 / 2) = 2 warm-up rows
  assert.equal(csv.draws, 2);
  assert.deepEqual(Array.from(columnValues(csv, "a")), [12, 13]);
  assert.deepEqual(Array.from(csv.warmupValues[csv.columns.indexOf("a")]), [10, 11]);
  assert.deepEqual(csv.inverseMetric, [2, 0.5, 0.5, 1]);
  assert.equal(csv.stepSize, 0.5);
});

function readError(text: string): string {
  try {
    parseCmdStanCsv(text, "d.csv");
  } catch (e) {
    assert.ok(e instanceof DataError, `a DataError, not ${String(e)}`);
    return e.message;
  }
  assert.fail("should not read");
}

test("malformed draws files give DataErrors with line and column", () => {
  assert.equal(readError(""), "d.csv: file is empty");
  assert.equal(readError("# only\n# comments\n"), "d.csv: no header line: the file has only comments");
  assert.equal(readError("# c\nlp__,a\n1,2\n3\n"), "d.csv:4: row has 1 cell, the header has 2");
  assert.equal(readError("lp__,a\n# mid\n1,2\n3,x\n"), 'd.csv:4:2: cell "x" in column "a" is not a number');
  assert.equal(readError("lp__,a\n1,\n"), 'd.csv:2:2: cell in column "a" is empty');
  assert.equal(readError("lp__,a,a\n1,2,3\n"), 'd.csv:1:3: column name "a" is repeated (first in column 2)');
  assert.equal(readError("y,x1\n1,2\n"), "d.csv:1: no lp__ column: not a CmdStan draws file");
  assert.equal(readError("lp__,a\n# Step size = fast\n1,2\n"), 'd.csv:2: step size "fast" is not a number');
  assert.equal(readError("lp__,a\n# Diagonal elements of inverse mass matrix:\n# 1, z\n1,2\n"), 'd.csv:3: inverse mass matrix row "1, z" is not a list of numbers');
});

test("findDrawsFiles lists draws_k.csv in chain order", () => {
  const s = scratchDir();
  try {
    for (const name of ["draws_10.csv", "draws_2.csv", "draws_1.csv", "summary.json", "draws_x.csv", "draws_0.csv"]) writeFileSync(join(s.dir, name), "");
    assert.deepEqual(findDrawsFiles(s.dir), [1, 2, 10].map((k) => join(s.dir, `draws_${k}.csv`)));
    assert.throws(() => findDrawsFiles(join(s.dir, "nope")), /nope: no such directory/);
    const empty = scratchDir();
    try {
      assert.throws(() => findDrawsFiles(empty.dir), /no draws files \(draws_1\.csv, draws_2\.csv, \.\.\.\) in this directory/);
    } finally {
      empty.cleanup();
    }
  } finally {
    s.cleanup();
  }
});
