import { test } from "node:test";
import assert from "node:assert/strict";
import { KernelParameterError, seKernel } from "../../src/gp/index.js";
import { cholesky, DimensionError, Matrix } from "../../src/linalg/index.js";
import { Rng } from "../../src/random/rng.js";
import { crossSquaredDistances, squaredDistances } from "../../src/gp/distances.js";

function randomInputs(n: number, d: number, seed: number): Matrix {
  const rng = new Rng(seed);
  const x = new Matrix(n, d);
  for (let i = 0; i < n * d; i++) x.data[i] = 2 * rng.uniform() - 1;
  return x;
}

test("seKernel: entries equal s^2 exp(-|a-b|^2/(2 l^2)) computed by hand", () => {
  const x = Matrix.fromRows([[0, 0], [1, 2], [-0.5, 0.25]]);
  const k = seKernel({ lengthscale: 1.5, signalSd: 2 });
  const K = k.matrix(x);
  const rows = x.toRows();
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    const r2 = (rows[i][0] - rows[j][0]) ** 2 + (rows[i][1] - rows[j][1]) ** 2;
    const want = 4 * Math.exp(-r2 / (2 * 2.25));
    assert.ok(Math.abs(K.get(i, j) - want) < 1e-15 * 4, `K[${i},${j}]`);
  }
  // K(0,1): |a-b|^2 = 5, 4 exp(-5/4.5)
  assert.ok(Math.abs(K.get(0, 1) - 4 * Math.exp(-5 / 4.5)) < 1e-15);
});

test("seKernel: ARD with per-input lengthscales; equal lengthscales reproduce the shared one", () => {
  const x = randomInputs(7, 3, 1);
  const ls = [0.7, 1.9, 3.1];
  const K = seKernel({ lengthscale: ls, logSignalSd: 0.3 }).matrix(x);
  const s2 = Math.exp(0.6);
  for (let i = 0; i < 7; i++) for (let j = 0; j < 7; j++) {
    let q = 0;
    for (let d = 0; d < 3; d++) q += ((x.get(i, d) - x.get(j, d)) / ls[d]) ** 2;
    assert.ok(Math.abs(K.get(i, j) - s2 * Math.exp(-q / 2)) < 1e-14);
  }
  const a = seKernel({ lengthscale: [1.3, 1.3, 1.3], signalSd: 1.1 }).matrix(x);
  const b = seKernel({ lengthscale: 1.3, signalSd: 1.1 }).matrix(x);
  for (let i = 0; i < a.data.length; i++) assert.ok(Math.abs(a.data[i] - b.data[i]) < 1e-15);
  assert.throws(() => seKernel({ lengthscale: [1, 2], signalSd: 1 }).matrix(x), DimensionError);
});

test("seKernel: K is symmetric positive definite and cross(X, X) = K(X, X); cross(X, X*) by hand", () => {
  const x = randomInputs(20, 2, 2);
  const k = seKernel({ lengthscale: 0.8, signalSd: 1.5 });
  const K = k.matrix(x);
  for (let i = 0; i < 20; i++) for (let j = 0; j < 20; j++) assert.equal(K.get(i, j), K.get(j, i));
  cholesky(K, { jitter: 1e-10, onJitter: () => {} });
  const C = k.cross(x, x);
  for (let i = 0; i < K.data.length; i++) assert.ok(Math.abs(C.data[i] - K.data[i]) < 1e-15);
  const xs = randomInputs(5, 2, 3);
  const Cs = k.cross(x, xs);
  assert.equal(Cs.rows, 20);
  assert.equal(Cs.cols, 5);
  for (let i = 0; i < 20; i++) for (let j = 0; j < 5; j++) {
    const r2 = (x.get(i, 0) - xs.get(j, 0)) ** 2 + (x.get(i, 1) - xs.get(j, 1)) ** 2;
    assert.ok(Math.abs(Cs.get(i, j) - 2.25 * Math.exp(-r2 / (2 * 0.64))) < 1e-14);
  }
  assert.deepEqual(Array.from(k.diagonal(x)), new Array(20).fill(2.25));
});

