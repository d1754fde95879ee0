/**
 * Test helpers for the linear-algebra backends: a small seeded generator (independent of
 * src/random, so these tests do not depend on it), test matrices, and naive triple-loop
 * reference products written here, independently of both backends.
 */
import { jsBackend, loadNativeBackend, nativeUnavailableReason } from "../../src/linalg/index.js";
import type { LinalgBackend, Trans } from "../../src/linalg/index.js";
import { skipUnlessAvailable } from "../fixtures.js";

export const EPS = 2 ** -52;

/** mulberry32: a 32-bit seeded generator, plenty for test matrices. */
export function makeRng(seed: number): { uniform: () => number; normal: () => number } {
  let s = seed >>> 0;
  const uniform = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => {
    const u = uniform() || 1e-300;
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  };
  return { uniform, normal };
}

/** The backends to test: js always; native when the addon loads (else the reason it does not). */
export const native: LinalgBackend | undefined = loadNativeBackend();
// Without the addon the native tests skip, saying why; under CI that is a failure (fixtures.ts).
export const nativeSkip: string | false = skipUnlessAvailable(native ? false : `native addon not available: ${nativeUnavailableReason()}`);
export const backends: { name: string; be: LinalgBackend | undefined; skip: string | false }[] = [
  { name: "js", be: jsBackend, skip: false },
  { name: "native", be: native, skip: nativeSkip },
];

/** Value written into padding and unreferenced triangles of in/out arrays: must survive. */
export const SENTINEL = 12345.678;

/**
 * A rows x cols matrix with leading dimension ld, entries from `entry(i, j)`; the padding rows
 * (ld > rows) hold `pad` (NaN for inputs, so reading them shows; SENTINEL for outputs).
 */
export function makeMatrix(rows: number, cols: number, ld: number, entry: (i: number, j: number) => number, pad = NaN): Float64Array {
  const a = new Float64Array(Math.max(1, ld * cols)).fill(pad);
  for (let j = 0; j < cols; j++) for (let i = 0; i < rows; i++) a[i + j * ld] = entry(i, j);
  return a;
}

/** op(A)[i, j] for A stored with leading dimension lda. */
export function opAt(a: Float64Array, lda: number, trans: Trans, i: number, j: number): number {
  return trans === "N" ? a[i + j * lda] : a[j + i * lda];
}

/** A symmetric positive-definite matrix G G' / n + I, well conditioned. */
export function spdEntries(n: number, seed: number): (i: number, j: number) => number {
  const rng = makeRng(seed);
  const g = Array.from({ length: n * n }, () => rng.normal());
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += g[i + k * n] * g[j + k * n];
      a[i + j * n] = a[j + i * n] = s / n + (i === j ? 1 : 0);
    }
  }
  return (i, j) => a[i + j * n];
}

/** Squared-exponential kernel matrix on n points in [0, 1] plus jitter: condition ~ 1/jitter. */
export function seKernelEntries(n: number, lengthscale: number, jitter: number): (i: number, j: number) => number {
  const x = Array.from({ length: n }, (_, i) => (n === 1 ? 0 : i / (n - 1)));
  return (i, j) => Math.exp(-((x[i] - x[j]) ** 2) / (2 * lengthscale * lengthscale)) + (i === j ? jitter : 0);
}

/** Hilbert matrix 1/(i+j+1) plus jitter (the Hilbert matrix alone is SPD but numerically singular). */
export function hilbertEntries(jitter: number): (i: number, j: number) => number {
  return (i, j) => 1 / (i + j + 1) + (i === j ? jitter : 0);
}

/** Largest |x| over the entries of a rows x cols matrix. */
export function maxAbs(a: Float64Array, rows: number, cols: number, ld: number): number {
  let m = 0;
  for (let j = 0; j < cols; j++) for (let i = 0; i < rows; i++) m = Math.max(m, Math.abs(a[i + j * ld]));
  return m;
}

/**
 * Checks got against want entry by entry: |got - want| <= tol * bound (bound >= 0 per entry,
 * usually the sum of the absolute values of the terms, so the test is a rounding-error bound).
 * Returns a description of the worst violation, or "" when all entries pass.
 */
export function compare(got: Float64Array, want: Float64Array, bound: Float64Array, rows: number, cols: number, ld: number, tol: number): string {
  for (let j = 0; j < cols; j++) {
    for (let i = 0; i < rows; i++) {
      const k = i + j * ld;
      const err = Math.abs(got[k] - want[k]);
      if (!(err <= tol * bound[k] + 1e-300)) {
        return `entry (${i}, ${j}): got ${got[k]}, want ${want[k]} (error ${err}, allowed ${tol * bound[k]})`;
      }
    }
  }
  return "";
}

/** Entries outside rows x cols (padding) of an array must still be SENTINEL. */
export function paddingIntact(a: Float64Array, rows: number, cols: number, ld: number): boolean {
  for (let k = 0; k < a.length; k++) {
    const i = k % ld;
    const j = Math.floor(k / ld);
    if ((i >= rows || j >= cols) && a[k] !== SENTINEL) return false;
  }
  return true;
}
