// laplace-nuts above the size where BLAS takes over (n = 24 >= SMALL_ORDER): its leapfrog in
// latent coordinates (laplaceDynamics.ts: one symv with Sigma per step, fused loops, the kinetic
// energy kept with the point) against the leapfrog in u = R^-1 f written out here with plain dense
// loops (f = R u, grad = R' (beta d1 + W f) - u, H = -log p(u) + |p|^2 / 2), and the chains of the
// native and the TypeScript backends: the same draws to rounding. (laplaceNuts.test.ts runs the
// invariance tests, at n = 2 and 3, on the TypeScript path.)
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
import { sample } from "../../src/samplers/driver.js";
import { laplaceDynamics } from "../../src/samplers/laplaceDynamics.js";
import { laplaceNuts } from "../../src/samplers/laplaceNuts.js";
import { laplaceWhitening } from "../../src/samplers/laplaceWhitening.js";
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

test("laplace-nuts' leapfrog at n = 24 (BLAS) is the leapfrog in u written out with dense loops, energies included", () => {
  assert.ok(N >= SMALL_ORDER && getBackend().name !== "js", "the native backend is built and n reaches it");
  const { target, w, y } = problem();
  const whitening = laplaceWhitening(target, "test", w);
  const dyn = laplaceDynamics(target, whitening);
  const r = whitening.factor.factor; // lower triangular, R R' = (K^-1 + W)^-1
  const z = Float64Array.from({ length: N }, (_, i) => Math.cos(1.7 * i));
  let k = 0;
  const fixed = { normal: () => z[k++ % N], uniform: () => 0.5 } as unknown as RandomSource;
  const f0 = Float64Array.from({ length: N }, (_, i) => 0.5 * Math.sin(i));
  const pt = dyn.newPoint();
  dyn.start(dyn.init(f0), fixed, pt);

  // The reference: u0 = R^-1 f0 by forward substitution, p = z, leapfrog in u with dense R.
  const times = (u: Float64Array) => Float64Array.from({ length: N }, (_, i) => {
    let s = 0;
    for (let j = 0; j <= i; j++) s += r.get(i, j) * u[j];
    return s;
  });
  const u = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let s = f0[i];
    for (let j = 0; j < i; j++) s -= r.get(i, j) * u[j];
    u[i] = s / r.get(i, i);
  }
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
  assert.ok(Math.abs(dyn.energy(pt) - energy()) < 1e-10 * (1 + Math.abs(energy())), `H0 ${dyn.energy(pt)} vs ${energy()}`);
  const eps = 0.35;
  for (let step = 0; step < 6; step++) {
    dyn.leapfrog(pt, step < 4 ? eps : -eps);
    const e = step < 4 ? eps : -eps;
    for (let i = 0; i < N; i++) p[i] += 0.5 * e * g[i];
    for (let i = 0; i < N; i++) u[i] += e * p[i];
    lp = logDensityAndGradient(u, g);
    for (let i = 0; i < N; i++) p[i] += 0.5 * e * g[i];
    const f = times(u);
    const v = times(p);
    for (let i = 0; i < N; i++) {
      assert.ok(Math.abs(pt.f[i] - f[i]) < 1e-10 * (1 + Math.abs(f[i])), `step ${step}, f_${i}: ${pt.f[i]} vs ${f[i]}`);
      assert.ok(Math.abs(pt.v[i] - v[i]) < 1e-10 * (1 + Math.abs(v[i])), `step ${step}, v_${i}: ${pt.v[i]} vs ${v[i]}`);
    }
    assert.ok(Math.abs(dyn.energy(pt) - energy()) < 1e-10 * (1 + Math.abs(energy())), `step ${step}: H ${dyn.energy(pt)} vs ${energy()}`);
  }
});

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
