/**
 * `gpmcmc simulate`: the CSV it writes is read back by the data-set reader with each
 * likelihood's label kind and holds the library's X and y; the truth file holds theta and f;
 * the same seed gives the same X and f across likelihoods; bad options and unusable output paths
 * get one line, exit code 2 and nothing written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reportError } from "../../src/cli/errors.js";
import { runSimulateCommand, type RawSimulateOptions, type SimulationTruth } from "../../src/cli/simulate.js";
import { labelKindFor, readDataset } from "../../src/io/dataset.js";
import { simulateDataSet, SIMULATION_LIKELIHOODS } from "../../src/run/simulate.js";
import { scratchDir } from "../fixtures.js";

for (const likelihood of SIMULATION_LIKELIHOODS) {
  test(`simulate --likelihood ${likelihood}: the CSV reads back as the library's data set, the truth holds theta and f`, () => {
    const s = scratchDir();
    try {
      const out = join(s.dir, "data.csv");
      const truthFile = join(s.dir, "truth.json");
      runSimulateCommand({ likelihood, n: "40", d: "3", seed: "8", out, truth: truthFile }, { stdout: () => {} });
      assert.deepEqual(s.entries(), ["data.csv", "truth.json"]);
      const lib = simulateDataSet(likelihood, 40, 3, 8);
      const data = readDataset(out, { labels: labelKindFor(likelihood), binaryCoding: likelihood === "logistic" ? "zeroOne" : "plusMinusOne" });
      assert.deepEqual(data.inputNames, ["x1", "x2", "x3"]);
      assert.deepEqual(data.X.data, lib.X.data);
      assert.deepEqual(data.y, lib.y);
      const truth = JSON.parse(readFileSync(truthFile, "utf8")) as SimulationTruth;
      assert.deepEqual(truth.f, Array.from(lib.f));
      assert.deepEqual(truth.logLengthscale, lib.logLengthscale);
      assert.equal(truth.seed, 8);
      assert.equal(truth.likelihood, likelihood);
    } finally {
      s.cleanup();
    }
  });
}

test("simulate: one seed gives the same inputs and f for logistic and poisson data sets", () => {
  const s = scratchDir();
  try {
    const a = runSimulateCommand({ likelihood: "logistic", n: "30", d: "2", seed: "4", out: join(s.dir, "a.csv") }, { stdout: () => {} });
    const b = runSimulateCommand({ likelihood: "poisson", n: "30", d: "2", seed: "4", out: join(s.dir, "b.csv") }, { stdout: () => {} });
    assert.deepEqual(a.f, b.f);
    const xs = (f: string) => readFileSync(join(s.dir, f), "utf8").trimEnd().split("\n").map((l) => l.slice(l.indexOf(",") + 1));
    assert.deepEqual(xs("a.csv"), xs("b.csv"));
  } finally {
    s.cleanup();
  }
});

interface BadRow {
  name: string;
  options: (dir: string) => RawSimulateOptions;
  message: (dir: string) => string;
  setup?: (dir: string) => void;
  /** Files expected in the directory afterwards (those the setup made). */
  after?: string[];
}

const good = (dir: string): RawSimulateOptions => ({ likelihood: "logistic", n: "10", d: "2", seed: "1", out: join(dir, "d.csv"), truth: join(dir, "t.json") });

const BAD: BadRow[] = [
  { name: "no --likelihood", options: (d) => ({ ...good(d), likelihood: undefined }), message: () => "--likelihood: is required: one of logistic, poisson, volatility, ordinal, probit" },
  { name: "an unknown likelihood", options: (d) => ({ ...good(d), likelihood: "gamma" }), message: () => '--likelihood: unknown likelihood "gamma" (known: logistic, poisson, volatility, ordinal, probit)' },
  { name: "no --n", options: (d) => ({ ...good(d), n: undefined }), message: () => "--n: is required: the number of cases (the paper uses 100 and 400)" },
  { name: "--n 0", options: (d) => ({ ...good(d), n: "0" }), message: () => '--n: must be a whole number >= 1, got "0"' },
  { name: "--d 2.5", options: (d) => ({ ...good(d), d: "2.5" }), message: () => '--d: must be a whole number >= 1, got "2.5"' },
  { name: "a negative seed", options: (d) => ({ ...good(d), seed: "-1" }), message: () => '--seed: must be a whole number >= 0, got "-1"' },
  { name: "no --out", options: (d) => ({ ...good(d), out: undefined }), message: () => "--out: is required: the CSV file to write" },
  { name: "--truth is --out", options: (d) => ({ ...good(d), truth: join(d, "d.csv") }), message: (d) => `--truth: is the --out file ${JSON.stringify(join(d, "d.csv"))}; give another file name` },
  { name: "--out in a missing directory", options: (d) => ({ ...good(d), out: join(d, "no", "d.csv") }), message: (d) => `output ${JSON.stringify(join(d, "no", "d.csv"))}: its directory ${JSON.stringify(join(d, "no"))} does not exist` },
  {
    name: "--out is a directory",
    setup: (d) => mkdirSync(join(d, "d.csv")),
    options: good,
    message: (d) => `output ${JSON.stringify(join(d, "d.csv"))}: is a directory; --out takes a file name (e.g. data.csv)`,
    after: ["d.csv"],
  },
  {
    name: "--truth exists, without --force",
    setup: (d) => writeFileSync(join(d, "t.json"), "{}\n"),
    options: good,
    message: (d) => `output ${JSON.stringify(join(d, "t.json"))}: exists and is not a file this command may replace; give --force to replace it`,
    after: ["t.json"],
  },
];

for (const row of BAD) {
  test(`simulate, bad input: ${row.name} (one line, exit code 2, nothing written)`, () => {
    const s = scratchDir();
    try {
      row.setup?.(s.dir);
      let err = "";
      let code = 0;
      try {
        runSimulateCommand(row.options(s.dir), { stdout: () => {} });
      } catch (e) {
        code = reportError(e, { stderr: (t) => (err += t), env: {} });
      }
      assert.equal(code, 2);
      assert.equal(err, `gpmcmc: ${row.message(s.dir)}\n`);
      assert.deepEqual(s.entries(), row.after ?? []);
      if (row.name.startsWith("--truth exists")) assert.equal(readFileSync(join(s.dir, "t.json"), "utf8"), "{}\n");
    } finally {
      s.cleanup();
    }
  });
}

test("simulate --force replaces existing files", () => {
  const s = scratchDir();
  try {
    writeFileSync(join(s.dir, "t.json"), "{}\n");
    runSimulateCommand({ ...good(s.dir), force: true }, { stdout: () => {} });
    assert.ok(existsSync(join(s.dir, "d.csv")));
    assert.equal((JSON.parse(readFileSync(join(s.dir, "t.json"), "utf8")) as SimulationTruth).n, 10);
  } finally {
    s.cleanup();
  }
});
