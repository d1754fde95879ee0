// The generalised leapfrog (note eqs. 13-15, Algorithm 1): reversibility, second-order energy
// error, and the fast and reference variants giving the same trajectory and decisions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import { rmhmc, type RmhmcOptions } from "../../src/samplers/kernels/rmhmc.js";
import { gpLogisticProblem, varyingMetricProblem, type GeometryTarget } from "./fixtures.js";

const problems: [string, () => GeometryTarget][] = [
  ["3-D Gaussian with G(x) = diag(exp(A x)) + C", () => varyingMetricProblem().target],
  ["GP logistic classification, n = 2, Hessian metric", () => gpLogisticProblem().target],
];

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>, sign = 1): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - sign * b[i]));
  return m;
}

/** Forward l steps, negate the momentum, forward l steps again: returns the distance to (x0, -p0). */
function reversalError(target: GeometryTarget, opts: Omit<RmhmcOptions, "leapfrogSteps">, seed: number, steps = 10): { position: number; momentum: number; moved: number } {
  const k = rmhmc(target, { ...opts, leapfrogSteps: steps });
  const rng = new Rng(seed);
  const x0 = Float64Array.from({ length: target.dim }, () => rng.normal());
  const s0 = k.init(x0);
  const p0 = new Float64Array(target.dim);
  k.sampleMomentum(s0, rng, p0);
  const forward = k.integrate(s0, p0, steps);
  assert.equal(forward.divergence, undefined);
  const back = k.integrate(k.init(forward.position), forward.momentum.map((v) => -v), steps);
  assert.equal(back.divergence, undefined);
  return { position: maxAbsDiff(back.position, x0), momentum: maxAbsDiff(back.momentum, p0, -1), moved: maxAbsDiff(forward.position, x0) };
}

for (const [name, make] of problems) {
  test(`generalised leapfrog is reversible once the fixed points converge: ${name}`, () => {
    for (const seed of [1, 2, 3]) {
      const e = reversalError(make(), { stepSize: 0.3, fixedPointTolerance: 1e-13, maxFixedPointIterations: 500 }, seed);
      assert.ok(e.moved > 0.3, `the trajectory should go somewhere (moved ${e.moved})`);
      assert.ok(e.position < 1e-9 && e.momentum < 1e-9, `reversal error ${e.position}, ${e.momentum}`);
    }
  });

  test(`negative control: one fixed-point iteration (explicit Euler halves) is visibly not reversible: ${name}`, () => {
    const e = reversalError(make(), { stepSize: 0.3, fixedPointIterations: 1 }, 1);
    assert.ok(Math.max(e.position, e.momentum) > 1e-3, `reversal error ${e.position}, ${e.momentum}`);
  });

  test(`energy error is second order in the step size over a fixed time: ${name}`, () => {
    const target = make();
    const rng = new Rng(11);
    const x0 = Float64Array.from({ length: target.dim }, () => rng.normal());
    const ratios: number[] = [];
    let prev = NaN;
    for (const [eps, steps] of [[0.2, 5], [0.1, 10], [0.05, 20]]) {
      const k = rmhmc(target, { stepSize: eps, leapfrogSteps: steps, fixedPointTolerance: 1e-13, maxFixedPointIterations: 500 });
      const s = k.init(x0);
      const p = Float64Array.from({ length: target.dim }, (_, i) => [1.2, -0.8, 0.5][i]);
      const t = k.integrate(s, p, steps);
      const err = Math.abs(t.endEnergy - t.startEnergy);
      if (!Number.isNaN(prev)) ratios.push(prev / err);
      prev = err;
    }
    for (const r of ratios) assert.ok(r > 3 && r < 5.5, `|dH(e)| / |dH(e/2)| = ${r}, expected about 4`);
  });
}

test("negative control: with the wrong sign of dG/dx in dH/dx the energy error does not fall as e^2", () => {
  const target = varyingMetricProblem({ flipDg: true }).target;
  const x0 = Float64Array.from([0.2, -0.5, 1.5]);
  const errs: number[] = [];
  for (const [eps, steps] of [[0.1, 10], [0.05, 20]]) {
    const k = rmhmc(target, { stepSize: eps, leapfrogSteps: steps, fixedPointTolerance: 1e-13, maxFixedPointIterations: 500 });
    const t = k.integrate(k.init(x0), Float64Array.from([1.2, -0.8, 0.5]), steps);
    errs.push(Math.abs(t.endEnergy - t.startEnergy));
  }
  assert.ok(errs[0] / errs[1] < 2, `ratio ${errs[0] / errs[1]}`);
});

