// `gpmcmc simulate --model fitzhugh-nagumo` and `gpmcmc sample --model fitzhugh-nagumo` end to
// end: the data file (t, V, R; the same for the same seed; an option per constant), the draws
// (a, b, c) read back by `diagnose`; and bad inputs, each one line with exit code 2 and nothing
// written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "../fixtures.js";
import { cliInRepo as cli } from "./cliRun.js";



function expectBad(args: string[], message: RegExp, written: string[]): void {
  const r = cli(...args);
  assert.equal(r.status, 2, `${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 1, `${args.join(" ")}: ${r.stderr}`);
  assert.match(lines[0], message);
  for (const w of written) assert.equal(existsSync(w), false, `${args.join(" ")}: wrote ${w}`);
}

test("simulate --model fitzhugh-nagumo: t, V, R at the paper's 200 times; the same file for the same seed; constants as options", () => {
  const s = scratchDir();
  try {
    const a = join(s.dir, "a.csv");
    const b = join(s.dir, "b.csv");
    assert.equal(cli("simulate", "--model", "fitzhugh-nagumo", "--seed", "4", "--out", a).status, 0);
    assert.equal(cli("simulate", "--model", "fitzhugh-nagumo", "--seed", "4", "--out", b).status, 0);
    const text = readFileSync(a, "utf8");
    assert.equal(text, readFileSync(b, "utf8"));
    const lines = text.trim().split("\n");
    assert.equal(lines[0], "t,V,R");
    assert.equal(lines.length, 201);
    assert.match(lines[200], /^20,/);
    const c = join(s.dir, "c.csv");
    const r = cli("simulate", "--model", "fitzhugh-nagumo", "--seed", "4", "--n", "11", "--t-end", "5", "--c", "2", "--noise-sd", "0.1", "--json", "--out", c);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.c, 2);
    assert.equal(report.noiseSd, 0.1);
    const rows = readFileSync(c, "utf8").trim().split("\n");
    assert.equal(rows.length, 12);
    assert.match(rows[11], /^5,/);
  } finally {
    s.cleanup();
  }
});

test("sample --model fitzhugh-nagumo writes a, b, c draws that diagnose reads", () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "fn.csv");
    assert.equal(cli("simulate", "--model", "fitzhugh-nagumo", "--seed", "2", "--n", "40", "--t-end", "10", "--out", data).status, 0);
    const out = join(s.dir, "run");
    const r = cli("sample", "--model", "fitzhugh-nagumo", "--data", data, "--draws", "60", "--burn-in", "40", "--chains", "2", "--seed", "3", "--out", out, "--json");
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.sampler, "smmala");
    assert.equal(report.mode.length, 3);
    assert.ok(report.means[2] > 1 && report.means[2] < 6, `mean of c ${report.means[2]}`);
    const text = readFileSync(join(out, "draws_1.csv"), "utf8");
    const header = text.split("\n").find((l) => !l.startsWith("#"))!;
    assert.ok(header.endsWith(",a,b,c"), header);
    assert.match(text, /model = fitzhugh_nagumo/);
    const d = cli("diagnose", out);
    assert.equal(d.status, 0, d.stderr);
    assert.match(d.stdout, /\nc /);
  } finally {
    s.cleanup();
  }
});

test("bad input for the fitzhugh-nagumo model: one line, exit 2, nothing written", () => {
  const s = scratchDir();
  try {
    const good = join(s.dir, "good.csv");
    assert.equal(cli("simulate", "--model", "fitzhugh-nagumo", "--seed", "1", "--n", "20", "--t-end", "5", "--out", good).status, 0);
    const files: Record<string, string> = {
      cell: "t,V,R\n0,-1,1\n0.5,abc,0.9\n",
      order: "t,V,R\n0,-1,1\n1,0.5,0.9\n0.5,0.4,0.8\n",
      column: "t,V,W\n0,-1,1\n",
      negative: "t,V,R\n-1,-1,1\n",
    };
    for (const [k, v] of Object.entries(files)) writeFileSync(join(s.dir, `${k}.csv`), v);
    const out = join(s.dir, "run");
    const base = ["sample", "--model", "fitzhugh-nagumo", "--draws", "10", "--burn-in", "10", "--chains", "1", "--seed", "1", "--out", out];
    const cases: [string[], RegExp][] = [
      [["--data", join(s.dir, "cell.csv")], /cell\.csv:3:2: V must be a finite number, got "abc"$/],
      [["--data", join(s.dir, "order.csv")], /order\.csv:4:1: time 0\.5 is before the previous row's 1/],
      [["--data", join(s.dir, "column.csv")], /column\.csv:1:3: unexpected column "W"/],
      [["--data", join(s.dir, "negative.csv")], /negative\.csv:2:1: time -1 is before 0/],
      [["--data", good, "--sampler", "iwls"], /^gpmcmc: --sampler: iwls does not apply to --model fitzhugh-nagumo/],
      [["--data", good, "--noise-sd", "-1"], /^gpmcmc: --noise-sd: must be a positive number/],
      [["--data", good, "--prior-sd", "0"], /^gpmcmc: --prior-sd: must be a positive number/],
      [["--data", good, "--start", "0.2,0.2"], /^gpmcmc: --start: needs 3 comma-separated numbers, got 2$/],
      [["--data", good, "--start", "0.2,0.2,-3"], /^gpmcmc: --start: c must be positive/],
      [["--data", good, "--initial-state", "x,1"], /^gpmcmc: --initial-state: /],
      [["--data", good, "--lengthscale", "1"], /^gpmcmc: --lengthscale: applies only to --model latent-gp \(the GP models\)$/],
      [["--data", good, "--polynomial-degree", "2"], /^gpmcmc: --polynomial-degree: applies only to --model logistic-regression$/],
      [["--data", good, "--sampler", "mala", "--leapfrog-steps", "3"], /^gpmcmc: --leapfrog-steps: applies only to --sampler rmhmc, hmc, hmc-diagonal, rmhmc-t, not mala$/],
    ];
    for (const [args, message] of cases) expectBad([...base, ...args], message, [out]);
    const gp = join(s.dir, "gp.csv");
    expectBad(["sample", "--data", good, "--prior-sd", "2", "--lengthscale", "1", "--signal-sd", "1"], /^gpmcmc: --prior-sd: applies only to --model fitzhugh-nagumo$/, []);
    expectBad(["simulate", "--likelihood", "probit", "--n", "5", "--d", "1", "--a", "1", "--out", gp], /^gpmcmc: --a: applies only to --model fitzhugh-nagumo$/, [gp]);
    expectBad(["simulate", "--model", "fitzhugh-nagumo", "--c", "0", "--out", gp], /^gpmcmc: --c: must be a positive number/, [gp]);
    expectBad(["simulate", "--model", "fitzhugh-nagumo", "--likelihood", "probit", "--out", gp], /^gpmcmc: --likelihood: does not apply to --model fitzhugh-nagumo \(only to the GP data sets made without --model\)$/, [gp]);
    expectBad(["simulate", "--model", "lotka-volterra", "--out", gp], /^gpmcmc: --model: unknown model "lotka-volterra"/, [gp]);
  } finally {
    s.cleanup();
  }
});
