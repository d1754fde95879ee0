// Batch-means standard errors against the closed forms for independent draws (sd / sqrt(N)) and
// for an AR(1) chain x_t = rho x_{t-1} + e_t (sd / sqrt(N) * sqrt((1 + rho) / (1 - rho)));
// ignoring the autocorrelation (the independent-draws formula) must fail the AR(1) check.
import { test } from "node:test";
import assert from "node:assert/strict";
import { batchMeans, transform } from "../../src/diagnostics/batchMeans.js";
import { Rng } from "../../src/random/rng.js";

function ar1(rho: number, n: number, seed: number): Float64Array {
  const rng = new Rng(seed);
  const out = new Float64Array(n);
  let x = rng.normal() / Math.sqrt(1 - rho * rho);
  for (let t = 0; t < n; t++) {
    x = rho * x + rng.normal();
    out[t] = x;
  }
  return out;
}

test("batch means: the standard error of independent and of AR(1) draws, pooled over chains", () => {
  const n = 40000;
  const iid = batchMeans([ar1(0, n, 1), ar1(0, n, 2)]);
  const iidSe = 1 / Math.sqrt(2 * n);
  assert.ok(Math.abs(iid.mcse / iidSe - 1) < 0.25, `iid: ${iid.mcse} vs ${iidSe}`);
  assert.ok(Math.abs(iid.mean) < 4 * iidSe);

  const rho = 0.9;
  const chains = [ar1(rho, n, 3), ar1(rho, n, 4)];
  const r = batchMeans(chains);
  const sd = 1 / Math.sqrt(1 - rho * rho);
  const se = (sd / Math.sqrt(2 * n)) * Math.sqrt((1 + rho) / (1 - rho));
  assert.ok(Math.abs(r.mcse / se - 1) < 0.25, `AR(1): ${r.mcse} vs ${se}`);
  // negative control: the independent-draws formula is off by sqrt(19) here
  assert.ok(Math.abs((sd / Math.sqrt(2 * n)) / se - 1) > 0.25);
});

test("transform: per chain, f of each draw of a chain-major sample", () => {
  const samples = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8]); // 2 chains x 2 draws x 2 variables
  const series = transform({ chains: 2, draws: 2, dim: 2, samples }, (x) => x[0] * 10 + x[1]);
  assert.deepEqual(series.map((s) => Array.from(s)), [[12, 34], [56, 78]]);
});
