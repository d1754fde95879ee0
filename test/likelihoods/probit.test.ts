import { test } from "node:test";
import assert from "node:assert/strict";
import { logPhiDerivatives, probit } from "../../src/likelihoods/probit.js";
import { LikelihoodDataError } from "../../src/likelihoods/types.js";
import { logPhi, normalCdf } from "../../src/math/normal.js";
import { Rng } from "../../src/random/rng.js";

// [z, log Phi(z), r = N(z)/Phi(z), d2 log Phi/dz2, d3 log Phi/dz3], from mpmath at 60 digits:
//   r = npdf(z)/ncdf(z); d2 = -r (z + r); d3 = r (z^2 - 1) + 3 z r^2 + 2 r^3.
const REFERENCE: [number, number, number, number, number][] = [
  [-40, -804.60844201375378817, 40.024968847207263723, -0.99937733162140861123, 0.000031017440396486248322],
  [-15, -116.13138484571169524, 15.066086827167822035, -0.99566987624244010627, 0.00056264252366134743536],
  [-8, -35.013437159914549896, 8.1213681122361126807, -0.98567511655665908982, 0.0032918765663441355071],
  [-5, -15.064998393988725736, 5.1865039671258421156, -0.96730356538288777465, 0.010825764506356699657],
  [-3.0000001, -6.6077265498202196835, 3.2830987478745179858, -0.92944081636179907157, 0.031470670937787845632],
  [-3, -6.6077262215103495433, 3.2830986549304365069, -0.92944081321473188314, 0.031470672830842487947],
  [-2.5, -5.0816482772786904984, 2.8227447976639072505, -0.91102619857888455719, 0.042878631037025509508],
  [-1, -1.8410216450092635058, 1.5251352761609812091, -0.80090233442965120845, 0.11693119540604883154],
  [0, -0.69314718055994530942, 0.79788456080286535588, -0.63661977236758134308, 0.21801361414499016069],
  [0.5, -0.36894641528865639307, 0.50916043383703348583, -0.51382456430363289677, 0.27099012446870783327],
  [1, -0.17275377902344988953, 0.28759997093917836123, -0.37031371422339459914, 0.29571817018227121246],
  [3, -0.0013508099647481937988, 0.0044378390421256637933, -0.013333211541740806209, 0.035680136876570470563],
  [8, -6.2209605742717860585e-16, 5.0522710835368954309e-15, -4.0418168668295188973e-14, 3.1829307826282502476e-13],
  [20, -2.7536241186062336951e-89, 5.5209483621597631896e-88, -1.1041896724319526379e-86, 2.2028583965017455126e-85],
];

function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.abs(b);
}

test("probit: log Phi derivatives match 60-digit values from z = -40 to 20", () => {
  const t = { d1: 0, d2: 0, d3: 0 };
  for (const [z, , r, d2, d3] of REFERENCE) {
    logPhiDerivatives(z, t);
    assert.ok(rel(t.d1, r) < 1e-14, `d1 at ${z}: ${t.d1} vs ${r}`);
    assert.ok(rel(t.d2, d2) < 1e-14, `d2 at ${z}: ${t.d2} vs ${d2}`);
    // the direct form of d3 loses up to ~200 ulp just above the switch at z = -2
    assert.ok(rel(t.d3, d3) < 1e-13, `d3 at ${z}: ${t.d3} vs ${d3} (rel ${rel(t.d3, d3)})`);
  }
});

test("probit: the likelihood's value and derivatives for both labels (odd derivatives flip with y)", () => {
  const n = REFERENCE.length;
  for (const label of [1, -1]) {
    const y = new Float64Array(n).fill(label);
    const f = Float64Array.from(REFERENCE, (row) => row[0] * label);
    const d1 = new Float64Array(n), d2 = new Float64Array(n), d3 = new Float64Array(n);
    const ll = probit.derivatives(y, f, d1, d2, d3);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const [z, lp, r, dd2, dd3] = REFERENCE[i];
      sum += lp;
      assert.ok(rel(d1[i], label * r) < 1e-14, `d1 y=${label} z=${z}`);
      assert.ok(rel(d2[i], dd2) < 1e-14, `d2 y=${label} z=${z}`);
      assert.ok(rel(d3[i], label * dd3) < 1e-13, `d3 y=${label} z=${z}`);
    }
    assert.ok(rel(ll, sum) < 1e-14);
    assert.ok(rel(probit.logLikelihood(y, f), sum) < 1e-14);
  }
});

