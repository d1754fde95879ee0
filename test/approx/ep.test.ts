import { test } from "node:test";
import assert from "node:assert/strict";
import { Matrix } from "../../src/linalg/index.js";
import { epApproximation, expectationPropagation, gaussianSites, probitSites } from "../../src/approx/index.js";
import { probit } from "../../src/likelihoods/index.js";
import { annealedLatentTarget } from "../../src/targets/annealedLatent.js";
import { logPhi, normalPdf, normalCdf } from "../../src/math/index.js";
import { add, diag, gaussianLogDensity, inverse, logAbsDet, matVec, rows, seKernel, simpson } from "./fixtures.js";

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/**
 * Straightforward EP written from GPML section 3.6 with dense inverses: after every site
 * update Sigma = (K^-1 + diag(tau~))^-1 by Gauss-Jordan (O(n^3) per site), and log Z_EP by
 * eq. 3.65 term by term with mu~ = nu~ / tau~, Sigma~ = diag(1 / tau~).
 */
function naiveProbitEp(kRows: number[][], y: number[], tol = 1e-14, maxSweeps = 500) {
  const n = y.length;
  const kInv = inverse(kRows);
  const tau = new Array(n).fill(0);
  const nu = new Array(n).fill(0);
  let sigma = kRows.map((r) => [...r]);
  let mu = new Array(n).fill(0);
  const post = () => {
    sigma = inverse(add(kInv, diag(tau)));
    mu = matVec(sigma, nu);
  };
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    let change = 0;
    for (let i = 0; i < n; i++) {
      const tc = 1 / sigma[i][i] - tau[i];
      const nc = mu[i] / sigma[i][i] - nu[i];
      const m = nc / tc;
      const v = 1 / tc;
      const z = (y[i] * m) / Math.sqrt(1 + v);
      const r = normalPdf(z) / normalCdf(z);
      const mh = m + (y[i] * v * r) / Math.sqrt(1 + v);
      const vh = v - (v * v * r * (z + r)) / (1 + v);
      const tNew = 1 / vh - tc;
      const nNew = mh / vh - nc;
      change = Math.max(change, Math.abs(tNew - tau[i]), Math.abs(nNew - nu[i]));
      tau[i] = tNew;
      nu[i] = nNew;
      post();
    }
    if (change < tol) break;
  }
  // log Z_EP, GPML eq. 3.65
  const vt = tau.map((t) => 1 / t);
  const mt = nu.map((v, i) => v / tau[i]);
  let logZ = gaussianLogDensity(mt, add(kRows, diag(vt))) + 0.5 * n * Math.log(2 * Math.PI);
  for (let i = 0; i < n; i++) {
    const tc = 1 / sigma[i][i] - tau[i];
    const m = (mu[i] / sigma[i][i] - nu[i]) / tc;
    const v = 1 / tc;
    logZ += logPhi((y[i] * m) / Math.sqrt(1 + v)) + 0.5 * Math.log(v + vt[i]) + (m - mt[i]) ** 2 / (2 * (v + vt[i]));
  }
  return { tau, nu, mu, sigma, logZ };
}

