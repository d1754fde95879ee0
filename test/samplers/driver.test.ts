// The chain driver: reproducibility, burn-in adaptation, thinning, storage layout, progress.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import type { RandomSource } from "../../src/random/types.js";
import { AcceptanceWindow, DualAveraging } from "../../src/samplers/chain/adaptation.js";
import { chainTrace, runChain, sample, type Progress } from "../../src/samplers/chain/driver.js";
import { hmc } from "../../src/samplers/kernels/hmc.js";
import { rmhmc } from "../../src/samplers/kernels/rmhmc.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "../../src/samplers/types.js";
import { GAUSS_COV, GAUSS_MEAN, gaussianTarget, gpLogisticProblem } from "./fixtures.js";

const gauss = () => gaussianTarget(GAUSS_MEAN, GAUSS_COV);

test("same seed, same draws and statistics; another seed or another chain, other draws", () => {
  const makers: [() => Kernel<SamplerState>, number[]][] = [
    [() => hmc(gauss(), { stepSize: 0.3, leapfrogSteps: 7, randomiseSteps: true }), [0.1, 0.2, 0.3]],
    [() => rmhmc(gpLogisticProblem().target, { stepSize: 0.3, leapfrogSteps: 3 }), [0.1, 0.2]],
  ];
  for (const [make, init] of makers) {
    const opts = { draws: 200, burnIn: 50, chains: 2, seed: 7, init, adapt: { method: "dual-averaging" as const } };
    const a = sample(make(), opts);
    const b = sample(make(), opts);
    assert.deepEqual(a.samples, b.samples);
    assert.deepEqual(a.stats, b.stats);
    const c = sample(make(), { ...opts, seed: 8 });
    assert.notDeepEqual(a.samples, c.samples);
    assert.notDeepEqual(chainTrace(a, 0, 0), chainTrace(a, 1, 0));
  }
});

test("a chain of sample() is runChain on new Rng(seed, c), and the kernel's tunable is left as it was", () => {
  const kernel = hmc(gauss(), { stepSize: 0.2, leapfrogSteps: 5 });
  const all = sample(kernel, { draws: 100, burnIn: 100, chains: 3, seed: 99, init: GAUSS_MEAN, adapt: { method: "dual-averaging" } });
  assert.equal(kernel.tunable.value, 0.2);
  const single = runChain(kernel, new Rng(99, 2), { draws: 100, burnIn: 100, init: GAUSS_MEAN, adapt: { method: "dual-averaging" } });
  assert.equal(kernel.tunable.value, 0.2);
  assert.deepEqual(single.samples, all.samples.subarray(2 * 100 * 3, 3 * 100 * 3));
  assert.deepEqual(single.stats.lp, all.stats.lp.subarray(200, 300));
  assert.equal(single.tunedValue, all.chainResults[2].tunedValue);
  // Layout: samples[(c * draws + i) * dim + j].
  assert.equal(all.samples.length, 3 * 100 * 3);
  assert.equal(chainTrace(all, 1, 2)[5], all.samples[(1 * 100 + 5) * 3 + 2]);
});

/** A 10-D Gaussian with standard deviations 1..2, on which HMC's acceptance falls smoothly with the step size. */
function spread(): ReturnType<typeof gaussianTarget> {
  const d = 10;
  const cov = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? (1 + i / (d - 1)) ** 2 : 0)));
  return gaussianTarget(new Array<number>(d).fill(0), cov);
}

function acceptanceAfterBurnIn(initial: number, adapt: Parameters<typeof sample>[1]["adapt"], seed = 1) {
  const kernel = hmc(spread(), { stepSize: initial, leapfrogSteps: 5, randomiseSteps: true });
  const r = sample(kernel, { draws: 1500, burnIn: 1500, chains: 1, seed, init: new Array<number>(10).fill(0), adapt });
  return { rate: r.chainResults[0].summary.meanAcceptStat, accepted: r.chainResults[0].summary.acceptanceRate, step: r.chainResults[0].tunedValue!, stepStats: r.stats.stepSize };
}

test("dual averaging moves the step size towards the target acceptance, from either side, during burn-in only", () => {
  for (const delta of [0.65, 0.9]) {
    for (const initial of [0.005, 4]) {
      const r = acceptanceAfterBurnIn(initial, { method: "dual-averaging", targetAcceptance: delta });
      assert.ok(Math.abs(r.rate - delta) < 0.06, `delta ${delta} from ${initial}: mean accept stat ${r.rate}, step ${r.step}`);
      assert.ok(r.stepStats.every((v) => v === r.step), "the step size is fixed after burn-in");
    }
  }
  // Without adaptation the same starts stay far from the target (the check above can fail).
  assert.ok(acceptanceAfterBurnIn(0.005, undefined).rate > 0.99);
  assert.ok(acceptanceAfterBurnIn(4, undefined).rate < 0.3);
});

test("the acceptance-window rule brings the acceptance rate into its band", () => {
  for (const initial of [0.01, 4]) {
    const r = acceptanceAfterBurnIn(initial, { method: "window", window: 50, lower: 0.6, upper: 0.8, factor: 1.3 });
    assert.ok(r.accepted > 0.5 && r.accepted < 0.9, `from ${initial}: acceptance ${r.accepted}, step ${r.step}`);
  }
});

