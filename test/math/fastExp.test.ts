// fastExp against Math.exp: within 2 ulp (relative 4.5e-16) over the whole range of finite
// results, and Math.exp's own values at the ends (underflow, overflow, NaN).
import { test } from "node:test";
import assert from "node:assert/strict";
import { fastExp, logMixtureSum } from "../../src/math/fastExp.js";
import { Rng } from "../../src/random/rng.js";

test("fastExp is within 2 ulp of Math.exp from -708 to 709.7, on a grid and at random points", () => {
  const rng = new Rng(3);
  const xs: number[] = [0, -0, 1, -1, Math.LN2, -Math.LN2, 1e-300, -1e-300, 1e-9, 709.69, -707.99];
  for (let x = -708; x < 709.7; x += 0.0137) xs.push(x);
  for (let i = 0; i < 200_000; i++) xs.push((rng.uniform() - 0.5) * 2 * (i % 2 ? 2 : 700));
  let worst = 0;
  for (const x of xs) {
    const want = Math.exp(x);
    const got = fastExp(x);
    const rel = Math.abs(got - want) / want;
    if (rel > worst) worst = rel;
  }
  assert.ok(worst <= 2 * Number.EPSILON, `worst relative error ${worst}`);
  assert.equal(fastExp(0), 1);
});

test("fastExp outside (-708, 709.7) and at NaN is Math.exp", () => {
  for (const x of [-708, -720.5, -745.2, -746, -1e6, -Infinity, 709.7, 709.78, 710, 1e6, Infinity, NaN]) assert.ok(Object.is(fastExp(x), Math.exp(x)), String(x));
});

test("logMixtureSum is sum_i log(q_i + s_i fastExp(scale a_i)) term by term, within and outside the range where a block's product is kept, and leaves each fastExp in t", () => {
  const rng = new Rng(8);
  const n = 200; // three full blocks and part of a fourth
  const a = Float64Array.from({ length: n + 3 }, () => rng.normal());
  const s = Float64Array.from({ length: n }, () => rng.uniform());
  const q = Float64Array.from(s, (v) => 1 - v);
  const t = new Float64Array(n);
  for (const scale of [0.3, -2, 40, 150]) {
    let direct = 0;
    for (let i = 0; i < n; i++) direct += Math.log(q[i] + s[i] * fastExp(scale * a[i + 3]));
    const got = logMixtureSum(scale, a, 3, s, q, t, n);
    assert.ok(Math.abs(got - direct) <= 1e-12 * (1 + Math.abs(direct)), `scale ${scale}: ${got} against ${direct}`);
    for (let i = 0; i < n; i++) assert.ok(Object.is(t[i], fastExp(scale * a[i + 3])), `t_${i}`);
  }
});
