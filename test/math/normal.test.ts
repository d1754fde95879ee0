// The normal-distribution functions against 50-digit values. test/fixtures/normal_reference.json
// is written by test/fixtures/normal_reference.py (mpmath, Phi from erfc at 50 digits) over
// z in [-40, 10]: a grid of step 1/32, the neighbourhoods of the joins, and random points.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { logPhi, millsRatio, normalCdf, normalLogPdf, normalPdf, normalPdfCdfRatio, normalQuantile } from "../../src/math/index.js";

const ref = JSON.parse(readFileSync(new URL("../../../test/fixtures/normal_reference.json", import.meta.url), "utf8")) as {
  rows: [number, number, number, number, number][]; // z, log Phi, Phi, N/Phi, N
  quantiles: [number, number][];
};
const EPS = 2 ** -52;
const SMALLEST_NORMAL = 2.2250738585072014e-308;

/** Largest relative error of f against the reference column and where it occurs. */
function worstRelative(f: (z: number) => number, column: number, keep: (row: number[]) => boolean = () => true): { z: number; err: number } {
  let worst = { z: NaN, err: 0 };
  for (const row of ref.rows) {
    if (!keep(row)) continue;
    const want = row[column];
    const err = Math.abs(f(row[0]) - want) / Math.abs(want);
    if (!(err <= worst.err)) worst = { z: row[0], err };
  }
  return worst;
}

const show = (w: { z: number; err: number }) => `${w.err.toExponential(2)} (${(w.err / EPS).toFixed(1)} ulp) at z = ${w.z}`;

test("the reference table spans [-40, 10] with the joins' neighbourhoods", () => {
  const zs = ref.rows.map((r) => r[0]);
  assert.equal(Math.min(...zs), -40);
  assert.equal(Math.max(...zs), 10);
  assert.ok(zs.length > 2500);
  for (const b of [-15, -8, -2, -1, 0, 1, 2, 8]) assert.ok(zs.includes(b - 1e-9) && zs.includes(b + 1e-9), `${b}`);
});

test("logPhi: relative error < 1e-13 over [-40, 10] (measured: a few ulp)", (t) => {
  const w = worstRelative(logPhi, 1);
  t.diagnostic(`logPhi max relative error ${show(w)}`);
  assert.ok(w.err < 1e-13, show(w));
  assert.ok(w.err < 8 * EPS, show(w)); // the accuracy normal.ts claims
});

test("normalPdfCdfRatio: relative error < 1e-13 over [-40, 10]", (t) => {
  const w = worstRelative(normalPdfCdfRatio, 3);
  t.diagnostic(`N/Phi max relative error ${show(w)}`);
  assert.ok(w.err < 1e-13, show(w));
  assert.ok(w.err < 8 * EPS, show(w));
});

test("normalCdf: relative error < 1e-13 for z <= 2, absolute < 1e-16 above", (t) => {
  // Relative accuracy is only possible while Phi is a normal float64 (z > -37.5).
  const w = worstRelative(normalCdf, 2, (r) => r[0] <= 2 && r[2] >= SMALLEST_NORMAL);
  t.diagnostic(`Phi max relative error (z <= 2) ${show(w)}`);
  assert.ok(w.err < 1e-13 && w.err < 8 * EPS, show(w));
  let worstAbs = 0;
  for (const [z, , P] of ref.rows) {
    if (z > 2 || P < SMALLEST_NORMAL) worstAbs = Math.max(worstAbs, Math.abs(normalCdf(z) - P));
  }
  t.diagnostic(`Phi max absolute error (z > 2, and where Phi is subnormal) ${worstAbs.toExponential(2)}`);
  assert.ok(worstAbs < 1e-16, `${worstAbs}`);
});

test("normalPdf and normalLogPdf: relative error of a few ulp (the rounding of z*z is corrected)", (t) => {
  const w = worstRelative(normalPdf, 4, (r) => r[4] >= SMALLEST_NORMAL);
  t.diagnostic(`phi max relative error ${show(w)}`);
  assert.ok(w.err < 4 * EPS, show(w));
  let worstLog = 0;
  for (const [z, , , , n] of ref.rows) if (n >= SMALLEST_NORMAL) worstLog = Math.max(worstLog, Math.abs(normalLogPdf(z) - Math.log(n)) / Math.abs(Math.log(n)));
  assert.ok(worstLog < 4 * EPS, `${worstLog}`);
});

