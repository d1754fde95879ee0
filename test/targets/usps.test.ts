import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { seKernel } from "../../src/gp/index.js";
import { Matrix } from "../../src/linalg/index.js";
import { probit } from "../../src/likelihoods/probit.js";
import { Rng } from "../../src/random/rng.js";
import { annealedLatentTarget, type AnnealedLatentTarget } from "../../src/targets/annealedLatent.js";
import { maxAbs, maxAbsDiff } from "./dense.js";

/** The first `rows` cases of the vendored USPS 3-vs-5 training set (a plain split; the io layer has the real reader). */
function usps(rows: number): { X: Matrix; y: Float64Array } {
  const lines = readFileSync(new URL("../../../data/usps35_origsplit_train.csv", import.meta.url), "utf8").trim().split("\n");
  assert.ok(lines[0].startsWith("y,x1,"));
  const d = lines[1].split(",").length - 1;
  const X = new Matrix(rows, d);
  const y = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const v = lines[i + 1].split(",").map(Number);
    y[i] = v[0];
    for (let k = 0; k < d; k++) X.data[i + k * rows] = v[k + 1];
  }
  return { X, y };
}

const n = 200;
const { X, y } = usps(n);
// the note's Section 5 setting: lengthscale exp(4.85), signal sd exp(5.1)
const K = seKernel({ logLengthscale: 4.85, logSignalSd: 5.1 }).matrix(X);

function check(t: AnnealedLatentTarget, x: Float64Array, what: string): void {
  const fast = t.geometry(x);
  const ref = t.referenceGeometry(x);
  assert.ok(Number.isFinite(fast.logDensity) && fast.gradient.every(Number.isFinite), `${what}: L, dL/dx`);
  assert.ok(Number.isFinite(fast.logDetMetric), `${what}: log|G|`);
  // the combined Woodbury step and the note's Algorithm 3 (nested for the EP-style q) agree
  assert.ok(Math.abs(fast.logDetMetric - ref.logDetMetric) < 1e-10 * Math.max(1, Math.abs(ref.logDetMetric)), `${what}: log|G| ${fast.logDetMetric} vs ${ref.logDetMetric}`);
  const diag = fast.inverseMetricDiagonal;
  const Kmax = K.get(0, 0);
  for (let i = 0; i < n; i++) assert.ok(diag[i] > 0 && diag[i] <= Kmax * (1 + 1e-12), `${what}: diag(G^-1)[${i}] = ${diag[i]}`);
  // K_nn = 27000 while diag(G^-1) is O(1): K - V'V cancels 4-5 digits in both forms (seen: 6e-11 apart)
  assert.ok(maxAbsDiff(diag, ref.inverseMetricDiagonal) < 1e-13 * Kmax, `${what}: diag(G^-1) vs reference`);
  const p = new Float64Array(n);
  fast.sampleMomentum(new Rng(3), p);
  assert.ok(p.every(Number.isFinite), `${what}: momentum`);
  const w1 = new Float64Array(n), w2 = new Float64Array(n);
  fast.applyInverse(p, w1);
  ref.applyInverse(p, w2);
  assert.ok(maxAbsDiff(w1, w2) < 1e-13 * Kmax * maxAbs(p), `${what}: G^-1 p`);
  const h1 = new Float64Array(n), h2 = new Float64Array(n);
  fast.hamiltonianGradient(p, h1);
  ref.hamiltonianGradient(p, h2);
  assert.ok(h1.every(Number.isFinite));
  assert.ok(maxAbsDiff(h1, h2) < 1e-9 * maxAbs(h2), `${what}: dH/dx vs reference (max diff ${maxAbsDiff(h1, h2)}, scale ${maxAbs(h2)})`);
}

test("USPS 3-vs-5 (200 cases, lengthscale exp(4.85), signal sd exp(5.1)): K factorises without jitter; geometries at x = 0, a prior draw and a random x", () => {
  const said: string[] = [];
  const t = annealedLatentTarget({ likelihood: probit, y, kernelMatrix: K, jitter: "auto", onJitter: (m) => said.push(m) });
  assert.equal(t.jitter, 0);
  assert.equal(said.length, 0);
  const rng = new Rng(17);
  const z = rng.fillNormal(new Float64Array(n));
  // a draw from the prior, x = L_K z (latent values of size ~exp(5.1) = 164)
  const prior = new Float64Array(n);
  const Lk = plainCholesky(K);
  for (let j = 0; j < n; j++) for (let i = j; i < n; i++) prior[i] += Lk.get(i, j) * z[j];
  const random = Float64Array.from({ length: n }, () => 3 * rng.normal());
  for (const [x, what] of [[new Float64Array(n), "x = 0"], [prior, "prior draw"], [random, "random x"]] as [Float64Array, string][]) {
    check(t, x, `prior q, beta = 1, ${what}`);
    check(t.withBeta(0.3), x, `prior q, beta = 0.3, ${what}`);
  }
  const ep = annealedLatentTarget({
    likelihood: probit, y, kernelMatrix: K, beta: 0.3,
    q: { mean: y.map((v) => 2 * v), siteVariances: Float64Array.from({ length: n }, () => 0.5 + rng.uniform()) },
  });
  for (const [x, what] of [[new Float64Array(n), "x = 0"], [random, "random x"]] as [Float64Array, string][]) check(ep, x, `EP q, beta = 0.3, ${what}`);
});

/** Lower Cholesky factor by the textbook loop (independent of src/linalg). */
function plainCholesky(K: Matrix): Matrix {
  const n = K.rows;
  const L = new Matrix(n, n);
  for (let j = 0; j < n; j++) {
    let s = K.get(j, j);
    for (let k = 0; k < j; k++) s -= L.get(j, k) ** 2;
    const d = Math.sqrt(s);
    L.set(j, j, d);
    for (let i = j + 1; i < n; i++) {
      let v = K.get(i, j);
      for (let k = 0; k < j; k++) v -= L.get(i, k) * L.get(j, k);
      L.set(i, j, v / d);
    }
  }
  return L;
}