test("seKernel with cachedDistances: K, K(X, X*) and dK/dpsi as direct assembly's to round-off; the distances summed once per input matrix", () => {
  const x = randomInputs(30, 8, 6);
  const xs = randomInputs(11, 8, 7);
  for (const logL of [-0.7, 0.4, 2]) {
    const direct = seKernel({ logLengthscale: logL, logSignalSd: 0.3 });
    const cached = seKernel({ logLengthscale: logL, logSignalSd: 0.3, cachedDistances: true });
    const pairs: [Matrix, Matrix][] = [[direct.matrix(x), cached.matrix(x)], [direct.cross(x, xs), cached.cross(x, xs)], [direct.derivative(x, 0), cached.derivative(x, 0)]];
    for (const [a, b] of pairs) {
      assert.equal(a.data.length, b.data.length);
      for (let i = 0; i < a.data.length; i++) assert.ok(Math.abs(a.data[i] - b.data[i]) <= 1e-13 * Math.max(1, Math.abs(a.data[i])), `entry ${i}: ${a.data[i]} against ${b.data[i]}`);
    }
    // withLogParameters keeps the option
    const moved = cached.withLogParameters([logL + 0.1, 0.3]).matrix(x);
    const want = direct.withLogParameters([logL + 0.1, 0.3]).matrix(x);
    for (let i = 0; i < want.data.length; i++) assert.ok(Math.abs(moved.data[i] - want.data[i]) <= 1e-13);
  }
  assert.equal(squaredDistances(x), squaredDistances(x), "one array per input matrix");
  assert.equal(crossSquaredDistances(x, xs), crossSquaredDistances(x, xs));
  assert.notEqual(crossSquaredDistances(x, xs), crossSquaredDistances(x, x));
  // a distance by hand
  let r2 = 0;
  for (let k = 0; k < 8; k++) r2 += (x.get(3, k) - xs.get(5, k)) ** 2;
  assert.ok(Math.abs(crossSquaredDistances(x, xs)[3 + 5 * 30] - r2) < 1e-14);
  // ARD ignores the option: bit for bit direct assembly
  const ard = Array.from({ length: 8 }, (_, k) => 0.5 + 0.1 * k);
  assert.deepEqual(seKernel({ lengthscale: ard, signalSd: 1, cachedDistances: true }).matrix(x).data, seKernel({ lengthscale: ard, signalSd: 1 }).matrix(x).data);
});

test("seKernel: dK/dtheta agrees with central differences (shared lengthscale and ARD)", () => {
  const x = randomInputs(9, 3, 4);
  for (const k0 of [seKernel({ lengthscale: 0.9, signalSd: 1.7 }), seKernel({ lengthscale: 0.9, signalSd: 1.7, cachedDistances: true }), seKernel({ lengthscale: [0.5, 1.2, 2.0], signalSd: 0.8 })]) {
    const theta = k0.logParameters;
    assert.equal(k0.parameterNames.length, theta.length);
    const K = k0.matrix(x);
    for (let p = 0; p < theta.length; p++) {
      const dK = k0.derivative(x, p, undefined, K);
      const dK2 = k0.derivative(x, p); // without the precomputed K
      const h = 1e-5;
      const tp = theta.slice(); tp[p] += h;
      const tm = theta.slice(); tm[p] -= h;
      const Kp = k0.withLogParameters(tp).matrix(x);
      const Km = k0.withLogParameters(tm).matrix(x);
      let maxErr = 0;
      let maxAbs = 0;
      for (let i = 0; i < K.data.length; i++) {
        const fd = (Kp.data[i] - Km.data[i]) / (2 * h);
        maxErr = Math.max(maxErr, Math.abs(fd - dK.data[i]));
        maxAbs = Math.max(maxAbs, Math.abs(dK.data[i]));
        assert.equal(dK.data[i], dK2.data[i]);
      }
      assert.ok(maxAbs > 1e-3, `derivative ${k0.parameterNames[p]} is not trivially zero`);
      assert.ok(maxErr < 1e-8 * maxAbs, `${k0.parameterNames[p]}: max error ${maxErr} (scale ${maxAbs})`);
    }
  }
});

test("seKernel: parameters on the log scale round-trip; bad parameters raise KernelParameterError", () => {
  const k = seKernel({ lengthscale: Math.exp(4.85), signalSd: Math.exp(5.1) });
  const t = k.logParameters;
  assert.ok(Math.abs(t[0] - 4.85) < 1e-14 && Math.abs(t[1] - 5.1) < 1e-14);
  assert.deepEqual(Array.from(seKernel({ logLengthscale: 4.85, logSignalSd: 5.1 }).logParameters), Array.from(t));
  assert.deepEqual(seKernel({ lengthscale: [1, 2], signalSd: 1 }).parameterNames, ["logLengthscale[1]", "logLengthscale[2]", "logSignalSd"]);
  assert.throws(() => seKernel({ lengthscale: -1, signalSd: 1 }), KernelParameterError);
  assert.throws(() => seKernel({ lengthscale: 1, logLengthscale: 0, signalSd: 1 }), KernelParameterError);
  assert.throws(() => seKernel({ lengthscale: 1 }), KernelParameterError);
  assert.throws(() => seKernel({ logLengthscale: NaN, signalSd: 1 }), KernelParameterError);
  assert.throws(() => k.withLogParameters([1, 2, 3]), DimensionError);
});
