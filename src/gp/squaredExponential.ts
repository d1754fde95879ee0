/**
 * The squared-exponential covariance function with one lengthscale or one per input (ARD):
 *   k(a, b) = s^2 exp(-1/2 sum_d (a_d - b_d)^2 / l_d^2)
 * (note Section 5: sigma^2 exp(-1/2 |a - b|^2 / l^2)). Parameters on the log scale:
 *   theta = [log l_1, ..., log l_D, log s]   (D = 1 for a shared lengthscale).
 * Derivatives:
 *   dK_ij/dlog l_d = K_ij (a_d - b_d)^2 / l_d^2   (shared l: K_ij |a - b|^2 / l^2)
 *   dK_ij/dlog s   = 2 K_ij.
 *
 * Assembly scales the inputs by 1/l_d once and stores them row-major, so that each pairwise
 * distance reads two contiguous rows: n^2 d / 2 multiply-adds for K(X, X). Distances are
 * summed directly, not as |a|^2 + |b|^2 - 2 a'b, which would cancel for nearby points.
 *
 * With `cachedDistances` and one lengthscale, the squared distances |a - b|^2 between the rows
 * of an input matrix (or of two) are summed once and kept while the matrices live
 * (./distances.ts); K at any (l, s) is then s^2 exp(-1/2 |a - b|^2 / l^2), n^2 exponentials
 * (USPS: d = 256 times fewer operations). What samples l or predicts at many sampled l asks for
 * it; its K differs from direct assembly's in the last bits.
 */
import { DimensionError } from "../linalg/errors.js";
import { Matrix } from "../linalg/matrix.js";
import { crossSquaredDistances, squaredDistances } from "./distances.js";
import { KernelParameterError, type CovarianceFunction } from "./types.js";

export interface SquaredExponentialOptions {
  /** One lengthscale, or one per input column (ARD). Give this or `logLengthscale`. */
  lengthscale?: number | ArrayLike<number>;
  logLengthscale?: number | ArrayLike<number>;
  /** Signal standard deviation s (k(a, a) = s^2). Give this or `logSignalSd`. */
  signalSd?: number;
  logSignalSd?: number;
  /** With one lengthscale and two or more input columns: K from the inputs' squared distances, summed once per input matrix (module comment). */
  cachedDistances?: boolean;
}

function toArray(v: number | ArrayLike<number>): Float64Array {
  return typeof v === "number" ? Float64Array.of(v) : Float64Array.from(v);
}

function resolveLogLengthscales(o: SquaredExponentialOptions): Float64Array {
  if (o.lengthscale !== undefined && o.logLengthscale !== undefined) {
    throw new KernelParameterError("give either lengthscale or logLengthscale, not both");
  }
  if (o.lengthscale !== undefined) {
    const l = toArray(o.lengthscale);
    if (l.length === 0) throw new KernelParameterError("lengthscale is empty");
    return l.map((v, i) => {
      if (!(v > 0) || !Number.isFinite(v)) throw new KernelParameterError(`lengthscale${l.length > 1 ? `[${i + 1}]` : ""} must be a positive finite number, got ${v}`);
      return Math.log(v);
    });
  }
  if (o.logLengthscale !== undefined) {
    const t = toArray(o.logLengthscale);
    if (t.length === 0) throw new KernelParameterError("logLengthscale is empty");
    t.forEach((v, i) => {
      if (!Number.isFinite(v)) throw new KernelParameterError(`logLengthscale${t.length > 1 ? `[${i + 1}]` : ""} must be finite, got ${v}`);
    });
    return t;
  }
  throw new KernelParameterError("a lengthscale (lengthscale or logLengthscale) is required");
}

