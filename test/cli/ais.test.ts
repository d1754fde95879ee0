/**
 * `gpmcmc ais`: the --json fields are the library's numbers for the same seed, --out writes an
 * ais.json that readAisTrace accepts (and summary.json), and bad input is one line with exit
 * code 2 and nothing written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runAis } from "../../src/annealing/index.js";
import { epApproximation, epCorrectedLogZ, expectationPropagation, probitSites } from "../../src/approx/index.js";
import { seKernel } from "../../src/gp/index.js";
import { jitterAt } from "../../src/gp/jitter.js";
import { readAisTrace } from "../../src/io/ais.js";
import { readDataset } from "../../src/io/index.js";
import { fixture, scratchDir } from "../fixtures.js";
import { cliOutcome as cli } from "./cliRun.js";

const SMALL = fixture("data", "approx_small.csv"); // n = 20, d = 2
/** The default jitter of the model of BASE: 1e-6 x the signal variance 1.5^2. */
const JITTER = jitterAt({ relative: 1e-6 }, Math.log(1.5));
const BASE = ["ais", "--data", SMALL, "--lengthscale", "0.8", "--signal-sd", "1.5", "--temperatures", "8", "--runs", "3", "--seed", "11", "--fixed-point-iterations", "5"];


test("ais --json prints log Z, its standard error, the runs' log weights and EP's references: the library's numbers for the same seed", async () => {
  const r = cli([...BASE, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  const j = JSON.parse(r.stdout);
  const ds = readDataset(SMALL, { labels: "binary", binaryCoding: "plusMinusOne" });
  const k = seKernel({ lengthscale: 0.8, signalSd: 1.5 }).matrix(ds.X);
  // The default jitter, 1e-6 x the signal variance, in EP's K as in the annealed target's.
  for (let i = 0; i < ds.n; i++) k.data[i + i * ds.n] += JITTER;
  const ep = expectationPropagation(k, probitSites(ds.y), { onWarning: () => {} });
  const q = epApproximation(ep);
  const lib = await runAis({ X: ds.X, y: ds.y }, {
    model: { likelihood: "probit", logLengthscale: [Math.log(0.8)], logSignalSd: Math.log(1.5), jitter: { relative: 1e-6 } },
    start: { kind: "q", mean: Array.from(q.mean), sitePrecisions: Array.from(q.sitePrecisions ?? []) },
    schedule: { kind: "geometric", temperatures: 8 },
    transition: { sampler: "rmhmc", stepSize: 0.1, leapfrogSteps: 10, fixedPoint: { kind: "iterations", iterations: 5 } },
    runs: 3,
    seed: 11,
  });
  assert.deepEqual(j.logWeights, lib.logWeights);
  assert.equal(j.logZ, lib.logZ);
  assert.equal(j.standardError, lib.standardError);
  assert.equal(j.runs, 3);
  assert.equal(typeof j.seconds, "number");
  assert.equal(j.epLogZ, ep.logZ);
  assert.equal(j.epCorrectedLogZ, epCorrectedLogZ(ep).logZ);
  assert.equal(j.from, "ep");
  assert.equal(j.jitter, JITTER);
  assert.equal(j.jitterRelative, 1e-6);
  assert.equal(j.out, null);
  // from the prior with HMC is another computation
  const p = cli([...BASE.filter((a) => a !== "--fixed-point-iterations" && a !== "5"), "--from", "prior", "--transition", "hmc", "--json"]);
  assert.equal(p.code, 0, p.stderr);
  assert.notDeepEqual(JSON.parse(p.stdout).logWeights, j.logWeights);
});

test("ais --from prior --transition ess --transitions-per-temperature 3, and hmc --mass identity: the library's weights for the same specs", async () => {
  const ds = readDataset(SMALL, { labels: "binary", binaryCoding: "plusMinusOne" });
  const noFixedPoints = BASE.filter((a) => a !== "--fixed-point-iterations" && a !== "5");
  const model = { likelihood: "probit" as const, logLengthscale: [Math.log(0.8)], logSignalSd: Math.log(1.5), jitter: { relative: 1e-6 } };
  const e = cli([...noFixedPoints, "--from", "prior", "--transition", "ess", "--transitions-per-temperature", "3", "--json"]);
  assert.equal(e.code, 0, e.stderr);
  const ej = JSON.parse(e.stdout);
  assert.equal(ej.transitionsPerTemperature, 3);
  const ess = await runAis({ X: ds.X, y: ds.y }, {
    model, start: { kind: "prior" }, schedule: { kind: "geometric", temperatures: 8 },
    transition: { sampler: "ess" }, transitionsPerTemperature: 3, runs: 3, seed: 11,
  }, { inProcess: true });
  assert.deepEqual(ej.logWeights, ess.logWeights);
  assert.equal(ess.runs[0].transitions, 3 * 7);
  const h = cli([...noFixedPoints, "--transition", "hmc", "--mass", "identity", "--step-size", "0.05", "--json"]);
  assert.equal(h.code, 0, h.stderr);
  const hj = JSON.parse(h.stdout);
  assert.equal(hj.transition.mass, "identity");
  const kj = seKernel({ lengthscale: 0.8, signalSd: 1.5 }).matrix(ds.X);
  for (let i = 0; i < ds.n; i++) kj.data[i + i * ds.n] += JITTER;
  const q = epApproximation(expectationPropagation(kj, probitSites(ds.y), { onWarning: () => {} }));
  const hmc = await runAis({ X: ds.X, y: ds.y }, {
    model, start: { kind: "q", mean: Array.from(q.mean), sitePrecisions: Array.from(q.sitePrecisions ?? []) }, schedule: { kind: "geometric", temperatures: 8 },
    transition: { sampler: "hmc", stepSize: 0.05, leapfrogSteps: 10, mass: "identity" }, runs: 3, seed: 11,
  }, { inProcess: true });
  assert.deepEqual(hj.logWeights, hmc.logWeights);
});

test("ais --out writes ais.json that readAisTrace accepts, one trace per run from beta 0 to 1, and summary.json", () => {
  const s = scratchDir();
  try {
    const dir = join(s.dir, "run");
    const r = cli([...BASE, "--json", "--out", dir]);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    const trace = readAisTrace(join(dir, "ais.json"));
    assert.equal(trace.logZ, j.logZ);
    assert.equal(trace.standardError, j.standardError);
    assert.equal(trace.runs.length, 3);
    for (const [i, run] of trace.runs.entries()) {
      assert.equal(run.points.length, 9);
      assert.equal(run.points[0].temperature, 0);
      assert.equal(run.points[8].temperature, 1);
      assert.equal(run.points[8].logWeight, j.logWeights[i]);
    }
    assert.deepEqual(trace.references?.map((x) => x.logZ), [j.epLogZ, j.epCorrectedLogZ]);
    assert.equal(JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")).logZ, j.logZ);
  } finally {
    s.cleanup();
  }
});

test("ais: bad options and data are one line on stderr, exit code 2, and nothing written", () => {
  const s = scratchDir();
  try {
    const dir = join(s.dir, "never");
    const NO_FIXED_POINTS = BASE.filter((a) => a !== "--fixed-point-iterations" && a !== "5");
    const cases: [string[], RegExp, string[]?][] = [
      [["--temperatures", "0"], /--temperatures/],
      [["--runs", "1"], /--runs/],
      [["--from", "posterior"], /--from/],
      [["--transition", "mala"], /--transition/],
      [["--schedule", "cosine"], /--schedule/],
      [["--beta-min", "2"], /--beta-min/],
      [["--step-size", "-1"], /--step-size/],
      [["--fixed-point-tolerance", "1e-6"], /--fixed-point-tolerance/],
      [["--lengthscale", "0.8,1,2"], /--lengthscale/],
      [["--parallel", "0"], /--parallel/],
      [["--transition", "ess"], /--transition: ess .*--from prior/, NO_FIXED_POINTS],
      [["--from", "prior", "--transition", "ess", "--step-size", "0.1"], /--step-size/, NO_FIXED_POINTS],
      [["--transitions-per-temperature", "0"], /--transitions-per-temperature/],
      [["--mass", "identity"], /--mass/, NO_FIXED_POINTS],
      [["--transition", "hmc", "--mass", "diagonal"], /--mass/, NO_FIXED_POINTS],
      [["--reversibility-tolerance", "-1"], /--reversibility-tolerance/],
      [["--transition", "hmc", "--reversibility-tolerance", "1e-6"], /--reversibility-tolerance/, NO_FIXED_POINTS],
    ];
    for (const [extra, pattern, base] of cases) {
      const args = [...(base ?? BASE), "--out", dir];
      for (let i = 0; i < extra.length; i += 2) {
        const at = args.indexOf(extra[i]);
        if (at >= 0) args.splice(at, 2, extra[i], extra[i + 1]);
        else args.push(extra[i], extra[i + 1]);
      }
      const r = cli(args);
      assert.equal(r.code, 2, `${extra.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.equal(r.stdout, "");
      assert.equal(existsSync(dir), false, `${extra.join(" ")} wrote ${dir}`);
    }
    const missing = cli(["ais", "--data", join(s.dir, "none.csv"), "--lengthscale", "1", "--signal-sd", "1", "--temperatures", "3", "--out", dir]);
    assert.equal(missing.code, 2);
    assert.equal(existsSync(dir), false);
  } finally {
    s.cleanup();
  }
});
