import { test } from "node:test";
import assert from "node:assert/strict";
import {
  autocorrelation,
  essBasic,
  essBulk,
  essGeyer,
  essGeyerSingle,
  essMean,
  essQuantile,
  essTail,
  geyerInitialMonotone,
  integratedAutocorrelationTime,
  mcseMean,
  mcseQuantile,
} from "../../src/diagnostics/index.js";
import { Rng } from "../../src/random/index.js";
import { ar1, ar1Tau, assertClose, iidNormal } from "./helpers.js";
import { FIXTURES } from "./fixtures.js";

const toChains = (c: number[][]): Float64Array[] => c.map((x) => Float64Array.from(x));

// ---------------------------------------------------------------------------------------------
// AR(1) chains: x_t = phi x_{t-1} + sqrt(1 - phi^2) e_t has rho_t = phi^t, so the integrated
// autocorrelation time is tau = 1 + 2 sum_{t>=1} phi^t = (1 + phi) / (1 - phi) and ESS = N / tau.
//
// Tolerances come from the sampling spread of the estimators on these very settings, measured
// by test/diagnostics/reference/calibrate_ar1.py (200 replicate chains each, numpy/scipy):
//   single chain, N = 100000, phi = 0.9:  sd of ESS-hat/ESS = 0.041   -> tolerance 0.165 (4 sd)
//   single chain, N = 100000, phi = 0.5:  sd 0.018                      -> 0.075
//   single chain, N = 100000, phi = -0.5: sd 0.024                      -> 0.10
//   4 chains x 25000, phi = 0.9, multi-chain Geyer: sd 0.036            -> 0.145
//   4 chains x 25000, phi = 0.9, bulk ESS: sd 0.043                     -> 0.17
//   4 chains x 25000, phi = -0.5, bulk ESS: sd 0.024                    -> 0.10
//   single chain, N = 20000, iid: sd 0.020, mean 0.989                 -> 0.09 (4 sd + bias)
//   4 chains x 5000, iid: Geyer, bulk, mean, tail ESS: sd 0.021-0.024, mean 0.98-0.99 -> 0.10
// A correct estimator falls outside 4 sd with probability ~1e-4; the seeds are fixed, so
// the tests are deterministic. The tolerances are tight enough that the usual mistakes fail
// (see the negative controls below: dropping the factor 2 in tau = 1 + 2 sum rho_t is off by
// 47% at phi = 0.9, 33% at phi = 0.5 and 100% at phi = -0.5; ignoring autocorrelation
// altogether is off by a factor tau).
// ---------------------------------------------------------------------------------------------

const SINGLE = [
  { phi: 0.9, tol: 0.165, seed: 101 },
  { phi: 0.5, tol: 0.075, seed: 102 },
  { phi: -0.5, tol: 0.1, seed: 103 },
];

test("single-chain Geyer ESS of long AR(1) chains is N / tau within its sampling error", () => {
  const n = 100000;
  for (const { phi, tol, seed } of SINGLE) {
    const x = ar1(n, phi, new Rng(seed));
    const ess = essGeyerSingle(x);
    const rel = ess / (n / ar1Tau(phi)) - 1;
    assert.ok(Math.abs(rel) < tol, `phi=${phi}: ESS ${ess.toFixed(0)} vs ${(n / ar1Tau(phi)).toFixed(0)} (rel err ${rel.toFixed(3)}, tol ${tol})`);
    const tau = integratedAutocorrelationTime(x);
    assert.ok(Math.abs(tau / ar1Tau(phi) - 1) < tol / (1 - tol), `phi=${phi}: tau ${tau} vs ${ar1Tau(phi)}`);
    assertClose(ess, n / tau, 1e-12, "ESS = N / tau");
  }
});

test("negative control: an ESS with the factor 2 dropped, or no autocorrelation at all, fails the AR(1) check", () => {
  const n = 100000;
  for (const { phi, tol, seed } of SINGLE) {
    const x = ar1(n, phi, new Rng(seed));
    const rho = autocorrelation(x);
    // Same truncation as Geyer's, but tau = 1 + sum rho_t instead of 1 + 2 sum rho_t.
    const { pairs } = geyerInitialMonotone(rho);
    let sum = 0;
    for (let t = 1; t < 2 * pairs; t++) sum += rho[t];
    const wrongFactor = n / (1 + sum);
    const noAutocorrelation = n;
    for (const wrong of [wrongFactor, noAutocorrelation]) {
      const rel = wrong / (n / ar1Tau(phi)) - 1;
      assert.ok(Math.abs(rel) > tol, `phi=${phi}: broken ESS ${wrong.toFixed(0)} should fail (rel err ${rel.toFixed(3)})`);
    }
  }
});

