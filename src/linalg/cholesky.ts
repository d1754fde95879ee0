import { getBackend } from "./backend.js";
import { opCounts } from "./counters.js";
import { DimensionError, NotPositiveDefiniteError } from "./errors.js";
import { jsBackend } from "./js.js";
import { assertFinite, assertLength, assertSquare, Matrix } from "./matrix.js";

/**
 * Below this order the per-call overhead of the native addon outweighs its speed (`npm run bench
 * -- linalg`; BENCHMARKS.md, "Linear algebra").
 */
export const SMALL_ORDER = 16;

export function backendFor(n: number) {
  return n < SMALL_ORDER ? jsBackend : getBackend();
}

export interface CholeskyOptions {
  /** Factorise the given matrix's storage instead of a copy. */
  inPlace?: boolean;
  /** Add this value to the diagonal before factorising. Never applied unless asked for. */
  jitter?: number;
  /** Called when jitter is applied (default: one line on stderr). */
  onJitter?: (message: string) => void;
  /** Name used in error messages. */
  what?: string;
  /** Skip the scan for NaN/Inf entries (hot loops whose inputs are known to be finite). */
  skipFiniteCheck?: boolean;
}

/** A lower Cholesky factor L of a symmetric positive-definite A = L L'. */
export class Cholesky {
  /** The factor; its strictly upper triangle is zero. */
  readonly factor: Matrix;

  constructor(factor: Matrix) {
    this.factor = factor;
  }

  get n(): number {
    return this.factor.rows;
  }

  /** log |A| = 2 sum log L_ii. */
  logDet(): number {
    const n = this.n;
    const d = this.factor.data;
    let s = 0;
    for (let i = 0; i < n; i++) s += Math.log(d[i + i * n]);
    return 2 * s;
  }

  /** x <- L^-1 x, in place. */
  solveLowerInPlace(x: Float64Array): Float64Array {
    assertLength(x, this.n, "right-hand side");
    backendFor(this.n).trsv("L", "N", "N", this.n, this.factor.data, this.n, x);
    return x;
  }

  /** x <- L'^-1 x, in place. */
  solveUpperInPlace(x: Float64Array): Float64Array {
    assertLength(x, this.n, "right-hand side");
    backendFor(this.n).trsv("L", "T", "N", this.n, this.factor.data, this.n, x);
    return x;
  }

  /** x <- A^-1 x, in place. */
  solveInPlace(x: Float64Array): Float64Array {
    return this.solveUpperInPlace(this.solveLowerInPlace(x));
  }

  /** A^-1 b as a new vector. */
  solve(b: ArrayLike<number>): Float64Array {
    return this.solveInPlace(Float64Array.from(b));
  }

  /** B <- L^-1 B for a matrix of right-hand sides, in place. */
  solveLowerMatrixInPlace(b: Matrix): Matrix {
    if (b.rows !== this.n) throw new DimensionError(`right-hand side has ${b.rows} rows, the factor is ${this.n} x ${this.n}`);
    const n = this.n;
    opCounts.triangularSolveMatrix++;
    opCounts.flops += n * n * b.cols;
    backendFor(n).trsm("L", "L", "N", "N", n, b.cols, 1, this.factor.data, n, b.data, n);
    return b;
  }

  /** A^-1 B as a new matrix. */
  solveMatrix(b: Matrix): Matrix {
    const x = b.clone();
    const n = this.n;
    if (x.rows !== n) throw new DimensionError(`right-hand side has ${x.rows} rows, the factor is ${n} x ${n}`);
    opCounts.triangularSolveMatrix += 2;
    opCounts.flops += 2 * n * n * x.cols;
    const be = backendFor(n);
    be.trsm("L", "L", "N", "N", n, x.cols, 1, this.factor.data, n, x.data, n);
    be.trsm("L", "L", "T", "N", n, x.cols, 1, this.factor.data, n, x.data, n);
    return x;
  }

  /** L x as a new vector (draws N(0, A) from standard normals). */
  multiplyLower(x: ArrayLike<number>): Float64Array {
    const n = this.n;
    assertLength(x, n, "vector");
    const out = new Float64Array(n);
    const d = this.factor.data;
    for (let j = 0; j < n; j++) {
      const t = x[j];
      if (t === 0) continue;
      for (let i = j; i < n; i++) out[i] += d[i + j * n] * t;
    }
    return out;
  }
}

/**
 * Lower Cholesky factor of a symmetric positive-definite matrix (only its lower triangle is
 * read). Throws NotPositiveDefiniteError with the failing pivot; never adds jitter unless
 * `jitter` is given, and then says so.
 */
export function cholesky(a: Matrix, options: CholeskyOptions = {}): Cholesky {
  const what = options.what ?? "matrix";
  assertSquare(a, what);
  if (!options.skipFiniteCheck) assertFinite(a, what);
  const n = a.rows;
  const m = options.inPlace ? a : a.clone();
  const d = m.data;
  if (options.jitter !== undefined && options.jitter !== 0) {
    if (!(options.jitter > 0) || !Number.isFinite(options.jitter)) throw new Error(`jitter must be a positive number, got ${options.jitter}`);
    for (let i = 0; i < n; i++) d[i + i * n] += options.jitter;
    (options.onJitter ?? ((s: string) => process.stderr.write(s + "\n")))(`gpmcmc: added jitter ${options.jitter} to the diagonal of ${what} (n = ${n})`);
  }
  const diag = new Float64Array(n);
  for (let i = 0; i < n; i++) diag[i] = d[i + i * n];
  opCounts.cholesky++;
  opCounts.flops += (n * n * n) / 3;
  const info = backendFor(n).potrf("L", n, d, n);
  if (info !== 0) {
    // Row j of L left of the diagonal is complete when pivot j fails, whatever the blocking.
    const j = info - 1;
    let pivot = diag[j];
    for (let k = 0; k < j; k++) pivot -= d[j + k * n] * d[j + k * n];
    throw new NotPositiveDefiniteError(j, pivot, what);
  }
  // OpenBLAS's dpotrf tests a pivot with `<= 0`, which NaN passes, so a NaN or Inf that got past
  // skipFiniteCheck can yield a "successful" factor; it shows on the diagonal (a non-finite
  // entry in row j of A reaches L_jj). The js backend stops at that pivot; this makes the
  // native one do the same.
  for (let j = 0; j < n; j++) {
    const v = d[j + j * n];
    if (!Number.isFinite(v)) throw new NotPositiveDefiniteError(j, v, what);
  }
  for (let j = 1; j < n; j++) d.fill(0, j * n, j * n + j);
  return new Cholesky(m);
}
