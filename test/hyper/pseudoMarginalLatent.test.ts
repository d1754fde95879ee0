/**
 * The pm scheme's f: drawn among the importance draws in proportion to their weights, f | theta
 * has the posterior p(f | theta, y). Checked on a separable n = 8 probit problem against a
 * long run of the aa scheme (whose theta is checked against the exact grid and whose f update,
 * HMC, is checked for invariance in test/samplers): the posterior means of f_i and f_i^2 agree
 * within 4 combined MCSE, and the variant that keeps the first importance draw fails.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mcseMean } from "../../src/diagnostics/mcse.js";
import { jointChain, type SchemeOptions } from "../../src/hyper/schemes.js";
import { probit } from "../../src/likelihoods/probit.js";
import { Rng } from "../../src/random/rng.js";
import { MarginalEstimateError } from "../../src/hyper/pseudoMarginal.js";
import { isUserError } from "../../src/cli/errors.js";
import { gridSpace } from "./hyperGrid.js";

// Eight inputs with the labels separated: f's posterior is skewed, Gaussians are not close to it.
const problem = { space: gridSpace([0, 0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4]), likelihood: probit, y: Float64Array.from([1, 1, 1, 1, -1, -1, -1, -1]) };

/** Per statistic (f_i, then f_i^2): the chains' draws. */
function fSeries(options: SchemeOptions, seed: number, burnIn: number, draws: number): Float64Array[][] {
  const series: Float64Array[][] = Array.from({ length: 6 }, () => []);
  for (let c = 0; c < 4; c++) {
    const rng = new Rng(seed + 1000 * c);
    const chain = jointChain(problem, options, [0, 0]);
    for (let i = 0; i < burnIn; i++) chain.step(rng);
    chain.freeze();
    const s = Array.from({ length: 6 }, () => new Float64Array(draws));
    for (let i = 0; i < draws; i++) {
      chain.step(rng);
      for (let k = 0; k < 3; k++) {
        s[k]![i] = chain.f[k]!;
        s[k + 3]![i] = chain.f[k]! ** 2;
      }
    }
    s.forEach((v, k) => series[k]!.push(v));
  }
  return series;
}

const mean = (chains: Float64Array[]) => chains.reduce((a, c) => a + c.reduce((x, y) => x + y, 0), 0) / chains.reduce((a, c) => a + c.length, 0);

function disagreements(options: SchemeOptions, reference: Float64Array[][]): string[] {
  const pm = fSeries(options, 41, 300, 1500);
  const names = ["E f1", "E f2", "E f3", "E f1^2", "E f2^2", "E f3^2"];
  return pm.flatMap((chains, k) => {
    const a = mean(chains), b = mean(reference[k]!);
    const se = Math.hypot(mcseMean(chains), mcseMean(reference[k]!));
    return Math.abs(a - b) > 4 * se ? [`${names[k]}: pm ${a.toFixed(3)}, aa ${b.toFixed(3)} (se ${se.toFixed(3)})`] : [];
  });
}

test("pm's f has the posterior's moments (n = 8 separable probit, against a long aa run), from EP's and from Laplace's draws; with f the first importance draw the check fails", () => {
  const reference = fSeries({ scheme: "aa", thetaSampler: "mh", latentUpdates: 3 }, 43, 500, 6000);
  assert.deepEqual(disagreements({ scheme: "pm" }, reference), []);
  assert.deepEqual(disagreements({ scheme: "pm", approximation: "laplace" }, reference), []);
  // Laplace's Gaussian is the farther from p(f | theta, y): its unweighted draws show
  assert.ok(disagreements({ scheme: "pm", approximation: "laplace", broken: "pm-first-draw" }, reference).length > 0, "the broken variant passed");
});

test("pm with no usable importance weight at its start: one error naming it, which the command line reports as bad input", () => {
  // a likelihood whose every draw has weight zero (Laplace and EP still see probit's derivatives and sites)
  const zero = { ...probit, logLikelihood: () => -Infinity };
  assert.throws(() => jointChain({ ...problem, likelihood: zero }, { scheme: "pm" }, [0, 0]).step(new Rng(1)), (e: unknown) => e instanceof MarginalEstimateError && /no importance draw has a usable weight, so the pm scheme cannot start/.test(e.message));
  assert.ok(isUserError(new MarginalEstimateError("x")));
  // the control: an error of another name is a bug
  assert.ok(!isUserError(new RangeError("x")));
});

test("pm: a proposal whose estimate has no usable weight is rejected and counted as divergent, never a NaN in the draws; with the plain likelihood there are none", () => {
  // every f with an entry beyond 6 has likelihood zero: proposals of a large signal variance get no usable weight
  const capped = { ...probit, logLikelihood: (yy: Float64Array, f: Float64Array) => (f.some((v) => Math.abs(v) > 6) ? -Infinity : probit.logLikelihood(yy, f)) };
  const count = (likelihood: typeof probit) => {
    const chain = jointChain({ ...problem, likelihood }, { scheme: "pm" }, [0, 0]);
    const rng = new Rng(5);
    let divergent = 0;
    for (let i = 0; i < 400; i++) {
      const it = chain.step(rng);
      divergent += it.theta.filter((s) => s.divergent).length;
      assert.ok(chain.t.every(Number.isFinite) && chain.f.every(Number.isFinite), `iteration ${i}: a non-finite draw`);
    }
    return divergent;
  };
  assert.ok(count(capped) > 0, "no proposal was counted");
  assert.equal(count(probit), 0);
});
