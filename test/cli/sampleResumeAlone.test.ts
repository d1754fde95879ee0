/**
 * `gpmcmc sample --resume DIR` with no other option, on the real executable in child processes:
 * the run's options come from its record (run.json), so a run stopped midway (SIGTERM once a
 * checkpoint is on disk) and resumed so ends with the draws of the run never interrupted, bit for
 * bit: a GP at fixed hyperparameters, the pm scheme (resumed from another working directory, the
 * relative --data found through the recorded one) and --model logistic-regression. A finished run
 * of every other model resumed so is recognised as the same run. A record whose option was altered
 * is refused naming the option; so is an option given beside --resume that differs from the run,
 * while one that agrees is taken; a data file gone or changed is one line naming it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simulateVolatility } from "../../src/models/volatility/svSimulate.js";
import { scratchDir } from "../fixtures.js";
import { gpmcmc, LOGISTIC_RUN, rows, stopOnceCheckpointed, writeData } from "./resumeFixtures.js";

const FIXED = ["sample", "--data", "data.csv", "--lengthscale", "1", "--signal-sd", "1", "--sampler", "hmc", "--draws", "3000", "--burn-in", "300", "--chains", "2", "--parallel", "1", "--seed", "11", "--quiet"];
const PM = ["sample", "--data", "data.csv", "--draws", "1500", "--burn-in", "300", "--chains", "2", "--parallel", "1", "--seed", "11", "--quiet"];

/**
 * A reference run of `args` in `dir` (its working directory), the same run stopped midway and
 * resumed by `sample --resume DIR` alone from `resumeCwd`: the same draws, row for row.
 */
async function stoppedRunResumedAlone(args: string[], dir: string, every: string, resumeCwd = dir): Promise<string> {
  const ref = join(dir, "ref");
  const r = gpmcmc([...args, "--out", ref], dir);
  assert.equal(r.status, 0, r.stderr);
  const out = join(dir, "run");
  await stopOnceCheckpointed(args, out, every, dir);
  const resumed = gpmcmc(["sample", "--resume", out, "--quiet"], resumeCwd);
  assert.equal(resumed.status, 0, resumed.stderr);
  for (const f of ["draws_1.csv", "draws_2.csv"]) assert.equal(rows(join(out, f)), rows(join(ref, f)), f);
  assert.equal(JSON.parse(readFileSync(join(out, "summary.json"), "utf8")).complete, true);
  return out;
}

test("a GP at fixed hyperparameters stopped midway and resumed by --resume DIR alone gives the draws of the run never stopped", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    writeData(join(s.dir, "data.csv"), 30);
    const out = await stoppedRunResumedAlone(FIXED, s.dir, "50");
    // resumed again, alone or with options that agree with the run: a finished run, nothing to do
    for (const extra of [[], ["--draws", "3000", "--seed", "11", "--sampler", "hmc"]]) {
      const again = gpmcmc(["sample", "--resume", out, ...extra], s.dir);
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stderr, /holds a finished run; nothing to do/);
    }
  } finally {
    s.cleanup();
  }
});

test("pm (sampled hyperparameters) stopped midway and resumed by --resume DIR alone from another directory gives the draws of the run never stopped", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    writeData(join(s.dir, "data.csv"), 30);
    const elsewhere = join(s.dir, "elsewhere");
    mkdirSync(elsewhere);
    await stoppedRunResumedAlone(PM, s.dir, "20", elsewhere);
  } finally {
    s.cleanup();
  }
});

test("--model logistic-regression stopped midway and resumed by --resume DIR alone gives the draws of the run never stopped", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    await stoppedRunResumedAlone(LOGISTIC_RUN, s.dir, "200");
  } finally {
    s.cleanup();
  }
});

