// The 1-D and 2-D FFTs of math/fft.ts against direct O(n^2) DFT sums, their inverses, and the
// refusal of lengths that are not powers of two.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fft, fft2d, isPowerOfTwo, RealEvenFilter2d } from "../../src/math/fft.js";
import { Rng } from "../../src/random/rng.js";

test("fft2d equals the direct 2-D DFT sum on rectangular arrays, and its inverse undoes it", () => {
  const rng = new Rng(31);
  for (const [rows, cols] of [[1, 1], [2, 4], [8, 4], [16, 16], [4, 32]]) {
    const size = rows * cols;
    const re = rng.fillNormal(new Float64Array(size));
    const im = rng.fillNormal(new Float64Array(size));
    const r = Float64Array.from(re);
    const i = Float64Array.from(im);
    fft2d(r, i, rows, cols);
    let scale = 0;
    for (let k = 0; k < size; k++) scale += Math.abs(re[k]) + Math.abs(im[k]);
    for (let l = 0; l < cols; l++) for (let k = 0; k < rows; k++) {
      let sr = 0;
      let si = 0;
      for (let b = 0; b < cols; b++) for (let a = 0; a < rows; a++) {
        const ang = -2 * Math.PI * ((a * k) / rows + (b * l) / cols);
        const c = Math.cos(ang);
        const s = Math.sin(ang);
        sr += re[a + rows * b] * c - im[a + rows * b] * s;
        si += re[a + rows * b] * s + im[a + rows * b] * c;
      }
      assert.ok(Math.abs(r[k + rows * l] - sr) < 1e-13 * scale && Math.abs(i[k + rows * l] - si) < 1e-13 * scale, `${rows} x ${cols} (${k}, ${l})`);
    }
    fft2d(r, i, rows, cols, true);
    for (let k = 0; k < size; k++) assert.ok(Math.abs(r[k] - re[k]) < 1e-14 * scale && Math.abs(i[k] - im[k]) < 1e-14 * scale);
  }
});

test("the 2-D transform of a separable array is the outer product of the 1-D transforms", () => {
  const rng = new Rng(32);
  const u = rng.fillNormal(new Float64Array(8));
  const v = rng.fillNormal(new Float64Array(16));
  const re = new Float64Array(128);
  for (let b = 0; b < 16; b++) for (let a = 0; a < 8; a++) re[a + 8 * b] = u[a] * v[b];
  const im = new Float64Array(128);
  fft2d(re, im, 8, 16);
  const ur = Float64Array.from(u), ui = new Float64Array(8), vr = Float64Array.from(v), vi = new Float64Array(16);
  fft(ur, ui);
  fft(vr, vi);
  for (let b = 0; b < 16; b++) for (let a = 0; a < 8; a++) {
    assert.ok(Math.abs(re[a + 8 * b] - (ur[a] * vr[b] - ui[a] * vi[b])) < 1e-12);
    assert.ok(Math.abs(im[a + 8 * b] - (ur[a] * vi[b] + ui[a] * vr[b])) < 1e-12);
  }
});

test("fft and fft2d refuse sizes that are not powers of two or do not match", () => {
  assert.throws(() => fft(new Float64Array(6), new Float64Array(6)), /power of two/);
  assert.throws(() => fft2d(new Float64Array(12), new Float64Array(12), 3, 4), /power of two/);
  assert.throws(() => fft2d(new Float64Array(16), new Float64Array(8), 4, 4), /needs 16 values/);
  assert.ok(isPowerOfTwo(64) && !isPowerOfTwo(48) && !isPowerOfTwo(0));
});

test("RealEvenFilter2d equals the complex filter F^-1 diag(w) F v for even weights, and a non-even w is not what it computes", () => {
  const rng = new Rng(33);
  for (const m of [2, 4, 8, 32]) {
    const size = m * m;
    const raw = rng.fillNormal(new Float64Array(size));
    const w = new Float64Array(size);
    // w[k, l] = w[-k, -l]: symmetrise a random array
    for (let l = 0; l < m; l++) for (let k = 0; k < m; k++) w[k + m * l] = raw[k + m * l] + raw[((m - k) % m) + m * ((m - l) % m)];
    const v = rng.fillNormal(new Float64Array(size));
    const re = Float64Array.from(v);
    const im = new Float64Array(size);
    fft2d(re, im, m, m);
    for (let k = 0; k < size; k++) {
      re[k] *= w[k];
      im[k] *= w[k];
    }
    fft2d(re, im, m, m, true);
    const out = new Float64Array(size);
    new RealEvenFilter2d(m).apply(w, v, out);
    let scale = 0;
    for (let k = 0; k < size; k++) scale = Math.max(scale, Math.abs(re[k]));
    for (let k = 0; k < size; k++) {
      assert.ok(Math.abs(im[k]) < 1e-12 * scale, "even weights give a real result");
      assert.ok(Math.abs(out[k] - re[k]) < 1e-12 * scale, `m = ${m}, entry ${k}: ${out[k]} vs ${re[k]}`);
    }
    // in place
    const inPlace = Float64Array.from(v);
    new RealEvenFilter2d(m).apply(w, inPlace, inPlace);
    for (let k = 0; k < size; k++) assert.ok(Math.abs(inPlace[k] - re[k]) < 1e-12 * scale);
  }
  assert.throws(() => new RealEvenFilter2d(6), /power of two/);
});

test("RealEvenFilter2d with zero columns skipped and only the leading columns written equals the full filter there", () => {
  const m = 16;
  const rng = new Rng(34);
  const raw = rng.fillNormal(new Float64Array(m * m));
  const w = new Float64Array(m * m);
  for (let l = 0; l < m; l++) for (let k = 0; k < m; k++) w[k + m * l] = raw[k + m * l] + raw[((m - k) % m) + m * ((m - l) % m)];
  const f = new RealEvenFilter2d(m);
  for (const cols of [1, 5, 8]) {
    const v = rng.fillNormal(new Float64Array(m * m)).fill(0, m * cols);
    const full = new Float64Array(m * m);
    f.apply(w, v, full);
    const pruned = new Float64Array(m * m).fill(NaN);
    f.apply(w, v, pruned, cols, cols);
    for (let k = 0; k < m * cols; k++) assert.ok(Math.abs(pruned[k] - full[k]) < 1e-12, `${cols} columns, entry ${k}`);
    assert.ok(Number.isNaN(pruned[m * m - 1]), "columns beyond outColumns are left alone");
  }
});
