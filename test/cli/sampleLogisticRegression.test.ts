// `gpmcmc sample --model logistic-regression` end to end: the draws files (beta.1 the intercept,
// the polynomial terms named in the comments) read back by `diagnose`; and the bad inputs of this
// model, each one line with exit code 2 and nothing written (a constant or duplicated column only
// warns).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, scratchDir } from "../fixtures.js";
import { cliInRepo as cli } from "./cliRun.js";

const SYNTH = join(REPO_ROOT, "data", "synth_tr.csv");


test("sample --model logistic-regression writes beta.k draws with the terms named, and diagnose and report read them", () => {
  const s = scratchDir();
  try {
    const out = join(s.dir, "run");
    const r = cli("sample", "--model", "logistic-regression", "--data", SYNTH, "--polynomial-degree", "3", "--sampler", "smmala",
      "--draws", "200", "--burn-in", "200", "--chains", "2", "--seed", "3", "--out", out);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /7 coefficients: \(intercept\), xs, ys, xs\^2, ys\^2, xs\^3, ys\^3/);
    const text = readFileSync(join(out, "draws_1.csv"), "utf8");
    const header = text.split("\n").find((l) => !l.startsWith("#"))!;
    assert.ok(header.endsWith("beta.1,beta.2,beta.3,beta.4,beta.5,beta.6,beta.7"), header);
    assert.match(text, /term\.beta\.1 = \(intercept\)/);
    assert.match(text, /term\.beta\.6 = xs\^3/);
    const d = cli("diagnose", out);
    assert.equal(d.status, 0, d.stderr);
    assert.match(d.stdout, /beta\.7/);
    const page = join(s.dir, "ripley.html");
    const rep = cli("report", out, "--out", page);
    assert.equal(rep.status, 0, rep.stderr);
    assert.match(readFileSync(page, "utf8"), /beta\.7/);
  } finally {
    s.cleanup();
  }
});