for (const [name, make] of problems) {
  for (const mode of [{ fixedPointTolerance: 1e-10 }, { fixedPointIterations: 5 }] as const) {
    test(`fast and reference integrators agree from the same position and momentum (${JSON.stringify(mode)}): ${name}`, () => {
      const target = make();
      const fast = rmhmc(target, { stepSize: 0.25, leapfrogSteps: 8, variant: "fast", ...mode });
      const ref = rmhmc(target, { stepSize: 0.25, leapfrogSteps: 8, variant: "reference", ...mode });
      const rng = new Rng(21);
      let decisionsCompared = 0;
      for (let trial = 0; trial < 10; trial++) {
        const x0 = Float64Array.from({ length: target.dim }, () => rng.normal());
        const sf = fast.init(x0);
        const sr = ref.init(x0);
        const p0 = new Float64Array(target.dim);
        fast.sampleMomentum(sf, rng, p0);
        target.calls.geometry = 0;
        target.calls.inverse = 0;
        const tf = fast.integrate(sf, p0, 8);
        const fastCalls = { ...target.calls };
        target.calls.geometry = 0;
        target.calls.inverse = 0;
        const tr = ref.integrate(sr, p0, 8);
        const refCalls = { ...target.calls };
        assert.ok(maxAbsDiff(tf.position, tr.position) < 1e-8, "positions differ");
        assert.ok(maxAbsDiff(tf.momentum, tr.momentum) < 1e-8, "momenta differ");
        assert.ok(Math.abs(tf.endEnergy - tr.endEnergy) < 1e-8 && Math.abs(tf.startEnergy - tr.startEnergy) < 1e-12, "energies differ");
        assert.equal(tf.fixedPointIterations, tr.fixedPointIterations);
        // The fast variant computes one full geometry per leapfrog step and only G^-1 inside the
        // position loop; the reference recomputes the full geometry at every iteration (line 22).
        assert.equal(fastCalls.geometry, 8);
        assert.equal(tf.metricCalls, 8);
        assert.equal(refCalls.inverse, 0);
        assert.equal(refCalls.geometry, tr.metricCalls);
        assert.equal(fastCalls.inverse, tf.inverseMetricCalls);
        assert.equal(refCalls.geometry, fastCalls.geometry + fastCalls.inverse);
        if ("fixedPointIterations" in mode) assert.equal(refCalls.geometry, 8 * 5);
        // Accept decisions: the same for log u on either side of -dH.
        const dH = tf.endEnergy - tf.startEnergy;
        for (const logU of [-dH - 1e-3, -dH + 1e-3, Math.log(0.5), -5]) {
          const a = fast.transition(sf, p0, logU, 8);
          const b = ref.transition(sr, p0, logU, 8);
          assert.equal(a.info.accepted, b.info.accepted);
          assert.ok(Math.abs(a.info.acceptanceProbability - b.info.acceptanceProbability) < 1e-8);
          assert.ok(Math.abs(a.info.energy - b.info.energy) < 1e-8);
          assert.ok(maxAbsDiff(a.state.position, b.state.position) < 1e-8);
          decisionsCompared++;
        }
      }
      assert.equal(decisionsCompared, 40);
    });
  }
}

test("fixed-count mode runs exactly f iterations per implicit equation", () => {
  const target = varyingMetricProblem().target;
  const k = rmhmc(target, { stepSize: 0.2, leapfrogSteps: 6, fixedPointIterations: 5 });
  const t = k.integrate(k.init(Float64Array.from([0.1, -0.2, 0.3])), Float64Array.from([1, 0, -1]), 6);
  assert.equal(t.fixedPointIterations, 6 * 2 * 5);
  // dH/dx: 5 per momentum solve plus 1 for eq. (15); G^-1 at x_new: 4 cheap and 1 full per step.
  assert.equal(t.gradientCalls, 6 * 6);
  assert.equal(t.inverseMetricCalls, 6 * 4);
  assert.equal(t.metricCalls, 6);
});

test("a transition keeps the start state's position and geometry intact", () => {
  const target = gpLogisticProblem().target;
  const k = rmhmc(target, { stepSize: 0.3, leapfrogSteps: 5 });
  const rng = new Rng(4);
  let s = k.init(Float64Array.from([0.5, -0.5]));
  for (let t = 0; t < 50; t++) {
    const before = s.position.slice();
    const lp = s.logDensity;
    const r = k.step(s, rng);
    assert.deepEqual(Array.from(s.position), Array.from(before));
    assert.equal(s.logDensity, lp);
    assert.ok(Math.abs(target.logDensity(r.state.position) - r.state.logDensity) < 1e-12);
    assert.ok(r.state.position !== s.position || !r.info.accepted);
    s = r.state;
  }
});

test("randomised trajectory lengths are uniform on 1..leapfrogSteps", () => {
  const target = gpLogisticProblem().target;
  const k = rmhmc(target, { stepSize: 0.2, leapfrogSteps: 4, randomiseSteps: true });
  const rng = new Rng(8);
  let s = k.init(Float64Array.from([0.3, -0.3]));
  const counts = [0, 0, 0, 0, 0];
  for (let t = 0; t < 400; t++) {
    const r = k.step(s, rng);
    assert.equal(r.info.divergent, false);
    counts[r.info.leapfrogSteps]++;
    s = r.state;
  }
  assert.equal(counts[0], 0);
  // 100 expected in each of 1..4; sd about 8.7
  for (let l = 1; l <= 4; l++) assert.ok(Math.abs(counts[l] - 100) < 35, `length ${l}: ${counts[l]}`);
});
