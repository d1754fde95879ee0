// `gpmcmc sample --whitening`: laplace-nuts on probit is whitened by EP's covariance unless asked
// otherwise, the run says which and records it (summary line, --json, the spec), and a whitening
// given where it does not apply is one line naming the option, exit 2, nothing written; its
// integrator (--integrator split|leapfrog) is recorded and said likewise.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cliOutcome } from "./cliRun.js";

const base = ["sample", "--data", "data/synth_tr.csv", "--log-lengthscale", "-1", "--log-signal-sd", "0.5", "--draws", "20", "--burn-in", "20", "--chains", "1", "--seed", "3"];

test("laplace-nuts on probit: EP's whitening by default, Laplace's with --whitening laplace; both recorded", () => {
  for (const [extra, used] of [[[], "ep"], [["--whitening", "laplace"], "laplace"]] as const) {
    const r = cliOutcome([...base, ...extra, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.run.sampler.whitening, used);
    assert.equal(report.whitening.used, used);
    assert.ok(report.whitening.cpuSeconds >= 0 && report.seconds >= report.whitening.wallSeconds);
    assert.equal(report.whitening.epSweeps !== undefined, used === "ep");
  }
  const text = cliOutcome(base);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^whitened by EP's covariance: \d+ EP sweeps, [0-9.e-]+ s CPU before the chains \(in the wall-clock time\)$/m);
  // Other likelihoods: Laplace's, as laplace-hmc's default.
  const logistic = cliOutcome([...base, "--likelihood", "logistic", "--json"]);
  assert.equal(logistic.code, 0, logistic.stderr);
  assert.equal(JSON.parse(logistic.stdout).whitening.used, "laplace");
});

test("laplace-nuts: the split integrator by default, the leapfrog with --integrator leapfrog; both recorded and said", () => {
  for (const [extra, used] of [[[], "split"], [["--integrator", "leapfrog"], "leapfrog"]] as const) {
    const r = cliOutcome([...base, ...extra, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).run.sampler.integrator, used);
    const text = cliOutcome([...base, ...extra]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^laplace-nuts \\(${used} integrator\\) on `, "m"));
  }
});

test("--whitening where it does not apply, or unknown: one line, exit 2", () => {
  const cases: [string[], string][] = [
    [["--whitening", "ep", "--likelihood", "logistic"], "gpmcmc: --whitening: ep applies only to --likelihood probit (the likelihood with EP sites), not logistic\n"],
    [["--whitening", "ep", "--sampler", "hmc"], "gpmcmc: --whitening: applies only to --sampler laplace-hmc, laplace-nuts, not hmc\n"],
    [["--whitening", "epp"], "gpmcmc: --whitening: unknown whitening \"epp\" (known: laplace, ep); did you mean \"ep\"?\n"],
  ];
  for (const [extra, message] of cases) {
    const r = cliOutcome([...base, ...extra]);
    assert.equal(r.code, 2, extra.join(" "));
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, message);
  }
});

test("rmhmc --integrator lagrangian: recorded in the spec, said in the summary line, no divergence after burn-in here", () => {
  const args = ["sample", "--data", "data/synth_tr.csv", "--log-lengthscale", "-1", "--log-signal-sd", "0.5", "--draws", "50", "--burn-in", "50", "--chains", "1", "--seed", "3", "--sampler", "rmhmc", "--integrator", "lagrangian"];
  const r = cliOutcome([...args, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.run.sampler.variant, "lagrangian");
  assert.equal(report.run.sampler.fixedPoint, undefined);
  const text = cliOutcome(args);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^rmhmc \(lagrangian integrator: explicit, no fixed points\) on /m);
  assert.match(text.stdout, /divergences 0 /);
});