function resolveLogSignalSd(o: SquaredExponentialOptions): number {
  if (o.signalSd !== undefined && o.logSignalSd !== undefined) {
    throw new KernelParameterError("give either signalSd or logSignalSd, not both");
  }
  if (o.signalSd !== undefined) {
    if (!(o.signalSd > 0) || !Number.isFinite(o.signalSd)) throw new KernelParameterError(`signalSd must be a positive finite number, got ${o.signalSd}`);
    return Math.log(o.signalSd);
  }
  if (o.logSignalSd !== undefined) {
    if (!Number.isFinite(o.logSignalSd)) throw new KernelParameterError(`logSignalSd must be finite, got ${o.logSignalSd}`);
    return o.logSignalSd;
  }
  throw new KernelParameterError("a signal standard deviation (signalSd or logSignalSd) is required");
}

class SquaredExponential implements CovarianceFunction {
  readonly name = "squared-exponential";
  readonly parameterNames: readonly string[];
  private readonly logL: Float64Array;
  private readonly logS: number;
  private readonly invL: Float64Array;
  private readonly s2: number;

  constructor(logL: Float64Array, logS: number, private readonly cachedDistances = false) {
    this.logL = logL;
    this.logS = logS;
    this.invL = logL.map((t) => Math.exp(-t));
    this.s2 = Math.exp(2 * logS);
    this.parameterNames = logL.length === 1
      ? ["logLengthscale", "logSignalSd"]
      : [...Array.from(logL, (_, i) => `logLengthscale[${i + 1}]`), "logSignalSd"];
  }

  get ard(): boolean {
    return this.logL.length > 1;
  }

  get logParameters(): Float64Array {
    const t = new Float64Array(this.logL.length + 1);
    t.set(this.logL);
    t[this.logL.length] = this.logS;
    return t;
  }

  withLogParameters(theta: ArrayLike<number>): CovarianceFunction {
    const m = this.logL.length;
    if (theta.length !== m + 1) throw new DimensionError(`squared-exponential kernel has ${m + 1} log-parameters, got ${theta.length}`);
    return seKernel({ logLengthscale: Array.from({ length: m }, (_, i) => theta[i]), logSignalSd: theta[m], cachedDistances: this.cachedDistances });
  }

  /** Whether K is made from the cached squared distances (one lengthscale, two or more columns). */
  private fromDistances(x: Matrix): boolean {
    return this.cachedDistances && !this.ard && x.cols > 1;
  }

  /** s^2 exp(-1/2 D / l^2), entry by entry. */
  private fromSquaredDistances(D: Float64Array, out: Matrix): Matrix {
    const c = this.invL[0]! * this.invL[0]!;
    const o = out.data;
    for (let i = 0; i < o.length; i++) o[i] = this.s2 * Math.exp(-0.5 * (D[i]! * c));
    return out;
  }

  /** Inputs divided by their lengthscales, row-major (row i at [i d, (i + 1) d)). */
  private scaledRows(x: Matrix): Float64Array {
    const n = x.rows;
    const d = x.cols;
    if (this.ard && this.logL.length !== d) {
      throw new DimensionError(`the kernel has ${this.logL.length} lengthscales but the inputs have ${d} columns`);
    }
    const z = new Float64Array(n * d);
    const xd = x.data;
    for (let k = 0; k < d; k++) {
      const c = this.ard ? this.invL[k] : this.invL[0];
      const col = k * n;
      for (let i = 0; i < n; i++) z[i * d + k] = xd[i + col] * c;
    }
    return z;
  }

  matrix(x: Matrix, out: Matrix = new Matrix(x.rows, x.rows)): Matrix {
    const n = x.rows;
    const d = x.cols;
    if (out.rows !== n || out.cols !== n) throw new DimensionError(`output is ${out.rows} x ${out.cols}, expected ${n} x ${n}`);
    if (this.fromDistances(x)) return this.fromSquaredDistances(squaredDistances(x), out);
    const z = this.scaledRows(x);
    const o = out.data;
    const s2 = this.s2;
    for (let j = 0; j < n; j++) {
      const bj = j * d;
      o[j + j * n] = s2;
      for (let i = j + 1; i < n; i++) {
        const bi = i * d;
        let r2 = 0;
        for (let k = 0; k < d; k++) {
          const t = z[bi + k] - z[bj + k];
          r2 += t * t;
        }
        const v = s2 * Math.exp(-0.5 * r2);
        o[i + j * n] = v;
        o[j + i * n] = v;
      }
    }
    return out;
  }

