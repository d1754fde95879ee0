/**
 * The sampling-phase clock of the parametric runs (cpuTimed): it counts the CPU time of the
 * transitions after the burn-in up to the last one, and not the time spent while a checkpoint is
 * written (between tallies.save() and the next transition), nor anything after the last
 * transition. Negative control: the same work done inside the transitions is counted.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpuTimed } from "../../src/grid/parametricChainJob.js";
import { Rng } from "../../src/random/rng.js";
import type { CountedStepInfo, Kernel, SamplerState } from "../../src/samplers/types.js";

/** Spins for `ms` milliseconds of CPU. */
function spin(ms: number): void {
  const from = process.cpuUsage();
  for (;;) {
    const t = process.cpuUsage(from);
    if ((t.user + t.system) / 1000 >= ms) return;
  }
}

function spinningKernel(ms: number): Kernel {
  return {
    name: "spin",
    init: (x) => ({ position: x, logDensity: 0 }),
    step: (state: SamplerState) => {
      spin(ms);
      return { state, info: { accepted: true, acceptanceProbability: 1, divergence: undefined, densityEvaluations: 1 } } as ReturnType<Kernel<SamplerState, CountedStepInfo>["step"]>;
    },
  };
}

test("cpuTimed counts the transitions after burn-in, up to the last, and not the time of a checkpoint's writing or after the end", () => {
  const skip = 3;
  const total = 9;
  const { kernel, seconds, tallies } = cpuTimed(spinningKernel(10), skip, total);
  const rng = new Rng(1);
  let state = kernel.init(new Float64Array(1));
  for (let i = 0; i < total; i++) {
    state = kernel.step(state, rng).state;
    if (i === 5) {
      const saved = tallies.save(); // a checkpoint: the writing (40 ms here) is not counted
      assert.equal(saved.transitions, 6);
      spin(40);
    }
  }
  spin(40); // after the last transition
  const s = seconds();
  // six timed transitions of 10 ms; the 80 ms outside them would bring it to 0.14 s
  assert.ok(s >= 0.059 && s < 0.09, `counted ${s} s`);
  // restored from a checkpoint: its time goes on from there
  tallies.restore({ transitions: 6, cpuMicros: 30_000 });
  for (let i = 6; i < total; i++) state = kernel.step(state, rng).state;
  const resumed = seconds();
  assert.ok(resumed >= 0.059 && resumed < 0.09, `resumed: ${resumed} s`);
});

test("cpuTimed, negative control: the same 80 ms spent inside the transitions are counted", () => {
  let calls = 0;
  const heavy: Kernel = {
    ...spinningKernel(10),
    step: (state: SamplerState, rng) => {
      calls++;
      if (calls === 6 || calls === 9) spin(40);
      return spinningKernel(10).step(state, rng);
    },
  };
  const { kernel, seconds } = cpuTimed(heavy, 3, 9);
  const rng = new Rng(1);
  let state = kernel.init(new Float64Array(1));
  for (let i = 0; i < 9; i++) state = kernel.step(state, rng).state;
  const s = seconds();
  assert.ok(s >= 0.139 && s < 0.2, `counted ${s} s`);
});
