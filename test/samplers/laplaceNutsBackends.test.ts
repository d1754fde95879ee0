// laplace-nuts above the size where BLAS takes over (n = 24 >= SMALL_ORDER): its two integrators in
// latent coordinates (laplaceDynamics.ts: one symv with Sigma per step, fused loops, the kinetic
// energy kept with the point) against the same integrators in u = R^-1 f written out here with
// plain dense loops (f = R u, grad = R' (beta d1 + W f) - u, H = -log p(u) + |p|^2 / 2; the split
// one kicks with grad + u - m, m = R^-1 c, and rotates (u - m, p) exactly), forwards and back, and
// the chains of the native and the TypeScript backends: the same draws to rounding.
// (laplaceNuts.test.ts runs the invariance tests, at n = 2 and 3, on the TypeScript path.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { laplace } from "../../src/approx/laplace.js";
import { getBackend, setBackend } from "../../src/linalg/backend.js";
import { SMALL_ORDER } from "../../src/linalg/cholesky.js";
import { jsBackend } from "../../src/linalg/js.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { probit } from "../../src/likelihoods/probit.js";
import { Rng } from "../../src/random/rng.js";
import type { RandomSource } from "../../src/random/types.js";
import { sample } from "../../src/samplers/chain/driver.js";
import { LAPLACE_INTEGRATORS, laplaceDynamics } from "../../src/samplers/integrators/laplaceDynamics.js";
import { laplaceNuts } from "../../src/samplers/kernels/laplaceNuts.js";
import { laplaceWhitening } from "../../src/samplers/kernels/laplaceWhitening.js";
import { latentGpTarget } from "../../src/targets/latentGpModel.js";

const N = 24;

function problem() {
  const rng = new Rng(11);
  const X = new Matrix(N, 1, Float64Array.from({ length: N }, () => rng.uniform()));
  const y = Float64Array.from({ length: N }, (_, i) => (Math.sin(6 * X.get(i, 0)) + 0.3 * rng.normal() > 0 ? 1 : -1));
  const target = latentGpTarget(X, y, { likelihood: "probit", logLengthscale: [-1.5], logSignalSd: 1, jitter: 1e-6 * Math.exp(2) }, () => undefined);
  const w = laplace(target.kernelMatrix, target.y, target.likelihood).w;
  return { target, w, y };
}

