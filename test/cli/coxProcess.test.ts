// `gpmcmc simulate --model lgcp` and `gpmcmc sample --model lgcp` end to end: the data file (row,
// column, y, field; the same for the same seed), the draws x.1..x.N that `diagnose` reads, the
// field read back in grid order, and the bad inputs, each one line with exit code 2 and nothing written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readCountGrid } from "../../src/io/countGrid.js";
import { paperHyperparameters } from "../../src/models/coxProcess/coxProcess.js";
import { simulateCoxProcess } from "../../src/models/coxProcess/simulate.js";
import { scratchDir } from "../fixtures.js";
import { cliInRepo as cli } from "./cliRun.js";



test("simulate --model lgcp writes the seeded counts and true field that sample --model lgcp reads", () => {
  const s = scratchDir();
  try {
    const a = join(s.dir, "a.csv");
    const b = join(s.dir, "b.csv");
    assert.equal(cli("simulate", "--model", "lgcp", "--grid", "6", "--seed", "4", "--out", a).status, 0);
    assert.equal(cli("simulate", "--model", "lgcp", "--grid", "6", "--seed", "4", "--out", b).status, 0);
    assert.equal(readFileSync(a, "utf8"), readFileSync(b, "utf8"));
    const grid = readCountGrid(a);
    const sim = simulateCoxProcess(6, paperHyperparameters(), 4);
    assert.equal(grid.side, 6);
    assert.deepEqual(Array.from(grid.counts), Array.from(sim.counts));
    assert.deepEqual(Array.from(grid.field!), Array.from(sim.field));
    const out = join(s.dir, "run");
    const r = cli("sample", "--model", "lgcp", "--data", a, "--draws", "50", "--burn-in", "50", "--chains", "2", "--seed", "1", "--out", out);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /6 x 6 grid/);
    const header = readFileSync(join(out, "draws_1.csv"), "utf8").split("\n").find((l) => !l.startsWith("#"))!;
    assert.ok(header.endsWith(",x.1,x.2,x.3,x.4,x.5,x.6,x.7,x.8,x.9,x.10,x.11,x.12,x.13,x.14,x.15,x.16,x.17,x.18,x.19,x.20,x.21,x.22,x.23,x.24,x.25,x.26,x.27,x.28,x.29,x.30,x.31,x.32,x.33,x.34,x.35,x.36"), header);
    const d = cli("diagnose", out);
    assert.equal(d.status, 0, d.stderr);
    assert.match(d.stdout, /Inference for lgcp: 2 chains of 50 draws/);
    assert.match(r.stdout, /euclidean covariance/);
    assert.equal(JSON.parse(readFileSync(join(out, "summary.json"), "utf8")).covariance, "euclidean");
    // the separable covariance, on request, for both commands; recorded in the header and the summary
    const c = join(s.dir, "c.csv");
    const sep = cli("simulate", "--model", "lgcp", "--grid", "6", "--seed", "4", "--covariance", "separable", "--out", c);
    assert.match(sep.stdout, /separable covariance/);
    assert.deepEqual(Array.from(readCountGrid(c).field!), Array.from(simulateCoxProcess(6, paperHyperparameters(), 4, undefined, "separable").field));
    const out2 = join(s.dir, "run2");
    const r2 = cli("sample", "--model", "lgcp", "--data", c, "--covariance", "separable", "--draws", "20", "--burn-in", "20", "--seed", "1", "--out", out2);
    assert.equal(r2.status, 0, r2.stderr);
    assert.match(r2.stdout, /6 x 6 grid, separable covariance/);
    assert.equal(JSON.parse(readFileSync(join(out2, "summary.json"), "utf8")).covariance, "separable");
    assert.match(readFileSync(join(out2, "draws_1.csv"), "utf8"), /covariance = separable/);
    assert.match(readFileSync(join(out, "draws_1.csv"), "utf8"), /covariance = euclidean/);
  } finally {
    s.cleanup();
  }
});

test("bad lgcp inputs: one line naming the file, line or option, exit 2, nothing written", () => {
  const s = scratchDir();
  try {
    const good = join(s.dir, "g.csv");
    assert.equal(cli("simulate", "--model", "lgcp", "--grid", "3", "--seed", "1", "--out", good).status, 0);
    const lines = readFileSync(good, "utf8").trim().split("\n");
    const dup = join(s.dir, "dup.csv");
    writeFileSync(dup, [...lines.slice(0, 9), lines[1]].join("\n") + "\n");
    const short = join(s.dir, "short.csv");
    writeFileSync(short, lines.slice(0, 9).join("\n") + "\n");
    const outside = join(s.dir, "outside.csv");
    writeFileSync(outside, lines.map((l, i) => (i === 3 ? l.replace(/^1,3,/, "1,4,") : l)).join("\n") + "\n");
    const negative = join(s.dir, "neg.csv");
    writeFileSync(negative, lines.map((l, i) => (i === 2 ? l.replace(/^(1,2,)\d+/, "$1-1") : l)).join("\n") + "\n");
    const out = join(s.dir, "never");
    const cases: [string[], RegExp][] = [
      [["--data", dup], /dup\.csv:10: cell \(row 1, column 1\) appears twice/],
      [["--data", short], /8 cells do not make a square grid/],
      [["--data", outside], /outside\.csv:4.*column must be a whole number from 1 to 3/],
      [["--data", negative], /neg\.csv:3/],
      [["--data", good, "--sampler", "ess"], /--sampler: ess does not apply to --model lgcp/],
      [["--data", good, "--sigma2", "-1"], /--sigma2/],
      [["--data", good, "--sampler", "mmala", "--leapfrog-steps", "5"], /--leapfrog-steps: applies only to --sampler rmhmc/],
      [["--data", good, "--prior-variance", "2"], /--prior-variance: applies only to --model latent-gp or logistic-regression\n$/],
      [["--data", good, "--covariance", "l1"], /--covariance: unknown covariance "l1"/],
    ];
    for (const [args, re] of cases) {
      const r = cli("sample", "--model", "lgcp", ...args, "--draws", "5", "--out", out);
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, re);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.ok(!existsSync(out), `${args.join(" ")} wrote ${out}`);
    }
    const sim: [string[], RegExp][] = [
      [["--model", "lgcp", "--grid", "0", "--out", join(s.dir, "x.csv")], /--grid/],
      [["--model", "lgcp", "--n", "4", "--out", join(s.dir, "x.csv")], /--n: does not apply to --model lgcp/],
      [["--model", "cox", "--out", join(s.dir, "x.csv")], /--model: unknown model "cox"/],
      [["--model", "lgcp", "--beta", "0", "--out", join(s.dir, "x.csv")], /--beta/],
      [["--model", "lgcp", "--grid", "6", "--beta", "2", "--out", join(s.dir, "x.csv")], /--beta: the circulant embedding of the 6 x 6 grid's covariance .*--covariance separable avoids it/],
      [["--model", "lgcp", "--covariance", "eucl", "--out", join(s.dir, "x.csv")], /--covariance: unknown covariance "eucl" \(known: separable, euclidean\)/],
      [["--model", "volatility", "--covariance", "separable", "--out", join(s.dir, "x.csv")], /--covariance: applies only to --model lgcp/],
    ];
    for (const [args, re] of sim) {
      const r = cli("simulate", ...args);
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, re);
      assert.ok(!existsSync(join(s.dir, "x.csv")));
    }
  } finally {
    s.cleanup();
  }
});
