/**
 * Gradients of log Z in theta (Laplace: GPML eq. 5.23; EP: eq. 5.27) against central finite
 * differences of log Z itself, for ARD and shared lengthscales; broken variants (Laplace
 * without the implicit term through the mode, EP away from its fixed point) are rejected. Then
 * type-II maximum likelihood: at the optimum the gradient vanishes and log Z is not below its
 * value at nearby theta.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { probitSites } from "../../src/likelihoods/epSites.js";
import { logZAndGradient, maximiseLogZ, type LogZMethod } from "../../src/approx/logZGradient.js";
import { likelihoodByName } from "../../src/likelihoods/registry.js";
import type { Likelihood } from "../../src/likelihoods/types.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";

const rng = new Rng(51, 0);
const n = 25;
const x = new Matrix(n, 2);
for (let i = 0; i < 2 * n; i++) x.data[i] = rng.normal();
const latent = Float64Array.from({ length: n }, (_, i) => Math.sin(2 * x.data[i]!) + 0.5 * x.data[i + n]!);
const pm = latent.map((f) => (f + 0.5 * rng.normal() > 0 ? 1 : -1));
const zeroOne = pm.map((v) => (v > 0 ? 1 : 0));
const counts = latent.map((f) => Math.round(Math.exp(f)));

const EP_TIGHT = { siteTolerance: 1e-12, logZTolerance: 1e-14, maxSweeps: 500 };

function fdGradient(theta: number[], how: LogZMethod, h = 1e-5): number[] {
  return theta.map((_, j) => {
    const up = [...theta];
    const dn = [...theta];
    up[j] += h;
    dn[j] -= h;
    return (logZAndGradient(x, up, how).logZ - logZAndGradient(x, dn, how).logZ) / (2 * h);
  });
}

function maxRelError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let e = 0;
  for (let i = 0; i < a.length; i++) e = Math.max(e, Math.abs(a[i]! - b[i]!) / Math.max(1e-2, Math.abs(b[i]!)));
  return e;
}

/** The likelihood with its third derivative reported as 0: Laplace's gradient loses its implicit term. */
function withoutThird(lik: Likelihood): Likelihood {
  return { ...lik, derivatives: (y, f, d1, d2, d3) => { const v = lik.derivatives(y, f, d1, d2, d3); d3?.fill(0); return v; } } as Likelihood;
}

const LAPLACE_CASES: [string, Float64Array][] = [["probit", pm], ["logistic", zeroOne], ["poisson", counts]];
for (const [name, y] of LAPLACE_CASES) {
  test(`Laplace (${name}): d log Z / d theta equals finite differences (ARD and shared lengthscale); without the implicit term it does not`, () => {
    const lik = likelihoodByName(name);
    const how: LogZMethod = { method: "laplace", y, likelihood: lik, options: { gradientTolerance: 1e-12 } };
    for (const theta of [[0.1, -0.3, 0.4], [0.2, 0.3]]) {
      const g = logZAndGradient(x, theta, how).gradient;
      const fd = fdGradient(theta, how);
      assert.ok(maxRelError(g, fd) < 1e-5, `${name} ${theta}: ${Array.from(g)} vs ${fd}`);
    }
    const broken = logZAndGradient(x, [0.1, -0.3, 0.4], { ...how, likelihood: withoutThird(lik) }).gradient;
    assert.ok(maxRelError(broken, fdGradient([0.1, -0.3, 0.4], how)) > 1e-3);
  });
}

test("EP (probit): d log Z_EP / d theta equals finite differences at the fixed point; after one sweep it does not", () => {
  const how: LogZMethod = { method: "ep", sites: probitSites(pm), options: EP_TIGHT };
  for (const theta of [[0.1, -0.3, 0.8], [0.2, 0.5]]) {
    const g = logZAndGradient(x, theta, how).gradient;
    const fd = fdGradient(theta, how);
    assert.ok(maxRelError(g, fd) < 1e-5, `${theta}: ${Array.from(g)} vs ${fd}`);
  }
  const early = logZAndGradient(x, [0.1, -0.3, 0.8], { ...how, options: { maxSweeps: 1, damping: 0.3 } }).gradient;
  assert.ok(maxRelError(early, fdGradient([0.1, -0.3, 0.8], how)) > 1e-3);
});

for (const method of ["laplace", "ep"] as const) {
  test(`type-II ML (${method}): BFGS stops where the gradient vanishes, at a local maximum of log Z`, () => {
    const how: LogZMethod = method === "ep" ? { method, sites: probitSites(pm), options: EP_TIGHT } : { method, y: pm, likelihood: likelihoodByName("probit") };
    const r = maximiseLogZ(x, { logLengthscale: [0, 0], logSignalSd: 0 }, how, { gradientTolerance: 1e-6 });
    assert.ok(r.converged, r.reason);
    const t = [...r.theta.logLengthscale, r.theta.logSignalSd];
    assert.ok(Math.max(...Array.from(logZAndGradient(x, t, how).gradient, Math.abs)) < 1e-5);
    assert.ok(r.logZ > logZAndGradient(x, [0, 0, 0], how).logZ);
    for (let j = 0; j < 3; j++) {
      for (const h of [-0.05, 0.05]) {
        const u = [...t];
        u[j] += h;
        assert.ok(logZAndGradient(x, u, how).logZ <= r.logZ + 1e-10);
      }
    }
  });
}