test("EP on n = 10 probit matches a naive dense EP to 1e-8 (sites, mean, covariance, log Z), both schedules", () => {
  const xs = [-2.1, -1.7, -1.2, -0.4, 0.1, 0.3, 0.9, 1.4, 2.2, 2.8];
  const yArr = [1, 1, -1, 1, -1, -1, 1, -1, 1, 1];
  const k = seKernel(xs, 1.8, 0.9, 1e-3);
  const ref = naiveProbitEp(rows(k), yArr);
  const y = Float64Array.from(yArr);
  const seq = expectationPropagation(k, probitSites(y), { siteTolerance: 1e-12, logZTolerance: 1e-13 });
  assert.ok(seq.converged, "sequential EP converged");
  assert.ok(seq.sweeps < 30, `sequential sweeps ${seq.sweeps}`);
  assert.ok(maxAbsDiff(seq.siteTau, ref.tau) < 1e-8, `tau~ ${maxAbsDiff(seq.siteTau, ref.tau)}`);
  assert.ok(maxAbsDiff(seq.siteNu, ref.nu) < 1e-8, `nu~ ${maxAbsDiff(seq.siteNu, ref.nu)}`);
  assert.ok(maxAbsDiff(seq.mean, ref.mu) < 1e-8, `mu ${maxAbsDiff(seq.mean, ref.mu)}`);
  assert.ok(maxAbsDiff(seq.covariance.data, new Matrix(10, 10, Float64Array.from(ref.sigma.flat())).data) < 1e-8, "Sigma");
  assert.ok(Math.abs(seq.logZ - ref.logZ) < 1e-8, `log Z ${seq.logZ} vs ${ref.logZ}`);
  // The site means and cavities are consistent with the returned posterior.
  for (let i = 0; i < 10; i++) {
    const sii = seq.covariance.get(i, i);
    assert.ok(Math.abs(1 / seq.cavityVariance[i] - (1 / sii - seq.siteTau[i])) < 1e-9);
    assert.ok(Math.abs(seq.siteMean[i] - seq.siteNu[i] / seq.siteTau[i]) < 1e-12);
  }

  // parallel: the plain damped iteration and the default Anderson-accelerated one
  for (const acceleration of ["none", "anderson"] as const) {
    const par = expectationPropagation(k, probitSites(y), { schedule: "parallel", acceleration, siteTolerance: 1e-11, logZTolerance: 1e-13, maxSweeps: 500 });
    assert.ok(par.converged, `parallel EP (${acceleration}) converged`);
    assert.equal(par.acceleration, acceleration);
    assert.equal(par.damping, acceleration === "none" ? 0.5 : 1);
    assert.ok(Math.abs(par.logZ - ref.logZ) < 1e-8, `parallel (${acceleration}) log Z ${par.logZ} vs ${ref.logZ}`);
    assert.ok(maxAbsDiff(par.siteTau, ref.tau) < 1e-7, `parallel (${acceleration}) tau~ ${maxAbsDiff(par.siteTau, ref.tau)}`);
    assert.ok(maxAbsDiff(par.mean, ref.mu) < 1e-7, `parallel (${acceleration}) mu ${maxAbsDiff(par.mean, ref.mu)}`);
    assert.ok(maxAbsDiff(par.covariance.data, new Matrix(10, 10, Float64Array.from(ref.sigma.flat())).data) < 1e-7, `parallel (${acceleration}) Sigma`);
  }
});

test("EP with Gaussian sites is exact: GP regression posterior and log N(y; 0, K + s2 I) (sequential and parallel)", () => {
  const xs = [-1.5, -0.7, 0, 0.4, 1.1, 2];
  const k = seKernel(xs, 1.3, 0.8, 0);
  const yArr = [0.3, -0.2, 0.9, 1.4, 0.1, -0.8];
  const y = Float64Array.from(yArr);
  const s2 = 0.3;
  const c = add(rows(k), diag(new Array(6).fill(s2)));
  const exactLogZ = gaussianLogDensity(yArr, c);
  // Posterior mean K (K + s2 I)^-1 y and covariance K - K (K + s2 I)^-1 K.
  const ci = inverse(c);
  const kr = rows(k);
  const alpha = matVec(ci, yArr);
  const mean = matVec(kr, alpha);
  const kci = kr.map((r) => matVec(ci, r)); // rows of K C^-1 (C, K symmetric)
  const cov = kr.map((r, i) => r.map((v, j) => v - kci[i].reduce((s, u, l) => s + u * kr[l][j], 0)));
  for (const schedule of ["sequential", "parallel"] as const) {
    const res = expectationPropagation(k, gaussianSites(y, s2), { schedule, damping: 1 });
    assert.ok(res.converged);
    // Exact after one sweep; sequential EP confirms it with a second, accelerated parallel EP
    // (whose first sweep is sequential, leaving no log Z_EP to compare with) with two parallel ones.
    assert.equal(res.sweeps, schedule === "sequential" ? 2 : 3, `${schedule}: exact after one sweep, then confirmed`);
    assert.ok(Math.abs(res.logZ - exactLogZ) < 1e-10, `${schedule}: ${res.logZ} vs ${exactLogZ}`);
    assert.ok(maxAbsDiff(res.mean, mean) < 1e-10);
    assert.ok(maxAbsDiff(res.covariance.data, Float64Array.from(cov.flat())) < 1e-10);
    for (let i = 0; i < 6; i++) {
      assert.ok(Math.abs(res.siteTau[i] - 1 / s2) < 1e-9);
      assert.ok(Math.abs(res.siteMean[i] - yArr[i]) < 1e-9);
    }
  }
});

