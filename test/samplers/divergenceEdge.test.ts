// Step-size adaptation against divergent transitions (adaptation.ts, DualAveraging): a divergent
// transition counts as acceptance 0, and burn-in ends below the smallest step size at which a
// transition of its second half diverged. Checked on a kernel whose divergences start at a known
// step size (the divergence edge), against dual averaging as Stan runs it (divergences "ignore").
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import type { RandomSource } from "../../src/random/types.js";
import { DIVERGENCE_MARGIN, DualAveraging, type AdaptOptions } from "../../src/samplers/chain/adaptation.js";
import { runChain } from "../../src/samplers/chain/driver.js";
import type { Kernel, SamplerState, StepInfo, Tunable } from "../../src/samplers/types.js";

const EDGE = 0.5;

/**
 * A kernel that stays where it is and whose transitions diverge with probability
 * min(1, (step - EDGE) / (width EDGE)) above EDGE (width 0: always), never below. A transition
 * that does not diverge reports acceptance statistic `below` (a number, or a function of the
 * step); one that does reports `reported`, as a proposal that passed the Metropolis test and was
 * then rejected by RMHMC's reversibility check does (its min(1, exp(-dH))).
 */
function edgeKernel(width: number, below: number | ((step: number) => number), reported: number): Kernel {
  const tunable: Tunable = { name: "stepSize", value: 0.1, targetAcceptance: 0.8 };
  return {
    name: "edge",
    tunable,
    init: (x0: Float64Array): SamplerState => ({ position: Float64Array.from(x0), logDensity: 0 }),
    step(state: SamplerState, rng: RandomSource): { state: SamplerState; info: StepInfo } {
      const s = tunable.value;
      const p = s <= EDGE ? 0 : width === 0 ? 1 : Math.min(1, (s - EDGE) / (width * EDGE));
      const divergent = rng.uniform() < p;
      const info: StepInfo = {
        accepted: !divergent, acceptanceProbability: divergent ? reported : typeof below === "number" ? below : below(s), divergent, divergence: divergent ? "irreversible" : undefined,
        energy: 0, energyError: 0, stepSize: s, leapfrogSteps: 1, gradientCalls: 1, metricCalls: 0, fixedPointIterations: 0,
      };
      return { state, info };
    },
  };
}

function chain(kernel: Kernel, adapt: AdaptOptions, seed: number) {
  return runChain(kernel, new Rng(seed), { draws: 500, burnIn: 400, init: [0], adapt });
}

/** An acceptance statistic falling smoothly with the step, 0.9 at the edge (above the target 0.8). */
const falling = (s: number) => 0.9 ** ((s / EDGE) ** 2);

const cases: [string, () => Kernel][] = [
  ["divergent above the edge, a divergence reporting acceptance 0.95", () => edgeKernel(0, 1, 0.95)],
  ["divergence probability rising from 0 at the edge to 1 at twice it, reporting 0.9", () => edgeKernel(1, falling, 0.9)],
];

for (const [name, make] of cases) {
  test(`dual averaging ends burn-in below the divergence edge, with no divergent transition after it: ${name}`, () => {
    for (const seed of [1, 2, 3]) {
      const r = chain(make(), { method: "dual-averaging" }, seed);
      assert.ok(r.summary.burnInDivergences > 0, "the adaptation found the edge by crossing it");
      assert.ok(r.tunedValue! < EDGE, `seed ${seed}: step ${r.tunedValue} after burn-in`);
      assert.ok(r.tunedValue! > 0.5 * EDGE, `seed ${seed}: step ${r.tunedValue}, far below the edge`);
      assert.equal(r.summary.divergences, 0);
    }
  });

  test(`negative control: dual averaging as Stan runs it ends above the edge, and its chain diverges after burn-in: ${name}`, () => {
    let above = 0;
    for (const seed of [1, 2, 3]) {
      const r = chain(make(), { method: "dual-averaging", divergences: "ignore" }, seed);
      if (r.tunedValue! > EDGE && r.summary.divergences > 0) above++;
    }
    assert.equal(above, 3);
  });
}

