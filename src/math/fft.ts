/**
 * Radix-2 complex fast Fourier transforms (iterative Cooley-Tukey, decimation in time) in one and
 * two dimensions, O(n log n). Lengths must be powers of two; callers zero-pad. Twiddle factors and
 * the bit-reversal permutation are cached per length; the twiddles are computed directly with
 * Math.cos / Math.sin (not by recurrence), so rounding does not grow with the length.
 *
 * Convention (both dimensions):
 *   X[k] = sum_j x[j] exp(-2 pi i j k / n)          (forward)
 *   x[j] = (1/n) sum_k X[k] exp(+2 pi i j k / n)    (inverse; scaled, so it undoes forward)
 */

interface Plan {
  readonly n: number;
  readonly cos: Float64Array; // cos(2 pi k / n), k < n/2
  readonly sin: Float64Array; // sin(2 pi k / n), k < n/2
  readonly rev: Uint32Array; // bit-reversal permutation
}

const plans = new Map<number, Plan>();

/** The smallest power of two >= n (n >= 1). */
export function nextPowerOfTwo(n: number): number {
  let m = 1;
  while (m < n) m *= 2;
  return m;
}

export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;
}

function plan(n: number): Plan {
  let p = plans.get(n);
  if (p !== undefined) return p;
  if (!isPowerOfTwo(n)) throw new RangeError(`fft: length must be a power of two, got ${n}`);
  const half = n >>> 1;
  const cos = new Float64Array(half);
  const sin = new Float64Array(half);
  for (let k = 0; k < half; k++) {
    cos[k] = Math.cos((2 * Math.PI * k) / n);
    sin[k] = Math.sin((2 * Math.PI * k) / n);
  }
  const rev = new Uint32Array(n);
  let bits = 0;
  while (1 << bits < n) bits++;
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let b = 0, v = i; b < bits; b++, v >>>= 1) r = (r << 1) | (v & 1);
    rev[i] = r;
  }
  p = { n, cos, sin, rev };
  plans.set(n, p);
  return p;
}

/**
 * The unscaled transforms, in place, of `count` sequences of n values: sequence r < count holds
 * re[off + seqStride r + stride j], im[...], j < n (a whole vector: count 1, stride 1; every
 * column of a rows x cols column-major array: count = cols, seqStride = rows, stride 1; every row:
 * count = stride = rows, seqStride 1). Sign -1 forward, +1 backward. Each butterfly is swept over
 * the sequences in the innermost loop, so each twiddle is loaded once per butterfly position and
 * the rows of a 2-D array are read down contiguous columns; every sequence goes through the same
 * butterflies as it would alone.
 */
function transformBatch(re: Float64Array, im: Float64Array, n: number, off: number, stride: number, count: number, sign: number, seqStride = 1): void {
  const { cos, sin, rev } = plan(n);
  for (let i = 0; i < n; i++) {
    const j = rev[i];
    if (j > i) {
      const a = off + stride * i;
      const b = off + stride * j;
      for (let r = 0, q = 0; r < count; r++, q += seqStride) {
        let t = re[a + q]; re[a + q] = re[b + q]; re[b + q] = t;
        t = im[a + q]; im[a + q] = im[b + q]; im[b + q] = t;
      }
    }
  }
  for (let size = 2; size <= n; size *= 2) {
    const halfSize = size >>> 1;
    const step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0, t = 0; k < halfSize; k++, t += step) {
        const wr = cos[t];
        const wi = sign * sin[t];
        const a0 = off + stride * (start + k);
        const b0 = a0 + stride * halfSize;
        for (let r = 0, q = 0; r < count; r++, q += seqStride) {
          const a = a0 + q;
          const b = b0 + q;
          const xr = re[b] * wr - im[b] * wi;
          const xi = re[b] * wi + im[b] * wr;
          re[b] = re[a] - xr;
          im[b] = im[a] - xi;
          re[a] += xr;
          im[a] += xi;
        }
      }
    }
  }
}

/** In-place discrete Fourier transform of (re, im), forward or (inverse = true) scaled inverse. */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  if (im.length !== n) throw new RangeError(`fft: real and imaginary parts differ in length (${n} vs ${im.length})`);
  transformBatch(re, im, n, 0, 1, 1, inverse ? 1 : -1);
  if (inverse) scale(re, im, 1 / n);
}

/**
 * In-place 2-D transform of the rows x cols array (re, im), column-major (entry (a, b) at
 * a + rows b): X[k, l] = sum_{a,b} x[a, b] exp(-2 pi i (a k / rows + b l / cols)), the 1-D
 * transform along each column, then along each row; inverse = true undoes it (scaled by
 * 1 / (rows cols)).
 */
export function fft2d(re: Float64Array, im: Float64Array, rows: number, cols: number, inverse = false): void {
  const size = rows * cols;
  if (re.length !== size || im.length !== size) throw new RangeError(`fft2d: a ${rows} x ${cols} array needs ${size} values, got ${re.length} and ${im.length}`);
  const sign = inverse ? 1 : -1;
  plan(rows);
  plan(cols);
  transformBatch(re, im, rows, 0, 1, cols, sign, rows);
  transformBatch(re, im, cols, 0, rows, rows, sign);
  if (inverse) scale(re, im, 1 / size);
}