test("EP on n = 1 probit: log Z = log 1/2 exactly, and EP's mean and variance are the exact posterior moments (Simpson)", () => {
  for (const [kk, yy] of [[0.5, 1], [4, -1], [30, 1]] as const) {
    const k = Matrix.fromRows([[kk]]);
    const res = expectationPropagation(k, probitSites(Float64Array.from([yy])));
    assert.ok(res.converged);
    // Z = int N(f; 0, k) Phi(y f) df = Phi(0) = 1/2 for a zero-mean prior.
    assert.ok(Math.abs(res.logZ - Math.log(0.5)) < 1e-13, `log Z ${res.logZ}`);
    // Posterior moments by composite Simpson on +-12 prior sds with 4000 intervals
    // (halving the intervals changes them by < 1e-13).
    const sd = Math.sqrt(kk);
    const dens = (f: number) => (normalPdf(f / sd) / sd) * normalCdf(yy * f);
    const z = simpson(dens, -12 * sd, 12 * sd, 4000);
    const m1 = simpson((f) => f * dens(f), -12 * sd, 12 * sd, 4000) / z;
    const m2 = simpson((f) => f * f * dens(f), -12 * sd, 12 * sd, 4000) / z;
    assert.ok(Math.abs(z - 0.5) < 1e-12, `quadrature Z ${z}`);
    assert.ok(Math.abs(res.mean[0] - m1) < 1e-10 * Math.max(1, sd), `mean ${res.mean[0]} vs ${m1}`);
    assert.ok(Math.abs(res.covariance.get(0, 0) - (m2 - m1 * m1)) < 1e-10 * Math.max(1, kk), `variance ${res.covariance.get(0, 0)} vs ${m2 - m1 * m1}`);
  }
});

test("EP reports non-convergence instead of returning silently", () => {
  const xs = [-1, -0.5, 0, 0.5, 1];
  const k = seKernel(xs, 3, 1, 1e-6);
  const y = Float64Array.from([1, -1, 1, 1, -1]);
  const warnings: string[] = [];
  const res = expectationPropagation(k, probitSites(y), { maxSweeps: 1, onWarning: (s) => warnings.push(s) });
  assert.equal(res.converged, false);
  assert.equal(res.sweeps, 1);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /did not converge in 1 sweeps/);
  // The same problem with enough sweeps converges without a warning.
  const ok = expectationPropagation(k, probitSites(y), { onWarning: (s) => warnings.push(s) });
  assert.ok(ok.converged);
  assert.equal(warnings.length, 1);
});

test("EP warm-started from converged sites stays put and converges in the minimum number of sweeps", () => {
  const xs = [-1.2, -0.3, 0.2, 0.8, 1.9, 2.5];
  const k = seKernel(xs, 2, 1.1, 1e-6);
  const y = Float64Array.from([1, 1, -1, -1, 1, -1]);
  const first = expectationPropagation(k, probitSites(y), { siteTolerance: 1e-10, logZTolerance: 1e-12 });
  const again = expectationPropagation(k, probitSites(y), { initialSiteTau: first.siteTau, initialSiteNu: first.siteNu, siteTolerance: 1e-8 });
  assert.ok(again.converged);
  assert.equal(again.sweeps, 2);
  assert.ok(Math.abs(again.logZ - first.logZ) < 1e-10);
});

