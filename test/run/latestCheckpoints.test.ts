// latestCheckpointWriter: checkpoints are written in a later turn of the event loop, the latest of
// each key only; flush writes what is left and rethrows the first error a write met.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setImmediate as turn } from "node:timers/promises";
import { latestCheckpointWriter } from "../../src/run/checkpoint.js";

test("latestCheckpointWriter writes the latest checkpoint of each key, later; flush writes the rest and rethrows a write's error", async () => {
  const written: [number, number][] = [];
  const w = latestCheckpointWriter((cp: { run: number; done: number }) => void written.push([cp.run, cp.done]), (cp) => cp.run);
  w.save({ run: 0, done: 1 });
  w.save({ run: 1, done: 1 });
  w.save({ run: 0, done: 2 });
  assert.deepEqual(written, [], "nothing is written in the turn the checkpoints came in");
  await turn();
  assert.deepEqual(written, [[0, 2], [1, 1]], "run 0's first checkpoint, superseded, is skipped");
  w.save({ run: 1, done: 5 });
  w.flush();
  assert.deepEqual(written, [[0, 2], [1, 1], [1, 5]]);
  await turn();
  assert.equal(written.length, 3, "a flushed checkpoint is not written again");

  const failing = latestCheckpointWriter((cp: { run: number }) => {
    if (cp.run === 1) throw new Error("disk full");
  }, (cp) => cp.run);
  failing.save({ run: 1 });
  await turn();
  assert.throws(() => failing.flush(), /disk full/);
});
