// Distribution tests of every draw method: Kolmogorov-Smirnov against the exact distribution
// function (chi-square for integer()), at fixed seeds. Each family also runs the same check on
// a deliberately broken variant (a negative control), which must be rejected: the sample sizes
// are chosen so that the controls fail by a wide margin at these seeds, not by luck.
import { test } from "node:test";
import assert from "node:assert/strict";
import { normalCdf, regularizedGammaP } from "../../src/math/index.js";
import { Rng } from "../../src/random/index.js";
import { chiSquareTest, drawMany, ksTest, studentTCdf, truncatedNormalCdf, type KsResult } from "./stats.js";

/** A correct generator must give p >= ALPHA; a negative control must give p < ALPHA. */
const ALPHA = 1e-3;
const fmt = (r: KsResult) => `n = ${r.n}, D = ${r.d.toExponential(3)}, p = ${r.p.toExponential(2)}`;

function accept(t: { diagnostic(s: string): void }, label: string, r: KsResult): void {
  t.diagnostic(`${label}: ${fmt(r)}`);
  assert.ok(r.p >= ALPHA, `${label} rejected: ${fmt(r)}`);
}
function reject(t: { diagnostic(s: string): void }, label: string, r: KsResult): void {
  t.diagnostic(`negative control ${label}: ${fmt(r)}`);
  assert.ok(r.p < ALPHA, `negative control ${label} not rejected: ${fmt(r)}`);
}

const expCdf = (rate: number) => (x: number) => (x <= 0 ? 0 : -Math.expm1(-rate * x));

test("uniform: KS against U(0, 1); control u^1.02", (t) => {
  const r = new Rng(101);
  accept(t, "uniform", ksTest(drawMany(200000, () => r.uniform()), (x) => x));
  const b = new Rng(101);
  reject(t, "u^1.02", ksTest(drawMany(200000, () => b.uniform() ** 1.02), (x) => x));
});

test("normal: KS against Phi; control sd 1.02", (t) => {
  const r = new Rng(202);
  accept(t, "normal", ksTest(drawMany(500000, () => r.normal()), normalCdf));
  const f = new Rng(203);
  accept(t, "fillNormal", ksTest(f.fillNormal(new Float64Array(200000)), normalCdf));
  const b = new Rng(202);
  reject(t, "normal sd 1.02", ksTest(drawMany(500000, () => 1.02 * b.normal()), normalCdf));
});

test("exponential: KS against 1 - e^-x; control rate 0.98", (t) => {
  const r = new Rng(303);
  accept(t, "exponential", ksTest(drawMany(200000, () => r.exponential()), expCdf(1)));
  const b = new Rng(303);
  reject(t, "exponential rate 0.98", ksTest(drawMany(200000, () => b.exponential() / 0.98), expCdf(1)));
});

test("gamma, shapes 0.3, 1, 2.5, 50: KS against P(a, x); controls with the shape 3% off", (t) => {
  [0.3, 1, 2.5, 50].forEach((shape, k) => {
    const n = 100000;
    const r = new Rng(404, k);
    const cdf = (x: number) => regularizedGammaP(shape, x);
    accept(t, `gamma(${shape})`, ksTest(drawMany(n, () => r.gamma(shape)), cdf));
    const b = new Rng(405);
    reject(t, `gamma(${shape} * 1.03) against gamma(${shape})`, ksTest(drawMany(n, () => b.gamma(shape * 1.03)), cdf));
  });
});

