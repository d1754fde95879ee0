/**
 * `gpmcmc sample` with sampled hyperparameters (no kernel option given): the draws files' columns
 * (log_lengthscale.r and log_signal_sd before f.1, log_signal_sd = log(sigma) / 2), the
 * summary's per-column ESS of theta against the draws in the files, and the bad inputs (--scheme
 * with fixed hyperparameters, a prior with a non-positive parameter or an unknown family): one
 * line, exit code 2, nothing written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHyperSampleCommand } from "../../src/cli/sampleHyper.js";
import { readRun } from "../../src/cli/predictInputs.js";
import { essGeyer } from "../../src/diagnostics/ess.js";
import { columnValues, readCmdStanCsv } from "../../src/io/cmdstan.js";
import { REPO_ROOT, scratchDir } from "../fixtures.js";

function writeData(path: string, n = 20): void {
  let seed = 7;
  const u = () => ((seed = (seed * 16807) % 2147483647), seed / 2147483647);
  const rows = ["y,x1,x2"];
  for (let i = 0; i < n; i++) {
    const a = 3 * u();
    const b = 3 * u();
    rows.push(`${Math.sin(2 * a) + Math.cos(b) + 0.3 * (u() - 0.5) > 0 ? 1 : -1},${a.toFixed(4)},${b.toFixed(4)}`);
  }
  writeFileSync(path, rows.join("\n") + "\n");
}

function gpmcmc(args: string[]) {
  return spawnSync(process.execPath, [join(REPO_ROOT, "dist", "src", "cli", "main.js"), ...args], { encoding: "utf8", env: { ...process.env, GPMCMC_DEBUG: "" } });
}

for (const [scheme, thetaSampler] of [["pm", undefined], ["aa", "smmala"], ["sa", "hmc"], ["asis", "mh"], ["khr", undefined], ["surr", undefined]] as const) {
  test(`sample --scheme ${scheme}: theta columns before f.1 in the draws files, their ESS in the report`, async () => {
    const s = scratchDir();
    try {
      const data = join(s.dir, "data.csv");
      writeData(data);
      const out = join(s.dir, "run");
      const text: string[] = [];
      const report = await runHyperSampleCommand(
        { data, scheme, thetaSampler, draws: "40", burnIn: "30", chains: "2", seed: "5", out, parallel: "1", quiet: true },
        { stdout: (t) => text.push(t) },
      );
      const csv = readCmdStanCsv(join(out, "draws_1.csv"));
      const vars = csv.variables;
      assert.deepEqual(vars.slice(0, 4), ["log_lengthscale.1", "log_lengthscale.2", "log_signal_sd", "f.1"]);
      assert.equal(vars.length, 3 + 20);
      const chains = [1, 2].map((c) => columnValues(readCmdStanCsv(join(out, `draws_${c}.csv`)), "log_signal_sd"));
      const ess = essGeyer(chains);
      assert.ok(Math.abs(report.theta[2]!.ess! - ess) <= 1e-9 * Math.max(1, ess), `${report.theta[2]!.ess} vs ${ess}`);
      assert.deepEqual(report.theta.map((c) => c.name), ["log_lengthscale.1", "log_lengthscale.2", "log_signal_sd"]);
      assert.ok(report.operationsPerIteration.cholesky >= 1);
      assert.match(text.join(""), /O\(n\^3\) operations per iteration: /);
    } finally {
      s.cleanup();
    }
  });
}

test("sample --jitter J with sampled hyperparameters (pm): K = sigma C + J I in the run, the header, the draws' settings and the summary, which predict reads", async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data);
    const out = join(s.dir, "run");
    const lines: string[] = [];
    const report = await runHyperSampleCommand({ data, jitter: "1e-3", draws: "5", burnIn: "5", chains: "1", seed: "5", out, parallel: "1" }, { stdout: (t: string) => lines.push(t) });
    assert.equal(report.run.model.absoluteJitter, 1e-3);
    assert.equal(report.run.model.relativeJitter, 0);
    assert.equal(report.jitter, 1e-3);
    assert.equal(report.jitterRelative, undefined);
    assert.match(lines.join(""), /, absolute jitter 0\.001\n/);
    assert.equal(Number(readCmdStanCsv(join(out, "draws_1.csv")).config.absolute_jitter), 1e-3);
    assert.deepEqual(readRun(out).model.jitter, { absolute: 1e-3 });
    // another model than the default relative jitter: other draws from the same seed
    await runHyperSampleCommand({ data, draws: "5", burnIn: "5", chains: "1", seed: "5", out: join(s.dir, "relative"), parallel: "1", quiet: true }, { stdout: () => {} });
    const f1 = (dir: string) => columnValues(readCmdStanCsv(join(s.dir, dir, "draws_1.csv")), "f.1");
    assert.notDeepEqual(f1("relative"), f1("run"));
  } finally {
    s.cleanup();
  }
});

test("sample --jitter relative:R with sampled hyperparameters is the model's r in K = sigma (C + r I): in the run, the header and the summary", async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data);
    const out = join(s.dir, "run");
    const report = await runHyperSampleCommand({ data, jitter: "relative:1e-4", draws: "5", burnIn: "5", chains: "1", seed: "5", out, parallel: "1", quiet: true }, { stdout: () => {} });
    assert.equal(report.run.model.relativeJitter, 1e-4);
    assert.equal(report.jitterRelative, 1e-4);
    assert.equal(Number(readCmdStanCsv(join(out, "draws_1.csv")).config.relative_jitter), 1e-4);
    const none = await runHyperSampleCommand({ data, jitter: "0", draws: "5", burnIn: "5", chains: "1", seed: "5", out: join(s.dir, "none"), parallel: "1", quiet: true }, { stdout: () => {} });
    assert.equal(none.run.model.relativeJitter, 0);
    // another model: other draws from the same seed
    const f1 = (dir: string) => columnValues(readCmdStanCsv(join(s.dir, dir, "draws_1.csv")), "f.1");
    assert.notDeepEqual(f1("none"), f1("run"));
  } finally {
    s.cleanup();
  }
});

test("sample --shared-lengthscale: one log_lengthscale column for d = 2, and predict --run reads it as the shared lengthscale", async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data);
    const out = join(s.dir, "run");
    const report = await runHyperSampleCommand({ data, sharedLengthscale: true, draws: "20", burnIn: "20", chains: "2", seed: "5", out, parallel: "1", quiet: true }, { stdout: () => {} });
    assert.deepEqual(report.theta.map((c) => c.name), ["log_lengthscale.1", "log_signal_sd"]);
    const csv = readCmdStanCsv(join(out, "draws_1.csv"));
    assert.deepEqual(csv.variables.slice(0, 3), ["log_lengthscale.1", "log_signal_sd", "f.1"]);
    assert.equal(csv.variables.length, 2 + 20);
    assert.equal(csv.config.shared_lengthscale, "1");
    const p = gpmcmc(["predict", "--run", out, "--test", data, "--json"]);
    assert.equal(p.status, 0, p.stderr);
    const scores = JSON.parse(p.stdout).scores as { errorRate: number };
    assert.ok(scores.errorRate >= 0 && scores.errorRate <= 1);
  } finally {
    s.cleanup();
  }
});

test("bad inputs with sampled hyperparameters: one line naming the option, exit 2, nothing written", () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "data.csv");
    writeData(data);
    const out = join(s.dir, "run");
    const cases: [string[], RegExp][] = [
      [["--lengthscale", "1", "--signal-sd", "1", "--scheme", "aa"], /^gpmcmc: --scheme: applies only when the hyperparameters are sampled/],
      [["--prior-lengthscale", "gamma:0,1"], /^gpmcmc: --prior-lengthscale: .*positive/],
      [["--prior-variance", "weibull:1,1"], /^gpmcmc: --prior-variance: unknown prior family "weibull"/],
      [["--scheme", "khr", "--theta-sampler", "hmc"], /^gpmcmc: --theta-sampler: /],
      [["--scheme", "nope"], /^gpmcmc: --scheme: /],
      [["--sampler", "ess"], /^gpmcmc: --sampler: does not apply to --scheme pm \(it draws f among the importance draws/],
      [["--scheme", "pm", "--step-size", "0.1"], /^gpmcmc: --step-size: does not apply to --scheme pm/],
      [["--scheme", "pm", "--theta-sampler", "mh"], /^gpmcmc: --theta-sampler: does not apply to --scheme pm/],
      [["--prior-signal-sd", "halfnormal:1", "--prior-variance", "invgamma:1,1"], /^gpmcmc: --prior-signal-sd: give a prior on the signal sd or, by --prior-variance, on the signal variance, not both$/],
      [["--prior-signal-sd", "halfnormal:0"], /^gpmcmc: --prior-signal-sd: halfnormal scale must be a positive finite number, got 0$/],
      [["--prior-signal-sd", "halft:3"], /^gpmcmc: --prior-signal-sd: the halft family takes 2 parameters/],
      [["--lengthscale", "1", "--signal-sd", "1", "--prior-signal-sd", "halfnormal:1"], /^gpmcmc: --prior-signal-sd: applies only when the hyperparameters are sampled/],
      [["--lengthscale", "1", "--signal-sd", "1", "--shared-lengthscale"], /^gpmcmc: --shared-lengthscale: applies only when the hyperparameters are sampled/],
      // an absolute jitter: pm only, the other schemes need K linear in the signal variance
      [["--jitter", "1e-3", "--scheme", "aa"], /^gpmcmc: --jitter: an absolute jitter \(K = sigma \(C \+ R I\) \+ J I\) needs --scheme pm: the aa scheme needs K linear in the signal variance; give relative:R or 0$/],
      [["--jitter", "auto"], /^gpmcmc: --jitter: auto is not available with sampled hyperparameters \(the jitter is part of the model, the same at every theta\): give relative:R, an absolute amount, or 0$/],
    ];
    for (const [args, message] of cases) {
      const r = gpmcmc(["sample", "--data", data, "--draws", "5", "--burn-in", "5", "--out", out, ...args]);
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.match(r.stderr.trim(), message);
      assert.equal(existsSync(out), false);
    }
  } finally {
    s.cleanup();
  }
});
