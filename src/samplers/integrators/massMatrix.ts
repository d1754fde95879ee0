/**
 * Constant mass matrices M for Euclidean HMC: momentum p ~ N(0, M), kinetic energy
 * K(p) = 1/2 p' M^-1 p, and dx/dtau = M^-1 p (note eq. 7).
 *
 * Three forms, each given by what the caller can factor cheaply:
 * - the identity;
 * - a Cholesky factor of M (M = L L'): p = L z, M^-1 p by two triangular solves;
 * - a Cholesky factor of M^-1 (M^-1 = L L'): p = L'^-1 z, M^-1 p by two triangular products.
 *   This is the form to use when a covariance (an approximate posterior covariance, the prior
 *   K) is at hand, as in Filippone et al.'s HMC variants, which take M^-1 from such a matrix.
 * None allocates after construction.
 */
import { Cholesky } from "../../linalg/cholesky.js";
import { DimensionError } from "../../linalg/errors.js";
import type { Matrix } from "../../linalg/matrix.js";
import type { RandomSource } from "../../random/types.js";

export interface MassMatrix {
  readonly dim: number;
  /** Which form this is ("identity", "mass-cholesky", "inverse-mass-cholesky"). */
  readonly kind: string;
  /** out <- a draw from N(0, M). */
  sampleMomentum(rng: RandomSource, out: Float64Array): void;
  /** out <- M^-1 p (out must not alias p). */
  applyInverse(p: Float64Array, out: Float64Array): void;
  /** 1/2 p' M^-1 p. */
  kineticEnergy(p: Float64Array): number;
}

export function identityMass(dim: number): MassMatrix {
  checkDim(dim);
  return {
    dim,
    kind: "identity",
    sampleMomentum(rng, out) {
      for (let i = 0; i < dim; i++) out[i] = rng.normal();
    },
    applyInverse(p, out) {
      for (let i = 0; i < dim; i++) out[i] = p[i];
    },
    kineticEnergy(p) {
      let s = 0;
      for (let i = 0; i < dim; i++) s += p[i] * p[i];
      return 0.5 * s;
    },
  };
}

/** The triangular operations that make a mass matrix out of a Cholesky factor (see triangularMass). */
interface TriangularMassOps {
  /** z ~ N(0, I) -> a draw from N(0, M), in place. */
  colour(z: Float64Array): void;
  /** x -> M^-1 x, in place. */
  applyInverse(x: Float64Array): void;
  /** p -> W p with W' W = M^-1, in place, so that p' M^-1 p = |W p|^2. */
  whiten(p: Float64Array): void;
}

/** A mass matrix of dimension n held as a lower Cholesky factor (of M or of M^-1), with preallocated scratch. */
function triangularMass(n: number, kind: MassMatrix["kind"], ops: TriangularMassOps): MassMatrix {
  const scratch = new Float64Array(n);
  return {
    dim: n,
    kind,
    sampleMomentum(rng, out) {
      for (let i = 0; i < n; i++) out[i] = rng.normal();
      ops.colour(out);
    },
    applyInverse(p, out) {
      out.set(p);
      ops.applyInverse(out);
    },
    kineticEnergy(p) {
      scratch.set(p);
      ops.whiten(scratch);
      return 0.5 * dot(scratch, scratch, n);
    },
  };
}

/** M = L L' with L the given lower Cholesky factor (a `Cholesky`, or a lower-triangular Matrix). */
export function massFromCholesky(factor: Cholesky | Matrix): MassMatrix {
  const ch = asCholesky(factor);
  const n = ch.n;
  const l = ch.factor.data;
  return triangularMass(n, "mass-cholesky", {
    colour: (z) => lowerTimesInPlace(l, n, z), // p = L z has covariance L L' = M
    applyInverse: (x) => ch.solveInPlace(x),
    whiten: (p) => ch.solveLowerInPlace(p), // p' M^-1 p = |L^-1 p|^2
  });
}

/** M^-1 = L L' with L the given lower Cholesky factor (a `Cholesky`, or a lower-triangular Matrix). */
export function massFromInverseCholesky(factor: Cholesky | Matrix): MassMatrix {
  const ch = asCholesky(factor);
  const n = ch.n;
  const l = ch.factor.data;
  return triangularMass(n, "inverse-mass-cholesky", {
    colour: (z) => ch.solveUpperInPlace(z), // p = L'^-1 z has covariance (L L')^-1 = M
    applyInverse: (x) => {
      lowerTransposeTimesInPlace(l, n, x);
      lowerTimesInPlace(l, n, x);
    },
    whiten: (p) => lowerTransposeTimesInPlace(l, n, p), // p' M^-1 p = |L' p|^2
  });
}

function checkDim(dim: number): void {
  if (!Number.isInteger(dim) || dim < 1) throw new DimensionError(`mass matrix dimension must be a positive integer, got ${dim}`);
}

function asCholesky(factor: Cholesky | Matrix): Cholesky {
  const ch = factor instanceof Cholesky ? factor : new Cholesky(factor);
  const m = ch.factor;
  if (m.rows !== m.cols) throw new DimensionError(`Cholesky factor must be square, got ${m.rows} x ${m.cols}`);
  checkDim(m.rows);
  const n = m.rows;
  for (let i = 0; i < n; i++) {
    const d = m.data[i + i * n];
    if (!(d > 0) || !Number.isFinite(d)) throw new DimensionError(`Cholesky factor has diagonal entry ${d} at ${i}; it must be positive`);
  }
  return ch;
}

/** x <- L x for lower-triangular L (column-major), in place. */
export function lowerTimesInPlace(l: Float64Array, n: number, x: Float64Array): void {
  // Column by column from the last (L is column-major, so each column is contiguous): x_j is
  // still the input when column j is reached, since only columns left of i change x_i after
  // x_i = L_ii x_i is set.
  for (let j = n - 1; j >= 0; j--) {
    const xj = x[j];
    const col = j * n;
    x[j] = l[j + col] * xj;
    for (let i = j + 1; i < n; i++) x[i] += l[i + col] * xj;
  }
}

/** x <- L' x for lower-triangular L, in place: row i of L' needs x_i..x_{n-1}, so go top down. */
export function lowerTransposeTimesInPlace(l: Float64Array, n: number, x: Float64Array): void {
  for (let i = 0; i < n; i++) {
    let s = 0;
    const col = i * n;
    for (let j = i; j < n; j++) s += l[j + col] * x[j];
    x[i] = s;
  }
}

function dot(a: Float64Array, b: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
