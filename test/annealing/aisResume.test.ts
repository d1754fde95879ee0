// Checkpoint and resume of AIS runs: a run continued from any of its checkpoints (written as the
// command line writes them, through encodeExact and back) reaches the log weight and the trace of
// the run never stopped, bit for bit, with RMHMC, HMC and elliptical slice transitions; so does a
// whole computation stopped part-way (StopFlag) and continued from its runs' last checkpoints,
// in this thread and on workers. Negative controls: a checkpoint whose generator state is
// replaced by the stream's start, whose log weight is dropped, or whose position is dropped, is
// caught by the same comparison.
import { test } from "node:test";
import assert from "node:assert/strict";
import { aisRunOn, aisTarget, runAis, type AisRunCheckpoint, type AisRunResult, type AisSpec } from "../../src/annealing/index.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { StopFlag } from "../../src/parallel/pool.js";
import { Rng } from "../../src/random/rng.js";
import { decodeExact, encodeExact } from "../../src/run/checkpoint.js";
import type { LatentSamplerSpec } from "../../src/samplers/registry.js";

function problem(): { X: Matrix; y: Float64Array } {
  const n = 12;
  const rng = new Rng(5, 0);
  const X = new Matrix(n, 1);
  for (let i = 0; i < n; i++) X.data[i] = rng.uniform() * 4;
  return { X, y: Float64Array.from(X.data, (x) => (Math.sin(x) > 0 ? 1 : -1)) };
}

const specWith = (transition: LatentSamplerSpec, temperatures = 10, runs = 2): AisSpec => ({
  model: { likelihood: "probit", logLengthscale: [0], logSignalSd: 0 },
  start: { kind: "prior" },
  schedule: { kind: "geometric", temperatures, betaMin: 1e-3 },
  transition,
  transitionsPerTemperature: 2,
  runs,
  seed: 29,
});

const TRANSITIONS: LatentSamplerSpec[] = [
  { sampler: "rmhmc", stepSize: 0.2, leapfrogSteps: 5, fixedPoint: { kind: "tolerance", tolerance: 1e-10 } },
  { sampler: "hmc", stepSize: 0.2, leapfrogSteps: 6 },
  { sampler: "ess" },
];

/** What must be equal bit for bit: the weight, the trace without its timings, the tallies. */
function outcome(r: AisRunResult): unknown {
  return { logWeight: r.logWeight, points: r.points.map((p) => [p.temperature, p.logWeight]), transitions: r.transitions, acceptanceRate: r.acceptanceRate, divergences: r.divergences, stopped: r.stopped };
}

const roundTrip = (cp: AisRunCheckpoint) => decodeExact<AisRunCheckpoint>(encodeExact(cp));

for (const transition of TRANSITIONS) {
  test(`${transition.sampler}: a run continued from each of its checkpoints has the weight and trace of the run never stopped; a checkpoint without its generator state, log weight or position is caught`, () => {
    const { X, y } = problem();
    const spec = specWith(transition);
    const target = aisTarget({ X, y }, spec);
    const run = 1;
    const plain = aisRunOn(target, spec, run);
    const checkpoints: AisRunCheckpoint[] = [];
    const withCheckpoints = aisRunOn(target, spec, run, { checkpoint: { every: 1, save: (cp) => checkpoints.push(roundTrip(cp)) } });
    assert.deepEqual(outcome(withCheckpoints), outcome(plain), "checkpointing changes nothing");
    assert.deepEqual(checkpoints.map((c) => c.done), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const cp of checkpoints) {
      const resumed = aisRunOn(target, spec, run, { resume: cp });
      assert.deepEqual(outcome(resumed), outcome(plain), `resumed after temperature ${cp.done}`);
    }
    // every 4 temperatures: after 4 and 8, and at the end
    const sparse: number[] = [];
    aisRunOn(target, spec, run, { checkpoint: { every: 4, save: (cp) => sparse.push(cp.done) } });
    assert.deepEqual(sparse, [4, 8, 10]);

    const mid = checkpoints[3]; // after temperature 4 of 10: transitions and increments still to come
    const broken: [string, AisRunCheckpoint][] = [
      ["the generator's state replaced by its stream's start", { ...mid, rng: new Rng(spec.seed, run).snapshot() }],
      ["the log weight dropped", { ...mid, logWeight: 0 }],
      ["the position dropped (zero instead)", { ...mid, position: new Float64Array(mid.position.length) }],
    ];
    for (const [what, cp] of broken) {
      const resumed = aisRunOn(target, spec, run, { resume: cp });
      assert.notEqual(resumed.logWeight, plain.logWeight, `${what}: not caught`);
    }
    assert.throws(() => aisRunOn(target, spec, 0, { resume: mid }), /the checkpoint is of a run with run 1, this run has 0/);
    assert.throws(() => aisRunOn(target, { ...spec, schedule: { ...spec.schedule, temperatures: 12 } }, run, { resume: mid }), /temperatures 10, this run has 12/);
  });
}

test("a computation stopped part-way and continued from its runs' last checkpoints has the weights of the computation never stopped, in this thread and on workers", async () => {
  const { X, y } = problem();
  // long enough that the starting thread hears of run 0's checkpoints while the workers still run
  const spec = specWith(TRANSITIONS[1], 1500, 3);
  const reference = await runAis({ X, y }, spec, { inProcess: true });
  assert.equal(reference.complete, true);
  for (const inProcess of [true, false]) {
    const stop = new StopFlag();
    const last: (AisRunCheckpoint | undefined)[] = [];
    const stopped = await runAis({ X, y }, spec, {
      inProcess, parallel: 2, stop,
      checkpoint: {
        every: 50,
        onCheckpoint: (cp) => {
          last[cp.run] = roundTrip(cp);
          if (cp.run === 0 && cp.done >= 100) stop.request();
        },
      },
    });
    assert.equal(stopped.complete, false);
    assert.ok(Number.isNaN(stopped.logZ));
    assert.ok(stopped.runs.some((r) => r.stopped));
    assert.ok(last.some((cp) => cp !== undefined && cp.done >= 100 && cp.done < 1500), "some run checkpointed part-way");
    const resumed = await runAis({ X, y }, spec, { inProcess, parallel: 2, resume: last });
    assert.equal(resumed.complete, true);
    assert.deepEqual(resumed.logWeights, reference.logWeights, inProcess ? "in this thread" : "on workers");
    assert.equal(resumed.logZ, reference.logZ);
    assert.deepEqual(resumed.runs.map(outcome), reference.runs.map(outcome));
  }
});