test("probit: gradient() (value and first derivative alone) matches the 60-digit values for both labels", () => {
  const n = REFERENCE.length;
  for (const label of [1, -1]) {
    const y = new Float64Array(n).fill(label);
    const f = Float64Array.from(REFERENCE, (row) => row[0] * label);
    const d1 = new Float64Array(n);
    const ll = probit.gradient!(y, f, d1);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const [z, lp, r] = REFERENCE[i];
      sum += lp;
      assert.ok(rel(d1[i], label * r) < 1e-14, `d1 y=${label} z=${z}: ${d1[i]} vs ${label * r}`);
    }
    assert.ok(rel(ll, sum) < 1e-14);
  }
});

test("probit: score() (first derivative alone) matches the 60-digit values for both labels, as gradient() fills d1", () => {
  const n = REFERENCE.length;
  for (const label of [1, -1]) {
    const y = new Float64Array(n).fill(label);
    const f = Float64Array.from(REFERENCE, (row) => row[0] * label);
    const d1 = new Float64Array(n).fill(NaN);
    const g1 = new Float64Array(n);
    probit.score!(y, f, d1);
    probit.gradient!(y, f, g1);
    for (let i = 0; i < n; i++) {
      const [z, , r] = REFERENCE[i];
      assert.ok(rel(d1[i], label * r) < 1e-14, `d1 y=${label} z=${z}: ${d1[i]} vs ${label * r}`);
      assert.equal(d1[i], g1[i], `score and gradient differ at y=${label} z=${z}`);
    }
  }
});

test("probit: gradient()'s value, from one logarithm per block of points, is the sum of log Phi over many points, extreme ones included; d1 as score() has it", () => {
  const rng = new Rng(31);
  // 1001 points (not a whole number of blocks): most y f in [-8, 8], some at 35-40, and a run of
  // 80 far out at -1e21 to -2e21, whose R(-z) < 1e-21 would make a block's product underflow to 0
  // (they take their own logarithms).
  const n = 1001;
  const far = (i: number) => i >= 480 && i < 560;
  const y = Float64Array.from({ length: n }, () => (rng.uniform() < 0.5 ? -1 : 1));
  const f = Float64Array.from({ length: n }, (_, i) => y[i] * (far(i) ? -1e21 * (1 + rng.uniform()) : i % 89 === 0 ? 35 + 5 * rng.uniform() : 16 * rng.uniform() - 8));
  let direct = 0;
  for (let i = 0; i < n; i++) direct += logPhi(y[i] * f[i]);
  const d1 = new Float64Array(n), s1 = new Float64Array(n);
  const value = probit.gradient!(y, f, d1);
  probit.score!(y, f, s1);
  assert.ok(Number.isFinite(value) && rel(value, direct) < 1e-14, `gradient ${value} vs sum of logPhi ${direct}`);
  assert.deepEqual(Array.from(d1), Array.from(s1));
  // ... and without the far points, where the sum is of order 1e3 and rounding shows more
  const near = Array.from({ length: n }, (_, i) => i).filter((i) => !far(i));
  const yn = Float64Array.from(near, (i) => y[i]), fn = Float64Array.from(near, (i) => f[i]);
  let sum = 0;
  for (let i = 0; i < yn.length; i++) sum += logPhi(yn[i] * fn[i]);
  const got = probit.gradient!(yn, fn, new Float64Array(yn.length));
  assert.ok(Math.abs(got - sum) < 1e-12 * Math.abs(sum), `gradient ${got} vs sum of logPhi ${sum}`);
});

/** Fourth-order central difference of g at f. */
function fd(g: (f: number) => number, f: number, h: number): number {
  return (g(f - 2 * h) - 8 * g(f - h) + 8 * g(f + h) - g(f + 2 * h)) / (12 * h);
}

