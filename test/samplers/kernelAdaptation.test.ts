/**
 * Kernels with their own burn-in adaptation (Kernel.adaptation: component-wise Metropolis's
 * per-coordinate windows, block Gibbs's per-block dual averaging, a joint (theta, f) scheme's two
 * tunables): a transition is a function of the state and the generator (a kernel stepped k times
 * and a fresh one, stepped from the same state on the same generator, make the same next state),
 * and the adapted values change only when the chain driver runs the adaptation (a chain without
 * burn-in leaves them as built). Negative controls: a kernel that runs its adaptation inside its
 * own step (a hidden count of transitions, as a kernel adapting on its own would) fails the first
 * check, and a chain with burn-in changes the values the second check says stay. A kernel whose
 * step a grid job wraps (grid/jobChain.ts withStep) keeps its adaptation (a wrapper without it
 * draws otherwise).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";
import { DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR, jointKernel } from "../../src/hyper/jointKernel.js";
import { svGibbsKernel, svInitialPoint } from "../../src/models/volatility/gibbs.js";
import { simulateVolatility } from "../../src/models/volatility/svSimulate.js";
import { withStep } from "../../src/grid/jobChain.js";
import { runChain } from "../../src/samplers/chain/driver.js";
import { componentwiseMetropolis } from "../../src/samplers/kernels/mhComponentwise.js";
import { latentSamplerSpec } from "../../src/samplers/registry.js";
import type { Kernel, SamplerState, StepInfo } from "../../src/samplers/types.js";
import { gaussianTarget, GAUSS_COV, GAUSS_MEAN } from "./fixtures.js";

const gauss = gaussianTarget(GAUSS_MEAN, GAUSS_COV);
const x0 = new Float64Array(3);
const componentwise = () => componentwiseMetropolis(gauss, { adapt: true, window: 2 });

const returns = simulateVolatility(30, 0.65, 0.15, 0.98, 4).y;
const svInit = svInitialPoint(returns);
const gibbs = () => svGibbsKernel(returns, { parameters: { sampler: "mmala", leapfrogSteps: 3 }, volatilities: { sampler: "mmala", leapfrogSteps: 3 }, adapt: true });

/** The kernel as a kernel adapting on its own would be: its adaptation run inside its step. */
function adaptingInItsStep<S extends SamplerState, I extends StepInfo>(kernel: Kernel<S, I>): Kernel<S, I> {
  return {
    name: kernel.name,
    init: (x) => kernel.init(x),
    step(state, rng) {
      const r = kernel.step(state, rng);
      kernel.adaptation!.update(r.info);
      return r;
    },
  };
}

/**
 * The next position from the state a kernel reached in k transitions, from that kernel and from a
 * fresh one built the same (initialised at the same point), on the same generator.
 */
function nextFromBoth<S extends SamplerState>(make: () => Kernel<S, StepInfo>, start: Float64Array, k: number, seed: number): { stepped: Float64Array; fresh: Float64Array } {
  const a = make();
  let state = a.init(start);
  const rng = new Rng(seed);
  for (let i = 0; i < k; i++) state = a.step(state, rng).state;
  const at = rng.snapshot();
  const stepped = Float64Array.from(a.step(state, Rng.restore(at)).state.position);
  const b = make();
  b.init(start);
  const fresh = Float64Array.from(b.step(state, Rng.restore(at)).state.position);
  return { stepped, fresh };
}

test("mh-componentwise: a transition is a function of the state and the generator; a kernel adapting in its step is not", () => {
  const r = nextFromBoth(componentwise, x0, 12, 4);
  assert.deepEqual(r.stepped, r.fresh);
  const control = nextFromBoth(() => adaptingInItsStep(componentwise()), x0, 12, 4);
  assert.notDeepEqual(control.stepped, control.fresh, "the check sees the scales a kernel adapted on its own");
});

