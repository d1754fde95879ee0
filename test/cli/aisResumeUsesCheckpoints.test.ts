/**
 * `gpmcmc ais --resume` continues from the runs' checkpoints, not from their starts: a run ends
 * where its uninterrupted twin ends only because the checkpoint holds its state. The command runs
 * in this process (runAisCommand) and is stopped through its StopFlag as Ctrl-C stops it; resumed
 * as it was left, the computation has the reference's log weights bit for bit; resumed after a
 * checkpoint's log weight was altered by +1 (negative control), that run's final weight is off by
 * about 1 and the others are unchanged: a resume that ignored the checkpoints (and reran the runs
 * from their streams' starts, which would give the reference's weights too) would not show it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { AisRunCheckpoint } from "../../src/annealing/index.js";
import { runAisCommand, type RawAisOptions } from "../../src/cli/ais.js";
import { StopFlag } from "../../src/parallel/pool.js";
import { checkpointFileName, readCheckpoint, writeCheckpointFile } from "../../src/run/checkpoint.js";
import { fixture, scratchDir } from "../fixtures.js";

const quiet = { stdout: () => {}, stderr: () => {} };
const options = (extra: Partial<RawAisOptions>): RawAisOptions => ({
  data: fixture("data", "approx_small.csv"), lengthscale: "0.8", signalSd: "1.5", from: "prior", transition: "hmc", stepSize: "0.1",
  temperatures: "3000", runs: "2", seed: "23", parallel: "1", quiet: true, ...extra,
});

test("ais --resume continues each run from its checkpoint: as left, the reference's weights; with a checkpoint's log weight altered, that run's weight moves with it", { timeout: 60_000 }, async () => {
  const s = scratchDir();
  try {
    const reference = await runAisCommand(options({}), quiet, false);
    const out = join(s.dir, "run");
    const stop = new StopFlag();
    // stopped at its first progress line: run 1 is then part-way (its stop checkpoint), run 2 not started
    const stopped = await runAisCommand(options({ out, checkpointEvery: "100", quiet: false, progress: true }), { stdout: () => {}, stderr: () => stop.request() }, false, { stop });
    assert.equal(stopped.complete, false);
    const partway = ([0, 1] as const).map((r) => readCheckpoint<AisRunCheckpoint>(out, r)).filter((cp) => cp !== undefined && cp.done > 0 && cp.done < 3000);
    assert.ok(partway.length > 0, `no run was stopped part-way: ${readdirSync(out).join(", ")}`);
    const altered = join(s.dir, "altered");
    cpSync(out, altered, { recursive: true });
    const cp = partway[0]!;
    writeCheckpointFile(join(altered, checkpointFileName(cp.run)), { ...cp, logWeight: cp.logWeight + 1 });

    const resumed = await runAisCommand(options({ resume: out }), quiet, false);
    assert.equal(resumed.complete, true);
    assert.deepEqual(resumed.logWeights, reference.logWeights);
    assert.equal(resumed.logZ, reference.logZ);

    const off = await runAisCommand(options({ resume: altered }), quiet, false);
    assert.ok(Math.abs(off.logWeights[cp.run] - reference.logWeights[cp.run] - 1) < 1e-9, `run ${cp.run + 1}: ${off.logWeights[cp.run]} against ${reference.logWeights[cp.run]}`);
    for (let r = 0; r < 2; r++) if (r !== cp.run) assert.equal(off.logWeights[r], reference.logWeights[r]);
  } finally {
    s.cleanup();
  }
});
