// The runs of an AIS computation go to worker threads; run r always uses stream r of the seed,
// so the log weights are the same bit for bit in this thread, on one worker and on two.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runAis, type AisSpec } from "../../src/annealing/index.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";

test("AIS runs give the same log weights in-process, on 1 worker and on 2 workers; a different seed gives others", async () => {
  const n = 12;
  const rng = new Rng(3, 0);
  const X = new Matrix(n, 1);
  for (let i = 0; i < n; i++) X.data[i] = rng.uniform() * 4;
  const y = Float64Array.from(X.data, (x) => (Math.sin(x) > 0 ? 1 : -1));
  const spec: AisSpec = {
    model: { likelihood: "probit", logLengthscale: [0], logSignalSd: 0 },
    start: { kind: "prior" },
    schedule: { kind: "geometric", temperatures: 15 },
    transition: { sampler: "rmhmc", stepSize: 0.2, leapfrogSteps: 5 },
    runs: 4,
    seed: 17,
  };
  const here = await runAis({ X, y }, spec, { inProcess: true });
  const one = await runAis({ X, y }, spec, { parallel: 1 });
  const two = await runAis({ X, y }, spec, { parallel: 2 });
  assert.equal(here.workers, 0);
  assert.equal(two.workers, 2);
  assert.deepEqual(one.logWeights, here.logWeights);
  assert.deepEqual(two.logWeights, here.logWeights);
  assert.deepEqual(two.runs.map((r) => r.run), [0, 1, 2, 3]);
  const other = await runAis({ X, y }, { ...spec, seed: 18 }, { parallel: 2 });
  assert.notDeepEqual(other.logWeights, here.logWeights);
});
