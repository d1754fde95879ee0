/**
 * Radix-2 complex fast Fourier transform (iterative Cooley-Tukey, decimation in time), used
 * for autocovariances in O(N log N). Lengths must be powers of two; callers zero-pad.
 * Twiddle factors and the bit-reversal permutation are cached per length; the twiddles are
 * computed directly with Math.cos / Math.sin (not by recurrence), so rounding does not grow
 * with the length.
 */
import { DiagnosticsInputError } from "./errors.js";

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

function plan(n: number): Plan {
  let p = plans.get(n);
  if (p !== undefined) return p;
  if (!(Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0)) {
    throw new DiagnosticsInputError("bad-argument", `fft: length must be a power of two, got ${n}`);
  }
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
 * In-place discrete Fourier transform of (re, im):
 *   X[k] = sum_j x[j] exp(-2 pi i j k / n)          (forward)
 *   x[j] = (1/n) sum_k X[k] exp(+2 pi i j k / n)    (inverse = true; scaled, so it undoes forward)
 */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  if (im.length !== n) throw new DiagnosticsInputError("bad-argument", `fft: real and imaginary parts differ in length (${n} vs ${im.length})`);
  const { cos, sin, rev } = plan(n);
  for (let i = 0; i < n; i++) {
    const j = rev[i];
    if (j > i) {
      let t = re[i]; re[i] = re[j]; re[j] = t;
      t = im[i]; im[i] = im[j]; im[j] = t;
    }
  }
  const sign = inverse ? 1 : -1;
  for (let size = 2; size <= n; size *= 2) {
    const halfSize = size >>> 1;
    const step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0, t = 0; k < halfSize; k++, t += step) {
        const wr = cos[t];
        const wi = sign * sin[t];
        const a = start + k;
        const b = a + halfSize;
        const xr = re[b] * wr - im[b] * wi;
        const xi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
  if (inverse) {
    const s = 1 / n;
    for (let i = 0; i < n; i++) {
      re[i] *= s;
      im[i] *= s;
    }
  }
}