test("Student-t, nu = 1, 3, 30: KS against the t distribution function; control: chi-square with nu - 1 degrees of freedom", (t) => {
  for (const nu of [1, 3, 30]) {
    const r = new Rng(505, nu);
    accept(t, `t(${nu})`, ksTest(drawMany(100000, () => r.studentT(nu)), (x) => studentTCdf(x, nu)));
  }
  // An off-by-one in the degrees of freedom of the chi-square: Z / sqrt(chi2_(nu-1) / nu).
  const b = new Rng(506);
  const nu = 3;
  const broken = () => b.normal() / Math.sqrt((2 * b.gamma((nu - 1) / 2)) / nu);
  reject(t, "t(3) built from chi2_2", ksTest(drawMany(100000, broken), (x) => studentTCdf(x, nu)));
  // and a t(1) drawn as t(1.1)
  const c = new Rng(507);
  reject(t, "t(1.1) against t(1)", ksTest(drawMany(100000, () => c.studentT(1.1)), (x) => studentTCdf(x, 1)));
});

const INTERVALS: [number, number][] = [
  [-1, 1], // uniform proposals (interval holds 0, narrower than sqrt(2 pi))
  [-10, 10], // normal proposals
  [-0.5, 3], // normal proposals, asymmetric
  [2, Infinity], // exponential proposals
  [5, 6], // exponential proposals, bounded
  [-Infinity, -3], // reflected tail
  [0.1, 0.2], // uniform proposals above 0
  [0, 2.5], // exponential proposals from 0
  [1, 2.2], // exponential proposals, near Robert's switch
  [30, 30.001], // far tail, narrow
];

test("truncated normal on ten intervals: KS against its exact distribution function; controls with a truncation point shifted", (t) => {
  INTERVALS.forEach(([lo, hi], k) => {
    const r = new Rng(606, k);
    accept(t, `[${lo}, ${hi}]`, ksTest(drawMany(50000, () => r.truncatedNormal(lo, hi)), truncatedNormalCdf(lo, hi)));
  });
  const b = new Rng(607);
  reject(t, "[2.01, inf) against [2, inf)", ksTest(drawMany(50000, () => b.truncatedNormal(2.01, Infinity)), truncatedNormalCdf(2, Infinity)));
  reject(t, "[5.005, 6] against [5, 6]", ksTest(drawMany(50000, () => b.truncatedNormal(5.005, 6)), truncatedNormalCdf(5, 6)));
  reject(t, "[-1, 1.05] against [-1, 1]", ksTest(drawMany(50000, () => b.truncatedNormal(-1, 1.05)), truncatedNormalCdf(-1, 1)));
});

test("truncated normal stays inside its interval, also far out", () => {
  const r = new Rng(608);
  for (const [lo, hi] of [...INTERVALS, [40, Infinity], [1e200, Infinity], [-1e-300, 1e-300], [100, 100.5]] as [number, number][]) {
    for (let i = 0; i < 200; i++) {
      const z = r.truncatedNormal(lo, hi);
      assert.ok(z >= lo && z <= hi, `[${lo}, ${hi}]: ${z}`);
    }
  }
  assert.throws(() => r.truncatedNormal(1, 1));
  assert.throws(() => r.truncatedNormal(2, 1));
  assert.throws(() => r.truncatedNormal(NaN, 1));
});

/** Counts the uniforms a draw uses, through the one method every other draw is built on. */
class CountingRng extends Rng {
  uniforms = 0;
  override uniform(): number {
    this.uniforms++;
    return super.uniform();
  }
}