test("millsRatio R(x) = Phi(-x)/phi(x) for x in [-10, 40], including its x < -1 branch", (t) => {
  // Row z gives R(-z) = Phi(z) / N(z).
  let worst = { z: NaN, err: 0 };
  for (const [z, , P, , n] of ref.rows) {
    if (z < -40 || z > 10 || n < SMALLEST_NORMAL || P < SMALLEST_NORMAL) continue;
    const err = Math.abs(millsRatio(-z) - P / n) / (P / n);
    if (err > worst.err) worst = { z: -z, err };
  }
  t.diagnostic(`R max relative error ${show(worst)} (x = -z)`);
  assert.ok(worst.err < 8 * EPS, show(worst));
  assert.equal(millsRatio(-40), Infinity);
  assert.ok(Number.isNaN(millsRatio(NaN)));
  assert.equal(millsRatio(Infinity), 0);
});

test("beyond the table: logPhi and N/Phi for z down to -1e8 against the asymptotic series", () => {
  // Phi(z) = phi(z)/(-z) s(z), s = sum_k (-1)^k (2k-1)!! z^(-2k): log Phi(z) = log phi(z) - log(-z) + log s
  // and N/Phi = -z / s. Summed to k = 7; the first omitted term is below 2e-21 at |z| >= 50.
  for (const z of [-50, -64.5, -100, -1e3, -12345.678, -1e5, -1e8]) {
    const w = 1 / (z * z);
    let s = 1;
    let term = 1;
    for (let k = 1; k <= 7; k++) {
      term *= -(2 * k - 1) * w;
      s += term;
    }
    const lp = normalLogPdf(z) - Math.log(-z) + Math.log(s);
    assert.ok(Math.abs(logPhi(z) - lp) <= 2 * EPS * Math.abs(lp), `logPhi(${z})`);
    const r = -z / s;
    assert.ok(Math.abs(normalPdfCdfRatio(z) - r) <= 2 * EPS * r, `ratio(${z})`);
  }
});

test("special arguments", () => {
  assert.equal(logPhi(-Infinity), -Infinity);
  assert.ok(logPhi(Infinity) === 0);
  assert.ok(logPhi(50) === 0); // -Phi(-50) underflows
  assert.ok(Number.isNaN(logPhi(NaN)));
  assert.equal(normalPdfCdfRatio(-Infinity), Infinity);
  assert.equal(normalPdfCdfRatio(Infinity), 0);
  assert.ok(Number.isNaN(normalPdfCdfRatio(NaN)));
  assert.equal(normalCdf(-Infinity), 0);
  assert.equal(normalCdf(Infinity), 1);
  assert.ok(Math.abs(normalCdf(0) - 0.5) <= 0.5 * EPS); // phi(0) R(0): within an ulp of 1/2
  assert.ok(Number.isNaN(normalCdf(NaN)));
  assert.equal(normalPdf(Infinity), 0);
  assert.equal(normalPdf(-45), 0);
  assert.ok(Number.isNaN(normalPdf(NaN)));
  assert.ok(Math.abs(logPhi(0) + Math.LN2) <= 2 * EPS * Math.LN2);
});

test("normalQuantile: relative error < 1e-13 for p in [1e-300, 1 - 1e-12], and exact at 0, 1/2, 1", (t) => {
  let worst = { p: NaN, err: 0 };
  for (const [p, want] of ref.quantiles) {
    const got = normalQuantile(p);
    const err = want === 0 ? Math.abs(got) : Math.abs(got - want) / Math.abs(want);
    if (!(err <= worst.err)) worst = { p, err };
  }
  t.diagnostic(`quantile max relative error ${worst.err.toExponential(2)} (${(worst.err / EPS).toFixed(1)} ulp) at p = ${worst.p}`);
  assert.ok(worst.err < 1e-13, `${worst.err} at ${worst.p}`);
  assert.ok(ref.quantiles[0][0] <= 1e-300 && ref.quantiles[ref.quantiles.length - 1][0] >= 1 - 2e-12);
  // near p = 1/2 the quantile keeps its relative accuracy (it is ~ sqrt(2 pi) (p - 1/2))
  assert.ok(ref.quantiles.some(([p]) => p === 0.5 - 2 ** -53));
  assert.equal(normalQuantile(0.5), 0);
  assert.equal(normalQuantile(0), -Infinity);
  assert.equal(normalQuantile(1), Infinity);
  for (const bad of [-1e-300, 1 + 1e-15, NaN]) assert.ok(Number.isNaN(normalQuantile(bad)));
  const tiny = normalQuantile(Number.MIN_VALUE);
  assert.ok(tiny > -38.5 && tiny < -38.4, `${tiny}`);
});

