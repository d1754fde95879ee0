// Every parametric sampler (samplers/parametricRegistry.ts, with its default settings and burn-in
// adaptation) leaves three targets invariant (invarianceHarness.ts; holmes-held, which needs a
// design and labels, the logistic one); the broken variants that the same check rejects are in
// parametricNegativeControls.test.ts and holmesHeld.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LOGISTIC_SMMALA_TARGET_ACCEPTANCE, LOGISTIC_TRAJECTORY_LENGTH, PARAMETRIC_SAMPLER_NAMES, parametricSampler, parametricSamplerApplies } from "../../src/samplers/parametricRegistry.js";
import { denseMetricTarget } from "../../src/targets/denseMetric.js";
import { BURN_IN, cases, expectPass, run } from "./invarianceHarness.js";

for (const name of PARAMETRIC_SAMPLER_NAMES) {
  test(`${name} (defaults, adapted in burn-in) leaves the gaussian, banana and logistic targets invariant`, (t) => {
    for (const c of cases) {
      const target = denseMetricTarget(c.model());
      if (!parametricSamplerApplies(target, name)) continue;
      const { kernel, adapt } = parametricSampler(target, name, Float64Array.from(c.init), BURN_IN);
      expectPass(t, run(kernel, c, adapt, 1000 + c.name.length), `${name} on ${c.name}`);
    }
  });
}


// logistic regression's default for RMHMC and HMC: the count of steps follows the adapted step size
// (round(2 / eps), round(3 / eps) with the Student-t kinetic energy, and for HMC uniform on 1..round(6 / eps)); the state-dependent count that the same check rejects is in parametricNegativeControls.test.ts
for (const name of ["rmhmc", "rmhmc-t", "hmc"] as const) {
  const length = LOGISTIC_TRAJECTORY_LENGTH[name];
  test(`${name} with the trajectory length ${length} (adapted in burn-in) leaves the gaussian, banana and logistic targets invariant`, (t) => {
    for (const c of cases) {
      const target = denseMetricTarget(c.model());
      const { kernel, adapt } = parametricSampler(target, name, Float64Array.from(c.init), BURN_IN, { trajectoryLength: length });
      expectPass(t, run(kernel, c, adapt, 2000 + c.name.length), `${name} length ${length} on ${c.name}`);
    }
  });
}

test(`smmala adapted to logistic regression's target acceptance ${LOGISTIC_SMMALA_TARGET_ACCEPTANCE} leaves the three targets invariant`, (t) => {
  for (const c of cases) {
    const target = denseMetricTarget(c.model());
    const { kernel, adapt } = parametricSampler(target, "smmala", Float64Array.from(c.init), BURN_IN, { smmalaTargetAcceptance: LOGISTIC_SMMALA_TARGET_ACCEPTANCE });
    assert.equal(kernel.tunable?.targetAcceptance, LOGISTIC_SMMALA_TARGET_ACCEPTANCE);
    expectPass(t, run(kernel, c, adapt, 3000 + c.name.length), `smmala target ${LOGISTIC_SMMALA_TARGET_ACCEPTANCE} on ${c.name}`);
  }
});
