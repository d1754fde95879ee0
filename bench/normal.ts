// Cost per call of logPhi, normalPdfCdfRatio and normalCdf over ranges of z, against the first
// implementation (central series for |z| <= 2, forward Lentz continued fraction beyond), kept
// here as the yardstick. Both are timed in the same run; compare the ratios.
//   npm run bench -- normal     (or, after npx tsc -p ., node dist/bench/normal.js)
import { logPhi, normalCdf, normalPdfCdfRatio } from "../src/math/normal.js";

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);
const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
const pdf = (z: number) => INV_SQRT_2PI * Math.exp(-0.5 * z * z);
function seriesOld(z: number): number {
  const z2 = z * z;
  let term = z;
  let sum = z;
  for (let k = 1; k < 100; k++) {
    term *= z2 / (2 * k + 1);
    sum += term;
    if (Math.abs(term) <= 1e-17 * Math.abs(sum)) break;
  }
  return sum;
}
function millsLentz(x: number): number {
  let f = x;
  let c = f;
  let d = 0;
  for (let k = 1; k < 5000; k++) {
    d = x + k * d;
    c = x + k / c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return 1 / f;
}
const old = {
  logPhi(z: number): number {
    if (z < -2) return -0.5 * z * z - LOG_SQRT_2PI + Math.log(millsLentz(-z));
    if (z > 2) return Math.log1p(-pdf(z) * millsLentz(z));
    return Math.log(0.5 + pdf(z) * seriesOld(z));
  },
  normalCdf(z: number): number {
    if (z < -2) return pdf(z) * millsLentz(-z);
    if (z > 2) return 1 - pdf(z) * millsLentz(z);
    return 0.5 + pdf(z) * seriesOld(z);
  },
  normalPdfCdfRatio(z: number): number {
    if (z < -2) return 1 / millsLentz(-z);
    return pdf(z) / old.normalCdf(z);
  },
};

/** ns per call of one pass of f over zs. */
function pass(f: (z: number) => number, zs: Float64Array): number {
  let sink = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < zs.length; i++) sink += f(zs[i]);
  const dt = Number(process.hrtime.bigint() - t0) / zs.length;
  if (sink === 0.123456789) console.log(""); // keeps the loop
  return dt;
}

/** Best of `reps` passes each, the two functions alternating so load changes hit both alike. */
function timePair(fNew: (z: number) => number, fOld: (z: number) => number, zs: Float64Array, reps: number): [number, number] {
  pass(fNew, zs);
  pass(fOld, zs);
  let bestNew = Infinity;
  let bestOld = Infinity;
  for (let r = 0; r < reps; r++) {
    bestNew = Math.min(bestNew, pass(fNew, zs));
    bestOld = Math.min(bestOld, pass(fOld, zs));
  }
  return [bestNew, bestOld];
}

const n = 200000;
const ranges: [string, number, number][] = [["[-6, 6]", -6, 6], ["[-2, 2]", -2, 2], ["[2, 4]", 2, 4], ["[-4, -2]", -4, -2], ["[-40, -8]", -40, -8]];
console.log(`normal functions: ns per call (best of 9 passes over ${n} z spread evenly over the range, shuffled), node ${process.version}`);
console.log("range       function             new     previous  previous/new");
for (const [label, a, b] of ranges) {
  const zs = new Float64Array(n);
  for (let i = 0; i < n; i++) zs[i] = a + ((b - a) * (i + 0.5)) / n;
  // shuffle deterministically so the branch pattern is not trivial
  let s = 12345;
  for (let i = n - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    const t = zs[i];
    zs[i] = zs[j];
    zs[j] = t;
  }
  for (const [name, fNew, fOld] of [
    ["logPhi", logPhi, old.logPhi],
    ["normalPdfCdfRatio", normalPdfCdfRatio, old.normalPdfCdfRatio],
    ["normalCdf", normalCdf, old.normalCdf],
  ] as const) {
    const [tn, to] = timePair(fNew, fOld, zs, 9);
    console.log(`${label.padEnd(11)} ${name.padEnd(19)} ${tn.toFixed(1).padStart(6)} ${to.toFixed(1).padStart(9)} ${(to / tn).toFixed(1).padStart(10)}`);
  }
}
