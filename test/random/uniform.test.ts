// uniform() and integer() at the edges of the 64-bit output range. The generator is put in a
// state whose next raw output is chosen: xoshiro256**'s output rotl(s1 * 5, 7) * 9 is a bijection
// of s1, inverted here with modular inverses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Rng } from "../../src/random/index.js";

const M64 = (1n << 64n) - 1n;
function inverseMod64(a: bigint): bigint {
  // Newton's iteration x <- x (2 - a x) doubles the correct low bits each step (a odd).
  let x = a;
  for (let i = 0; i < 6; i++) x = (x * (2n - a * x)) & M64;
  return x;
}
const rotr = (x: bigint, k: bigint) => ((x >> k) | (x << (64n - k))) & M64;

/** A generator whose next raw 64-bit output is `out`. */
function rngWithNextOutput(out: bigint): Rng {
  const s1 = (rotr((out * inverseMod64(9n)) & M64, 7n) * inverseMod64(5n)) & M64;
  return Rng.fromState([0x0123456789abcdefn, s1, 0xfedcba9876543210n, 0x0f0f0f0f0f0f0f0fn]);
}

test("the state construction gives the chosen output", () => {
  for (const v of [0n, 1n, M64, 0x8000000000000000n, 0x123456789abcdef0n]) assert.equal(rngWithNextOutput(v).nextUint64(), v);
});

test("uniform() never returns 0 or 1, even for the extreme raw outputs", () => {
  const top = rngWithNextOutput(M64).uniform();
  assert.ok(top < 1, `uniform() = ${top} for output 2^64 - 1`);
  assert.equal(top, 1 - 2 ** -53);
  const bottom = rngWithNextOutput(0n).uniform();
  assert.ok(bottom > 0);
  assert.equal(bottom, 2 ** -53);
});

test("uniform() is the centre (k + 1/2) 2^-52 of the cell of the top 52 bits k, so u and 1 - u are equally likely", () => {
  // Odd k >= 2^51 are where adding 1/2 to a 53-bit integer would round.
  const cases = [0n, 1n, (1n << 51n) + 1n, (1n << 52n) - 1n, (1n << 52n) - 2n, 0x9e3779b97f4an, 12345n];
  for (const k of cases) {
    for (const low of [0n, 0xfffn, 0x800n]) {
      const u = rngWithNextOutput((k << 12n) | low).uniform();
      assert.equal(u, (Number(k) + 0.5) * 2 ** -52, `k = ${k}`);
    }
    const u = rngWithNextOutput(k << 12n).uniform();
    const mirrored = rngWithNextOutput((((1n << 52n) - 1n - k) << 12n) | 0xfffn).uniform();
    assert.equal(u, 1 - mirrored);
  }
});

test("integer(n) stays in [0, n) and rejects bad n", () => {
  for (const n of [1, 2, 3, 10, 1000, 2 ** 32, 2 ** 40 + 3]) {
    for (const v of [M64, 0n, M64 - 1n, 1n << 63n]) {
      const k = rngWithNextOutput(v).integer(n);
      assert.ok(Number.isInteger(k) && k >= 0 && k < n, `integer(${n}) = ${k} for output ${v}`);
    }
  }
  const r = new Rng(1);
  for (const n of [0, -3, 2.5, NaN, Infinity, 2 ** 53 + 2]) assert.throws(() => r.integer(n), `n = ${n}`);
});
