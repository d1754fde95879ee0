import { test } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { cholesky, Matrix } from "../../src/linalg/index.js";
import { epCorrectedLogZ, expectationPropagation, gaussianSites, probitSites } from "../../src/approx/index.js";
import type { EpResult } from "../../src/approx/index.js";
import { logPhi } from "../../src/math/index.js";
import { Rng } from "../../src/random/index.js";
import { gaussHermiteNormal, logSumExpArray, probitOrthantLogZ, seKernel, simpson } from "./fixtures.js";

const tight = { siteTolerance: 1e-12, logZTolerance: 1e-14 };

function runEp(k: Matrix, y: number[]): EpResult {
  return expectationPropagation(k, probitSites(Float64Array.from(y)), tight);
}

/**
 * log Z by tensor Gauss-Hermite quadrature in the coordinates of the EP posterior widened by
 * `widen`: f = mu + widen L x, x ~ N(0, I), Z = E_x[p(y|f) N(f; 0, K) / N(f; mu, widen^2 Sigma)].
 */
function logZTensorGaussHermite(k: Matrix, y: number[], ep: EpResult, points: number, widen: number): number {
  const n = y.length;
  const { x, w } = gaussHermiteNormal(points);
  const c = ep.covariance.clone();
  for (let i = 0; i < c.data.length; i++) c.data[i] *= widen * widen;
  const lc = cholesky(c);
  const lk = cholesky(k);
  const logDetK = lk.logDet();
  const logDetC = lc.logDet();
  const total = Math.pow(points, n);
  const logVals = new Float64Array(total);
  const weights = new Float64Array(total);
  const idx = new Array(n).fill(0);
  const z = new Float64Array(n);
  for (let t = 0; t < total; t++) {
    let r = t;
    let wt = 1;
    let zz = 0;
    for (let d = 0; d < n; d++) {
      idx[d] = r % points;
      r = Math.floor(r / points);
      z[d] = x[idx[d]];
      wt *= w[idx[d]];
      zz += z[d] * z[d];
    }
    const f = lc.multiplyLower(z);
    for (let i = 0; i < n; i++) f[i] += ep.mean[i];
    const a = lk.solveLowerInPlace(Float64Array.from(f));
    let kq = 0;
    let ll = 0;
    for (let i = 0; i < n; i++) {
      kq += a[i] * a[i];
      ll += logPhi(y[i] * f[i]);
    }
    // log [p(y|f) N(f; 0, K) / N(f; mu, C)]; the (2 pi)^(n/2) cancel.
    logVals[t] = ll - 0.5 * kq - 0.5 * logDetK + 0.5 * zz + 0.5 * logDetC;
    weights[t] = wt;
  }
  return logSumExpArray(logVals, weights);
}

/**
 * Asserts that the truth is accurate enough to judge (EP's error is at least `separation`
 * times the truth's error) and that corrected EP's error, plus 3 truth errors, is at least
 * `minGain` times below EP's. Reports the numbers as test diagnostics.
 */
function check(t: TestContext, label: string, ep: EpResult, truth: number, truthError: number, minGain: number, separation = 10): void {
  const corrected = epCorrectedLogZ(ep);
  const pairwise = epCorrectedLogZ(ep, { form: "pairwise" });
  const epErr = ep.logZ - truth;
  const corrErr = corrected.logZ - truth;
  t.diagnostic(`${label}: truth ${truth.toFixed(10)} (+- ${truthError.toExponential(1)}), EP error ${epErr.toExponential(2)}, corrected error ${corrErr.toExponential(2)}, pairwise-form error ${(pairwise.logZ - truth).toExponential(2)}`);
  assert.ok(Math.abs(epErr) > separation * truthError, `${label}: EP error ${epErr.toExponential(2)} vs truth error ${truthError.toExponential(2)}`);
  assert.ok(Math.abs(corrErr) + 3 * truthError < Math.abs(epErr) / minGain, `${label}: corrected error ${corrErr.toExponential(2)} not ${minGain}x below EP's ${epErr.toExponential(2)}`);
}

test("n = 1: no pairs, so the correction is 0 and log Z_EP = log 1/2 is exact", () => {
  const ep = runEp(Matrix.fromRows([[7]]), [1]);
  const c = epCorrectedLogZ(ep, { maxOrder: 8 });
  assert.equal(c.correction, 0);
  assert.ok(Math.abs(c.logZ - Math.log(0.5)) < 1e-14);
});

