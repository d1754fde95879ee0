import { test } from "node:test";
import assert from "node:assert/strict";
import {
  autocorrelation,
  autocovariance,
  combinedAutocorrelation,
  DiagnosticsInputError,
  essGeyer,
  essGeyerSingle,
  fft,
  geyerInitialMonotone,
  meanAutocovariance,
  nextPowerOfTwo,
} from "../../src/diagnostics/index.js";
import { DIRECT_LAGS, lazyMeanAutocovariance } from "../../src/diagnostics/autocorrelation.js";
import { Rng } from "../../src/random/index.js";
import { directAutocovariance, iidNormal, ar1 } from "./helpers.js";
import { FIXTURES } from "./fixtures.js";

test("fft equals the O(n^2) DFT sum and its inverse undoes it", () => {
  const rng = new Rng(11);
  for (const n of [1, 2, 4, 8, 64, 256]) {
    const re = iidNormal(n, rng), im = iidNormal(n, rng);
    const r = Float64Array.from(re), i = Float64Array.from(im);
    fft(r, i);
    let scale = 0;
    for (let k = 0; k < n; k++) scale = Math.max(scale, Math.abs(re[k]) + Math.abs(im[k]));
    for (let k = 0; k < n; k++) {
      let sr = 0, si = 0;
      for (let j = 0; j < n; j++) {
        const a = (-2 * Math.PI * j * k) / n;
        sr += re[j] * Math.cos(a) - im[j] * Math.sin(a);
        si += re[j] * Math.sin(a) + im[j] * Math.cos(a);
      }
      assert.ok(Math.abs(r[k] - sr) < 1e-12 * n * scale && Math.abs(i[k] - si) < 1e-12 * n * scale, `n=${n} k=${k}`);
    }
    fft(r, i, true);
    for (let k = 0; k < n; k++) assert.ok(Math.abs(r[k] - re[k]) < 1e-13 * scale && Math.abs(i[k] - im[k]) < 1e-13 * scale);
  }
});

test("fft refuses a length that is not a power of two", () => {
  assert.throws(() => fft(new Float64Array(6), new Float64Array(6)), (e: unknown) => e instanceof DiagnosticsInputError && /power of two/.test(e.message));
  assert.equal(nextPowerOfTwo(1), 1);
  assert.equal(nextPowerOfTwo(5), 8);
  assert.equal(nextPowerOfTwo(1024), 1024);
});

test("FFT autocovariance equals the direct O(N^2) sum (N = 1, 2, 3, 37, 1000, 1025)", () => {
  const rng = new Rng(12);
  for (const n of [1, 2, 3, 37, 1000, 1025]) {
    const x = ar1(n, 0.7, rng, 3); // a non-zero mean: the centring must happen
    const fast = autocovariance(x);
    const slow = directAutocovariance(x);
    assert.equal(fast.length, n);
    for (let t = 0; t < n; t++) assert.ok(Math.abs(fast[t] - slow[t]) <= 1e-12 * Math.max(slow[0], 1e-300), `n=${n} lag ${t}: ${fast[t]} vs ${slow[t]}`);
  }
});

test("autocovariance matches the fixture computed by numpy's direct sum", () => {
  for (const f of FIXTURES) {
    const fast = autocovariance(Float64Array.from(f.chains[0]));
    for (let t = 0; t < fast.length; t++) assert.ok(Math.abs(fast[t] - f.acovChain0[t]) <= 1e-12 * f.acovChain0[0], `${f.name} lag ${t}`);
  }
});

test("meanAutocovariance (two chains per transform) equals the average of direct sums, odd and even chain counts", () => {
  const rng = new Rng(13);
  for (const m of [1, 2, 3, 5]) {
    const chains = Array.from({ length: m }, (_, c) => ar1(101, 0.5, rng, c));
    const fast = meanAutocovariance(chains);
    const slow = new Float64Array(101);
    for (const x of chains) directAutocovariance(x).forEach((v, t) => (slow[t] += v / m));
    for (let t = 0; t < 101; t++) assert.ok(Math.abs(fast[t] - slow[t]) <= 1e-12 * slow[0], `m=${m} lag ${t}`);
  }
});

test("autocorrelation is gamma_t / gamma_0, 1 at lag 0, and NaN for a constant sequence", () => {
  const x = Float64Array.from([1, 3, 2, 5, 4, 4, 0, 2]);
  const r = autocorrelation(x);
  const g = directAutocovariance(x);
  assert.equal(r[0], 1);
  for (let t = 0; t < x.length; t++) assert.ok(Math.abs(r[t] - g[t] / g[0]) < 1e-14);
  assert.ok(autocorrelation(new Float64Array(6).fill(2)).every(Number.isNaN));
});

test("lazy autocovariance (direct sums for early lags, FFT past lag 64) equals the direct sums, in any order of requests", () => {
  const rng = new Rng(14);
  const chains = [ar1(300, 0.9, rng), ar1(300, 0.9, rng, 1), ar1(300, 0.9, rng, -2)];
  const slow = new Float64Array(300);
  for (const x of chains) directAutocovariance(x).forEach((v, t) => (slow[t] += v / 3));
  for (const order of [[0, 1, 2, 17, 40, 63, 64, 65, 299], [5, 200, 3, 63, 0], [299, 0, 31]]) {
    const gamma = lazyMeanAutocovariance(chains);
    for (const t of order) assert.ok(Math.abs(gamma(t) - slow[t]) <= 1e-12 * slow[0], `lag ${t} in order ${order}`);
  }
  assert.equal(DIRECT_LAGS, 64);
});

test("Geyer ESS through the lazy autocovariance equals Geyer ESS on the full FFT autocorrelation", () => {
  const rng = new Rng(15);
  for (const phi of [0, 0.9, 0.995]) {
    const x = ar1(5000, phi, rng);
    const viaFft = 5000 / geyerInitialMonotone(autocorrelation(x)).tau;
    assert.ok(Math.abs(essGeyerSingle(x) / viaFft - 1) < 1e-10, `phi=${phi}: ${essGeyerSingle(x)} vs ${viaFft}`);
    const chains = [x, ar1(5000, phi, rng)];
    const viaFftMulti = 10000 / geyerInitialMonotone(combinedAutocorrelation(chains).rho).tau;
    assert.ok(Math.abs(essGeyer(chains) / viaFftMulti - 1) < 1e-10, `phi=${phi} (2 chains)`);
  }
});
