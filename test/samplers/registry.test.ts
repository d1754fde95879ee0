// The sampler registry: its names and documented defaults (stated here independently of the
// table), that each name builds the kernel it documents (same draws as the kernel built by hand
// with that meaning, different draws from the other meaning), each tunable under its own field,
// and one clear error for a field a sampler does not have.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import { sample } from "../../src/samplers/chain/driver.js";
import { hmc } from "../../src/samplers/kernels/hmc.js";
import { identityMass, massFromInverseCholesky } from "../../src/samplers/integrators/massMatrix.js";
import {
  DEFAULT_LATENT_SAMPLER,
  defaultTargetAcceptance,
  isLatentSamplerName,
  LATENT_SAMPLER_NAMES,
  latentSampler,
  latentSamplerInfo,
  latentSamplerSpec,
  leapfrogSteps,
  tunableValue,
  type LatentSamplerSpecInput,
} from "../../src/samplers/registry.js";
import { rmhmc } from "../../src/samplers/kernels/rmhmc.js";
import type { Kernel } from "../../src/samplers/types.js";
import { probitProblem } from "./latentFixtures.js";

/** `count` transitions from x0 on stream `seed`: the positions visited. */
function path(kernel: Kernel, seed: number, count: number): number[] {
  const rng = new Rng(seed);
  let state = kernel.init(new Float64Array([0.3, -0.2]));
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    state = kernel.step(state, rng).state;
    out.push(...state.position);
  }
  return out;
}

test("the registry's names and the defaults the README and `gpmcmc sample --help` document", () => {
  assert.deepEqual([...LATENT_SAMPLER_NAMES], ["laplace-hmc", "laplace-nuts", "rmhmc", "hmc", "mh", "mh-v1", "mh-v2", "ess", "hmc-v1", "hmc-v2", "smmala", "exact-hmc", "mgrad"]);
  assert.equal(DEFAULT_LATENT_SAMPLER, "laplace-nuts");
  assert.deepEqual(latentSamplerSpec("laplace-hmc"), { sampler: "laplace-hmc", stepSize: 0.5, leapfrogSteps: 8, randomiseSteps: true, targetAcceptance: 0.65 });
  assert.deepEqual(leapfrogSteps(latentSamplerSpec("laplace-hmc")), { steps: 8, randomised: true });
  assert.ok(isLatentSamplerName("hmc-v2") && !isLatentSamplerName("nuts"));
  assert.deepEqual(latentSamplerSpec("rmhmc"), { sampler: "rmhmc", stepSize: 0.1, leapfrogSteps: 10, targetAcceptance: 0.9 });
  assert.deepEqual(latentSamplerSpec("hmc"), { sampler: "hmc", stepSize: 0.1, leapfrogSteps: 10, mass: "prior", targetAcceptance: 0.65 });
  assert.deepEqual(latentSamplerSpec("hmc-v1"), { sampler: "hmc-v1", stepSize: 0.1, maxLeapfrogSteps: 10, targetAcceptance: 0.65 });
  assert.deepEqual(latentSamplerSpec("smmala"), { sampler: "smmala", stepSize: 0.5, targetAcceptance: 0.574 });
  assert.deepEqual(latentSamplerSpec("mh"), { sampler: "mh", proposalSd: 0.1, targetAcceptance: 0.25 });
  assert.deepEqual(latentSamplerSpec("mh-v2"), { sampler: "mh-v2", alpha: 0.1, targetAcceptance: 0.25 });
  assert.deepEqual(latentSamplerSpec("ess"), { sampler: "ess" });
  assert.deepEqual(latentSamplerSpec("exact-hmc"), { sampler: "exact-hmc" });
  assert.deepEqual(latentSamplerSpec("mgrad"), { sampler: "mgrad", stepSize: 1, targetAcceptance: 0.55 });
  assert.equal(tunableValue(latentSamplerSpec("exact-hmc")), undefined);
  // a field given overrides its default and nothing else; one given as undefined is unset
  assert.deepEqual(latentSamplerSpec({ sampler: "rmhmc", leapfrogSteps: 5, stepSize: undefined }), { sampler: "rmhmc", stepSize: 0.1, leapfrogSteps: 5, targetAcceptance: 0.9 });
  assert.equal(tunableValue(latentSamplerSpec({ sampler: "mh-v1", alpha: 0.3 })), 0.3);
  assert.equal(tunableValue(latentSamplerSpec({ sampler: "mh", proposalSd: 0.2 })), 0.2);
  assert.equal(tunableValue(latentSamplerSpec("ess")), undefined);
  assert.deepEqual(leapfrogSteps(latentSamplerSpec("hmc-v2")), { steps: 10, randomised: true });
  assert.deepEqual(leapfrogSteps(latentSamplerSpec("rmhmc")), { steps: 10, randomised: false });
  assert.equal(leapfrogSteps(latentSamplerSpec("smmala")), undefined);
});

