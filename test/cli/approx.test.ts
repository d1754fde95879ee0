/**
 * `gpmcmc laplace` and `gpmcmc ep`: the numbers the commands print are the library's, the
 * options reach the library, a case with a known log Z comes out right through the command
 * line, the --out file holds the approximation it documents, and bad input is one line with
 * exit code 2 and nothing written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { epCorrectedLogZ, expectationPropagation, laplace, probitSites } from "../../src/approx/index.js";
import { readApproximationFile, gaussianApproximationOf } from "../../src/approx/approximationFile.js";
import type { CommandIO } from "../../src/cli/commandIO.js";
import { runEp } from "../../src/cli/ep.js";
import { runLaplace } from "../../src/cli/laplace.js";
import { seKernel } from "../../src/gp/index.js";
import { readDataset, DataError } from "../../src/io/index.js";
import { likelihoodByName } from "../../src/likelihoods/index.js";
import { Matrix } from "../../src/linalg/index.js";
import { fixture, scratchDir } from "../fixtures.js";
import { cliOutcome as cli } from "./cliRun.js";

const SMALL = fixture("data", "approx_small.csv"); // n = 20, d = 2, labels -1/+1
const PAIR = fixture("data", "approx_pair.csv"); // n = 2, d = 1
const L = 0.8;
const S = 1.5;

/** Runs the built command; stderr without the one-time notice that the js backend is in use. */

function capture(): CommandIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (s) => void out.push(s), stderr: (s) => void err.push(s) };
}

function problem(path: string, coding: "plusMinusOne" | "zeroOne" = "plusMinusOne", lengthscale = L, signalSd = S) {
  const ds = readDataset(path, { labels: "binary", binaryCoding: coding });
  const k = seKernel({ lengthscale, signalSd }).matrix(ds.X);
  return { ds, k };
}

const quiet = { onWarning: () => {} };

test("ep --json prints the library's log Z_EP, corrected log Z, sweeps and convergence, with non-default options reaching the library", () => {
  const { ds, k } = problem(SMALL);
  const ep = expectationPropagation(k, probitSites(ds.y), { schedule: "parallel", damping: 0.7, siteTolerance: 1e-8, ...quiet });
  const corr = epCorrectedLogZ(ep, { form: "pairwise", maxOrder: 12 });
  const args = ["ep", "--data", SMALL, "--lengthscale", String(L), "--signal-sd", String(S), "--schedule", "parallel", "--damping", "0.7", "--tolerance", "1e-8", "--correction", "pairwise", "--correction-order", "12", "--json"];
  const r = cli(args);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  const j = JSON.parse(r.stdout);
  assert.equal(j.logZ, ep.logZ);
  assert.equal(j.logZCorrected, corr.logZ);
  assert.equal(j.correction, corr.correction);
  assert.equal(j.iterations, ep.sweeps);
  assert.equal(j.converged, true);
  assert.equal(j.schedule, "parallel");
  assert.equal(j.damping, 0.7);
  assert.equal(j.correctionForm, "pairwise");
  assert.equal(j.correctionOrder, 12);
  assert.ok(typeof j.seconds === "number" && j.seconds >= 0);
  assert.equal(j.n, 20);
  assert.equal(j.d, 2);
  assert.deepEqual(j.lengthscale, [L]);
  assert.ok(Math.abs(j.signalSd - S) < 1e-15);
  // The defaults give a different run (so the options above were not ignored).
  const def = expectationPropagation(k, probitSites(ds.y), quiet);
  const defCorr = epCorrectedLogZ(def);
  assert.notEqual(def.sweeps, ep.sweeps);
  assert.notEqual(defCorr.correction, corr.correction);
  const d = runEp({ data: SMALL, lengthscale: String(L), signalSd: String(S) }, capture()).summary;
  assert.equal(d.logZ, def.logZ);
  assert.equal(d.logZCorrected, defCorr.logZ);
  assert.equal(d.iterations, def.sweeps);
  assert.equal(d.correctionForm, "cumulant");
  assert.equal(d.correctionOrder, 4);
});