test("probit: d1, d2, d3 agree with finite differences at y f = -40, -15, -2, 0, 8", () => {
  const one = (y: number, f: number) => {
    const d1 = new Float64Array(1), d2 = new Float64Array(1), d3 = new Float64Array(1);
    const ll = probit.derivatives(Float64Array.of(y), Float64Array.of(f), d1, d2, d3);
    return { ll, d1: d1[0], d2: d2[0], d3: d3[0] };
  };
  for (const y of [1, -1]) {
    for (const z of [-40, -15, -2, 0, 8]) {
      const f = z * y;
      const at = one(y, f);
      const h = 1e-3;
      const g1 = fd((t) => one(y, t).ll, f, h);
      const g2 = fd((t) => one(y, t).d1, f, h);
      const g3 = fd((t) => one(y, t).d2, f, h);
      assert.ok(Math.abs(g1 - at.d1) <= 1e-9 * Math.max(1, Math.abs(at.d1)), `d1 y=${y} z=${z}: ${at.d1} vs fd ${g1}`);
      assert.ok(Math.abs(g2 - at.d2) <= 1e-9 * Math.max(1e-12, Math.abs(at.d2)), `d2 y=${y} z=${z}: ${at.d2} vs fd ${g2}`);
      // d3 is 3e-5 at z = -40: the check must be relative to be a check at all
      assert.ok(Math.abs(g3 - at.d3) <= 1e-7 * Math.abs(at.d3), `d3 y=${y} z=${z}: ${at.d3} vs fd ${g3}`);
    }
  }
});

test("probit: no jump where the continued fraction takes over (z = -2)", () => {
  const a = { d1: 0, d2: 0, d3: 0 }, b = { d1: 0, d2: 0, d3: 0 };
  logPhiDerivatives(-2 - 1e-12, a);
  logPhiDerivatives(-2 + 1e-12, b);
  assert.ok(rel(a.d1, b.d1) < 1e-11 && rel(a.d2, b.d2) < 1e-11 && rel(a.d3, b.d3) < 1e-11, JSON.stringify([a, b]));
});

test("probit: Fisher information matches 60-digit values and the expectation of -d2 over y", () => {
  // [f, N(f)^2 / (Phi(f) Phi(-f))] from mpmath
  const ref: [number, number][] = [
    [0, 0.63661977236758134308], [1, 0.43862886110221396022], [-2.5, 0.049787080135298084918],
    [5, 7.71087887150839103e-6], [10, 7.7700774330401329506e-22], [30, 4.4258397026717409637e-195],
  ];
  const f = Float64Array.from(ref, (r) => r[0]);
  const out = probit.fisherInformation(f, new Float64Array(f.length));
  for (let i = 0; i < ref.length; i++) assert.ok(rel(out[i], ref[i][1]) < 1e-13, `f=${ref[i][0]}: ${out[i]}`);
  // E_y[-d2] = Phi(f) (-d2 at y=+1) + Phi(-f) (-d2 at y=-1), from the derivative code
  for (const fv of [-1.3, 0.2, 2.7]) {
    const d1 = new Float64Array(2), d2 = new Float64Array(2);
    probit.derivatives(Float64Array.of(1, -1), Float64Array.of(fv, fv), d1, d2);
    const e = -(normalCdf(fv) * d2[0] + normalCdf(-fv) * d2[1]);
    const fi = probit.fisherInformation(Float64Array.of(fv), new Float64Array(1))[0];
    assert.ok(rel(fi, e) < 1e-13, `f=${fv}: ${fi} vs ${e}`);
  }
  const far = probit.fisherInformation(Float64Array.of(45, -45), new Float64Array(2));
  assert.ok(far[0] === 0 && far[1] === 0, "underflows to 0, not NaN");
});

test("probit: sample draws +1 with probability Phi(f)", () => {
  const rng = new Rng(11);
  const m = 20000;
  for (const fv of [-1, 0.3, 2]) {
    const f = new Float64Array(m).fill(fv);
    const y = probit.sample(f, rng, new Float64Array(m));
    let k = 0;
    for (const v of y) {
      assert.ok(v === 1 || v === -1);
      if (v === 1) k++;
    }
    const p = normalCdf(fv);
    const se = Math.sqrt((p * (1 - p)) / m);
    assert.ok(Math.abs(k / m - p) < 4 * se, `f=${fv}: ${k / m} vs ${p}`);
  }
});

test("probit: checkResponses names the first bad label", () => {
  probit.checkResponses(Float64Array.of(1, -1, 1));
  for (const bad of [0, 2, NaN, 0.5]) {
    assert.throws(
      () => probit.checkResponses(Float64Array.of(1, -1, bad, 7)),
      (e: unknown) => e instanceof LikelihoodDataError && e.index === 2 && /response 3/.test(e.message),
    );
  }
});