test("Gaussian sites: the tilted distributions are Gaussian, the correction is exactly 0", () => {
  const k = seKernel([-1, 0, 0.5, 2], 1.2, 1, 1e-6);
  const ep = expectationPropagation(k, gaussianSites(Float64Array.from([0.2, -0.4, 0.1, 1]), 0.5));
  const c = epCorrectedLogZ(ep, { form: "pairwise", maxOrder: 10 });
  assert.equal(c.correction, 0);
});

test("the probit tilted cumulants of orders 3 and 4 agree with quadrature", () => {
  const sites = probitSites(Float64Array.from([1, -1]));
  const kappa = new Float64Array(2);
  const mom = { logZ: 0, mean: 0, variance: 0 };
  for (const [i, m, v] of [[0, 0.4, 3], [1, 2.5, 0.8], [0, -4, 2], [1, -1, 25]]) {
    sites.tiltedCumulants!(i, m, v, 4, kappa);
    sites.tilted(i, m, v, mom);
    const yi = i === 0 ? 1 : -1;
    const sd = Math.sqrt(v);
    const dens = (f: number) => Math.exp(-0.5 * ((f - m) / sd) ** 2 + logPhi(yi * f));
    const lo = mom.mean - 14 * Math.sqrt(mom.variance);
    const hi = mom.mean + 14 * Math.sqrt(mom.variance);
    const z = simpson(dens, lo, hi, 8000);
    const c = (p: number) => simpson((f) => (f - mom.mean) ** p * dens(f), lo, hi, 8000) / z;
    const m2 = c(2);
    const k3 = c(3);
    const k4 = c(4) - 3 * m2 * m2;
    assert.ok(Math.abs(m2 - mom.variance) < 1e-9 * m2, `(${m}, ${v}) variance`);
    assert.ok(Math.abs(kappa[0] - k3) < 1e-8 * Math.pow(m2, 1.5), `(${m}, ${v}) kappa3 ${kappa[0]} vs ${k3}`);
    assert.ok(Math.abs(kappa[1] - k4) < 1e-8 * m2 * m2, `(${m}, ${v}) kappa4 ${kappa[1]} vs ${k4}`);
  }
});

// n = 2 problems: (signal sd, correlation, labels).
const pairs: [number, number, number[]][] = [
  [1, 0.6, [1, 1]],
  [3, 0.8, [1, -1]],
  [3, 0.95, [1, 1]],
  [5, 0.9, [-1, 1]],
  [2, -0.7, [1, 1]],
];

function pairKernel(s: number, r: number): Matrix {
  return Matrix.fromRows([[s * s, r * s * s], [r * s * s, s * s]]);
}

test("n = 2: Sheppard's closed form for log Z agrees with 2-D Gauss-Hermite quadrature", () => {
  for (const [s, r, y] of pairs) {
    const k = pairKernel(s, r);
    const ep = runEp(k, y);
    const truth = probitOrthantLogZ(k, y);
    const gh = logZTensorGaussHermite(k, y, ep, 160, 1.3);
    assert.ok(Math.abs(gh - truth) < 1e-9, `s = ${s}, r = ${r}: quadrature ${gh} vs ${truth}`);
  }
});

test("n = 2: corrected EP is closer to the exact log Z than EP (at least 10x)", (t) => {
  for (const [s, r, y] of pairs) {
    const k = pairKernel(s, r);
    const ep = runEp(k, y);
    check(t, `n = 2, s = ${s}, r = ${r}`, ep, probitOrthantLogZ(k, y), 1e-14, 10);
  }
});

test("n = 2: with all orders of the pair expansion, Z = Z_EP (1 + E_q[eps_1 eps_2]) holds exactly", () => {
  // For two sites R = E_q[(1 + eps_1)(1 + eps_2)] = 1 + E_q[eps_1 eps_2] has no further terms,
  // so the convergent Hermite series of the "pairwise" form with log(1 + R_2) is exact; this
  // checks the Mehler-formula derivation and the Hermite coefficients to high order.
  for (const [s, r, y] of pairs.slice(0, 2)) {
    const k = pairKernel(s, r);
    const ep = runEp(k, y);
    const truth = probitOrthantLogZ(k, y);
    const c = epCorrectedLogZ(ep, { form: "pairwise", maxOrder: 40 });
    const exact = ep.logZ + Math.log1p(c.correction);
    assert.ok(Math.abs(exact - truth) < 1e-8, `s = ${s}, r = ${r}: ${exact} vs ${truth} (EP ${ep.logZ})`);
    // The cumulant form agrees with it in orders 3..5, where the Hermite coefficients are
    // the standardised cumulants over l!.
    const cum = epCorrectedLogZ(ep, { form: "cumulant", maxOrder: 5 });
    for (let o = 0; o < 3; o++) assert.ok(Math.abs(cum.termsByOrder[o] - c.termsByOrder[o]) < 1e-15 + 1e-12 * Math.abs(c.termsByOrder[o]));
  }
});

