/**
 * The fast Fourier transform of math/fft.ts, for autocovariances in O(N log N), with the
 * diagnostics' own error for a length that is not a power of two (callers zero-pad).
 */
import { fft as fftCore, isPowerOfTwo, nextPowerOfTwo } from "../math/fft.js";
import { DiagnosticsInputError } from "./errors.js";

export { nextPowerOfTwo };

/** In-place DFT of (re, im), forward or (inverse = true) scaled inverse: see math/fft.ts. */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  if (!isPowerOfTwo(re.length)) throw new DiagnosticsInputError("bad-argument", `fft: length must be a power of two, got ${re.length}`);
  if (im.length !== re.length) throw new DiagnosticsInputError("bad-argument", `fft: real and imaginary parts differ in length (${re.length} vs ${im.length})`);
  fftCore(re, im, inverse);
}
