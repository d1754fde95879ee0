// The raw generator against the reference algorithm, and the reproducibility of streams.
// test/fixtures/xoshiro256ss_reference.json is written by test/fixtures/xoshiro256ss_reference.py,
// an independent transcription of Vigna's C sources with Python integers, which checks itself
// against published vectors before it writes anything.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Rng } from "../../src/random/index.js";

interface Case {
  seed: string;
  state: string[];
  outputs: string[];
  streams: { stream: number; state: string[]; outputs: string[] }[];
  after1000ThenJump: string[];
}
const ref = JSON.parse(readFileSync(new URL("../../../test/fixtures/xoshiro256ss_reference.json", import.meta.url), "utf8")) as {
  cases: Case[];
  longRun: { seed: string; index: number; output: string };
};

const hex = (v: bigint) => "0x" + v.toString(16).padStart(16, "0");

test("splitmix64 seeding gives the reference state", () => {
  for (const c of ref.cases) assert.deepEqual(new Rng(BigInt(c.seed)).state().map(hex), c.state, `seed ${c.seed}`);
});

test("raw outputs match the reference xoshiro256**", () => {
  for (const c of ref.cases) {
    const r = new Rng(BigInt(c.seed));
    assert.deepEqual(c.outputs.map(() => hex(r.nextUint64())), c.outputs, `seed ${c.seed}`);
  }
  const r = new Rng(BigInt(ref.longRun.seed));
  for (let i = 1; i < ref.longRun.index; i++) r.nextUint64();
  assert.equal(hex(r.nextUint64()), ref.longRun.output);
});

test("stream k is the seed's state jumped k times, as in the reference jump()", () => {
  for (const c of ref.cases) {
    for (const s of c.streams) {
      const r = new Rng(BigInt(c.seed), s.stream);
      assert.deepEqual(r.state().map(hex), s.state, `seed ${c.seed} stream ${s.stream}`);
      assert.deepEqual(s.outputs.map(() => hex(r.nextUint64())), s.outputs);
      const j = new Rng(BigInt(c.seed));
      for (let k = 0; k < s.stream; k++) j.jump();
      assert.deepEqual(j.state(), new Rng(BigInt(c.seed), s.stream).state());
    }
    const m = new Rng(BigInt(c.seed));
    for (let i = 0; i < 1000; i++) m.nextUint64();
    m.jump();
    assert.deepEqual(c.after1000ThenJump.map(() => hex(m.nextUint64())), c.after1000ThenJump, `seed ${c.seed} jump mid-sequence`);
  }
});

test("number and bigint seeds agree; seeds are taken modulo 2^64", () => {
  assert.deepEqual(new Rng(42).state(), new Rng(42n).state());
  assert.deepEqual(new Rng(-1).state(), new Rng(2n ** 64n - 1n).state());
  assert.deepEqual(new Rng(2n ** 64n + 5n).state(), new Rng(5).state());
  assert.throws(() => new Rng(0.5));
  assert.throws(() => new Rng(2 ** 60)); // not a safe integer: pass a bigint
  assert.throws(() => new Rng(1, -1));
  assert.throws(() => new Rng(1, 1.5));
});

test("fromState round-trips the state and rejects the all-zero state", () => {
  const a = new Rng(99, 2);
  a.nextUint64();
  const b = Rng.fromState(a.state());
  for (let i = 0; i < 10; i++) assert.equal(a.nextUint64(), b.nextUint64());
  assert.throws(() => Rng.fromState([0n, 0n, 0n, 0n]));
  assert.throws(() => Rng.fromState([1n, 2n, 3n]));
});

/** Every draw method, interleaved, so reproducibility covers the normal's held-back value too. */
function mixedDraws(r: Rng, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    out.push(r.uniform(), r.normal(), r.exponential(), r.gamma(0.7), r.gamma(3), r.studentT(4), r.truncatedNormal(1, 3), r.integer(17));
  }
  return out;
}

test("same seed and stream give the same draws; other streams and seeds differ", () => {
  const a = mixedDraws(new Rng(2024, 3), 200);
  assert.deepEqual(mixedDraws(new Rng(2024, 3), 200), a);
  for (const other of [new Rng(2024, 0), new Rng(2024, 2), new Rng(2024, 4), new Rng(2025, 3)]) {
    const b = mixedDraws(other, 200);
    let same = 0;
    for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
    // Only integer(17) draws can coincide by chance (1 in 17); the continuous ones never do.
    assert.ok(same < 40, `${same} equal draws`);
  }
});

test("jump() discards a held-back normal, so a jumped generator equals a fresh stream", () => {
  const r = new Rng(7);
  r.normal(); // leaves the pair's second value held back
  r.jump();
  const s = Rng.fromState(r.state());
  assert.deepEqual(mixedDraws(r, 20), mixedDraws(s, 20));
});

test("streams are uncorrelated: sample correlation of paired uniforms from streams 0..3", () => {
  const n = 20000;
  const streams = [0, 1, 2, 3].map((k) => new Rng(11, k));
  const u = streams.map((r) => Float64Array.from({ length: n }, () => r.uniform() - 0.5));
  for (let i = 0; i < 4; i++) {
    for (let j = i + 1; j < 4; j++) {
      let s = 0;
      for (let t = 0; t < n; t++) s += u[i][t] * u[j][t];
      const corr = s / n / (1 / 12);
      // sd of the sample correlation is 1/sqrt(n) = 0.0071; 4.5 sd
      assert.ok(Math.abs(corr) < 4.5 / Math.sqrt(n), `corr(${i}, ${j}) = ${corr}`);
    }
  }
});
