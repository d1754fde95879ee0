/**
 * The tridiagonal Cholesky factor (src/linalg/tridiagonal.ts) against the dense one: the factor's
 * entries, log|G|, solves with G, L and L', products with L and G, on a random diagonally
 * dominant matrix and on the stochastic volatility metric I/2 + C^-1 with phi near 1 (badly
 * conditioned); a non-positive pivot raises NotPositiveDefiniteError with its index.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cholesky, Matrix, NotPositiveDefiniteError } from "../../src/linalg/index.js";
import { TridiagonalCholesky, tridiagonalMatvec } from "../../src/linalg/tridiagonal.js";
import { Rng } from "../../src/random/rng.js";
import { tridiagonalMass } from "../../src/samplers/integrators/tridiagonalMass.js";

function dense(d: Float64Array, e: Float64Array): Matrix {
  const n = d.length;
  const a = new Matrix(n, n);
  for (let i = 0; i < n; i++) {
    a.set(i, i, d[i]);
    if (i < n - 1) {
      a.set(i + 1, i, e[i]);
      a.set(i, i + 1, e[i]);
    }
  }
  return a;
}

function maxRelDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]) / (1 + Math.abs(b[i])));
  return m;
}

function cases(): { name: string; d: Float64Array; e: Float64Array }[] {
  const rng = new Rng(11, 0);
  const n = 40;
  const e = Float64Array.from({ length: n - 1 }, () => rng.normal());
  const d = Float64Array.from({ length: n }, (_, i) => 2.5 + Math.abs(e[i] ?? 0) + Math.abs(e[i - 1] ?? 0) + rng.uniform());
  // I/2 + C^-1 of an AR(1) with sigma = 0.15, phi = 0.999
  const T = 60, s2 = 0.15 * 0.15, phi = 0.999;
  const dv = new Float64Array(T).fill(0.5 + (1 + phi * phi) / s2);
  dv[0] = dv[T - 1] = 0.5 + 1 / s2;
  return [
    { name: "random dominant", d, e },
    { name: "volatility metric", d: dv, e: new Float64Array(T - 1).fill(-phi / s2) },
    { name: "order 1", d: Float64Array.of(3), e: new Float64Array(0) },
  ];
}

test("tridiagonal Cholesky: factor, log-determinant, solves and products equal the dense ones", () => {
  for (const c of cases()) {
    const n = c.d.length;
    const a = dense(c.d, c.e);
    const full = cholesky(a);
    const tri = new TridiagonalCholesky(c.d, c.e);
    // the factor: dense L has the bidiagonal entries and zeros elsewhere
    const lDense = full.factor;
    for (let i = 0; i < n; i++) {
      assert.ok(Math.abs(lDense.get(i, i) - tri.l[i]) < 1e-12 * (1 + tri.l[i]), `${c.name}: l_${i}`);
      if (i < n - 1) assert.ok(Math.abs(lDense.get(i + 1, i) - tri.m[i]) < 1e-12 * (1 + Math.abs(tri.m[i])), `${c.name}: m_${i}`);
    }
    assert.ok(Math.abs(tri.logDet() - full.logDet()) < 1e-10 * (1 + Math.abs(full.logDet())), `${c.name}: logdet ${tri.logDet()} vs ${full.logDet()}`);
    const rng = new Rng(5, 1);
    const b = rng.fillNormal(new Float64Array(n));
    const x = b.slice();
    tri.solveInPlace(x);
    const xd = b.slice();
    full.solveInPlace(xd);
    assert.ok(maxRelDiff(x, xd) < 1e-9, `${c.name}: G^-1 b`);
    // G x = b back
    const gb = new Float64Array(n);
    tridiagonalMatvec(c.d, c.e, x, gb);
    assert.ok(maxRelDiff(gb, b) < 1e-9, `${c.name}: G (G^-1 b)`);
    // L z, then L^-1 and L'^-1 of it against the dense factor's products and solves
    const lz = new Float64Array(n);
    tri.multiplyLowerInto(b, lz);
    assert.ok(maxRelDiff(lz, full.multiplyLower(b)) < 1e-12, `${c.name}: L z`);
    const back = lz.slice();
    tri.solveLowerInPlace(back);
    assert.ok(maxRelDiff(back, b) < 1e-10, `${c.name}: L^-1 (L z)`);
    const u = b.slice();
    tri.solveUpperInPlace(u);
    const ud = b.slice();
    full.solveUpperInPlace(ud);
    assert.ok(maxRelDiff(u, ud) < 1e-9, `${c.name}: L'^-1 b`);
    // in place: out may alias z
    const alias = b.slice();
    tri.multiplyLowerInto(alias, alias);
    assert.deepEqual(alias, lz);
  }
});

test("tridiagonal Cholesky: a non-positive pivot is reported with its index", () => {
  // [[1, 2], [2, 1]] has pivots 1 and 1 - 4 = -3
  assert.throws(() => new TridiagonalCholesky(Float64Array.of(1, 1), Float64Array.of(2)), (e: unknown) => e instanceof NotPositiveDefiniteError && e.pivotIndex === 1 && e.pivotValue === -3);
  assert.throws(() => new TridiagonalCholesky(Float64Array.of(1, 1), Float64Array.of(2, 3)), /off-diagonal has length 2, expected 1/);
});

test("the tridiagonal HMC mass: kinetic energy 1/2 p' G^-1 p and G^-1 p as the dense factor gives them; momenta with covariance G", () => {
  const [c] = cases();
  const n = c.d.length;
  const full = cholesky(dense(c.d, c.e));
  const mass = tridiagonalMass(new TridiagonalCholesky(c.d, c.e));
  const rng = new Rng(3, 2);
  const p = rng.fillNormal(new Float64Array(n));
  const v = new Float64Array(n);
  mass.applyInverse(p, v);
  const vd = full.solve(p);
  assert.ok(maxRelDiff(v, vd) < 1e-9);
  const k = 0.5 * p.reduce((s, x, i) => s + x * vd[i], 0);
  assert.ok(Math.abs(mass.kineticEnergy(p) - k) < 1e-10 * (1 + k));
  // E[p_0 p_0] = G_00 and E[p_0 p_1] = G_01 from 20000 draws, within 5 standard errors
  const m = 20000;
  let s00 = 0, s01 = 0, q00 = 0, q01 = 0;
  const out = new Float64Array(n);
  for (let r = 0; r < m; r++) {
    mass.sampleMomentum(rng, out);
    s00 += out[0] * out[0];
    q00 += out[0] ** 4;
    s01 += out[0] * out[1];
    q01 += (out[0] * out[1]) ** 2;
  }
  const check = (s: number, q: number, truth: number) => {
    const mean = s / m;
    const se = Math.sqrt((q / m - mean * mean) / m);
    assert.ok(Math.abs(mean - truth) < 5 * se, `${mean} vs ${truth} (se ${se})`);
  };
  check(s00, q00, c.d[0]);
  check(s01, q01, c.e[0]);
});