test("normalQuantile and normalCdf invert each other", () => {
  for (let z = -37; z <= 8; z += 0.0625 + 1e-7) {
    const back = normalQuantile(normalCdf(z));
    // For z > 0, Phi(z) is only known to half an ulp of 1, which moves z by 1.1e-16 / phi(z).
    const tol = 1e-14 * Math.max(1, Math.abs(z)) + (z > 0 ? 1.2e-16 / normalPdf(z) : 0);
    assert.ok(Math.abs(back - z) <= tol, `z = ${z}: ${back}`);
  }
  for (const p of [1e-300, 1e-100, 1e-20, 1e-5, 0.01, 0.2, 0.4999, 0.5 - 1e-15]) {
    // An ulp of x = Phi^-1(p) moves Phi by a relative (N/Phi)(x) |x| eps.
    const x = normalQuantile(p);
    const tol = (4 + 2 * normalPdfCdfRatio(x) * Math.max(1, Math.abs(x))) * EPS;
    assert.ok(Math.abs(normalCdf(x) - p) <= tol * p, `p = ${p}`);
    // the upper tail, through 1 - p
    const q = normalQuantile(1 - p);
    assert.ok(Math.abs(1 - normalCdf(q) - (1 - (1 - p))) <= tol * p + 1.2e-16, `1 - p, p = ${p}`);
  }
});

/**
 * No jump at a join b: f(b + d) - f(b - d) must equal its Taylor expectation 2 d f'(b) (the
 * d^3 term is below 1e-27 for d = 2^-30) to within rounding, a few ulp of f.
 */
function assertContinuous(name: string, f: (z: number) => number, df: (z: number) => number, b: number, ulps = 6): void {
  const d = 2 ** -30;
  const left = f(b - d);
  const right = f(b + d);
  const jump = right - left - 2 * d * df(b);
  const tol = ulps * EPS * Math.max(Math.abs(left), Math.abs(right));
  assert.ok(Math.abs(jump) <= tol, `${name} jumps by ${jump.toExponential(2)} at ${b} (tolerance ${tol.toExponential(2)})`);
}

const dLogPhi = (z: number) => normalPdfCdfRatio(z);
const dRatio = (z: number) => {
  const r = normalPdfCdfRatio(z);
  return -r * (z + r);
};
const dMills = (x: number) => x * millsRatio(x) - 1;

test("no jump at the joins: Taylor nodes (every 1/8), x = 8, z = 0 and 1, and the note's z = -15 and +-2", () => {
  const joins: number[] = [-15, -2, 2, -1, 0, 1];
  for (let j = 0; j < 72; j++) {
    const x = -1 + (j + 0.5) / 8; // midpoint between Taylor nodes j and j + 1: the switch
    joins.push(x, -x);
  }
  joins.push(-1 - 1 / 16, 8 + 1 / 16, 8, -8, 10, -10, 14, -14, 20, -20, 30, -30); // table ends, continued-fraction depth changes
  for (const b of joins) {
    assertContinuous("logPhi", logPhi, dLogPhi, b);
    assertContinuous("N/Phi", normalPdfCdfRatio, dRatio, b);
    assertContinuous("Phi", normalCdf, normalPdf, b);
    assertContinuous("R", millsRatio, dMills, -b);
  }
});

test("negative control: the continuity check sees a jump of 1e-14 relative", () => {
  const jumpy = (z: number) => logPhi(z) * (z < -15 ? 1 + 1e-14 : 1);
  assert.throws(() => assertContinuous("jumpy", jumpy, dLogPhi, -15));
});
