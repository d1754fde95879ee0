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
 * The unscaled transform of the n values re[off + s j], im[off + s j], j < n, in place (a row or a
 * column of a 2-D array, or a whole vector with s = 1); sign -1 forward, +1 backward.
 */
function transformStrided(re: Float64Array, im: Float64Array, n: number, off: number, s: number, sign: number): void {
  const { cos, sin, rev } = plan(n);
  for (let i = 0; i < n; i++) {
    const j = rev[i];
    if (j > i) {
      const a = off + s * i;
      const b = off + s * j;
      let t = re[a]; re[a] = re[b]; re[b] = t;
      t = im[a]; im[a] = im[b]; im[b] = t;
    }
  }
  for (let size = 2; size <= n; size *= 2) {
    const halfSize = size >>> 1;
    const step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0, t = 0; k < halfSize; k++, t += step) {
        const wr = cos[t];
        const wi = sign * sin[t];
        const a = off + s * (start + k);
        const b = a + s * halfSize;
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

/** In-place discrete Fourier transform of (re, im), forward or (inverse = true) scaled inverse. */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  if (im.length !== n) throw new RangeError(`fft: real and imaginary parts differ in length (${n} vs ${im.length})`);
  transformStrided(re, im, n, 0, 1, inverse ? 1 : -1);
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
  for (let b = 0; b < cols; b++) transformStrided(re, im, rows, rows * b, 1, sign);
  for (let a = 0; a < rows; a++) transformStrided(re, im, cols, a, rows, sign);
  if (inverse) scale(re, im, 1 / size);
}

function scale(re: Float64Array, im: Float64Array, s: number): void {
  for (let i = 0; i < re.length; i++) {
    re[i] *= s;
    im[i] *= s;
  }
}