test("EP's probit tilted moments agree with quadrature for extreme cavities", () => {
  const sites = probitSites(Float64Array.from([1]));
  const out = { logZ: 0, mean: 0, variance: 0 };
  for (const [m, v] of [[-30, 2], [-6, 0.5], [0.3, 9], [8, 1]]) {
    sites.tilted(0, m, v, out);
    const sd = Math.sqrt(v);
    // Tilted density relative to its own scale: integrate on [m' - 14 s', m' + 14 s'] around
    // the tilted mean with the tilted sd from the closed form, then compare moments.
    const lo = out.mean - 14 * Math.sqrt(out.variance);
    const hi = out.mean + 14 * Math.sqrt(out.variance);
    const logc = out.logZ;
    const dens = (f: number) => Math.exp(-0.5 * ((f - m) / sd) ** 2 + logPhi(f) - logc) / (sd * Math.sqrt(2 * Math.PI));
    const z = simpson(dens, lo, hi, 6000);
    const m1 = simpson((f) => f * dens(f), lo, hi, 6000) / z;
    const m2 = simpson((f) => (f - m1) ** 2 * dens(f), lo, hi, 6000) / z;
    assert.ok(Math.abs(z - 1) < 1e-9, `(${m}, ${v}): normaliser ratio ${z}`);
    assert.ok(Math.abs(out.mean - m1) < 1e-9 * Math.max(1, Math.abs(m1)), `(${m}, ${v}): mean ${out.mean} vs ${m1}`);
    assert.ok(Math.abs(out.variance - m2) < 1e-9 * m2, `(${m}, ${v}): variance ${out.variance} vs ${m2}`);
  }
});

test("EP's q, handed to the annealed target as (mu, tau~), has the density N(mu, Sigma) of EP's own covariance", () => {
  const xs = [-1.4, -0.6, 0.1, 0.9, 1.6];
  const k = seKernel(xs, 2.5, 1.2, 1e-6);
  const y = Float64Array.from([1, -1, -1, 1, 1]);
  const res = expectationPropagation(k, probitSites(y), { siteTolerance: 1e-10 });
  const target = annealedLatentTarget({ likelihood: probit, y, kernelMatrix: k, q: epApproximation(res), beta: 0.3 });
  const sigmaInv = inverse(rows(res.covariance));
  for (const x of [res.mean, Float64Array.from([0.5, -1, 2, 0, -0.3])]) {
    const d = Array.from(x, (v, i) => v - res.mean[i]);
    const quad = matVec(sigmaInv, d).reduce((s, v, i) => s + v * d[i], 0);
    const logQ = -0.5 * quad + 0.5 * logAbsDet(sigmaInv) - 2.5 * Math.log(2 * Math.PI);
    const parts = target.logDensityParts(x);
    assert.ok(Math.abs(parts.logQ - logQ) < 1e-9, `log q ${parts.logQ} vs ${logQ}`);
  }
});

test("sequential EP's blocked rank-one updates (n = 140: blocks of 64, 64 and 12 sites) give the one-at-a-time sweep of a naive dense EP", () => {
  const n = 140;
  const xs = Array.from({ length: n }, (_, i) => -3 + (6 * i) / (n - 1) + 0.01 * Math.sin(7 * i));
  const yArr = xs.map((x, i) => (Math.sin(1.3 * x) + 0.3 * Math.cos(11 * i) > 0 ? 1 : -1));
  const k = seKernel(xs, 1.1, 1.5, 1e-3);
  const ref = naiveProbitEp(rows(k), yArr, 0, 1); // exactly one sweep
  const one = expectationPropagation(k, probitSites(Float64Array.from(yArr)), { maxSweeps: 1, minSweeps: 1, onWarning: () => {} });
  assert.equal(one.sweeps, 1);
  assert.ok(maxAbsDiff(one.siteTau, ref.tau) < 1e-8, `tau~ ${maxAbsDiff(one.siteTau, ref.tau)}`);
  assert.ok(maxAbsDiff(one.siteNu, ref.nu) < 1e-8, `nu~ ${maxAbsDiff(one.siteNu, ref.nu)}`);
  assert.ok(maxAbsDiff(one.mean, ref.mu) < 1e-8, `mu ${maxAbsDiff(one.mean, ref.mu)}`);
  // and the converged sequential and parallel schedules reach the same fixed point
  const seq = expectationPropagation(k, probitSites(Float64Array.from(yArr)), { siteTolerance: 1e-10, logZTolerance: 1e-12 });
  const par = expectationPropagation(k, probitSites(Float64Array.from(yArr)), { schedule: "parallel", siteTolerance: 1e-10, logZTolerance: 1e-12, maxSweeps: 500 });
  assert.ok(seq.converged && par.converged);
  assert.ok(Math.abs(seq.logZ - par.logZ) < 1e-8, `log Z ${seq.logZ} vs ${par.logZ}`);
  assert.ok(maxAbsDiff(seq.covariance.data, par.covariance.data) < 1e-7, "Sigma");
});
