// Numerically broken trajectories are rejections counted as divergences, never exceptions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { NotPositiveDefiniteError } from "../../src/linalg/errors.js";
import { Rng } from "../../src/random/rng.js";
import { hmc } from "../../src/samplers/kernels/hmc.js";
import { rmhmc } from "../../src/samplers/kernels/rmhmc.js";
import type { Target } from "../../src/targets/types.js";
import { GAUSS_COV, GAUSS_MEAN, gaussianTarget, varyingMetricProblem, withDiagonalPlusConstantMetric } from "./fixtures.js";

/** A standard normal in 2-D whose log density is NaN (or -Infinity, or throws) once x0 > 1. */
function cliff(kind: "nan" | "-inf" | "not-pd" | "bug"): Target & { logDensityAndGradient(x: Float64Array, g: Float64Array): number } {
  return {
    dim: 2,
    logDensity: (x) => -0.5 * (x[0] * x[0] + x[1] * x[1]),
    logDensityAndGradient(x, g) {
      if (x[0] > 1) {
        if (kind === "not-pd") throw new NotPositiveDefiniteError(0, -1, "test matrix");
        if (kind === "bug") throw new TypeError("a bug in the target");
        g[0] = NaN;
        g[1] = NaN;
        return kind === "nan" ? NaN : -Infinity;
      }
      g[0] = -x[0];
      g[1] = -x[1];
      return -0.5 * (x[0] * x[0] + x[1] * x[1]);
    },
  };
}

const start = Float64Array.from([0.9, 0]);
const push = Float64Array.from([5, 0]);

test("HMC: a non-finite log density is a rejected, divergent transition", () => {
  for (const kind of ["nan", "-inf"] as const) {
    const k = hmc(cliff(kind), { stepSize: 0.1, leapfrogSteps: 10 });
    const s = k.init(start);
    const r = k.transition(s, push, Math.log(0.5), 10);
    assert.equal(r.info.divergent, true);
    assert.equal(r.info.divergence, "non-finite");
    assert.equal(r.info.accepted, false);
    assert.equal(r.info.acceptanceProbability, 0);
    assert.equal(r.state, s);
    assert.ok(Number.isFinite(r.info.energy), "the reported energy is the start's");
    assert.ok(r.info.leapfrogSteps < 10, "the trajectory stops at the failure");
  }
});

test("HMC: a numerical failure raised by the target is a divergence; any other error propagates", () => {
  const k = hmc(cliff("not-pd"), { stepSize: 0.1, leapfrogSteps: 10 });
  const s = k.init(start);
  const r = k.transition(s, push, Math.log(0.5), 10);
  assert.equal(r.info.divergence, "numerical-error");
  assert.equal(r.state, s);
  const bug = hmc(cliff("bug"), { stepSize: 0.1, leapfrogSteps: 10 });
  assert.throws(() => bug.transition(bug.init(start), push, Math.log(0.5), 10), TypeError);
});

test("HMC: an energy rise above the threshold is a divergence, below it an ordinary Metropolis decision", () => {
  const target = gaussianTarget(GAUSS_MEAN, GAUSS_COV);
  const unstable = hmc(target, { stepSize: 2.5, leapfrogSteps: 30 });
  const s = unstable.init(Float64Array.from(GAUSS_MEAN));
  const r = unstable.transition(s, Float64Array.from([1, 1, 1]), Math.log(1e-300), 30);
  assert.equal(r.info.divergent, true);
  assert.ok(r.info.divergence === "energy-error" || r.info.divergence === "non-finite", String(r.info.divergence));
  // A moderate energy error with a low threshold.
  const strict = hmc(target, { stepSize: 0.5, leapfrogSteps: 5, divergenceThreshold: 1e-6 });
  const r2 = strict.transition(strict.init(Float64Array.from(GAUSS_MEAN)), Float64Array.from([2, -1, 1]), -Infinity, 5);
  assert.ok(r2.info.energyError > 1e-6);
  assert.equal(r2.info.divergence, "energy-error");
  assert.equal(r2.info.accepted, false);
  const lenient = hmc(target, { stepSize: 0.5, leapfrogSteps: 5 });
  const r3 = lenient.transition(lenient.init(Float64Array.from(GAUSS_MEAN)), Float64Array.from([2, -1, 1]), -Infinity, 5);
  assert.equal(r3.info.divergent, false);
  assert.equal(r3.info.accepted, true);
});

