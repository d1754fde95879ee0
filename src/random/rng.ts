/**
 * xoshiro256** (Blackman & Vigna, 2018) with its jump function: one seed gives any number of
 * independent streams, stream k starting 2^128 * k steps into the sequence. The 64-bit words
 * are kept as pairs of uint32 (hi, lo) so the generator runs on plain numbers, not BigInt.
 * Seeding expands the user's seed with splitmix64, as the authors recommend.
 */
import type { RandomSource } from "./types.js";

const TWO32 = 4294967296;
const TWO53 = 9007199254740992;
const TWO_M52 = 1 / 4503599627370496;

function splitmix64(seed: bigint): () => bigint {
  let x = BigInt.asUintN(64, seed);
  return () => {
    x = BigInt.asUintN(64, x + 0x9e3779b97f4a7c15n);
    let z = x;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}

// The jump polynomial of xoshiro256** (2^128 steps), as 64-bit words.
const JUMP = [0x180ec6d33cfd0aban, 0xd5a61266f0c9392cn, 0xa9582618e03fc9aan, 0x39abdc4529b1661cn];

/** A generator's full state as plain data (see Rng.snapshot). */
export interface RngSnapshot {
  /** xoshiro256** state words s0..s3 in hexadecimal. */
  words: string[];
  /** The second normal of the last polar-method pair, not yet returned (null: none). */
  spare: number | null;
}

export class Rng implements RandomSource {
  // state words s0..s3 as (hi, lo) uint32 pairs: s[2k] = hi, s[2k+1] = lo
  private readonly s = new Uint32Array(8);
  private spare = NaN;
  /** The seed and stream this generator was made from. */
  readonly seed: bigint;
  readonly stream: number;

  /**
   * @param seed any integer (number or bigint); the same seed gives the same draws.
   * @param stream index of an independent stream (one per chain).
   */
  constructor(seed: number | bigint, stream = 0) {
    if (typeof seed === "number" && !Number.isSafeInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
    if (!Number.isInteger(stream) || stream < 0) throw new Error(`stream must be a non-negative integer, got ${stream}`);
    this.seed = BigInt(seed);
    this.stream = stream;
    const next = splitmix64(this.seed);
    for (let k = 0; k < 4; k++) {
      const w = next();
      this.s[2 * k] = Number(w >> 32n);
      this.s[2 * k + 1] = Number(w & 0xffffffffn);
    }
    for (let j = 0; j < stream; j++) this.jump();
  }

  /**
   * A generator with the given xoshiro256** state words (s0..s3, taken modulo 2^64; not all
   * zero), for tests against the reference algorithm and for restoring a saved state. Its
   * `seed` and `stream` fields read 0: the state, not a seed, defines it.
   */
  static fromState(words: readonly bigint[]): Rng {
    if (words.length !== 4) throw new Error(`xoshiro256** state has 4 words, got ${words.length}`);
    const r = new Rng(0);
    for (let k = 0; k < 4; k++) {
      const w = BigInt.asUintN(64, words[k]);
      r.s[2 * k] = Number(w >> 32n);
      r.s[2 * k + 1] = Number(w & 0xffffffffn);
    }
    if (r.s.every((v) => v === 0)) throw new Error("xoshiro256** state must not be all zero");
    return r;
  }

  /** The current state words s0..s3 (the normal draw held back by `normal()` is not part of it). */
  state(): bigint[] {
    const out: bigint[] = [];
    for (let k = 0; k < 4; k++) out.push((BigInt(this.s[2 * k]) << 32n) | BigInt(this.s[2 * k + 1]));
    return out;
  }

  /**
   * Everything that determines the draws to come, as plain data: the state words (hex) and the
   * normal draw held back by the polar method (null when none). `Rng.restore` rebuilds a
   * generator that continues exactly where this one is, so a chain saved to disk and resumed
   * draws the same numbers as one never stopped.
   */
  snapshot(): RngSnapshot {
    return { words: this.state().map((w) => w.toString(16)), spare: Number.isNaN(this.spare) ? null : this.spare };
  }

  /** The generator a snapshot describes (its `seed` and `stream` fields read 0, as fromState's). */
  static restore(snapshot: RngSnapshot): Rng {
    const r = Rng.fromState(snapshot.words.map((w) => BigInt(`0x${w}`)));
    r.spare = snapshot.spare === null ? NaN : snapshot.spare;
    return r;
  }

  /** Next 64-bit output as (hi, lo) written to out. */
  private nextPair(out: Uint32Array): void {
    const s = this.s;
    const s1h = s[2], s1l = s[3];
    // r = rotl(s1 * 5, 7) * 9
    let ml = s1l * 5;
    let mh = (Math.imul(s1h, 5) + Math.floor(ml / TWO32)) >>> 0;
    ml = ml >>> 0;
    const rh = ((mh << 7) | (ml >>> 25)) >>> 0;
    const rl = ((ml << 7) | (mh >>> 25)) >>> 0;
    ml = rl * 9;
    mh = (Math.imul(rh, 9) + Math.floor(ml / TWO32)) >>> 0;
    out[0] = mh;
    out[1] = ml >>> 0;
    // t = s1 << 17
    const th = ((s1h << 17) | (s1l >>> 15)) >>> 0;
    const tl = (s1l << 17) >>> 0;
    // s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)
    s[4] ^= s[0]; s[5] ^= s[1];
    s[6] ^= s[2]; s[7] ^= s[3];
    s[2] ^= s[4]; s[3] ^= s[5];
    s[0] ^= s[6]; s[1] ^= s[7];
    s[4] ^= th; s[5] ^= tl;
    // rotl by 45 = swap halves, then rotl by 13
    const h = s[7], l = s[6];
    s[6] = ((h << 13) | (l >>> 19)) >>> 0;
    s[7] = ((l << 13) | (h >>> 19)) >>> 0;
  }

  private readonly pair = new Uint32Array(2);

  /** Next raw 64-bit output as a bigint (for tests against the reference implementation). */
  nextUint64(): bigint {
    this.nextPair(this.pair);
    return (BigInt(this.pair[0]) << 32n) | BigInt(this.pair[1]);
  }

  /** Advances the state by 2^128 steps. */
  jump(): void {
    const acc = new Uint32Array(8);
    for (const word of JUMP) {
      for (let b = 0; b < 64; b++) {
        if ((word >> BigInt(b)) & 1n) for (let i = 0; i < 8; i++) acc[i] ^= this.s[i];
        this.nextPair(this.pair);
      }
    }
    this.s.set(acc);
    this.spare = NaN;
  }

  /**
   * Uniform on (0, 1): (k + 1/2) 2^-52 with k the top 52 bits of the output, so the values run
   * from 2^-53 to 1 - 2^-53, every one exact, and u and 1 - u have the same distribution.
   * (With 53 bits, k + 1/2 is not representable once k >= 2^52 and rounds to even, which made
   * the largest output return exactly 1.)
   */
  uniform(): number {
    this.nextPair(this.pair);
    return (this.pair[0] * 1048576 + (this.pair[1] >>> 12) + 0.5) * TWO_M52;
  }

  /**
   * Uniform integer in [0, n) for an integer 1 <= n <= 2^53, exactly uniform: the top 53 bits k
   * are redrawn when k falls in the incomplete last block (k >= 2^53 - 2^53 mod n, probability
   * below n 2^-53), then reduced modulo n.
   */
  integer(n: number): number {
    if (!(Number.isInteger(n) && n >= 1 && n <= TWO53)) throw new Error(`integer(n) needs an integer 1 <= n <= 2^53, got ${n}`);
    const limit = TWO53 - (TWO53 % n);
    for (;;) {
      this.nextPair(this.pair);
      const k = this.pair[0] * 2097152 + (this.pair[1] >>> 11);
      if (k < limit) return k % n;
    }
  }

  /** Standard normal by Marsaglia's polar method (the second value of each pair is kept). */
  normal(): number {
    if (!Number.isNaN(this.spare)) {
      const v = this.spare;
      this.spare = NaN;
      return v;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * this.uniform() - 1;
      v = 2 * this.uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = Math.sqrt((-2 * Math.log(s)) / s);
    this.spare = v * m;
    return u * m;
  }

  fillNormal(out: Float64Array): Float64Array {
    for (let i = 0; i < out.length; i++) out[i] = this.normal();
    return out;
  }

  exponential(): number {
    return -Math.log(this.uniform());
  }

  /** Gamma(shape, 1) by Marsaglia & Tsang (2000); shape < 1 through Gamma(shape + 1) U^(1/shape). */
  gamma(shape: number): number {
    if (!(shape > 0)) throw new Error(`gamma shape must be positive, got ${shape}`);
    if (shape < 1) return this.gamma(shape + 1) * Math.pow(this.uniform(), 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number, v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.uniform();
      if (u < 1 - 0.0331 * x * x * x * x) return d * v;
      if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
    }
  }

  /** Student-t with nu degrees of freedom: Z / sqrt(chi2_nu / nu). */
  studentT(nu: number): number {
    if (!(nu > 0)) throw new Error(`Student-t degrees of freedom must be positive, got ${nu}`);
    if (nu === Infinity) return this.normal();
    return this.normal() / Math.sqrt((2 * this.gamma(nu / 2)) / nu);
  }

  /**
   * Standard normal truncated to [lower, upper], by Robert's (1995) rejection samplers:
   * uniform proposals on short intervals, translated-exponential proposals in a tail, and
   * plain normal proposals when the interval holds the mode and is wide.
   */
  truncatedNormal(lower: number, upper: number): number {
    if (!(lower < upper)) throw new Error(`truncated normal needs lower < upper, got [${lower}, ${upper}]`);
    if (upper <= 0) return -this.truncatedNormal(-upper, -lower);
    if (lower < 0) {
      // The interval holds 0.
      if (upper - lower < 2.5066282746310002) {
        for (;;) {
          const z = lower + (upper - lower) * this.uniform();
          if (this.uniform() <= Math.exp(-0.5 * z * z)) return z;
        }
      }
      for (;;) {
        const z = this.normal();
        if (z >= lower && z <= upper) return z;
      }
    }
    // 0 <= lower < upper. Robert's optimal exponential rate alpha = (a + sqrt(a^2 + 4)) / 2,
    // written so that a * a cannot overflow for large a (sqrt(a^2 + 4) = a + 2/a + O(a^-3)).
    const a = lower;
    const alpha = a < 1e8 ? (a + Math.sqrt(a * a + 4)) / 2 : a + 1 / a;
    // Robert (1995): exponential proposals accept more often than uniform ones on [a, b] when
    // b - a > exp((a^2 - a sqrt(a^2 + 4)) / 4 + 1/2) / alpha; a^2 - a sqrt(a^2 + 4) = -2 a / alpha.
    // (At a = 0 the two acceptance rates are equal at b = sqrt(e) = 1.65.)
    const expWidth = Math.exp(0.5 - a / (2 * alpha)) / alpha;
    if (upper - a > expWidth) {
      for (;;) {
        const z = a + this.exponential() / alpha;
        if (z > upper) continue;
        const d = z - alpha;
        if (this.uniform() <= Math.exp(-0.5 * d * d)) return z;
      }
    }
    for (;;) {
      const z = a + (upper - a) * this.uniform();
      if (this.uniform() <= Math.exp(-0.5 * (z - a) * (z + a))) return z;
    }
  }
}