test("every name builds a kernel of that name whose tunable starts at the registry's value and aims at its target acceptance", () => {
  const { target } = probitProblem();
  for (const name of LATENT_SAMPLER_NAMES) {
    const kernel = latentSampler(target, name);
    assert.equal(kernel.name, name);
    if (latentSamplerInfo[name].tunable === undefined) {
      assert.equal(kernel.tunable, undefined, name);
    } else {
      assert.equal(kernel.tunable!.value, tunableValue(latentSamplerSpec(name)), name);
      assert.equal(kernel.tunable!.targetAcceptance, defaultTargetAcceptance(name), name);
      const input = { sampler: name, targetAcceptance: 0.4 } as LatentSamplerSpecInput;
      assert.equal(latentSampler(target, input).tunable!.targetAcceptance, 0.4, name);
    }
    const r = sample(kernel, { draws: 50, burnIn: 50, seed: 1, init: [0, 0], adapt: { method: "dual-averaging" } });
    assert.ok(r.samples.every(Number.isFinite), name);
  }
});

test('"hmc" means the prior mass M^-1 = K with a fixed trajectory length; mass "identity" is the option', () => {
  const { target } = probitProblem();
  const prior = hmc(target, { stepSize: 0.1, leapfrogSteps: 10, mass: massFromInverseCholesky(target.kernelCholesky) });
  const identity = hmc(target, { stepSize: 0.1, leapfrogSteps: 10, mass: identityMass(2) });
  assert.deepEqual(path(latentSampler(target, "hmc"), 5, 30), path(prior, 5, 30));
  assert.deepEqual(path(latentSampler(target, { sampler: "hmc", mass: "identity" }), 5, 30), path(identity, 5, 30));
  // negative control: the two meanings are told apart by this comparison
  assert.notDeepEqual(path(prior, 5, 30), path(identity, 5, 30));
});

test('"rmhmc" means step 0.1 and 10 leapfrog steps every transition', () => {
  const { target } = probitProblem();
  const byHand = rmhmc(target, { stepSize: 0.1, leapfrogSteps: 10, targetAcceptance: 0.9 });
  assert.deepEqual(path(latentSampler(target, "rmhmc"), 3, 20), path(byHand, 3, 20));
  const randomised = rmhmc(target, { stepSize: 0.1, leapfrogSteps: 10, randomiseSteps: true });
  assert.notDeepEqual(path(byHand, 3, 20), path(randomised, 3, 20));
});

test("a field a sampler does not have, or an unknown name, is one RangeError naming it", () => {
  const { target } = probitProblem();
  const bad = (input: unknown) => () => latentSampler(target, input as LatentSamplerSpecInput);
  assert.throws(bad({ sampler: "rmhmc", mass: "identity" }), /^RangeError: mass does not apply to sampler rmhmc \(its fields: stepSize, /);
  assert.throws(bad({ sampler: "ess", stepSize: 0.1 }), /^RangeError: stepSize does not apply to sampler ess \(it has none\)$/);
  assert.throws(bad({ sampler: "mh-v1", stepSize: 0.1 }), /stepSize does not apply to sampler mh-v1 \(its fields: alpha, targetAcceptance\)/);
  assert.throws(bad({ sampler: "nuts" }), /unknown sampler "nuts" \(known: laplace-hmc, laplace-nuts, rmhmc, hmc, mh, /);
});