  cross(x: Matrix, xStar: Matrix, out: Matrix = new Matrix(x.rows, xStar.rows)): Matrix {
    const n = x.rows;
    const m = xStar.rows;
    const d = x.cols;
    if (xStar.cols !== d) throw new DimensionError(`test inputs have ${xStar.cols} columns, training inputs ${d}`);
    if (out.rows !== n || out.cols !== m) throw new DimensionError(`output is ${out.rows} x ${out.cols}, expected ${n} x ${m}`);
    if (this.fromDistances(x)) return this.fromSquaredDistances(crossSquaredDistances(x, xStar), out);
    const z = this.scaledRows(x);
    const zs = this.scaledRows(xStar);
    const o = out.data;
    for (let j = 0; j < m; j++) {
      const bj = j * d;
      for (let i = 0; i < n; i++) {
        const bi = i * d;
        let r2 = 0;
        for (let k = 0; k < d; k++) {
          const t = z[bi + k] - zs[bj + k];
          r2 += t * t;
        }
        o[i + j * n] = this.s2 * Math.exp(-0.5 * r2);
      }
    }
    return out;
  }

  diagonal(x: Matrix, out: Float64Array = new Float64Array(x.rows)): Float64Array {
    if (this.ard && this.logL.length !== x.cols) {
      throw new DimensionError(`the kernel has ${this.logL.length} lengthscales but the inputs have ${x.cols} columns`);
    }
    return out.fill(this.s2, 0, x.rows);
  }

  derivative(x: Matrix, k: number, out: Matrix = new Matrix(x.rows, x.rows), kMatrix?: Matrix): Matrix {
    const n = x.rows;
    const m = this.logL.length;
    if (!Number.isInteger(k) || k < 0 || k > m) throw new DimensionError(`parameter index ${k} out of range 0..${m}`);
    const kk = kMatrix ?? this.matrix(x);
    if (kk.rows !== n || kk.cols !== n) throw new DimensionError(`K is ${kk.rows} x ${kk.cols}, expected ${n} x ${n}`);
    if (out.rows !== n || out.cols !== n) throw new DimensionError(`output is ${out.rows} x ${out.cols}, expected ${n} x ${n}`);
    const o = out.data;
    const kd = kk.data;
    if (k === m) {
      // dK/dlog s = 2 K
      for (let i = 0; i < n * n; i++) o[i] = 2 * kd[i];
      return out;
    }
    if (this.fromDistances(x)) {
      // K_ij |a - b|^2 / l^2; 0 on the diagonal, whatever jitter K carries there
      const D = squaredDistances(x);
      const c = this.invL[0]! * this.invL[0]!;
      for (let i = 0; i < n * n; i++) o[i] = kd[i]! * (D[i]! * c);
      for (let i = 0; i < n; i++) o[i + i * n] = 0;
      return out;
    }
    const z = this.scaledRows(x);
    const d = x.cols;
    for (let j = 0; j < n; j++) {
      o[j + j * n] = 0;
      for (let i = j + 1; i < n; i++) {
        let w: number;
        if (this.ard) {
          // (a_k - b_k)^2 / l_k^2, one input
          const t = z[i * d + k] - z[j * d + k];
          w = t * t;
        } else {
          // |a - b|^2 / l^2, all inputs
          w = 0;
          for (let c = 0; c < d; c++) {
            const t = z[i * d + c] - z[j * d + c];
            w += t * t;
          }
        }
        const v = kd[i + j * n] * w;
        o[i + j * n] = v;
        o[j + i * n] = v;
      }
    }
    return out;
  }
}

/**
 * Squared-exponential (RBF) covariance function: s^2 exp(-|a - b|^2 / (2 l^2)), or with one
 * lengthscale per input (ARD) when `lengthscale` / `logLengthscale` is an array.
 */
export function seKernel(options: SquaredExponentialOptions): CovarianceFunction {
  return new SquaredExponential(resolveLogLengthscales(options), resolveLogSignalSd(options), options.cachedDistances ?? false);
}
