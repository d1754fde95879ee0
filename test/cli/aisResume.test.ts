/**
 * Checkpoint and resume of `gpmcmc ais`, on the real executable in child processes: a computation
 * killed with SIGKILL at random moments, several times, and resumed each time, ends with the log Z
 * and the per-run log weights (and traces) of the same computation never interrupted, bit for bit;
 * resumed again, nothing changes (exit 0); --out on the finished run is refused with the hint.
 * (The directory's other cases: aisRunDir.test.ts.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, scratchDir } from "../fixtures.js";
import { gpmcmc, killedRunResumesToReference } from "./resumeFixtures.js";

const SMALL = fixture("data", "approx_small.csv"); // n = 20, d = 2

const runArgs = (temperatures = 4000) => [
  "ais", "--data", SMALL, "--lengthscale", "0.8", "--signal-sd", "1.5", "--from", "prior", "--transition", "hmc", "--step-size", "0.1",
  "--temperatures", String(temperatures), "--runs", "3", "--parallel", "1", "--seed", "11", "--quiet",
];

/** log Z, the per-run log weights, and each run's trace without its timings, from a directory's summary.json and ais.json. */
function outcome(dir: string): unknown {
  const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
  const trace = JSON.parse(readFileSync(join(dir, "ais.json"), "utf8"));
  return {
    logZ: summary.logZ, standardError: summary.standardError, logWeights: summary.logWeights, acceptanceRate: summary.acceptanceRate,
    trace: trace.runs.map((r: { points: { temperature: number; logWeight: number }[] }) => r.points.map((p) => [p.temperature, p.logWeight])),
  };
}

test("ais: a computation killed with SIGKILL at random moments and resumed each time gives the log Z and log weights of the one never interrupted", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    const out = await killedRunResumesToReference(runArgs(), s.dir, 2028, "10", (run, ref) => {
      const got = outcome(run) as { logWeights: number[] };
      assert.equal(got.logWeights.length, 3);
      assert.deepEqual(got, outcome(ref));
    });
    assert.match(gpmcmc([...runArgs(), "--out", out]).stderr, /^gpmcmc: output ".*": holds a finished gpmcmc run; choose another directory, or use --overwrite to replace it\n$/);
  } finally {
    s.cleanup();
  }
});
