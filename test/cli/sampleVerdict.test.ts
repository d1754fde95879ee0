/**
 * Every `gpmcmc sample` run ends with the verdict `gpmcmc diagnose` gives (src/diagnostics/
 * verdict.ts): the latent GP at fixed hyperparameters, with sampled ones (pm), and each --model.
 * A run too short to converge prints the warning lines, and summary.json (and --json) carries
 * them as the `verdict` object; a run that converges prints the all-clear line; and the verdict
 * read back by `gpmcmc diagnose` from the run's files flags the same quantities in the same words.
 * The check is shown to catch a summary whose verdict is left out.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { verdictFigures, verdictLines, type Verdict, type VerdictCheck } from "../../src/diagnostics/verdict.js";
import { fixture, REPO_ROOT, scratchDir } from "../fixtures.js";
import { cliWithoutDebug as cli } from "./cliRun.js";

const SYNTH = join(REPO_ROOT, "data", "synth_tr.csv");

interface Ran {
  text: string;
  report: Record<string, any>;
  out: string;
}

/** `gpmcmc sample ARGS --out DIR` in a scratch directory: the text it printed and its summary.json. */
function sample(dir: string, name: string, args: string[]): Ran {
  const out = join(dir, name);
  const r = cli("sample", ...args, "--out", out);
  assert.equal(r.status, 0, r.stderr);
  return { text: r.stdout, report: JSON.parse(readFileSync(join(out, "summary.json"), "utf8")), out };
}

/** Runs `gpmcmc simulate ARGS --out FILE` in the scratch directory; returns the file. */
function simulate(dir: string, file: string, args: string[]): string {
  const path = join(dir, file);
  const r = cli("simulate", ...args, "--out", path);
  assert.equal(r.status, 0, r.stderr);
  return path;
}

/**
 * That a summary gives its run's verdict: the report carries it, the text shows the figures it
 * is drawn from, R-hat and the time, and ends with its lines. Throws an AssertionError otherwise.
 */
function assertVerdictGiven(text: string, report: Record<string, any>): Verdict {
  assert.ok(report.verdict !== undefined && Array.isArray(report.verdict.warnings), "the report carries a verdict");
  const v = report.verdict as Verdict;
  assert.equal(v.ok, v.warnings.length === 0);
  const lines = text.trimEnd().split("\n");
  const want = verdictLines(v);
  assert.deepEqual(lines.slice(-want.length), want, "the summary ends with the verdict");
  assert.ok(lines.includes(`bulk and tail ESS, rank-normalised R-hat: ${verdictFigures(v)}`), "the figures of the verdict");
  assert.ok(lines.some((l) => /^R-hat|; R-hat max /.test(l)), "an R-hat line");
  assert.ok(lines.some((l) => /^time: \S+ s of sampling/.test(l)), "the time");
  return v;
}

/** A run that did not converge: these checks among its warnings, each line saying what to do. */
function assertWarned(ran: Ran, checks: VerdictCheck[]): Verdict {
  const v = assertVerdictGiven(ran.text, ran.report);
  assert.equal(v.ok, false);
  assert.ok(ran.text.includes("\nWarnings:\n"), ran.text);
  const got = v.warnings.map((w) => w.check);
  for (const c of checks) assert.ok(got.includes(c), `${c} among ${got.join(", ")}`);
  for (const w of v.warnings.filter((x) => ["rhat", "ess-bulk", "ess-tail"].includes(x.check))) {
    assert.match(w.text, new RegExp(`; run longer: --draws ${v.suggestedDraws}$`), w.text);
    assert.ok(v.suggestedDraws! > ran.report.draws, "more draws than the run had");
  }
  return v;
}

/** A run that converged: the all-clear line. */
function assertAllClear(ran: Ran): void {
  const v = assertVerdictGiven(ran.text, ran.report);
  assert.deepEqual(v.warnings, [], ran.text);
  assert.match(ran.text, /\nNo warnings: R_hat <= 1\.01, ESS_bulk and ESS_tail >= \d+ for lp__ and every variable[^\n]*\.\n$/);
}