test("a slowly rising divergence probability (0 at the edge, 1 at three times it, alpha 0 reported): below the edge in most chains, where Stan's rule ends above it in all", () => {
  // Here dual averaging's equilibrium lies above the edge, where 1-2% of the transitions diverge,
  // so the smallest divergent step of burn-in's second half can miss the edge by more than the
  // margin, and the fixed-step window of 40 transitions may see no divergence at such a rate.
  const seeds = [1, 2, 3, 4, 5, 6];
  const tally = (divergences: "edge" | "ignore") => {
    let below = 0, after = 0;
    for (const seed of seeds) {
      const r = chain(edgeKernel(2, falling, 0), { method: "dual-averaging", divergences }, seed);
      if (r.tunedValue! < EDGE) below++;
      after += r.summary.divergences;
    }
    return { below, after };
  };
  const edge = tally("edge");
  const stan = tally("ignore");
  assert.equal(stan.below, 0, "negative control: Stan's rule ends above the edge");
  assert.ok(stan.after > 30, `negative control: ${stan.after} divergent transitions after burn-in`);
  assert.ok(edge.below >= 5, `${edge.below} of 6 chains end below the edge`);
  assert.ok(edge.after * 5 < stan.after, `${edge.after} divergent transitions after burn-in against ${stan.after}`);
});

test("the divergence edge: only divergences of burn-in's second half count, burn-in ends at the margin below the smallest, and it survives a snapshot", () => {
  const da = new DualAveraging(0.4, 0.8, {}, 10);
  // first half (transitions 1-5): a divergence at the step in use is not an edge yet
  da.update(0.9, false, true);
  for (let i = 0; i < 4; i++) da.update(0.8, true);
  assert.equal(da.divergenceEdge(), undefined);
  const step = da.update(0.8, true); // transition 6, at the step the 5th update returned
  const stepUsed = da.update(0.8, false, true); // transition 7 diverges at `step`
  assert.equal(da.divergenceEdge(), step);
  da.update(0.8, false, true); // transition 8 diverges at `stepUsed`
  assert.equal(da.divergenceEdge(), Math.min(step, stepUsed));
  const again = new DualAveraging(0.4, 0.8, {}, 10);
  again.restore(da.snapshot());
  assert.equal(again.divergenceEdge(), da.divergenceEdge());
  assert.equal(again.final(), da.final());
  assert.equal(da.final(), Math.min(Math.exp(da.snapshot()[2]), DIVERGENCE_MARGIN * da.divergenceEdge()!));
  assert.ok(da.final() < da.divergenceEdge()!);
  // The last tenth of burn-in (transition 10 here) runs at that step, fixed, times the margin at each divergence.
  const candidate = da.final();
  assert.equal(da.update(0.8, true), candidate); // transition 9: the window starts after it
  assert.equal(da.update(0.1, false, true), DIVERGENCE_MARGIN * candidate);
  assert.equal(da.final(), DIVERGENCE_MARGIN * candidate);
  // A divergent transition counts as acceptance 0, whatever statistic it reports.
  const a = new DualAveraging(0.4, 0.8);
  const b = new DualAveraging(0.4, 0.8);
  const c = new DualAveraging(0.4, 0.8, { divergences: "ignore" });
  assert.equal(a.update(0.95, false, true), b.update(0, false));
  assert.equal(c.update(0.95, false, true), new DualAveraging(0.4, 0.8).update(0.95, false));
  assert.notEqual(a.snapshot()[1], c.snapshot()[1]);
  // Without a burn-in length there is no edge, and the snapshot keeps its four numbers.
  assert.equal(a.divergenceEdge(), undefined);
  assert.equal(a.snapshot().length, 4);
  assert.throws(() => new DualAveraging(0.4, 0.8, { divergences: "shrink" as never }), /divergences/);
});