test("n = 3 (SE kernel, strong correlation): corrected EP beats EP against the closed-form orthant probability", (t) => {
  const cases: [number[], number[], number, number][] = [
    [[-0.3, 0.5, 0.9], [1, -1, 1], 3, 3],
    [[-1, 0, 1], [1, 1, -1], 4, 2],
    [[0, 0.2, 2], [-1, 1, 1], 2, 1.5],
  ];
  for (const [xs, y, s, l] of cases) {
    const k = seKernel(xs, s, l, 1e-8);
    check(t, `n = 3, s = ${s}, l = ${l}`, runEp(k, y), probitOrthantLogZ(k, y), 1e-14, 10);
  }
});

test("n = 4 (SE kernel, strong correlation): corrected EP beats EP against 4-D Gauss-Hermite quadrature", (t) => {
  const xs = [-1, -0.4, 0.3, 0.8];
  const y = [1, -1, 1, 1];
  const k = seKernel(xs, 4, 3, 1e-6);
  const ep = runEp(k, y);
  const fine = logZTensorGaussHermite(k, y, ep, 24, 1.2);
  const coarse = logZTensorGaussHermite(k, y, ep, 20, 1.2);
  const quadError = Math.abs(fine - coarse);
  assert.ok(quadError < 1e-6, `quadrature not converged: ${fine} vs ${coarse}`);
  check(t, "n = 4 SE", ep, fine, quadError, 20);
});

/**
 * K = a a' + b b' + diag(d): f = a w1 + b w2 + u with u ~ N(0, diag(d)) independent, so
 * Z = E_w[prod_i Phi(y_i (a_i w1 + b_i w2) / sqrt(1 + d_i))], a 2-D integral for any n; by
 * the product Simpson rule on [-9, 9]^2 (the normal weight beyond is below 1e-17) with m
 * intervals per axis. Gauss-Hermite is no good here: with mixed labels the integrand is close
 * to the indicator of a wedge.
 */
function lowRankTruth(a: number[], b: number[], d: number[], y: number[], m: number): number {
  const h = 18 / m;
  const nodes = Array.from({ length: m + 1 }, (_, i) => -9 + i * h);
  const simpsonWeight = (i: number) => (i === 0 || i === m ? 1 : i % 2 === 1 ? 4 : 2) * (h / 3);
  const vals = new Float64Array((m + 1) * (m + 1));
  const wts = new Float64Array((m + 1) * (m + 1));
  const scale = d.map((v) => 1 / Math.sqrt(1 + v));
  for (let p = 0; p <= m; p++) {
    for (let q = 0; q <= m; q++) {
      const w1 = nodes[p];
      const w2 = nodes[q];
      let s = -0.5 * (w1 * w1 + w2 * w2) - Math.log(2 * Math.PI);
      for (let i = 0; i < a.length; i++) s += logPhi(y[i] * (a[i] * w1 + b[i] * w2) * scale[i]);
      vals[p * (m + 1) + q] = s;
      wts[p * (m + 1) + q] = simpsonWeight(p) * simpsonWeight(q);
    }
  }
  return logSumExpArray(vals, wts);
}