/** `gpmcmc diagnose` on the run's files flags the same quantities, in the same words. */
function assertSameAsDiagnose(ran: Ran): void {
  const d = cli("diagnose", ran.out, "--json");
  assert.equal(d.status, 0, d.stderr);
  const back = JSON.parse(d.stdout).verdict as Verdict;
  const v = ran.report.verdict as Verdict;
  assert.deepEqual(back.flags, v.flags);
  const words = (x: Verdict) => x.warnings.filter((w) => ["rhat", "not-computable", "ess-bulk", "ess-tail", "e-bfmi"].includes(w.check)).map((w) => w.text);
  assert.deepEqual(words(back), words(v));
  assert.deepEqual(back.ebfmi, v.ebfmi);
}

test("gpmcmc sample, latent GP at fixed hyperparameters: too few draws warn, a bad step warns of divergences, the README's run at twice its length is clear; diagnose agrees", () => {
  const s = scratchDir();
  try {
    const base = ["--data", SYNTH, "--lengthscale", "0.5", "--signal-sd", "2", "--chains", "2", "--seed", "1"];
    const short = sample(s.dir, "short", [...base, "--draws", "30", "--burn-in", "10"]);
    assertWarned(short, ["rhat", "ess-bulk", "ess-tail"]);
    assertSameAsDiagnose(short);
    // NUTS's acceptance figure is the mean accept_stat, not the fraction of transitions that moved
    assert.match(short.text, new RegExp(`\\nmean accept_stat ${short.report.meanAcceptStat.toPrecision(3)}, divergences`));
    assert.doesNotMatch(short.text, /acceptance rate/);
    // --json prints the same verdict summary.json holds
    const json = cli("sample", ...base, "--draws", "30", "--burn-in", "10", "--json");
    assert.equal(json.status, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).verdict, short.report.verdict);

    const bad = sample(s.dir, "bad", [...base, "--sampler", "hmc", "--step-size", "1", "--no-adapt", "--draws", "50", "--burn-in", "0"]);
    const v = assertWarned(bad, ["divergences"]);
    assert.equal(v.divergences, 100);
    // without adaptation there is no target acceptance to raise: the step size is what to change
    assert.match(v.warnings.find((w) => w.check === "divergences")!.text, /^100 of 100 transitions \(100\.0%\) after burn-in were divergent \(chain 1: 50, chain 2: 50\): the estimates may be biased; give a smaller --step-size$/);

    // at the README's 1000 draws the largest R-hat is 1.008 with Haswell's kernels and 1.0100 with others: twice as many draws leave room on any CPU
    const clear = sample(s.dir, "clear", [...base, "--draws", "2000"]);
    assertAllClear(clear);
    assert.deepEqual(clear.report.verdict.treeDepthSaturations, 0);
    assert.equal(clear.report.verdict.ebfmi.length, 2);
  } finally {
    s.cleanup();
  }
});

test("gpmcmc sample with sampled hyperparameters (pm): too few draws warn, enough are clear", () => {
  const s = scratchDir();
  try {
    const data = simulate(s.dir, "sim20.csv", ["--likelihood", "probit", "--n", "20", "--d", "1", "--seed", "3"]);
    const short = sample(s.dir, "short", ["--data", data, "--draws", "20", "--burn-in", "20", "--chains", "2", "--seed", "1"]);
    assertWarned(short, ["ess-bulk"]);
    assert.equal(short.report.verdict.divergences, null, "pm's rejected proposals are not judged as divergences");
    assertSameAsDiagnose(short);
    assert.equal(JSON.parse(cli("diagnose", short.out, "--json").stdout).verdict.divergences, null, "nor by diagnose");
    const clear = sample(s.dir, "clear", ["--data", data, "--draws", "1000", "--burn-in", "500", "--chains", "2", "--seed", "1"]);
    assertAllClear(clear);
  } finally {
    s.cleanup();
  }
});

