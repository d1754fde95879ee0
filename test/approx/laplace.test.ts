import { test } from "node:test";
import assert from "node:assert/strict";
import { Matrix } from "../../src/linalg/index.js";
import { laplace, laplaceCovariance, NotLogConcaveError } from "../../src/approx/index.js";
import type { Likelihood } from "../../src/likelihoods/types.js";
import { probit } from "../../src/likelihoods/index.js";
import { logPhi, normalPdfCdfRatio } from "../../src/math/index.js";
import { add, diag, gaussianLogDensity, inverse, logAbsDet, matVec, rows, seKernel, testGaussian, testProbit } from "./fixtures.js";

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/**
 * A smooth log-concave likelihood with vanishing curvature in the tails (pseudo-Huber,
 * log p = -sqrt(1 + (y - f)^2)): an undamped Newton step from far away overshoots by orders
 * of magnitude, so it needs the line search.
 */
const pseudoHuber: Likelihood = {
  name: "test-pseudo-huber",
  logLikelihood(y, f) {
    let s = 0;
    for (let i = 0; i < f.length; i++) s -= Math.sqrt(1 + (y[i] - f[i]) ** 2);
    return s;
  },
  derivatives(y, f, d1, d2) {
    let s = 0;
    for (let i = 0; i < f.length; i++) {
      const r = y[i] - f[i];
      const q = Math.sqrt(1 + r * r);
      s -= q;
      d1[i] = r / q;
      d2[i] = -1 / (q * q * q);
    }
    return s;
  },
  fisherInformation: testProbit.fisherInformation,
  sample: testProbit.sample,
  checkResponses() {},
};

/** Checks grad Psi = d log p / df - K^-1 f = 0 densely (Gauss-Jordan K^-1) and GPML eq. 3.32 densely. */
function checkModeAndLogZ(k: Matrix, y: Float64Array, lik: Likelihood, res: ReturnType<typeof laplace>, tol: number) {
  const n = k.rows;
  const kInv = inverse(rows(k));
  const d1 = new Float64Array(n);
  const d2 = new Float64Array(n);
  const logLik = lik.derivatives(y, res.mode, d1, d2);
  const kInvF = matVec(kInv, res.mode);
  const grad = Array.from(d1, (v, i) => v - kInvF[i]);
  const scale = Math.max(1, ...Array.from(d1, Math.abs));
  assert.ok(maxAbsDiff(grad, new Float64Array(n)) < tol * scale, `gradient at the mode ${maxAbsDiff(grad, new Float64Array(n))}`);
  // log q(y|X) = -1/2 f' K^-1 f + log p(y|f) - 1/2 log|I + K W|   (GPML eq. 3.32)
  const w = Array.from(d2, (v) => -v);
  const ikw = add(diag(new Array(n).fill(1)), rows(k).map((r) => r.map((v, j) => v * w[j])));
  const dense = -0.5 * kInvF.reduce((s, v, i) => s + v * res.mode[i], 0) + logLik - 0.5 * logAbsDet(ikw);
  assert.ok(Math.abs(res.logZ - dense) < tol * Math.max(1, Math.abs(dense)), `log Z ${res.logZ} vs dense eq. 3.32 ${dense}`);
  // The Gaussian approximation's covariance is (K^-1 + W)^-1.
  const cov = inverse(add(kInv, diag(w)));
  assert.ok(maxAbsDiff(laplaceCovariance(k, res).data, Float64Array.from(cov.flat())) < 1e-8 * Math.max(1, k.get(0, 0)));
}

test("Laplace with a Gaussian likelihood is exact: mode K (K + s2 I)^-1 y and log N(y; 0, K + s2 I)", () => {
  const xs = [-1.5, -0.7, 0, 0.4, 1.1, 2];
  const k = seKernel(xs, 1.3, 0.8, 0);
  const yArr = [0.3, -0.2, 0.9, 1.4, 0.1, -0.8];
  const s2 = 0.3;
  const c = add(rows(k), diag(new Array(6).fill(s2)));
  const res = laplace(k, Float64Array.from(yArr), testGaussian(s2));
  assert.ok(res.converged);
  assert.ok(res.iterations <= 2, `iterations ${res.iterations}`);
  assert.ok(Math.abs(res.logZ - gaussianLogDensity(yArr, c)) < 1e-10);
  const mode = matVec(rows(k), matVec(inverse(c), yArr));
  assert.ok(maxAbsDiff(res.mode, mode) < 1e-10);
  for (const w of res.w) assert.ok(Math.abs(w - 1 / s2) < 1e-12);
});