test("bad input for --model logistic-regression: one line, exit 2, nothing written", () => {
  const s = scratchDir();
  try {
    const bad = join(s.dir, "bad_labels.csv");
    writeFileSync(bad, "y,x\n0,1\n2,3\n1,0.5\n");
    const out = join(s.dir, "run");
    const base = ["sample", "--model", "logistic-regression", "--draws", "10", "--burn-in", "10", "--chains", "1", "--seed", "1", "--out", out];
    const cases: [string[], RegExp][] = [
      [["--data", bad], /bad_labels\.csv:3:1: .*label/i],
      [["--data", SYNTH, "--polynomial-degree", "2.5"], /^gpmcmc: --polynomial-degree: must be a whole number from 1 to 10, got "2\.5"$/],
      [["--data", SYNTH, "--polynomial-degree", "50"], /^gpmcmc: --polynomial-degree: must be a whole number from 1 to 10, got "50"$/],
      [["--data", SYNTH, "--prior-variance", "-1"], /^gpmcmc: --prior-variance: /],
      [["--data", SYNTH, "--prior-variance", "0"], /^gpmcmc: --prior-variance: /],
      [["--data", SYNTH, "--sampler", "ess"], /^gpmcmc: --sampler: ess does not apply to --model logistic-regression/],
      [["--data", SYNTH, "--lengthscale", "1"], /^gpmcmc: --lengthscale: applies only to --model latent-gp/],
      [["--data", SYNTH, "--interweave", "on"], /^gpmcmc: --interweave: applies only to --model volatility/],
      [["--data", SYNTH, "--model", "linear"], /^gpmcmc: --model: unknown model "linear"/],
      [["--data", SYNTH, "--sampler", "holmes-held", "--step-size", "0.1"], /^gpmcmc: --step-size: applies only to --sampler rmhmc, mmala, smmala, mala, hmc, hmc-diagonal, rmhmc-t, not holmes-held$/],
      [["--data", SYNTH, "--sampler", "holmes-held", "--leapfrog-steps", "3"], /^gpmcmc: --leapfrog-steps: applies only to --sampler rmhmc, hmc, hmc-diagonal, rmhmc-t, not holmes-held$/],
      [["--data", SYNTH, "--sampler", "mala", "--integrator", "lagrangian"], /^gpmcmc: --integrator: with a --model, only lagrangian with --model logistic-regression --sampler rmhmc \(got "lagrangian" with --model logistic-regression --sampler mala\)$/],
      [["--data", SYNTH, "--integrator", "reference"], /^gpmcmc: --integrator: with a --model, only lagrangian /],
      // the latent GP samplers' options are refused, not ignored
      [["--data", SYNTH, "--mass", "identity"], /^gpmcmc: --mass: applies only to --model latent-gp \(the GP models\)$/],
      [["--data", SYNTH, "--init", "laplace"], /^gpmcmc: --init: applies only to --model latent-gp/],
      [["--data", SYNTH, "--sampler", "iwls", "--target-acceptance", "0.7"], /^gpmcmc: --target-acceptance: applies only to --sampler rmhmc, mmala, smmala, mala, hmc, hmc-diagonal, rmhmc-t, not iwls$/],
      [["--data", SYNTH, "--target-acceptance", "1"], /^gpmcmc: --target-acceptance: must be between 0 and 1 \(exclusive\), got "1"$/],
      [["--data", SYNTH, "--target-acceptance", "0.7", "--no-adapt"], /^gpmcmc: --target-acceptance: applies only with step-size adaptation/],
      [["--data", SYNTH, "--likelihood", "logistic"], /^gpmcmc: --likelihood: applies only to --model latent-gp/],
      [["--data", SYNTH, "--fixed-point-tolerance", "1e-6"], /^gpmcmc: --fixed-point-tolerance: applies only to --model latent-gp/],
      [["--data", SYNTH, "--whitening", "ep"], /^gpmcmc: --whitening: applies only to --model latent-gp/],
    ];
    for (const [args, message] of cases) {
      const r = cli(...base, ...args);
      assert.equal(r.status, 2, `${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
      const lines = r.stderr.trim().split("\n");
      assert.equal(lines.length, 1, `${args.join(" ")}: ${r.stderr}`);
      assert.match(lines[0], message);
      assert.equal(existsSync(out), false, `${args.join(" ")}: wrote ${out}`);
    }
    const r = cli("sample", "--data", SYNTH, "--polynomial-degree", "3", "--lengthscale", "1", "--signal-sd", "1");
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^gpmcmc: --polynomial-degree: applies only to --model logistic-regression\n$/);
  } finally {
    s.cleanup();
  }
});

test("a constant or duplicated column beside the intercept is named in a warning, and the run goes on", () => {
  const s = scratchDir();
  try {
    const file = join(s.dir, "odd_columns.csv");
    const rows = ["y,a,k,b"];
    for (let i = 0; i < 20; i++) rows.push(`${i % 2},${(i * 0.37) % 1},5,${(i * 0.37) % 1}`);
    writeFileSync(file, rows.join("\n") + "\n");
    const r = cli("sample", "--model", "logistic-regression", "--data", file, "--sampler", "iwls", "--draws", "20", "--burn-in", "0", "--chains", "1", "--seed", "1");
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /warning: .*column 3 of the design \(k\) is constant/);
    assert.match(r.stderr, /warning: .*column 4 of the design \(b\) duplicates column 2 \(a\)/);
  } finally {
    s.cleanup();
  }
});

test("sample --model logistic-regression --sampler holmes-held and rmhmc-t (with --leapfrog-steps and --thin) run and write their draws", () => {
  const s = scratchDir();
  try {
    for (const extra of [["--sampler", "holmes-held", "--thin", "2"], ["--sampler", "rmhmc-t", "--leapfrog-steps", "3"]]) {
      const out = join(s.dir, extra[1]);
      const r = cli("sample", "--model", "logistic-regression", "--data", SYNTH, ...extra, "--draws", "30", "--burn-in", "30", "--chains", "1", "--seed", "2", "--out", out, "--json");
      assert.equal(r.status, 0, r.stderr);
      const report = JSON.parse(r.stdout) as { sampler: string; draws: number };
      assert.equal(report.sampler, extra[1]);
      assert.ok(existsSync(join(out, "draws_1.csv")));
    }
  } finally {
    s.cleanup();
  }
});

test("sample --model logistic-regression --sampler rmhmc --integrator lagrangian: said, recorded, no divergence", () => {
  const s = scratchDir();
  try {
    const out = join(s.dir, "run");
    const r = cli("sample", "--model", "logistic-regression", "--data", SYNTH, "--sampler", "rmhmc", "--integrator", "lagrangian", "--draws", "100", "--burn-in", "100", "--chains", "2", "--seed", "4", "--out", out);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /, sampler rmhmc \(lagrangian integrator\)$/m);
    assert.match(r.stdout, /divergences 0/);
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    assert.equal(summary.integrator, "lagrangian");
  } finally {
    s.cleanup();
  }
});

test("the latent GP samplers' options with another --model: one line, exit 2", () => {
  for (const model of ["volatility", "lgcp", "fitzhugh-nagumo"]) {
    const r = cli("sample", "--model", model, "--data", SYNTH, "--scale", "0.3");
    assert.equal(r.status, 2, `${model}: ${r.stderr}`);
    assert.equal(r.stderr, "gpmcmc: --scale: applies only to --model latent-gp (the GP models)\n");
  }
});

test("--target-acceptance with --model logistic-regression: recorded, and the adaptation aims at it", () => {
  const s = scratchDir();
  try {
    const rate = (target: string) => {
      const out = join(s.dir, `run${target}`);
      const r = cli("sample", "--model", "logistic-regression", "--data", SYNTH, "--sampler", "smmala", "--target-acceptance", target,
        "--draws", "300", "--burn-in", "300", "--chains", "1", "--seed", "5", "--out", out, "--json");
      assert.equal(r.status, 0, r.stderr);
      // the run as run (what --resume checks against): run.json
      const run = JSON.parse(readFileSync(join(out, "run.json"), "utf8")) as { spec: { sampler: { targetAcceptance?: number } } };
      assert.equal(run.spec.sampler.targetAcceptance, Number(target));
      return (JSON.parse(r.stdout) as { acceptanceRate: number }).acceptanceRate;
    };
    const high = rate("0.9");
    const low = rate("0.3");
    // the same seed and data: only the target differs, and each run's acceptance follows its own
    assert.ok(high > 0.8 && low < 0.45, `acceptance ${high} aiming at 0.9, ${low} aiming at 0.3`);
  } finally {
    s.cleanup();
  }
});

test("--target-acceptance where the model's sampler takes none: one line naming where it applies", () => {
  const r = cli("sample", "--model", "volatility", "--data", SYNTH, "--target-acceptance", "0.7");
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stderr, "gpmcmc: --target-acceptance: applies only to --model latent-gp, logistic-regression, lgcp or fitzhugh-nagumo\n");
  const m = cli("sample", "--model", "lgcp", "--data", SYNTH, "--sampler", "mala-transient", "--target-acceptance", "0.7");
  assert.equal(m.status, 2, m.stderr);
  assert.equal(m.stderr, "gpmcmc: --target-acceptance: applies only to --sampler rmhmc, mmala, not mala-transient\n");
});