test("block Gibbs (stochastic volatility): a sweep is a function of the state and the generator; a kernel adapting in its sweep is not", () => {
  const r = nextFromBoth(gibbs, svInit, 4, 6);
  assert.deepEqual(r.stepped, r.fresh);
  const control = nextFromBoth(() => adaptingInItsStep(gibbs()), svInit, 4, 6);
  assert.notDeepEqual(control.stepped, control.fresh, "the check sees the step sizes a kernel adapted on its own");
});

test("mh-componentwise: the scales change only in the driver's burn-in", () => {
  const built = componentwise();
  built.init(x0);
  const initial = built.scales();
  const still = componentwise();
  runChain(still, new Rng(2), { draws: 40, burnIn: 0, init: x0 });
  assert.deepEqual(still.scales(), initial, "no burn-in: the scales as built");
  const adapted = componentwise();
  runChain(adapted, new Rng(2), { draws: 20, burnIn: 20, init: x0 });
  assert.notDeepEqual(adapted.scales(), initial, "negative control: burn-in adapts them");
});

test("block Gibbs (stochastic volatility): the step sizes change only in the driver's burn-in", () => {
  const stepSizes = (k: ReturnType<typeof gibbs>) => k.summary().map((b) => b.stepSize);
  const built = gibbs();
  const initial = stepSizes(built);
  const still = gibbs();
  const r = runChain(still, new Rng(3), { draws: 6, burnIn: 0, init: svInit });
  assert.ok(r.summary.acceptanceRate > 0, "the sweeps moved");
  assert.deepEqual(stepSizes(still), initial, "no burn-in: the step sizes as built");
  assert.ok(still.summary().every((b) => b.transitions === 6), "every sweep counted");
  const adapted = gibbs();
  runChain(adapted, new Rng(3), { draws: 3, burnIn: 3, init: svInit });
  assert.notDeepEqual(stepSizes(adapted), initial, "negative control: burn-in adapts them");
  assert.ok(adapted.summary().every((b) => b.transitions === 3), "the tallies count the sweeps after burn-in");
});

test("joint (theta, f) kernel: the tunables change only in the driver's burn-in", () => {
  const n = 8;
  const rng = new Rng(8);
  const X = new Matrix(n, 2, Float64Array.from({ length: 2 * n }, () => 3 * rng.uniform()));
  const y = Float64Array.from({ length: n }, (_, i) => (Math.sin(2 * X.get(i, 0)) + Math.cos(X.get(i, 1)) > 0 ? 1 : -1));
  const make = () => jointKernel(X, y, { likelihood: "probit", lengthscalePrior: DEFAULT_LENGTHSCALE_PRIOR, variancePrior: DEFAULT_VARIANCE_PRIOR }, {
    scheme: "sa", thetaSampler: "mh", latent: latentSamplerSpec({ sampler: "hmc-v2", maxLeapfrogSteps: 4 } as never),
  });
  const start = new Float64Array(3 + n);
  const built = make();
  built.init(start);
  const initial = built.tunables();
  const still = make();
  runChain(still, new Rng(5), { draws: 10, burnIn: 0, init: start });
  assert.deepEqual(still.tunables(), initial, "no burn-in: the tunables as built");
  const adapted = make();
  runChain(adapted, new Rng(5), { draws: 5, burnIn: 5, init: start });
  assert.notDeepEqual(adapted.tunables(), initial, "negative control: burn-in adapts them");
});

test("mh-componentwise wrapped by the grid's withStep adapts as it does unwrapped; a wrapper without its adaptation draws otherwise", () => {
  const options = { draws: 20, burnIn: 20, init: x0 };
  const plain = runChain(componentwise(), new Rng(7), options);
  const inner = componentwise();
  const wrapped = runChain(withStep(inner, (s, rng) => inner.step(s, rng)), new Rng(7), options);
  assert.deepEqual(wrapped.samples, plain.samples);
  const bare = componentwise();
  const { adaptation: _dropped, ...withoutAdaptation } = withStep(bare, (s, rng) => bare.step(s, rng));
  assert.notDeepEqual(runChain(withoutAdaptation, new Rng(7), options).samples, plain.samples, "negative control");
});