test("a finished run of every model and of a scheme with its own options, resumed by --resume DIR alone, is recognised as the same run", { timeout: 120_000 }, () => {
  const s = scratchDir();
  try {
    const run = (args: string[]) => {
      const r = gpmcmc(args, s.dir);
      assert.equal(r.status, 0, `${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    writeData(join(s.dir, "data.csv"), 20);
    run(["simulate", "--model", "lgcp", "--grid", "6", "--seed", "4", "--out", "lgcp.csv"]);
    run(["simulate", "--model", "fitzhugh-nagumo", "--seed", "1", "--n", "20", "--t-end", "5", "--out", "fn.csv"]);
    writeFileSync(join(s.dir, "sv.csv"), "y\n" + Array.from(simulateVolatility(60, 0.65, 0.15, 0.98, 3).y, (v) => v.toPrecision(10)).join("\n") + "\n");
    const runs: string[][] = [
      ["sample", "--model", "lgcp", "--data", "lgcp.csv", "--covariance", "separable", "--draws", "20", "--burn-in", "20", "--chains", "2", "--seed", "1"],
      ["sample", "--model", "volatility", "--data", "sv.csv", "--draws", "30", "--burn-in", "20", "--chains", "2", "--seed", "3"],
      ["sample", "--model", "fitzhugh-nagumo", "--data", "fn.csv", "--draws", "10", "--burn-in", "10", "--chains", "1", "--seed", "1"],
      ["sample", "--data", "data.csv", "--scheme", "sa", "--theta-sampler", "hmc", "--shared-lengthscale", "--prior-lengthscale", "lognormal:0,1", "--draws", "30", "--burn-in", "20", "--chains", "2", "--seed", "2"],
      ["sample", "--data", "data.csv", "--log-lengthscale", "0.5", "--signal-sd", "2", "--sampler", "rmhmc", "--fixed-point-iterations", "4", "--draws", "20", "--burn-in", "20", "--chains", "2", "--seed", "2"],
    ];
    runs.forEach((args, k) => {
      const out = `run${k}`;
      const first = run([...args, "--out", out]);
      const again = gpmcmc(["sample", "--resume", out], s.dir);
      assert.equal(again.status, 0, `${args.join(" ")}: ${again.stderr}`);
      assert.match(again.stderr, /holds a finished run; nothing to do/);
      assert.equal(again.stdout, first, args.join(" "));
    });
  } finally {
    s.cleanup();
  }
});

test("--resume DIR alone: an altered record, a differing option, a data file gone or changed and a record without options are refused, one line each", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data, 30);
    const out = join(s.dir, "run");
    await stopOnceCheckpointed(FIXED, out, "50", s.dir);
    const record = join(out, "run.json");
    const original = readFileSync(record, "utf8");
    const refused = (args: string[], message: RegExp, cwd = s.dir) => {
      const r = gpmcmc(args, cwd);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    };
    // negative control: the same record with one recorded option altered asks for another run
    const altered = JSON.parse(original);
    altered.options.draws = "3100";
    writeFileSync(record, JSON.stringify(altered));
    refused(["sample", "--resume", out], /^gpmcmc: --draws: differs from the run being resumed in .* \(it has 3000, the options given ask for 3100\)/);
    altered.options.draws = "3000";
    altered.options.stepSize = "0.2";
    writeFileSync(record, JSON.stringify(altered));
    refused(["sample", "--resume", out], /^gpmcmc: --step-size: differs/);
    delete altered.options;
    writeFileSync(record, JSON.stringify(altered));
    refused(["sample", "--resume", out], /^gpmcmc: --resume: .*run\.json records no options \(the run was started by an earlier gpmcmc\): resume it with --data and the other options it was started with\n$/);
    writeFileSync(record, original);
    // options given beside --resume that differ from the run's
    refused(["sample", "--resume", out, "--seed", "12"], /^gpmcmc: --seed: differs/);
    refused(["sample", "--resume", out, "--log-lengthscale", "1"], /^gpmcmc: --lengthscale \(or --log-lengthscale\): differs/);
    refused(["sample", "--resume", out, "--model", "logistic-regression"], /^gpmcmc: --model: the run in .* is a GP \(latent-gp\) run; resume it with --model latent-gp, or without --model\n$/);
    refused(["sample", "--resume", out, "--overwrite"], /^gpmcmc: --overwrite: cannot be combined with --resume/);
    // the data file: changed, then gone; from another directory it is named by its whole path
    const kept = readFileSync(data);
    writeData(data, 31);
    refused(["sample", "--resume", out], /^gpmcmc: data\.csv: is not the data the run in .* was started on \(SHA-256 [0-9a-f]{12}\.\.\., the run's [0-9a-f]{12}\.\.\.\); resume with the run's own data\n$/);
    rmSync(data);
    refused(["sample", "--resume", out], /^gpmcmc: data\.csv: the data file the run in .* was started on is missing; put it back, or resume with --data FILE and the other options the run was started with\n$/);
    refused(["sample", "--resume", out], new RegExp(`^gpmcmc: ${data.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: the data file`), join(s.dir, ".."));
    // put back, the run goes on to its end
    writeFileSync(data, kept);
    const done = gpmcmc(["sample", "--resume", out, "--json"], s.dir);
    assert.equal(done.status, 0, done.stderr);
    assert.equal(JSON.parse(done.stdout).complete, true);
  } finally {
    s.cleanup();
  }
});