test("adapters: dual averaging's final value is its running average; the window rule changes only at window ends", () => {
  // At exactly the target acceptance Hbar stays 0, so every iterate is mu = log(10 e0) (Hoffman & Gelman's shrinkage point).
  const da = new DualAveraging(0.3, 0.8);
  for (let i = 0; i < 200; i++) assert.ok(Math.abs(da.update(0.8, true) - 3) < 1e-12);
  assert.ok(Math.abs(da.final() - 3) < 1e-12);
  // Always above the target: the step keeps growing; always below: it keeps shrinking.
  const up = new DualAveraging(0.3, 0.8);
  const down = new DualAveraging(0.3, 0.8);
  let u = 0, d = Infinity;
  for (let i = 0; i < 50; i++) {
    const a = up.update(1, true);
    const b = down.update(0, false);
    assert.ok(a > u && b < d);
    u = a;
    d = b;
  }
  const w = new AcceptanceWindow(1, 0.5, { window: 4, lower: 0.4, upper: 0.6, factor: 2 });
  assert.equal(w.update(1, true), 1);
  assert.equal(w.update(1, true), 1);
  assert.equal(w.update(1, true), 1);
  assert.equal(w.update(1, true), 2); // 4/4 accepted > 0.6: multiply
  for (let i = 0; i < 3; i++) w.update(0, false);
  assert.equal(w.update(0, false), 1); // 0/4 < 0.4: divide
  for (let i = 0; i < 2; i++) w.update(0, true);
  for (let i = 0; i < 2; i++) w.update(0, false);
  assert.equal(w.final(), 1); // 2/4 inside the band
});

/** A deterministic kernel whose position counts its transitions, for thinning and bookkeeping. */
function countingKernel(): Kernel & { calls: number } {
  const tunable: Tunable = { name: "stepSize", value: 1, targetAcceptance: 0.5 };
  const k = {
    name: "counter",
    calls: 0,
    tunable,
    init: (x0: Float64Array): SamplerState => ({ position: Float64Array.from(x0), logDensity: 0 }),
    step(state: SamplerState, _rng: RandomSource): { state: SamplerState; info: StepInfo } {
      k.calls++;
      const t = state.position[0] + 1;
      const info: StepInfo = {
        accepted: t % 2 === 0, acceptanceProbability: 0.5, divergent: t % 5 === 0, energy: -t, energyError: 0, stepSize: tunable.value,
        leapfrogSteps: t, gradientCalls: 1, metricCalls: 0, fixedPointIterations: 0,
      };
      return { state: { position: Float64Array.from([t, -t]), logDensity: t }, info };
    },
  };
  return k;
}

test("burn-in and thinning: burnIn + draws * thin transitions, every thin-th kept with its own statistics", () => {
  const k = countingKernel();
  const progress: Progress[] = [];
  const r = runChain(k, new Rng(1), { draws: 7, burnIn: 10, thin: 3, init: [0, 0], onProgress: (p) => progress.push(p), progressInterval: 4 });
  assert.equal(k.calls, 10 + 7 * 3);
  assert.equal(r.summary.transitions, 31);
  const kept = Array.from({ length: 7 }, (_, i) => 10 + 3 * (i + 1));
  assert.deepEqual(Array.from(r.samples.filter((_, i) => i % 2 === 0)), kept);
  assert.deepEqual(Array.from(r.samples.filter((_, i) => i % 2 === 1)), kept.map((t) => -t));
  assert.deepEqual(Array.from(r.stats.lp), kept);
  assert.deepEqual(Array.from(r.stats.nLeapfrog), kept);
  assert.deepEqual(Array.from(r.stats.energy), kept.map((t) => -t));
  assert.deepEqual(Array.from(r.stats.divergent), kept.map((t) => (t % 5 === 0 ? 1 : 0)));
  // Divergences and acceptance over all 21 sampling transitions (t = 11..31), burn-in apart (t = 1..10).
  assert.equal(r.summary.divergences, [15, 20, 25, 30].length);
  assert.equal(r.summary.burnInDivergences, 2);
  assert.equal(r.summary.acceptanceRate, 10 / 21);
  assert.equal(r.summary.burnInAcceptanceRate, 0.5);
  assert.equal(r.summary.gradientCalls, 31);
  // Progress: every 4 transitions and at the end of each phase.
  const last = progress[progress.length - 1];
  assert.equal(last.iteration, 31);
  assert.equal(last.iterations, 31);
  assert.equal(last.phase, "sampling");
  assert.ok(progress.some((p) => p.phase === "burn-in" && p.iteration === 10));
  assert.ok(progress.every((p, i) => i === 0 || p.iteration > progress[i - 1].iteration));
});

test("initial points: one for all chains, one per chain, or drawn per chain by initFn", () => {
  const k = countingKernel();
  const perChain = sample(k, { draws: 1, chains: 2, seed: 1, init: [[0, 0], [100, 0]] });
  assert.deepEqual(Array.from(perChain.samples), [1, -1, 101, -101]);
  const seen: number[] = [];
  const fromFn = sample(k, { draws: 1, chains: 3, seed: 1, initFn: (c) => { seen.push(c); return [10 * c, 0]; } });
  assert.deepEqual(seen, [0, 1, 2]);
  assert.deepEqual(Array.from(fromFn.samples.filter((_, i) => i % 2 === 0)), [1, 11, 21]);
  assert.throws(() => sample(k, { draws: 1, seed: 1 }), /init/);
  assert.throws(() => sample(k, { draws: 1, chains: 3, seed: 1, init: [[0, 0], [1, 1]] }), /starting points/);
  assert.throws(() => runChain(k, new Rng(1), { draws: 1, thin: 0, init: [0, 0] }), /thin/);
});

test("timings are reported in seconds and add up", () => {
  const r = sample(hmc(gauss(), { stepSize: 0.3, leapfrogSteps: 5 }), { draws: 200, burnIn: 100, seed: 1, init: GAUSS_MEAN });
  const s = r.chainResults[0].seconds;
  assert.ok(s.burnIn >= 0 && s.sampling > 0 && Math.abs(s.total - s.burnIn - s.sampling) < 1e-9 && r.seconds.total >= s.total);
});