function scale(re: Float64Array, im: Float64Array, s: number): void {
  for (let i = 0; i < re.length; i++) {
    re[i] *= s;
    im[i] *= s;
  }
}

/**
 * out <- F^-1 diag(w) F v for a real m x m array v (column-major) and real weights w that are even,
 * w[k, l] = w[-k mod m, -l mod m] (the spectrum of a real symmetric block-circulant matrix): the
 * result is real, and two real columns travel as one complex column, so the filter costs about
 * 2m 1-D transforms of length m instead of the 4m of a complex forward and inverse fft2d.
 *
 * Forward: columns 2p and 2p+1 as z = v_2p + i v_2p+1, transformed along a; unpacked by
 * V_2p[k] = (Z[k] + conj Z[-k]) / 2, V_2p+1[k] = (Z[k] - conj Z[-k]) / (2i), kept for the rows
 * k <= m/2 (the others are conjugates: the input is real); then the rows transformed along b.
 * After the weights, the rows k <= m/2 are transformed back along l, each column rebuilt from
 * Hermitian symmetry in k, and the columns transformed back in pairs, as re + i im.
 */
export class RealEvenFilter2d {
  private readonly half: number;
  /** (m/2 + 1) x m complex: the rows k <= m/2 of the spectrum, column-major. */
  private readonly hre: Float64Array;
  private readonly him: Float64Array;
  /** m x m/2 complex: the column pairs, packed as v_2p + i v_2p+1. */
  private readonly zre: Float64Array;
  private readonly zim: Float64Array;

  constructor(readonly m: number) {
    if (!isPowerOfTwo(m) || m < 2) throw new RangeError(`RealEvenFilter2d: side must be a power of two >= 2, got ${m}`);
    plan(m);
    this.half = m / 2 + 1;
    this.hre = new Float64Array(this.half * m);
    this.him = new Float64Array(this.half * m);
    this.zre = new Float64Array((m * m) / 2);
    this.zim = new Float64Array((m * m) / 2);
  }

  /**
   * out (may alias v) <- the filtered v; both m * m. `inColumns`: v is zero beyond its first
   * inColumns columns (their transforms are skipped); `outColumns`: only the first outColumns
   * columns of out (rounded up to even) are written; the rest are left as they were.
   */
  apply(w: Float64Array, v: Float64Array, out: Float64Array, inColumns = this.m, outColumns = this.m): void {
    const m = this.m;
    const h = this.half;
    const { hre, him, zre, zim } = this;
    const pairsIn = Math.min(m, inColumns + (inColumns % 2)) / 2;
    hre.fill(0, h * 2 * pairsIn);
    him.fill(0, h * 2 * pairsIn);
    for (let p = 0; p < pairsIn; p++) {
      for (let a = 0; a < m; a++) {
        zre[a + m * p] = v[a + m * 2 * p];
        zim[a + m * p] = v[a + m * (2 * p + 1)];
      }
    }
    transformBatch(zre, zim, m, 0, 1, pairsIn, -1, m);
    for (let p = 0; p < pairsIn; p++) {
      const b = 2 * p;
      for (let k = 0; k < h; k++) {
        const j = k === 0 ? 0 : m - k;
        const zr = zre[k + m * p], zi = zim[k + m * p], yr = zre[j + m * p], yi = zim[j + m * p];
        hre[k + h * b] = 0.5 * (zr + yr);
        him[k + h * b] = 0.5 * (zi - yi);
        hre[k + h * (b + 1)] = 0.5 * (zi + yi);
        him[k + h * (b + 1)] = -0.5 * (zr - yr);
      }
    }
    transformBatch(hre, him, m, 0, h, h, -1);
    for (let l = 0; l < m; l++) {
      for (let k = 0; k < h; k++) {
        const s = w[k + m * l];
        hre[k + h * l] *= s;
        him[k + h * l] *= s;
      }
    }
    transformBatch(hre, him, m, 0, h, h, 1);
    const pairsOut = Math.min(m, outColumns + (outColumns % 2)) / 2;
    for (let p = 0; p < pairsOut; p++) {
      const b = 2 * p;
      // Q[k] = Y_b[k] + i Y_b+1[k], with Y[m - k] = conj Y[k] for k > m/2
      for (let k = 0; k < h; k++) {
        zre[k + m * p] = hre[k + h * b] - him[k + h * (b + 1)];
        zim[k + m * p] = him[k + h * b] + hre[k + h * (b + 1)];
      }
      for (let k = h; k < m; k++) {
        const j = m - k;
        zre[k + m * p] = hre[j + h * b] + him[j + h * (b + 1)];
        zim[k + m * p] = -him[j + h * b] + hre[j + h * (b + 1)];
      }
    }
    transformBatch(zre, zim, m, 0, 1, pairsOut, 1, m);
    const scale2 = 1 / (m * m);
    for (let p = 0; p < pairsOut; p++) {
      for (let a = 0; a < m; a++) {
        out[a + m * 2 * p] = zre[a + m * p] * scale2;
        out[a + m * (2 * p + 1)] = zim[a + m * p] * scale2;
      }
    }
  }
}
