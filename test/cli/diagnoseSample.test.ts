/**
 * A run written by `gpmcmc sample`, read back by `gpmcmc diagnose`: the same Geyer ESS (min,
 * median, max, and which variable has the min), the same largest classic R-hat (and where),
 * and the same divergences as the run's own summary, both as printed with --json and as saved
 * in summary.json.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, scratchDir } from "../fixtures.js";
import { cliWithoutDebug as cli } from "./cliRun.js";


const FIGURES = ["chains", "draws", "variables", "minEss", "medianEss", "maxEss", "minEssVariable", "rhatMax", "rhatMaxVariable"] as const;

function roundTrip(args: string[]) {
  const s = scratchDir();
  try {
    const out = join(s.dir, "run");
    const r = cli("sample", "--data", fixture("data", "labels_pm1.csv"), "--lengthscale", "1", "--signal-sd", "1", "--chains", "3", "--seed", "11", "--out", out, "--json", ...args);
    assert.equal(r.status, 0, r.stderr);
    const d = cli("diagnose", out, "--json");
    assert.equal(d.status, 0, d.stderr);
    return { run: JSON.parse(r.stdout), saved: JSON.parse(readFileSync(join(out, "summary.json"), "utf8")), back: JSON.parse(d.stdout) };
  } finally {
    s.cleanup();
  }
}

for (const sampler of ["hmc", "rmhmc"]) {
  test(`gpmcmc sample --sampler ${sampler}, then gpmcmc diagnose: the run's ESS, R-hat and divergences`, () => {
    const { run, saved, back } = roundTrip(["--sampler", sampler, "--draws", "120", "--burn-in", "40"]);
    assert.ok(typeof run.minEss === "number" && run.minEss > 0 && typeof run.rhatMax === "number", "the run has figures to compare");
    for (const k of [...FIGURES, "divergences"]) {
      assert.equal(back[k], run[k], k);
      assert.equal(back[k], saved[k], `${k} (summary.json)`);
    }
  });
}

test("with --thin the kept draws are what both summarise (divergences: the run counts every transition, diagnose the rows kept)", () => {
  const { run, back } = roundTrip(["--sampler", "hmc", "--draws", "60", "--burn-in", "20", "--thin", "2"]);
  assert.equal(back.draws, 60);
  assert.ok(typeof run.minEss === "number" && run.minEss > 0 && typeof run.rhatMax === "number", "the run has figures to compare");
  for (const k of FIGURES) assert.equal(back[k], run[k], k);
  assert.ok(back.divergences <= run.divergences);
});
