/**
 * The bad-input table's rows of `sample`'s inputs (badInputs/sampleRows.ts): each must print the
 * one line of its row (exit code 2) and write nothing. The inputs go through the same steps as
 * `gpmcmc sample` before it samples: prepareSampleInputs, then reportError.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { prepareSampleInputs } from "../../src/cli/sampleOptions.js";
import { reportError } from "../../src/cli/errors.js";
import { scratchDir, snapshotDir as snapshot } from "../fixtures.js";
import { data, goodSampleOptions as good } from "./badInputs/rowKit.js";
import { rowNames, SAMPLE_ROWS } from "./badInputs/table.js";

const withLikelihoods = { likelihoods: ["probit", "poisson"] };

test("the bad-input table: at least 150 rows, each named once", () => {
  const names = rowNames();
  assert.ok(names.length >= 150, `${names.length} rows`);
  assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), [], "repeated names");
});

for (const row of SAMPLE_ROWS) {
  test(`bad input: ${row.name}`, () => {
    const s = scratchDir();
    const saved = Object.fromEntries(Object.keys(row.env ?? {}).map((k) => [k, process.env[k]]));
    Object.assign(process.env, row.env);
    try {
      row.setup?.(s.dir);
      const before = snapshot(s.dir);
      const raw = { ...good(s.dir), ...row.options(s.dir) };
      let caught: unknown;
      try {
        prepareSampleInputs(raw, withLikelihoods);
      } catch (e) {
        caught = e;
      }
      assert.ok(caught !== undefined, "the input must be refused");
      let stderr = "";
      const code = reportError(caught, { stderr: (t) => (stderr += t), env: {} });
      assert.equal(code, 2, `exit code 2 for: ${String(caught)}`);
      assert.equal(stderr, `gpmcmc: ${row.message(s.dir)}\n`);
      assert.equal(stderr.split("\n").length, 2, "exactly one line");
      assert.deepEqual(snapshot(s.dir), before, "nothing was written");
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      s.cleanup();
    }
  });
}

test("the good inputs the table varies are accepted, writing nothing", () => {
  const s = scratchDir();
  try {
    const inputs = prepareSampleInputs(good(s.dir), withLikelihoods);
    assert.equal(inputs.data.n, 5);
    assert.equal(inputs.kernel.logLengthscale[0], 0);
    assert.equal(inputs.outDir?.action, "create");
    assert.deepEqual(s.entries(), [], "checking the output directory does not create it");
    const ard = prepareSampleInputs({ ...good(s.dir), lengthscale: "1,2" }, withLikelihoods);
    assert.deepEqual(Array.from(ard.kernel.logLengthscale), [0, Math.log(2)]);
    const counts = prepareSampleInputs({ ...good(s.dir), data: data("counts.csv"), likelihood: "poisson" }, withLikelihoods);
    assert.deepEqual(Array.from(counts.data.y), [3, 0, 12]);
    const zeroOne = prepareSampleInputs({ ...good(s.dir), data: data("labels_01.csv") }, withLikelihoods);
    assert.deepEqual(Array.from(zeroOne.data.y), [1, -1, 1, -1, -1], "probit gets -1/+1 from a 0/1 file");
  } finally {
    s.cleanup();
  }
});

test("--force accepts a directory that is not ours, still writing nothing while checking", () => {
  const s = scratchDir();
  try {
    mkdirSync(join(s.dir, "run"));
    writeFileSync(join(s.dir, "run", "thesis.tex"), "precious\n");
    const before = snapshot(s.dir);
    const inputs = prepareSampleInputs({ ...good(s.dir), force: true }, withLikelihoods);
    assert.equal(inputs.outDir?.action, "force");
    assert.deepEqual(snapshot(s.dir), before);
  } finally {
    s.cleanup();
  }
});
