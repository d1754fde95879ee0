/**
 * A joint chain's state (./schemes.ts) as one array of numbers, what a chain checkpoint keeps
 * (src/samplers/chain/chainCheckpoint.ts): theta and f; each tunable's value and, while it adapts, its
 * dual averaging's running sums; the cache of K(theta) and its factor, most recently used first;
 * and KHR's Laplace approximation at the current theta. The caches are state, not only speed:
 * a K rescaled from a cached one (the Gibbs step of sigma) differs in its last bits from a fresh
 * factorisation, and which entries are cached decides which is used, so a chain resumed without
 * them would draw other numbers than the chain never stopped.
 *
 * Layout: [m, n, t (m), f (n), latent tunable (count, values), theta tunable (count, values),
 * cache size, per entry t (m), K (n^2), L (n^2), Laplace flag, mode (n), factor (n^2)].
 */
import { Cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";
import type { KernelAt } from "./covariance.js";
import type { LaplaceAt } from "./jointMoves.js";
import { packNumbers } from "../math/packNumbers.js";

export interface JointState {
  t: Float64Array;
  f: Float64Array;
  /** The latent sampler's tunable (AdaptedValue.snapshot; undefined: the sampler has none). */
  latent?: number[];
  theta: number[];
  cache: { t: Float64Array; K: Float64Array; L: Float64Array }[];
  /** KHR's Laplace approximation at the current theta, when it is kept. */
  laplace?: { mode: Float64Array; L: Float64Array };
}

export function packJointState(s: { t: Float64Array; f: Float64Array; latent?: number[]; theta: number[]; cache: readonly KernelAt[]; laplace?: LaplaceAt }): Float64Array {
  const pieces: ArrayLike<number>[] = [[s.t.length, s.f.length], s.t, s.f];
  for (const v of [s.latent ?? [], s.theta]) pieces.push([v.length], v);
  pieces.push([s.cache.length]);
  for (const e of s.cache) pieces.push(e.t, e.K.data, e.chol.factor.data);
  if (s.laplace) pieces.push([1], s.laplace.mode, s.laplace.chol.factor.data);
  else pieces.push([0]);
  return packNumbers(pieces);
}

/** The state packJointState wrote, checked against the chain's sizes (m: theta's, n: f's). */
export function unpackJointState(saved: Float64Array, m: number, n: number): JointState {
  if (saved[0] !== m || saved[1] !== n) throw new RangeError(`the saved joint state is of theta and f of sizes ${saved[0]} and ${saved[1]}, this chain's are ${m} and ${n}`);
  let at = 2;
  const take = (k: number): Float64Array => {
    if (at + k > saved.length) throw new RangeError("the saved joint state is cut short");
    const v = saved.slice(at, at + k);
    at += k;
    return v;
  };
  const t = take(m);
  const f = take(n);
  const latent = Array.from(take(saved[at++]!));
  const theta = Array.from(take(saved[at++]!));
  const size = saved[at++]!;
  const cache = Array.from({ length: size }, () => ({ t: take(m), K: take(n * n), L: take(n * n) }));
  const laplace = saved[at++] === 1 ? { mode: take(n), L: take(n * n) } : undefined;
  if (at !== saved.length) throw new RangeError("the saved joint state has numbers past its end");
  return { t, f, ...(latent.length > 0 ? { latent } : {}), theta, cache, ...(laplace ? { laplace } : {}) };
}

/** KHR's kept Laplace approximation from its saved numbers. */
export function laplaceFromState(l: { mode: Float64Array; L: Float64Array }): LaplaceAt {
  return { mode: l.mode, chol: new Cholesky(new Matrix(l.mode.length, l.mode.length, l.L)) };
}
