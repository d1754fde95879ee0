import { test } from "node:test";
import assert from "node:assert/strict";
import { formatReport, type SampleReport } from "../../src/cli/sample.js";
import { essGeyer } from "../../src/diagnostics/ess.js";
import { rhatClassic } from "../../src/diagnostics/rhat.js";
import { Rng } from "../../src/random/rng.js";
import type { ChainResult } from "../../src/samplers/chain/driver.js";
import { summariseRun } from "../../src/run/summary.js";

/** A fake chain of `draws` draws of `dim` variables: AR(1) series with coefficient phi, shifted by `shift`. */
function chain(c: number, draws: number, dim: number, phi: number, shift = 0): ChainResult {
  const rng = new Rng(4, c);
  const samples = new Float64Array(draws * dim);
  const prev = new Float64Array(dim);
  for (let i = 0; i < draws; i++) {
    for (let j = 0; j < dim; j++) {
      prev[j] = phi * prev[j] + Math.sqrt(1 - phi * phi) * rng.normal();
      samples[i * dim + j] = prev[j] + shift;
    }
  }
  const zeros = () => new Float64Array(draws);
  return {
    chain: c, dim, draws, samples,
    stats: { lp: zeros(), acceptStat: zeros(), stepSize: zeros(), nLeapfrog: zeros(), divergent: new Uint8Array(draws), energy: zeros() },
    tunedValue: 0.1,
    summary: {
      transitions: 2 * draws, acceptanceRate: 0.5 + 0.1 * c, meanAcceptStat: 0.6, divergences: c, burnInAcceptanceRate: 0.4, burnInDivergences: 1,
      gradientCalls: 0, metricCalls: 0, inverseMetricCalls: 0, fixedPointIterations: 0, leapfrogSteps: 0, densityEvaluations: 0,
    },
    seconds: { burnIn: 1, sampling: 2, total: 3 },
  };
}

function traces(results: ChainResult[], j: number): Float64Array[] {
  return results.map((r) => Float64Array.from({ length: r.draws }, (_, i) => r.samples[i * r.dim + j]));
}

test("summariseRun: min/median/max Geyer ESS and max classic R-hat over the variables, rates and times over the chains", () => {
  // variable 2 mixes slowly (phi 0.9) in both chains: it has the smallest ESS
  const results = [0, 1].map((c) => chain(c, 400, 3, 0.2));
  const slow = [0, 1].map((c) => chain(c + 10, 400, 1, 0.9));
  results.forEach((r, c) => { for (let i = 0; i < r.draws; i++) r.samples[i * 3 + 2] = slow[c].samples[i]; });
  const s = summariseRun(results);
  const ess = [0, 1, 2].map((j) => essGeyer(traces(results, j)));
  const rhat = [0, 1, 2].map((j) => rhatClassic(traces(results, j)));
  assert.equal(s.minEss, Math.min(...ess));
  assert.equal(s.minEssVariable, "f.3");
  assert.equal(s.maxEss, Math.max(...ess));
  assert.equal(s.medianEss, [...ess].sort((a, b) => a - b)[1]);
  assert.equal(s.rhatMax, Math.max(...rhat));
  assert.ok(s.minEss! < 0.3 * s.maxEss!, "the slow variable has a visibly smaller ESS");
  assert.ok(Math.abs(s.acceptanceRate - 0.55) < 1e-12);
  assert.equal(s.divergences, 1);
  assert.equal(s.burnInDivergences, 2);
  assert.equal(s.samplingSeconds, 4);
  assert.equal(s.seconds, 6);
  assert.equal(s.essPerSecond, s.minEss! / 4);
});

test("summariseRun: chains stuck apart give a large R-hat; one chain gives none; too few draws give no ESS (null, not NaN, in JSON)", () => {
  const apart = summariseRun([chain(0, 200, 2, 0.3), chain(1, 200, 2, 0.3, 5)]);
  assert.ok(apart.rhatMax! > 2, `R-hat ${apart.rhatMax}`);
  const one = summariseRun([chain(0, 200, 2, 0.3)]);
  assert.equal(one.rhatMax, null);
  assert.ok(one.minEss! > 0);
  const few = summariseRun([chain(0, 3, 2, 0.3), chain(1, 3, 2, 0.3)]);
  assert.equal(few.minEss, null);
  assert.equal(few.essPerSecond, null);
  assert.match(JSON.stringify(few), /"minEss":null/);
  const text = formatReport({
    ...one, gpmcmc: "x", node: "x", backend: "js", parallel: 1, complete: true, startedAt: "2026-01-01T00:00:00.000Z", data: { file: "d.csv", n: 2, d: 1 }, jitter: 0, out: null, files: [],
    run: { model: { likelihood: "probit", logLengthscale: [0], logSignalSd: 0 }, sampler: { sampler: "hmc", stepSize: 0.1, leapfrogSteps: 10 }, draws: 200, burnIn: 0, thin: 1, chains: 1, seed: 1 },
  } satisfies SampleReport);
  assert.match(text, /R-hat \(classic, max over f\): n\/a with one chain/);
});

test("summariseRun: a stopped run's chains of different lengths are summarised over the shortest's draws; unstopped ones must agree", () => {
  const long = chain(0, 300, 2, 0.3);
  const short = { ...chain(1, 120, 2, 0.3), stopped: true };
  const s = summariseRun([{ ...long, stopped: true }, short]);
  assert.equal(s.draws, 120);
  assert.deepEqual(s.perChain.map((c) => [c.draws, c.complete]), [[300, false], [120, false]]);
  const cut = { ...long, draws: 120, samples: long.samples.subarray(0, 240) };
  assert.equal(s.minEss, summariseRun([cut, short]).minEss);
  assert.throws(() => summariseRun([long, chain(1, 120, 2, 0.3)]), /chains differ in draws/);
});
