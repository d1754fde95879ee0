// `gpmcmc simulate --model volatility` and `gpmcmc sample --model volatility` end to end: the
// returns file (t, y; the same seed gives the same file), the draws files with beta, sigma, phi,
// x.1..x.T read back by `diagnose`; and the bad inputs of this model, each one line with exit
// code 2 and nothing written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "../fixtures.js";
import { cliInRepo as cli } from "./cliRun.js";



test("simulate --model volatility writes t,y (seeded) and the truth; sample --model volatility writes beta, sigma, phi, x.1..x.T that diagnose reads", () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "sv.csv");
    const truth = join(s.dir, "truth.json");
    const r = cli("simulate", "--model", "volatility", "--t", "40", "--seed", "5", "--out", data, "--truth", truth);
    assert.equal(r.status, 0, r.stderr);
    const text = readFileSync(data, "utf8").trim().split("\n");
    assert.equal(text[0], "t,y");
    assert.equal(text.length, 41);
    const t = JSON.parse(readFileSync(truth, "utf8"));
    assert.deepEqual([t.T, t.beta, t.sigma, t.phi, t.seed, t.x.length], [40, 0.65, 0.15, 0.98, 5, 40]);
    const again = join(s.dir, "again.csv");
    assert.equal(cli("simulate", "--model", "volatility", "--t", "40", "--seed", "5", "--out", again).status, 0);
    assert.equal(readFileSync(again, "utf8"), readFileSync(data, "utf8"));

    const out = join(s.dir, "run");
    const run = cli("sample", "--model", "volatility", "--data", data, "--sampler", "mmala,rmhmc", "--leapfrog-steps", "5",
      "--draws", "60", "--burn-in", "40", "--chains", "2", "--seed", "3", "--out", out, "--json");
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.sampler, "mmala,rmhmc");
    // the interweaving block by default: a third block with its own step size and acceptance
    assert.equal(report.interweave, true);
    assert.deepEqual(report.blocks[0].map((b: { name: string }) => b.name), ["parameters", "volatilities", "interweave"]);
    const draws = readFileSync(join(out, "draws_2.csv"), "utf8");
    assert.match(draws, /interweave = on/);
    assert.match(draws, /interweave_stepsize = /);
    const off = cli("sample", "--model", "volatility", "--data", data, "--interweave", "off", "--draws", "20", "--burn-in", "20", "--chains", "1", "--seed", "3", "--json");
    assert.equal(off.status, 0, off.stderr);
    assert.deepEqual(JSON.parse(off.stdout).blocks[0].map((b: { name: string }) => b.name), ["parameters", "volatilities"]);
    const header = draws.split("\n").find((l) => !l.startsWith("#"))!;
    assert.ok(header.endsWith(",beta,sigma,phi," + Array.from({ length: 40 }, (_, i) => `x.${i + 1}`).join(",")), header);
    assert.match(draws, /model = stochastic_volatility/);
    assert.match(draws, /volatilities_stepsize = /);
    const d = cli("diagnose", out);
    assert.equal(d.status, 0, d.stderr);
    assert.match(d.stdout, /sigma/);
  } finally {
    s.cleanup();
  }
});

test("bad input for the volatility model: one line, exit 2, nothing written", () => {
  const s = scratchDir();
  try {
    const good = join(s.dir, "good.csv");
    assert.equal(cli("simulate", "--model", "volatility", "--t", "20", "--seed", "1", "--out", good).status, 0);
    const extra = join(s.dir, "extra.csv");
    writeFileSync(extra, "t,y,z\n" + Array.from({ length: 10 }, (_, i) => `${i + 1},0.5,1`).join("\n") + "\n");
    const short = join(s.dir, "short.csv");
    writeFileSync(short, "y\n0.1\n-0.3\n0.2\n");
    const order = join(s.dir, "order.csv");
    writeFileSync(order, "t,y\n" + [1, 2, 3, 3, 5, 6, 7, 8].map((t) => `${t},0.1`).join("\n") + "\n");
    const out = join(s.dir, "run");
    const base = ["sample", "--model", "volatility", "--draws", "10", "--burn-in", "10", "--chains", "1", "--seed", "1", "--out", out];
    const cases: [string[], RegExp][] = [
      [["--data", extra], /extra\.csv:1: .*unexpected column "z"/],
      [["--data", short], /short\.csv: 3 returns; the volatility model needs at least 7/],
      [["--data", order], /order\.csv:5: .*t must increase/],
      [["--data", good, "--sampler", "ess"], /^gpmcmc: --sampler: "ess" does not apply to --model volatility/],
      [["--data", good, "--sampler", "rmhmc,mala,hmc"], /^gpmcmc: --sampler: takes one value \(both blocks\) or two/],
      [["--data", good, "--step-size", "0.1,-1"], /^gpmcmc: --step-size: /],
      [["--data", good, "--leapfrog-steps", "5", "--sampler", "mala"], /^gpmcmc: --leapfrog-steps: applies only to rmhmc and hmc/],
      [["--data", good, "--polynomial-degree", "2"], /^gpmcmc: --polynomial-degree: applies only to --model logistic-regression$/],
      [["--data", good, "--interweave", "maybe"], /^gpmcmc: --interweave: must be on or off, got "maybe"/],
    ];
    for (const [args, message] of cases) {
      const r = cli(...base, ...args);
      assert.equal(r.status, 2, `${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
      const lines = r.stderr.trim().split("\n");
      assert.equal(lines.length, 1, `${args.join(" ")}: ${r.stderr}`);
      assert.match(lines[0], message);
      assert.equal(existsSync(out), false, `${args.join(" ")}: wrote ${out}`);
    }
    const file = join(s.dir, "new.csv");
    const simCases: [string[], RegExp][] = [
      [["--phi", "1"], /^gpmcmc: --phi: must lie strictly between -1 and 1/],
      [["--t", "3"], /^gpmcmc: --t: must be from 7 to/],
      [["--sigma", "0"], /^gpmcmc: --sigma: /],
      [["--likelihood", "probit"], /^gpmcmc: --likelihood: does not apply to --model volatility/],
    ];
    for (const [args, message] of simCases) {
      const r = cli("simulate", "--model", "volatility", "--seed", "1", "--out", file, ...args);
      assert.equal(r.status, 2, `${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.match(r.stderr.trim(), message);
      assert.equal(existsSync(file), false);
    }
    const r = cli("simulate", "--model", "lgcp-typo", "--out", file);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^gpmcmc: --model: unknown model "lgcp-typo"/);
    const b = cli("simulate", "--likelihood", "probit", "--n", "5", "--d", "1", "--beta", "1", "--out", file);
    assert.equal(b.status, 2);
    assert.match(b.stderr, /^gpmcmc: --beta: applies only to --model lgcp or volatility\n$/);
  } finally {
    s.cleanup();
  }
});