test("n = 4..6 (rank-2 plus diagonal K, strong correlation): corrected EP beats EP against 2-D Simpson quadrature", (t) => {
  const cases: [number[], number[], number, number[]][] = [
    [[0.3, -0.8, 0.5, 0.9], [1, -1, 1, 1], 3, [0.6, 0.6, 0.6, 0.6]],
    [[-0.6, 0.1, 0.7, -0.2, 0.9], [1, 1, -1, 1, -1], 2.5, [0.4, 0.6, 0.5, 0.3, 0.8]],
    [[0.9, -0.5, 0.2, 0.4, -0.9, 0.1], [-1, 1, 1, 1, -1, 1], 2, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]],
    [[0.2, 0.4, -0.3, 0.8, -0.7, 0.5], [1, 1, 1, -1, 1, -1], 3.5, [0.3, 0.3, 0.3, 0.3, 0.3, 0.3]],
  ];
  for (const [load, y, s, dd] of cases) {
    const n = y.length;
    const a = new Array(n).fill(0.9 * s); // common factor: prior correlation about 0.8-0.95
    const b = load.map((v) => 0.5 * s * v);
    const d = dd.map((v) => (v * s * 0.3) ** 2);
    const k = new Matrix(n, n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) k.set(i, j, a[i] * a[j] + b[i] * b[j] + (i === j ? d[i] : 0));
    const fine = lowRankTruth(a, b, d, y, 400);
    const coarse = lowRankTruth(a, b, d, y, 200);
    // Simpson's error falls as h^4, so |fine - coarse| bounds the fine rule's error by 16x.
    const quadError = Math.abs(fine - coarse);
    assert.ok(quadError < 1e-7, `quadrature not converged: ${fine} vs ${coarse}`);
    check(t, `n = ${n} rank-2, s = ${s}`, runEp(k, y), fine, quadError, 10);
  }
});

test("n = 6 (SE kernel, strong correlation): corrected EP beats EP against defensive importance sampling", (t) => {
  const xs = [-2, -1, 0, 1, 2, 3];
  const y = [1, 1, -1, -1, 1, 1];
  const n = 6;
  const k = seKernel(xs, 2.5, 2, 1e-6);
  const ep = runEp(k, y);
  // Proposal: 0.9 N(mu, Sigma) + 0.1 t_4(mu, Sigma) (the t component keeps the weights
  // bounded, so their variance and the delta-method standard error exist).
  const rng = new Rng(20130901);
  const draws = 800000;
  const ls = cholesky(ep.covariance);
  const lk = cholesky(k);
  const logDetS = ls.logDet();
  const logDetK = lk.logDet();
  const nuT = 4;
  const logGammaHalf = (m: number) => { // log Gamma(m / 2) for integer m
    let s = m % 2 === 0 ? 0 : 0.5 * Math.log(Math.PI);
    for (let j = m % 2 === 0 ? 2 : 1; j < m; j += 2) s += Math.log(j / 2);
    return s;
  };
  const logTConst = logGammaHalf(nuT + n) - logGammaHalf(nuT) - (n / 2) * Math.log(nuT * Math.PI) - 0.5 * logDetS;
  const logGConst = -0.5 * logDetS - (n / 2) * Math.log(2 * Math.PI);
  const logW = new Float64Array(draws);
  const z = new Float64Array(n);
  for (let t = 0; t < draws; t++) {
    rng.fillNormal(z);
    const scale = rng.uniform() < 0.1 ? Math.sqrt(nuT / (2 * rng.gamma(nuT / 2))) : 1;
    const f = ls.multiplyLower(z);
    let q = 0;
    for (let i = 0; i < n; i++) {
      f[i] = ep.mean[i] + scale * f[i];
      q += (scale * z[i]) ** 2;
    }
    const logT = logTConst - ((nuT + n) / 2) * Math.log1p(q / nuT);
    const logG = logGConst - 0.5 * q;
    const mx = Math.max(logT, logG);
    const logProposal = mx + Math.log(0.1 * Math.exp(logT - mx) + 0.9 * Math.exp(logG - mx));
    const a = lk.solveLowerInPlace(Float64Array.from(f));
    let kq = 0;
    let ll = 0;
    for (let i = 0; i < n; i++) {
      kq += a[i] * a[i];
      ll += logPhi(y[i] * f[i]);
    }
    logW[t] = ll - 0.5 * kq - 0.5 * logDetK - (n / 2) * Math.log(2 * Math.PI) - logProposal;
  }
  let mx = -Infinity;
  for (const v of logW) mx = Math.max(mx, v);
  let s1 = 0;
  let s2 = 0;
  for (const v of logW) {
    const e = Math.exp(v - mx);
    s1 += e;
    s2 += e * e;
  }
  const mean = s1 / draws;
  const truth = mx + Math.log(mean);
  const standardError = Math.sqrt((s2 / draws - mean * mean) / draws) / mean; // delta method on log
  check(t, "n = 6 SE (importance sampling)", ep, truth, standardError, 3, 10);
});