test("Laplace for probit (n = 8): the mode has zero gradient and log Z matches GPML eq. 3.32 computed densely", () => {
  const xs = [-2.1, -1.3, -0.9, -0.2, 0.4, 1.1, 1.7, 2.6];
  const y = Float64Array.from([1, 1, -1, 1, -1, -1, 1, 1]);
  for (const [s, l] of [[1, 1], [4, 0.8], [20, 2]]) {
    const k = seKernel(xs, s, l, 1e-6 * s * s);
    const res = laplace(k, y, testProbit);
    assert.ok(res.converged, `s = ${s}`);
    checkModeAndLogZ(k, y, testProbit, res, 1e-8);
    // The library's probit likelihood gives the same answer.
    const lib = laplace(k, y, probit);
    assert.ok(Math.abs(lib.logZ - res.logZ) < 1e-10 && maxAbsDiff(lib.mode, res.mode) < 1e-8);
  }
});

test("Laplace for probit, n = 1: the mode solves f / k = y N(yf)/Phi(yf) (bisection) and log Z is eq. 3.32", () => {
  for (const [kk, yy] of [[0.5, 1], [9, -1], [100, 1]]) {
    const res = laplace(Matrix.fromRows([[kk]]), Float64Array.from([yy]), testProbit);
    // g(f) = y r(y f) - f / k is decreasing; bisect on [-|k| - 10, |k| + 10].
    let lo = -kk - 10;
    let hi = kk + 10;
    const g = (f: number) => yy * normalPdfCdfRatio(yy * f) - f / kk;
    for (let it = 0; it < 200; it++) {
      const mid = 0.5 * (lo + hi);
      if (g(mid) > 0) lo = mid;
      else hi = mid;
    }
    const f = 0.5 * (lo + hi);
    assert.ok(Math.abs(res.mode[0] - f) < 1e-10 * Math.max(1, Math.abs(f)), `mode ${res.mode[0]} vs ${f}`);
    const r = normalPdfCdfRatio(yy * f);
    const w = r * (yy * f + r);
    const logZ = (-0.5 * f * f) / kk + logPhi(yy * f) - 0.5 * Math.log(1 + kk * w);
    assert.ok(Math.abs(res.logZ - logZ) < 1e-10, `log Z ${res.logZ} vs ${logZ}`);
  }
});

test("Laplace's line search rescues Newton's method where the full step overshoots", () => {
  const xs = [-1, 0, 0.5, 1.2];
  const k = seKernel(xs, 30, 1, 1e-4);
  const y = Float64Array.from([40, 38, 45, 41]);
  const res = laplace(k, y, pseudoHuber);
  assert.ok(res.converged);
  assert.ok(res.halvings > 0, "the line search was used");
  checkModeAndLogZ(k, y, pseudoHuber, res, 1e-8);
  // Negative control: without halvings the iteration cannot make progress and says so.
  const warnings: string[] = [];
  const bare = laplace(k, y, pseudoHuber, { maxHalvings: 0, onWarning: (m) => warnings.push(m) });
  assert.equal(bare.converged, false);
  assert.equal(warnings.length, 1);
});

test("Laplace reports non-convergence and rejects a likelihood that is not log-concave", () => {
  const xs = [-1, -0.5, 0, 0.5, 1];
  const k = seKernel(xs, 3, 1, 1e-6);
  const y = Float64Array.from([1, -1, 1, 1, -1]);
  const warnings: string[] = [];
  const res = laplace(k, y, testProbit, { maxIterations: 1, onWarning: (m) => warnings.push(m) });
  assert.equal(res.converged, false);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /did not converge in 1 steps/);
  const convex: Likelihood = { ...testGaussian(1), name: "convex", derivatives(_y, f, d1, d2) {
    for (let i = 0; i < f.length; i++) {
      d1[i] = f[i];
      d2[i] = i === 2 ? 1 : -1;
    }
    return 0;
  } };
  assert.throws(() => laplace(k, y, convex), (e: unknown) => e instanceof NotLogConcaveError && e.index === 2);
});

test("Laplace warm-started at its own solution converges at once", () => {
  const xs = [-2, -1, 0, 1, 2];
  const k = seKernel(xs, 2, 1, 1e-6);
  const y = Float64Array.from([1, 1, -1, -1, 1]);
  const first = laplace(k, y, testProbit);
  const again = laplace(k, y, testProbit, { initialAlpha: first.alpha });
  assert.ok(again.converged);
  assert.ok(again.iterations <= 1);
  assert.ok(Math.abs(again.logZ - first.logZ) < 1e-12);
});