test("gpmcmc sample --model logistic-regression: too few draws warn, HMC's run is clear with its E-BFMI; diagnose agrees", () => {
  const s = scratchDir();
  try {
    const base = ["--model", "logistic-regression", "--data", SYNTH, "--chains", "2", "--seed", "1"];
    const short = sample(s.dir, "short", [...base, "--draws", "20", "--burn-in", "20"]);
    assertWarned(short, ["ess-bulk"]);
    assertSameAsDiagnose(short);
    const clear = sample(s.dir, "clear", [...base, "--sampler", "hmc", "--draws", "1000", "--burn-in", "500"]);
    assertAllClear(clear);
    assert.match(clear.text, /E-BFMI >= 0\.3 in every chain\.\n$/);
    assertSameAsDiagnose(clear);
  } finally {
    s.cleanup();
  }
});

test("gpmcmc sample --model lgcp: too few draws warn, enough are clear; the summary has R-hat and the time", () => {
  const s = scratchDir();
  try {
    const data = simulate(s.dir, "lgcp8.csv", ["--model", "lgcp", "--grid", "8", "--seed", "1"]);
    const base = ["--model", "lgcp", "--data", data, "--chains", "2", "--seed", "1"];
    const short = sample(s.dir, "short", [...base, "--draws", "50", "--burn-in", "50"]);
    assertWarned(short, ["rhat", "ess-bulk"]);
    assertSameAsDiagnose(short);
    assertAllClear(sample(s.dir, "clear", [...base, "--draws", "1000", "--burn-in", "300"]));
  } finally {
    s.cleanup();
  }
});

test("gpmcmc sample --model volatility and --model fitzhugh-nagumo: short runs warn, divergences after burn-in included; diagnose agrees", () => {
  const s = scratchDir();
  try {
    const sv = simulate(s.dir, "sv50.csv", ["--model", "volatility", "--t", "50", "--seed", "1"]);
    const vol = sample(s.dir, "sv", ["--model", "volatility", "--data", sv, "--draws", "100", "--burn-in", "100", "--chains", "2", "--seed", "1"]);
    const v = assertWarned(vol, ["rhat", "ess-bulk", "divergences"]);
    assert.equal(v.divergences, vol.report.divergences);
    assert.match(vol.text, new RegExp(`; divergences ${vol.report.divergences}\\n`), "the acceptance line counts them");
    assertSameAsDiagnose(vol);

    const fn = simulate(s.dir, "fn.csv", ["--model", "fitzhugh-nagumo", "--seed", "1"]);
    const fnRun = sample(s.dir, "fn", ["--model", "fitzhugh-nagumo", "--data", fn, "--draws", "50", "--burn-in", "50", "--chains", "2", "--seed", "1"]);
    assertWarned(fnRun, ["ess-bulk"]);
    assertSameAsDiagnose(fnRun);
  } finally {
    s.cleanup();
  }
});

test("negative control: the check fails on a summary whose verdict is left out, in the text or in summary.json", () => {
  const s = scratchDir();
  try {
    const ran = sample(s.dir, "run", ["--data", fixture("data", "labels_pm1.csv"), "--lengthscale", "1", "--signal-sd", "1", "--chains", "2", "--draws", "30", "--burn-in", "10", "--seed", "1"]);
    assertVerdictGiven(ran.text, ran.report);
    const n = verdictLines(ran.report.verdict).length;
    const cut = ran.text.trimEnd().split("\n").slice(0, -n).join("\n") + "\n";
    assert.throws(() => assertVerdictGiven(cut, ran.report), /the summary ends with the verdict/);
    const { verdict: _v, ...without } = ran.report;
    void _v;
    assert.throws(() => assertVerdictGiven(ran.text, without), /the report carries a verdict/);
    // an all-clear line printed over warnings is caught too
    const cleared = ran.text.replace(/Warnings:\n(  .*\n)+$/, "No warnings: R_hat <= 1.01, ESS_bulk and ESS_tail >= 200 for lp__ and every variable.\n");
    assert.notEqual(cleared, ran.text);
    assert.throws(() => assertVerdictGiven(cleared, ran.report));
  } finally {
    s.cleanup();
  }
});