for (const integrator of LAPLACE_INTEGRATORS) {
  test(`laplace-nuts' ${integrator} integrator at n = 24 (BLAS) is the same integrator in u written out with dense loops, energies included, forwards and back`, () => {
    assert.ok(N >= SMALL_ORDER && getBackend().name !== "js", "the native backend is built and n reaches it");
    const { target, w, y } = problem();
    const whitening = laplaceWhitening(target, "test", w);
    const center = Float64Array.from({ length: N }, (_, i) => 0.4 * Math.cos(0.9 * i));
    const dyn = laplaceDynamics(target, whitening, { integrator, center });
    const r = whitening.factor.factor; // lower triangular, R R' = (K^-1 + W)^-1
    const z = Float64Array.from({ length: N }, (_, i) => Math.cos(1.7 * i));
    let k = 0;
    const fixed = { normal: () => z[k++ % N], uniform: () => 0.5 } as unknown as RandomSource;
    const f0 = Float64Array.from({ length: N }, (_, i) => 0.5 * Math.sin(i));
    const pt = dyn.newPoint();
    dyn.start(dyn.init(f0), fixed, pt);

    // The reference: u = R^-1 x by forward substitution, p = z, the integrator in u with dense R.
    const times = (uu: Float64Array) => Float64Array.from({ length: N }, (_, i) => {
      let s = 0;
      for (let j = 0; j <= i; j++) s += r.get(i, j) * uu[j];
      return s;
    });
    const solve = (x: Float64Array) => {
      const out = new Float64Array(N);
      for (let i = 0; i < N; i++) {
        let s = x[i];
        for (let j = 0; j < i; j++) s -= r.get(i, j) * out[j];
        out[i] = s / r.get(i, i);
      }
      return out;
    };
    const u = solve(f0);
    const m = integrator === "split" ? solve(center) : new Float64Array(N);
    const d1 = new Float64Array(N);
    const logDensityAndGradient = (uu: Float64Array, g: Float64Array): number => {
      const f = times(uu);
      let lp = probit.gradient!(y, f, d1);
      const a = Float64Array.from({ length: N }, (_, i) => d1[i] + w[i] * f[i]);
      for (let i = 0; i < N; i++) lp += 0.5 * w[i] * f[i] * f[i] - 0.5 * uu[i] * uu[i];
      for (let j = 0; j < N; j++) {
        let s = 0;
        for (let i = j; i < N; i++) s += r.get(i, j) * a[i];
        g[j] = s - uu[j];
      }
      return lp;
    };
    const p = Float64Array.from(z);
    const g = new Float64Array(N);
    let lp = logDensityAndGradient(u, g);
    const energy = () => -lp + 0.5 * p.reduce((s, v) => s + v * v, 0);
    // the kick: the whole gradient (leapfrog), or the part that is not the Gaussian's (split)
    const kick = (h: number) => {
      for (let i = 0; i < N; i++) p[i] += h * (integrator === "split" ? g[i] + u[i] - m[i] : g[i]);
    };
    assert.ok(Math.abs(dyn.energy(pt) - energy()) < 1e-10 * (1 + Math.abs(energy())), `H0 ${dyn.energy(pt)} vs ${energy()}`);
    const eps = 0.35;
    for (let step = 0; step < 8; step++) {
      const e = step < 4 ? eps : -eps;
      dyn.step(pt, e);
      kick(0.5 * e);
      if (integrator === "split") {
        for (let i = 0; i < N; i++) {
          const du = u[i] - m[i];
          u[i] = m[i] + du * Math.cos(e) + p[i] * Math.sin(e);
          p[i] = p[i] * Math.cos(e) - du * Math.sin(e);
        }
      } else {
        for (let i = 0; i < N; i++) u[i] += e * p[i];
      }
      lp = logDensityAndGradient(u, g);
      kick(0.5 * e);
      const f = times(u);
      const v = times(p);
      for (let i = 0; i < N; i++) {
        assert.ok(Math.abs(pt.f[i] - f[i]) < 1e-10 * (1 + Math.abs(f[i])), `step ${step}, f_${i}: ${pt.f[i]} vs ${f[i]}`);
        assert.ok(Math.abs(pt.v[i] - v[i]) < 1e-10 * (1 + Math.abs(v[i])), `step ${step}, v_${i}: ${pt.v[i]} vs ${v[i]}`);
      }
      assert.ok(Math.abs(dyn.energy(pt) - energy()) < 1e-10 * (1 + Math.abs(energy())), `step ${step}: H ${dyn.energy(pt)} vs ${energy()}`);
    }
    // four steps forwards and four back: the start again (the integrator is reversible)
    for (let i = 0; i < N; i++) assert.ok(Math.abs(pt.f[i] - f0[i]) < 1e-10, `back at the start, f_${i}: ${pt.f[i]} vs ${f0[i]}`);
  });
}

test("laplace-nuts at n = 24: the native and the TypeScript backends give the same draws to rounding", () => {
  const { target, w } = problem();
  const native = getBackend();
  const run = () => sample(laplaceNuts(target, { stepSize: 0.5, diagonal: w }), { draws: 20, burnIn: 0, chains: 1, seed: 5, init: new Float64Array(N) });
  const a = run();
  setBackend(jsBackend);
  let b;
  try {
    b = run();
  } finally {
    setBackend(native);
  }
  let worst = 0;
  for (let i = 0; i < a.samples.length; i++) worst = Math.max(worst, Math.abs(a.samples[i] - b.samples[i]) / (1 + Math.abs(a.samples[i])));
  assert.ok(worst < 1e-10, `largest relative difference ${worst}`);
  assert.deepEqual(Array.from(a.stats.nLeapfrog), Array.from(b.stats.nLeapfrog));
});