test("ep and laplace --json print exactly the documented keys", () => {
  const base = ["--data", SMALL, "--lengthscale", String(L), "--signal-sd", String(S), "--json"];
  const ep = JSON.parse(cli(["ep", ...base]).stdout);
  assert.deepEqual(Object.keys(ep).sort(), [
    "acceleration", "clampedSites", "command", "converged", "correction", "correctionForm", "correctionOrder", "d", "damping", "data",
    "iterations", "lengthscale", "likelihood", "logZ", "logZChange", "logZCorrected", "n", "optimize", "out", "schedule", "seconds",
    "signalSd", "siteChange",
  ]);
  const lap = JSON.parse(cli(["laplace", ...base]).stdout);
  assert.deepEqual(Object.keys(lap).sort(), [
    "command", "converged", "d", "data", "gradientNorm", "iterations", "lengthscale", "likelihood", "logZ", "n", "optimize", "out", "seconds", "signalSd",
  ]);
  for (const j of [ep, lap]) {
    for (const key of ["logZ", "iterations", "seconds"]) assert.equal(typeof j[key], "number", key);
    assert.equal(typeof j.converged, "boolean");
  }
  assert.equal(typeof ep.logZCorrected, "number");
});

test("ep --acceleration: none reaches the plain damped parallel iteration; a bad value or a sequential schedule is one line and exit 2", () => {
  const base = ["ep", "--data", SMALL, "--lengthscale", String(L), "--signal-sd", String(S), "--json"];
  const plain = cli([...base, "--schedule", "parallel", "--acceleration", "none"]);
  assert.equal(plain.code, 0, plain.stderr);
  const j = JSON.parse(plain.stdout);
  assert.equal(j.acceleration, "none");
  assert.equal(j.damping, 0.5);
  const fast = JSON.parse(cli([...base, "--schedule", "parallel"]).stdout);
  assert.equal(fast.acceleration, "anderson");
  assert.ok(Math.abs(fast.logZ - j.logZ) < 1e-6, `log Z ${fast.logZ} vs ${j.logZ}`);
  for (const [extra, message] of [
    [["--schedule", "parallel", "--acceleration", "fast"], /--acceleration/],
    [["--acceleration", "none"], /--acceleration: applies to --schedule parallel only/],
  ] as const) {
    const r = cli([...base, ...extra]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, message);
  }
});