test("multi-chain Geyer ESS and bulk ESS of AR(1) chains are m n / tau within their sampling error", () => {
  const m = 4, n = 25000;
  for (const { phi, tolGeyer, tolBulk, seed } of [
    { phi: 0.9, tolGeyer: 0.145, tolBulk: 0.17, seed: 201 },
    { phi: -0.5, tolGeyer: 0.1, tolBulk: 0.1, seed: 202 },
  ]) {
    const rng = new Rng(seed);
    const chains = Array.from({ length: m }, () => ar1(n, phi, rng));
    const truth = (m * n) / ar1Tau(phi);
    const geyer = essGeyer(chains);
    const bulk = essBulk(chains);
    assert.ok(Math.abs(geyer / truth - 1) < tolGeyer, `phi=${phi}: Geyer ESS ${geyer.toFixed(0)} vs ${truth.toFixed(0)}`);
    assert.ok(Math.abs(bulk / truth - 1) < tolBulk, `phi=${phi}: bulk ESS ${bulk.toFixed(0)} vs ${truth.toFixed(0)}`);
  }
});

test("iid draws give ESS close to N (single chain and across chains)", () => {
  const rng = new Rng(301);
  const x = iidNormal(20000, rng);
  const ess = essGeyerSingle(x);
  assert.ok(Math.abs(ess / 20000 - 1) < 0.09, `ESS ${ess}`);
  const chains = Array.from({ length: 4 }, () => iidNormal(5000, rng));
  for (const [name, v] of [["essGeyer", essGeyer(chains)], ["essBulk", essBulk(chains)], ["essMean", essMean(chains)], ["essTail", essTail(chains)]] as const) {
    assert.ok(Math.abs(v / 20000 - 1) < 0.1, `${name} ${v}`);
  }
});

test("chains stuck at different values: the multi-chain ESS is tiny, not N", () => {
  const rng = new Rng(302);
  const chains = [iidNormal(1000, rng), iidNormal(1000, rng, 10), iidNormal(1000, rng, -10)];
  assert.ok(essGeyer(chains) < 10, `essGeyer ${essGeyer(chains)}`);
  assert.ok(essBasic(chains) < 10, `essBasic ${essBasic(chains)}`);
});

test("ESS estimators equal the independent numpy/scipy reference values on fixed sequences", () => {
  const rel = 1e-9; // FFT vs direct sums; the recursions are the same arithmetic
  for (const f of FIXTURES) {
    const chains = toChains(f.chains);
    const e = f.expected;
    assertClose(essBulk(chains), e.essBulk, rel, `${f.name}: essBulk`);
    assertClose(essTail(chains), e.essTail, rel, `${f.name}: essTail`);
    assertClose(essGeyer(chains), e.essGeyer, rel, `${f.name}: essGeyer`);
    assertClose(essBasic(chains), e.essBasicSplit, rel, `${f.name}: essBasic split`);
    assertClose(essBasic(chains, { split: false }), e.essBasicUnsplit, rel, `${f.name}: essBasic unsplit`);
    assertClose(essMean(chains), e.essBasicSplit, rel, `${f.name}: essMean`);
    assertClose(essQuantile(chains, 0.25), e.essQuantile25, rel, `${f.name}: essQuantile(0.25)`);
    assertClose(essQuantile(chains, 0.05), e.essQuantile05, rel, `${f.name}: essQuantile(0.05)`);
    assertClose(mcseMean(chains), e.mcseMean, rel, `${f.name}: mcseMean`);
    assertClose(mcseQuantile(chains, 0.05), e.mcseQuantile05, rel, `${f.name}: mcseQuantile(0.05)`, 1e-12);
    assertClose(mcseQuantile(chains, 0.5), e.mcseQuantile50, rel, `${f.name}: mcseQuantile(0.5)`, 1e-12);
    assertClose(mcseQuantile(chains, 0.95), e.mcseQuantile95, rel, `${f.name}: mcseQuantile(0.95)`, 1e-12);
    f.essGeyerSingle.forEach((v, c) => assertClose(essGeyerSingle(chains[c]), v, rel, `${f.name}: essGeyerSingle chain ${c}`));
  }
});

test("Geyer's initial monotone sequence: truncation at the first non-positive pair and the monotone fix", () => {
  // Pairs: (1 + 0.5) = 1.5, (0.4 + 0.3) = 0.7, (0.5 + 0.4) = 0.9 -> 0.7 (monotone), (0.1 - 0.2) < 0 stops.
  const est = geyerInitialMonotone([1, 0.5, 0.4, 0.3, 0.5, 0.4, 0.1, -0.2, 0.9, 0.9]);
  assert.equal(est.pairs, 3);
  assertClose(est.tau, -1 + 2 * (1.5 + 0.7 + 0.7), 1e-15, "tau");
  // Independent draws: rho = (1, 0, 0, ...) gives tau = 1.
  assert.equal(geyerInitialMonotone([1, 0, 0, 0]).tau, 1);
});

test("constant or non-finite draws give NaN ESS; stuck-but-different chains do not", () => {
  const c = [new Float64Array(20).fill(1), new Float64Array(20).fill(1)];
  assert.ok(Number.isNaN(essGeyer(c)) && Number.isNaN(essBulk(c)) && Number.isNaN(essTail(c)));
  assert.ok(Number.isNaN(essGeyerSingle(c[0])));
  const bad = [Float64Array.from({ length: 20 }, (_, i) => i), Float64Array.from({ length: 20 }, (_, i) => (i === 3 ? NaN : i))];
  assert.ok(Number.isNaN(essGeyer(bad)) && Number.isNaN(essBulk(bad)) && Number.isNaN(mcseMean(bad)));
});
