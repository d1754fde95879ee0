/**
 * Checkpoint and resume of `gpmcmc sample --model lgcp` and `--model fitzhugh-nagumo` on the real
 * executable: an LGCP run by MALA on Christensen's transform (draws mapped to the field) stopped
 * by SIGTERM while its chains sample, then resumed, has the draws of the run never stopped; a
 * resume of a finished run changes nothing; a changed model option is named.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { scratchDir } from "../fixtures.js";
import { gpmcmc, rows, stopOnceCheckpointed } from "./resumeFixtures.js";

test("lgcp: a run stopped by SIGTERM and resumed has the draws of the run never stopped; a changed --sigma2 is named", { timeout: 120_000 }, async () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "lgcp8.csv");
    assert.equal(gpmcmc(["simulate", "--model", "lgcp", "--grid", "8", "--seed", "2", "--out", data]).status, 0);
    const args = ["sample", "--model", "lgcp", "--data", data, "--sampler", "mala-stationary", "--draws", "2000", "--burn-in", "500", "--chains", "2", "--seed", "4", "--thin", "40"];
    // (thinned: the chains run at once, each a second or so of sampling after its first checkpoint, so that the SIGTERM comes while they sample)
    const ref = join(s.dir, "ref");
    assert.equal(gpmcmc([...args, "--out", ref]).status, 0);
    const out = join(s.dir, "run");
    await stopOnceCheckpointed(args, out, "100");
    const resumed = gpmcmc([...args, "--resume", out]);
    assert.equal(resumed.status, 0, resumed.stderr);
    for (const f of ["draws_1.csv", "draws_2.csv"]) assert.equal(rows(join(out, f)), rows(join(ref, f)), f);
    const again = gpmcmc([...args, "--resume", out]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /holds a finished run; nothing to do/);
    const changed = gpmcmc([...args, "--sigma2", "2", "--resume", out]);
    assert.equal(changed.status, 2);
    assert.match(changed.stderr, /^gpmcmc: --sigma2: differs from the run being resumed in .* \(it has 1\.91/);
  } finally {
    s.cleanup();
  }
});

test("fitzhugh-nagumo: a resume with another --noise-sd or --start names it", { timeout: 60_000 }, () => {
  const s = scratchDir();
  try {
    const data = join(s.dir, "fn.csv");
    assert.equal(gpmcmc(["simulate", "--model", "fitzhugh-nagumo", "--n", "20", "--seed", "1", "--out", data]).status, 0);
    const args = ["sample", "--model", "fitzhugh-nagumo", "--data", data, "--sampler", "mh-componentwise", "--draws", "5", "--burn-in", "5", "--chains", "1", "--seed", "1"];
    const out = join(s.dir, "run");
    assert.equal(gpmcmc([...args, "--out", out, "--checkpoint-every", "3"]).status, 0);
    assert.match(gpmcmc([...args, "--noise-sd", "0.4", "--resume", out]).stderr, /^gpmcmc: --noise-sd: differs .* \(it has 0\.5, the options given ask for 0\.4\)/);
    assert.match(gpmcmc([...args, "--start", "0.3,0.3,2", "--resume", out]).stderr, /^gpmcmc: --start: differs/);
    assert.match(gpmcmc([...args, "--resume", out]).stderr, /holds a finished run; nothing to do/);
  } finally {
    s.cleanup();
  }
});
