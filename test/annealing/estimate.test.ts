// The AIS estimate and the schedules, against direct computation: log-sum-exp against the
// plain formula where nothing overflows and far from 0 where it would; the delta-method standard
// error against the spread of log Z-hat over many independent replicate sets; schedules'
// end points, order, and defining ratios.
import { test } from "node:test";
import assert from "node:assert/strict";
import { aisEstimate, temperatureSchedule } from "../../src/annealing/index.js";
import { Rng } from "../../src/random/rng.js";

test("aisEstimate: log mean exp(w) as the plain formula, shift-invariant far beyond overflow; ESS 1 for one dominant weight", () => {
  const w = [-1.3, 0.2, 0.7, -0.4, 1.1];
  const plain = Math.log(w.reduce((s, x) => s + Math.exp(x), 0) / w.length);
  const e = aisEstimate(w);
  assert.ok(Math.abs(e.logZ - plain) < 1e-14);
  const u = w.map(Math.exp);
  const mean = u.reduce((a, b) => a + b) / u.length;
  const sd = Math.sqrt(u.reduce((s, x) => s + (x - mean) ** 2, 0) / (u.length - 1));
  assert.ok(Math.abs(e.standardError - sd / Math.sqrt(u.length) / mean) < 1e-14);
  const far = aisEstimate(w.map((x) => x - 5000));
  assert.ok(Math.abs(far.logZ - (plain - 5000)) < 1e-9);
  assert.ok(Math.abs(far.standardError - e.standardError) < 1e-12);
  assert.ok(Math.abs(aisEstimate([0, -800, -900]).effectiveSampleSize - 1) < 1e-12);
  assert.ok(Math.abs(aisEstimate([3, 3, 3, 3]).effectiveSampleSize - 4) < 1e-12);
  assert.ok(Number.isNaN(aisEstimate([2]).standardError));
});

test("aisEstimate: the delta-method standard error matches the spread of log Z-hat over 2000 replicate sets (log-normal weights)", () => {
  const rng = new Rng(3, 0);
  const R = 100;
  const sets = 2000;
  const est: number[] = [];
  const ses: number[] = [];
  for (let s = 0; s < sets; s++) {
    const w = Array.from({ length: R }, () => 0.6 * rng.normal() - 10);
    const e = aisEstimate(w);
    est.push(e.logZ);
    ses.push(e.standardError);
  }
  const m = est.reduce((a, b) => a + b) / sets;
  const spread = Math.sqrt(est.reduce((s, x) => s + (x - m) ** 2, 0) / (sets - 1));
  const meanSe = ses.reduce((a, b) => a + b) / sets;
  // the spread is estimated to about 1/sqrt(2 * 2000) = 1.6% relative
  assert.ok(Math.abs(meanSe / spread - 1) < 0.08, `mean standard error ${meanSe}, spread ${spread}`);
  // and log Z-hat is close to the truth log E exp(w) = -10 + 0.18
  assert.ok(Math.abs(m - (-10 + 0.18)) < 0.01, `mean ${m}`);
});

test("schedules: 0 to 1, strictly increasing; geometric has a constant ratio from betaMin, linear constant steps, sigmoid is symmetric", () => {
  for (const kind of ["geometric", "linear", "sigmoid"] as const) {
    for (const B of [1, 2, 12, 400]) {
      const b = temperatureSchedule({ kind, temperatures: B });
      assert.equal(b.length, B + 1);
      assert.equal(b[0], 0);
      assert.equal(b[B], 1);
      for (let k = 1; k <= B; k++) assert.ok(b[k] > b[k - 1], `${kind} B = ${B} at ${k}`);
    }
  }
  const g = temperatureSchedule({ kind: "geometric", temperatures: 12, betaMin: 1e-3 });
  assert.ok(Math.abs(g[1] - 1e-3) < 1e-15);
  for (let k = 2; k <= 12; k++) assert.ok(Math.abs(g[k] / g[k - 1] - Math.pow(1e3, 1 / 11)) < 1e-12);
  const l = temperatureSchedule({ kind: "linear", temperatures: 4 });
  assert.deepEqual(Array.from(l), [0, 0.25, 0.5, 0.75, 1]);
  const s = temperatureSchedule({ kind: "sigmoid", temperatures: 10 });
  for (let k = 0; k <= 10; k++) assert.ok(Math.abs(s[k] + s[10 - k] - 1) < 1e-12);
  assert.throws(() => temperatureSchedule({ kind: "linear", temperatures: 0 }), RangeError);
  assert.throws(() => temperatureSchedule({ kind: "geometric", temperatures: 5, betaMin: 1 }), RangeError);
});