test("truncated normal on [a, b], a >= 0, proposes from whichever of Robert's two proposals accepts more often", (t) => {
  // Acceptance rates: uniform proposals pU = sqrt(2 pi) e^(a^2/2) (Phi(b) - Phi(a)) / (b - a);
  // exponential proposals (rate alpha, a miss above b counting as a rejection)
  // pE = alpha e^(alpha a - alpha^2/2) sqrt(2 pi) (Phi(b) - Phi(a)). Uniforms used per draw:
  // 2 / pU, and (1 + P(z <= b)) / pE with P(z <= b) = 1 - e^(-alpha (b - a)). The count of
  // uniforms a sampler uses tells which proposal it took where the two costs differ.
  for (const [a, b] of [[0, 2.5], [1, 2.2], [0, 1], [0.2, 3], [2, 3], [3, Infinity]]) {
    const alpha = (a + Math.sqrt(a * a + 4)) / 2;
    const mass = normalCdf(-a) - normalCdf(-b);
    const pU = b === Infinity ? 0 : (Math.sqrt(2 * Math.PI) * Math.exp((a * a) / 2) * mass) / (b - a);
    const pE = alpha * Math.exp(alpha * a - (alpha * alpha) / 2) * Math.sqrt(2 * Math.PI) * mass;
    const costUniform = 2 / pU;
    const costExp = (2 - Math.exp(-alpha * (b - a))) / pE;
    const want = pU > pE ? costUniform : costExp;
    const r = new CountingRng(709);
    const n = 20000;
    for (let i = 0; i < n; i++) r.truncatedNormal(a, b);
    const cost = r.uniforms / n;
    t.diagnostic(`[${a}, ${b}]: pU = ${pU.toFixed(3)}, pE = ${pE.toFixed(3)}; ${cost.toFixed(3)} uniforms per draw (uniform proposals would use ${costUniform.toFixed(3)}, exponential ${costExp.toFixed(3)})`);
    assert.ok(Math.abs(cost / want - 1) < 0.03, `[${a}, ${b}]: ${cost} uniforms per draw, want ${want}`);
  }
});

test("integer(n): chi-square over the n values; control with one value 2% too rare", (t) => {
  for (const [n, draws, seed] of [[10, 500000, 1], [37, 500000, 2], [2 ** 32 + 7, 0, 3]] as const) {
    if (draws === 0) {
      // n > 2^32: chi-square over 64 equal blocks of [0, n)
      const r = new Rng(808, seed);
      const counts = new Float64Array(64);
      for (let i = 0; i < 400000; i++) counts[Math.floor((r.integer(n) * 64) / n)]++;
      const blockProbability = Array.from({ length: 64 }, (_, k) => (Math.ceil(((k + 1) * n) / 64) - Math.ceil((k * n) / 64)) / n);
      const c = chiSquareTest(counts, blockProbability);
      t.diagnostic(`integer(2^32 + 7) in 64 blocks: chi2 = ${c.statistic.toFixed(1)} on ${c.df} df, p = ${c.p.toExponential(2)}`);
      assert.ok(c.p >= ALPHA);
      continue;
    }
    const r = new Rng(808, seed);
    const counts = new Float64Array(n);
    for (let i = 0; i < draws; i++) counts[r.integer(n)]++;
    const c = chiSquareTest(counts, new Float64Array(n).fill(1 / n));
    t.diagnostic(`integer(${n}): chi2 = ${c.statistic.toFixed(1)} on ${c.df} df, p = ${c.p.toExponential(2)}`);
    assert.ok(c.p >= ALPHA, `integer(${n}): p = ${c.p}`);
  }
  // Negative control: value 0 redrawn with probability 2% (noncentrality ~ 3.6e-5 per draw).
  const b = new Rng(809);
  const counts = new Float64Array(10);
  const biased = () => {
    for (;;) {
      const k = b.integer(10);
      if (k !== 0 || b.uniform() >= 0.02) return k;
    }
  };
  for (let i = 0; i < 1500000; i++) counts[biased()]++;
  const c = chiSquareTest(counts, new Float64Array(10).fill(0.1));
  t.diagnostic(`negative control integer(10) with 0 2% rare: chi2 = ${c.statistic.toFixed(1)} on ${c.df} df, p = ${c.p.toExponential(2)}`);
  assert.ok(c.p < ALPHA, `control not rejected: p = ${c.p}`);
});

test("bad parameters throw; studentT(Infinity) is the normal draw", () => {
  const r = new Rng(1);
  for (const bad of [0, -1, NaN]) {
    assert.throws(() => r.gamma(bad));
    assert.throws(() => r.studentT(bad));
  }
  const a = new Rng(5);
  const b = new Rng(5);
  for (let i = 0; i < 5; i++) assert.equal(a.studentT(Infinity), b.normal());
});