test("HMC: a chain on a target with a cliff runs to the end and counts its divergences", () => {
  const k = hmc(cliff("nan"), { stepSize: 0.5, leapfrogSteps: 10 });
  const rng = new Rng(3);
  let s = k.init(Float64Array.from([0, 0]));
  let divergences = 0;
  for (let t = 0; t < 500; t++) {
    const r = k.step(s, rng);
    if (r.info.divergent) divergences++;
    s = r.state;
    assert.ok(s.position[0] <= 1);
  }
  assert.ok(divergences > 10, `only ${divergences} divergences`);
});

/** The 3-D varying-metric problem with a geometry that fails beyond x0 > 2 in the way given. */
function rmCliff(kind: "nan" | "not-pd") {
  const { base } = varyingMetricProblem();
  return withDiagonalPlusConstantMetric(
    { dim: 3, logDensityAndGradient: (x, g) => (x[0] > 2 && kind === "nan" ? NaN : base.logDensityAndGradient(x, g)) },
    [[0.5, 0, 0], [0, 0.5, 0], [0, 0, 0.5]],
    (x, d, jac) => {
      jac.fill(0);
      for (let i = 0; i < 3; i++) d[i] = 1;
      if (x[0] > 2 && kind === "not-pd") d[0] = -10; // G loses positive definiteness
    },
  );
}

test("RMHMC: non-finite density and a metric that is not positive definite are divergences, not exceptions", () => {
  for (const [kind, reason] of [["nan", "non-finite"], ["not-pd", "numerical-error"]] as const) {
    for (const variant of ["fast", "reference"] as const) {
      const k = rmhmc(rmCliff(kind), { stepSize: 0.2, leapfrogSteps: 10, variant });
      const s = k.init(Float64Array.from([1.8, 0, 0]));
      const r = k.transition(s, Float64Array.from([8, 0, 0]), Math.log(0.5), 10);
      assert.equal(r.info.divergent, true, `${kind} ${variant}`);
      assert.equal(r.info.divergence, reason, `${kind} ${variant}`);
      assert.equal(r.state, s);
      assert.equal(r.info.accepted, false);
    }
  }
});

test("RMHMC: a fixed-point solve that does not converge within the maximum is a divergence", () => {
  const { target } = varyingMetricProblem();
  const x0 = Float64Array.from([0.5, -1, 2]);
  const p0 = Float64Array.from([1, 2, -1]);
  const tight = rmhmc(target, { stepSize: 0.3, leapfrogSteps: 5, fixedPointTolerance: 1e-14, maxFixedPointIterations: 3 });
  const r = tight.transition(tight.init(x0), p0, Math.log(0.5), 5);
  assert.equal(r.info.divergence, "fixed-point");
  assert.equal(r.info.accepted, false);
  assert.equal(r.info.fixedPointIterations, 3, "gives up after the first unconverged solve");
  // The same transition with room to converge is an ordinary one.
  const loose = rmhmc(target, { stepSize: 0.3, leapfrogSteps: 5, fixedPointTolerance: 1e-14, maxFixedPointIterations: 100 });
  const r2 = loose.transition(loose.init(x0), p0, Math.log(0.5), 5);
  assert.equal(r2.info.divergent, false);
  // A fixed count never reports non-convergence.
  const fixed = rmhmc(target, { stepSize: 0.3, leapfrogSteps: 5, fixedPointIterations: 3 });
  assert.equal(fixed.transition(fixed.init(x0), p0, Math.log(0.5), 5).info.divergent, false);
});

test("options are validated when the kernel is built", () => {
  const g = gaussianTarget(GAUSS_MEAN, GAUSS_COV);
  assert.throws(() => hmc(g, { stepSize: 0, leapfrogSteps: 5 }), RangeError);
  assert.throws(() => hmc(g, { stepSize: 0.1, leapfrogSteps: 0 }), RangeError);
  const { target } = varyingMetricProblem();
  assert.throws(() => rmhmc(target, { stepSize: 0.1, leapfrogSteps: 5, fixedPointIterations: 5, fixedPointTolerance: 1e-8 }), RangeError);
  assert.throws(() => rmhmc(g, { stepSize: 0.1, leapfrogSteps: 5 }), /no local geometry/);
  const noDense = { ...target, geometry: (x: Float64Array) => ({ ...target.geometry(x), inverseMetricMatrix: undefined }) };
  assert.throws(() => rmhmc(noDense, { stepSize: 0.1, leapfrogSteps: 5, variant: "reference" }).init(Float64Array.from([0, 0, 0])), /inverseMetricMatrix/);
});