test("laplace prints the library's log Z for probit, and for logistic on 0/1-coded labels; options reach the library", () => {
  const pm = problem(SMALL);
  const lapProbit = laplace(pm.k, pm.ds.y, likelihoodByName("probit"), quiet);
  const r = cli(["laplace", "--data", SMALL, "--log-lengthscale", String(Math.log(L)), "--log-signal-sd", String(Math.log(S)), "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.logZ, lapProbit.logZ);
  assert.equal(j.iterations, lapProbit.iterations);
  assert.equal(j.converged, true);
  assert.equal(j.likelihood, "probit");

  const zo = problem(SMALL, "zeroOne");
  assert.deepEqual(Array.from(zo.ds.y).sort(), Array.from(pm.ds.y, (v) => (v === 1 ? 1 : 0)).sort());
  const lapLogit = laplace(zo.k, zo.ds.y, likelihoodByName("logistic"), quiet);
  const s = runLaplace({ data: SMALL, likelihood: "logistic", lengthscale: String(L), signalSd: String(S) }, capture()).summary;
  assert.equal(s.logZ, lapLogit.logZ);
  assert.equal(s.iterations, lapLogit.iterations);
  assert.equal(s.converged, true);
  assert.notEqual(s.logZ, lapProbit.logZ);
  // --max-iterations and --tolerance reach the library: two steps stop short; a gradient
  // tolerance below round-off cannot be met.
  const two = laplace(zo.k, zo.ds.y, likelihoodByName("logistic"), { maxIterations: 2, ...quiet });
  const io = capture();
  const s2 = runLaplace({ data: SMALL, likelihood: "logistic", lengthscale: String(L), signalSd: String(S), maxIterations: "2" }, io).summary;
  assert.equal(s2.iterations, 2);
  assert.equal(s2.converged, false);
  assert.equal(s2.logZ, two.logZ);
  assert.notEqual(s2.logZ, s.logZ);
  assert.match(io.err.join(""), /^gpmcmc: Laplace's Newton iteration did not converge in 2 steps/);
  const tight = runLaplace({ data: SMALL, likelihood: "logistic", lengthscale: String(L), signalSd: String(S), tolerance: "1e-300" }, capture()).summary;
  assert.equal(tight.converged, false);
});

test("n = 2 probit through the command line: corrected log Z is closer than log Z_EP to the exact orthant probability", () => {
  // y = (+1, -1), x = (0, 0.5). Z = P(y_i (f_i + e_i) > 0, i = 1, 2) with f ~ N(0, K), e ~ N(0, I):
  // Sheppard's formula, Z = 1/4 + asin(rho) / (2 pi), rho = y1 y2 K12 / sqrt((1 + K11)(1 + K22)).
  const l = 0.6;
  const s = 2.5;
  const k12 = s * s * Math.exp(-(0.5 * 0.5) / (2 * l * l));
  const rho = -k12 / (1 + s * s);
  const exact = Math.log(0.25 + Math.asin(rho) / (2 * Math.PI));
  const r = cli(["ep", "--data", PAIR, "--lengthscale", String(l), "--signal-sd", String(s), "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  const errEp = Math.abs(j.logZ - exact);
  const errCorr = Math.abs(j.logZCorrected - exact);
  assert.ok(errEp > 1e-4, `EP error ${errEp} (the case should not be trivial)`);
  assert.ok(errCorr < errEp / 3, `corrected error ${errCorr} vs EP error ${errEp}`);
  // The human output carries the same numbers.
  const h = cli(["ep", "--data", PAIR, "--lengthscale", String(l), "--signal-sd", String(s)]);
  assert.equal(h.code, 0, h.stderr);
  const value = (label: string) => Number(h.stdout.split("\n").find((x) => x.startsWith(label + " "))!.slice(label.length).trim().split(/\s+/)[0]);
  assert.ok(Math.abs(value("log Z_EP") - j.logZ) < 1e-6);
  assert.ok(Math.abs(value("corrected log Z") - j.logZCorrected) < 1e-6);
  assert.match(h.stdout, /^converged +yes$/m);
  assert.match(h.stdout, /^data +.*approx_pair\.csv: n = 2, d = 1$/m);
});

/** K (nu - tau * mu) = mu: the site form Sigma^-1 mu = nu with Sigma^-1 = K^-1 + diag(tau). */
function siteFormResidual(k: Matrix, mean: ArrayLike<number>, tau: ArrayLike<number>, nu: ArrayLike<number>): number {
  const n = k.rows;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += k.get(i, j) * (nu[j] - tau[j] * mean[j]);
    worst = Math.max(worst, Math.abs(s - mean[i]) / (1 + Math.abs(mean[i])));
  }
  return worst;
}

test("--out writes the approximation: EP's sites and mean, Laplace's W and mode, in the documented site form", () => {
  const sc = scratchDir();
  try {
    const { ds, k } = problem(SMALL);
    const epFile = join(sc.dir, "ep.json");
    const r = runEp({ data: SMALL, lengthscale: String(L), signalSd: String(S), out: epFile, json: true }, capture());
    assert.equal(r.summary.out, epFile);
    const f = readApproximationFile(epFile);
    const ep = expectationPropagation(k, probitSites(ds.y), quiet);
    assert.equal(f.method, "ep");
    assert.deepEqual(f.mean, Array.from(ep.mean));
    assert.deepEqual(f.sitePrecisions, Array.from(ep.siteTau));
    assert.deepEqual(f.siteNaturalMeans, Array.from(ep.siteNu));
    assert.equal(f.logZ, ep.logZ);
    assert.equal(f.logZCorrected, r.summary.logZCorrected);
    assert.equal(f.iterations, ep.sweeps);
    assert.equal(f.data.n, 20);
    assert.equal(f.data.sha256, createHash("sha256").update(readFileSync(SMALL)).digest("hex"));
    assert.deepEqual(f.kernel.logLengthscale, [Math.log(L)]);
    assert.ok(siteFormResidual(k, f.mean, f.sitePrecisions, f.siteNaturalMeans) < 1e-8);
    f.siteMeans.forEach((m, i) => assert.ok(m !== null && Math.abs(m * f.sitePrecisions[i] - f.siteNaturalMeans[i]) < 1e-9));
    const q = gaussianApproximationOf(f);
    assert.deepEqual(Array.from(q.sitePrecisions!), Array.from(ep.siteTau));

    const lapFile = join(sc.dir, "laplace.json");
    runLaplace({ data: SMALL, lengthscale: String(L), signalSd: String(S), out: lapFile }, capture());
    const g = readApproximationFile(lapFile);
    const lap = laplace(k, ds.y, likelihoodByName("probit"), quiet);
    assert.equal(g.method, "laplace");
    assert.deepEqual(g.mean, Array.from(lap.mode));
    assert.deepEqual(g.sitePrecisions, Array.from(lap.w));
    assert.ok(siteFormResidual(k, g.mean, g.sitePrecisions, g.siteNaturalMeans) < 1e-8);
    // Rerunning may replace our own file.
    runEp({ data: SMALL, lengthscale: String(L), signalSd: String(S), out: lapFile }, capture());
    assert.equal(readApproximationFile(lapFile).method, "ep");
    assert.deepEqual(sc.entries(), ["ep.json", "laplace.json"]);
  } finally {
    sc.cleanup();
  }
});

test("the approximation reader names the file and the field of a damaged file", () => {
  const sc = scratchDir();
  try {
    const p = join(sc.dir, "ep.json");
    runEp({ data: SMALL, lengthscale: String(L), signalSd: String(S), out: p }, capture());
    const o = JSON.parse(readFileSync(p, "utf8"));
    o.sitePrecisions.pop();
    writeFileSync(p, JSON.stringify(o));
    assert.throws(() => readApproximationFile(p), (e: unknown) => e instanceof DataError && e.message === `${p}: field "sitePrecisions" has 19 entries, expected 20 (data.n)`);
    writeFileSync(p, JSON.stringify({ format: "something-else" }));
    assert.throws(() => readApproximationFile(p), (e: unknown) => e instanceof DataError && /not a gpmcmc approximation file/.test(e.message));
  } finally {
    sc.cleanup();
  }
});

test("EP that does not converge: a warning, converged false and exit 0; with --strict exit 3 and no --out", () => {
  const sc = scratchDir();
  try {
    const out = join(sc.dir, "ep.json");
    const base = ["ep", "--data", SMALL, "--lengthscale", String(L), "--signal-sd", String(S), "--max-sweeps", "1", "--json", "--out", out];
    const r = cli(base);
    assert.equal(r.code, 0);
    assert.equal(JSON.parse(r.stdout).converged, false);
    assert.match(r.stderr, /^gpmcmc: EP did not converge in 1 sweeps/m);
    assert.equal(readApproximationFile(out).converged, false);

    const out2 = join(sc.dir, "strict.json");
    const s = cli([...base.slice(0, -1), out2, "--strict"]);
    assert.equal(s.code, 3);
    assert.equal(JSON.parse(s.stdout).converged, false);
    assert.match(s.stderr, /--strict/);
    assert.deepEqual(sc.entries(), ["ep.json"]);
    // Converged runs are not affected by --strict.
    assert.equal(cli(["ep", "--data", SMALL, "--lengthscale", String(L), "--signal-sd", String(S), "--strict", "--json"]).code, 0);
  } finally {
    sc.cleanup();
  }
});

interface Bad {
  name: string;
  args: (scratch: string) => string[];
  /** The whole stderr line after "gpmcmc: ". */
  message: (scratch: string) => string | RegExp;
  setup?: (scratch: string) => void;
}

const kernelArgs = ["--lengthscale", String(L), "--signal-sd", String(S)];
const BAD: Bad[] = [
  {
    name: "ep with a likelihood EP does not support",
    args: (d) => ["ep", "--data", SMALL, ...kernelArgs, "--likelihood", "logistic", "--out", join(d, "a.json")],
    message: () => '--likelihood: gpmcmc ep supports only probit (EP\'s sites are implemented for probit), got "logistic"; gpmcmc laplace takes probit, logistic, poisson, volatility',
  },
  {
    name: "laplace with an unknown likelihood",
    args: (d) => ["laplace", "--data", SMALL, ...kernelArgs, "--likelihood", "probti", "--out", join(d, "a.json")],
    message: () => '--likelihood: unknown likelihood "probti" (known: probit, logistic, poisson, volatility); did you mean "probit"?',
  },
  {
    name: "missing lengthscale (ep)",
    args: (d) => ["ep", "--data", SMALL, "--signal-sd", "1", "--out", join(d, "a.json")],
    message: () => "--lengthscale: is required (or --log-lengthscale): one value, or one per input column",
  },
  {
    name: "missing lengthscale (laplace)",
    args: (d) => ["laplace", "--data", SMALL, "--signal-sd", "1", "--out", join(d, "a.json")],
    message: () => "--lengthscale: is required (or --log-lengthscale): one value, or one per input column",
  },
  {
    name: "missing --data",
    args: () => ["ep", ...kernelArgs],
    message: () => "--data: is required: the CSV data set (header line; response column y)",
  },
  {
    name: "a data file with a non-numeric cell",
    args: (d) => ["ep", "--data", fixture("data", "non_numeric.csv"), ...kernelArgs, "--out", join(d, "a.json")],
    message: () => `${fixture("data", "non_numeric.csv")}:7:3: cell "abc" in column "x2" is not a number`,
  },
  {
    name: "a data file that does not exist",
    args: (d) => ["laplace", "--data", join(d, "nope.csv"), ...kernelArgs, "--out", join(d, "a.json")],
    message: (d) => `${join(d, "nope.csv")}: no such file`,
  },
  {
    name: "labels that are not class labels",
    args: (d) => ["ep", "--data", fixture("data", "label_two.csv"), ...kernelArgs, "--out", join(d, "a.json")],
    message: () => `${fixture("data", "label_two.csv")}:4:1: label "2" in column "y" is not a class label (use -1/+1 or 0/1)`,
  },
  {
    name: "damping above 1",
    args: (d) => ["ep", "--data", SMALL, ...kernelArgs, "--damping", "1.5", "--out", join(d, "a.json")],
    message: () => '--damping: must be in (0, 1] (1: no damping), got "1.5"',
  },
  {
    name: "a correction order below 3",
    args: (d) => ["ep", "--data", SMALL, ...kernelArgs, "--correction-order", "2", "--out", join(d, "a.json")],
    message: () => '--correction-order: must be a whole number from 3 to 60, got "2"',
  },
  {
    name: "an unknown schedule",
    args: (d) => ["ep", "--data", SMALL, ...kernelArgs, "--schedule", "random", "--out", join(d, "a.json")],
    message: () => '--schedule: unknown schedule "random" (known: sequential, parallel)',
  },
  {
    name: "a non-numeric tolerance",
    args: (d) => ["laplace", "--data", SMALL, ...kernelArgs, "--tolerance", "tight", "--out", join(d, "a.json")],
    message: () => '--tolerance: must be a finite number, got "tight"',
  },
  {
    name: "--out is a directory",
    args: (d) => ["ep", "--data", SMALL, ...kernelArgs, "--out", d],
    message: (d) => `output ${JSON.stringify(d)}: is a directory; --out takes a file name (e.g. ep.json)`,
  },
  {
    name: "--out is an existing file that is not ours",
    setup: (d) => writeFileSync(join(d, "notes.txt"), "keep me\n"),
    args: (d) => ["laplace", "--data", SMALL, ...kernelArgs, "--out", join(d, "notes.txt")],
    message: (d) => `output ${JSON.stringify(join(d, "notes.txt"))}: exists and is not a gpmcmc approximation file; give --force to replace it`,
  },
  {
    name: "--out is the data file",
    setup: (d) => writeFileSync(join(d, "data.csv"), readFileSync(SMALL)),
    args: (d) => ["ep", "--data", join(d, "data.csv"), ...kernelArgs, "--out", join(d, "data.csv"), "--force"],
    message: (d) => `--out: is the data file ${JSON.stringify(join(d, "data.csv"))}; give another file name`,
  },
  {
    name: "an unknown option",
    args: (d) => ["ep", "--data", SMALL, ...kernelArgs, "--sweeps", "3", "--out", join(d, "a.json")],
    message: () => /^unknown option '--sweeps'/,
  },
];

for (const row of BAD) {
  test(`bad input, one line and exit 2, nothing written: ${row.name}`, () => {
    const sc = scratchDir();
    try {
      row.setup?.(sc.dir);
      const before = sc.entries().map((e) => [e, readFileSync(join(sc.dir, e), "utf8")]);
      const r = cli(row.args(sc.dir));
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, "");
      const lines = r.stderr.split("\n").filter((x) => x !== "");
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(lines[0].startsWith("gpmcmc: "), lines[0]);
      const want = row.message(sc.dir);
      if (typeof want === "string") assert.equal(lines[0], `gpmcmc: ${want}`);
      else assert.match(lines[0].slice("gpmcmc: ".length), want);
      assert.deepEqual(sc.entries().map((e) => [e, readFileSync(join(sc.dir, e), "utf8")]), before);
    } finally {
      sc.cleanup();
    }
  });
}
