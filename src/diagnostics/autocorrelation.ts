/**
 * Autocovariance and autocorrelation of chains by FFT, O(N log N).
 *
 * The estimator is the "biased" one Geyer (1992, Practical Markov chain Monte Carlo, Stat.
 * Sci. 7, sec. 3.3) recommends and Stan, ArviZ and posterior use:
 *   gamma_t = (1/N) sum_{j=0}^{N-1-t} (x_j - xbar)(x_{j+t} - xbar),   t = 0, ..., N-1,
 * divided by N, not N - t (it keeps the autocovariance sequence positive semi-definite).
 * Sequences are centred and zero-padded to a power of two M >= 2N - 1 so the circular
 * correlation the FFT computes equals the linear one (Wiener-Khinchin: the inverse transform of
 * |X_k|^2 is the lag sum).
 */
import { fft, nextPowerOfTwo } from "./fft.js";
import { checkChains, checkSequence } from "./errors.js";

/** Biased autocovariances gamma_0 .. gamma_{N-1} of one sequence (N >= 1). */
export function autocovariance(x: Float64Array): Float64Array {
  checkSequence(x, "autocovariance", 1);
  return meanAutocovarianceUnchecked([x]);
}

/**
 * Autocorrelations rho_t = gamma_t / gamma_0 of one sequence, t = 0 .. N-1. A constant
 * sequence (gamma_0 = 0) has none: every entry is NaN.
 */
export function autocorrelation(x: Float64Array): Float64Array {
  const g = autocovariance(x);
  const g0 = g[0];
  for (let t = 0; t < g.length; t++) g[t] = g0 > 0 ? g[t] / g0 : NaN;
  return g;
}

/** The average over chains of each chain's biased autocovariance (each around its own mean). */
export function meanAutocovariance(chains: readonly Float64Array[]): Float64Array {
  checkChains(chains, "meanAutocovariance", 1, 1);
  return meanAutocovarianceUnchecked(chains);
}

/**
 * The work behind the three functions above. The inverse transform is linear, so the
 * chains' power spectra are summed and transformed back once. Two real chains a, b share one
 * complex transform of a + i b: with j = (M - k) mod M,
 *   A_k = (Z_k + conj Z_j) / 2,   B_k = (Z_k - conj Z_j) / (2i).
 */
export function meanAutocovarianceUnchecked(chains: readonly Float64Array[]): Float64Array {
  const n = chains[0].length;
  const m = nextPowerOfTwo(Math.max(2 * n - 1, 1));
  const re = new Float64Array(m);
  const im = new Float64Array(m);
  const spectrum = new Float64Array(m);
  for (let c = 0; c < chains.length; c += 2) {
    const a = chains[c];
    const b = c + 1 < chains.length ? chains[c + 1] : null;
    const meanA = mean(a);
    const meanB = b === null ? 0 : mean(b);
    for (let i = 0; i < n; i++) {
      re[i] = a[i] - meanA;
      im[i] = b === null ? 0 : b[i] - meanB;
    }
    re.fill(0, n);
    im.fill(0, n);
    fft(re, im);
    if (b === null) {
      for (let k = 0; k < m; k++) spectrum[k] += re[k] * re[k] + im[k] * im[k];
    } else {
      for (let k = 0; k < m; k++) {
        const j = (m - k) & (m - 1);
        const sr = re[k] + re[j], di = im[k] - im[j]; // 2 A_k = sr + i di
        const si = im[k] + im[j], dr = re[k] - re[j]; // 2 B_k = si - i dr
        spectrum[k] += 0.25 * (sr * sr + di * di + si * si + dr * dr);
      }
    }
  }
  re.set(spectrum);
  im.fill(0);
  fft(re, im, true);
  const out = new Float64Array(n);
  const scale = 1 / (n * chains.length);
  for (let t = 0; t < n; t++) out[t] = re[t] * scale;
  return out;
}

function mean(x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / x.length;
}

/** How many lags `lazyMeanAutocovariance` sums directly before it switches to the FFT. */
export const DIRECT_LAGS = 64;
const LAG_BLOCK = 16;

/**
 * gamma_t (the mean over chains of the biased autocovariances) as a function of the lag t,
 * computed on demand: lags below DIRECT_LAGS by direct sums, O(m n) per lag, in blocks of 16
 * as they are asked for; the first request for a later lag computes all lags by FFT.
 * Geyer's sums stop after a few lags for a well-mixing chain, so most ESS computations never
 * need the transform; the values are the same either way up to rounding.
 */
export function lazyMeanAutocovariance(chains: readonly Float64Array[]): (t: number) => number {
  const m = chains.length;
  const n = chains[0].length;
  const centred = chains.map((x) => {
    const mu = mean(x);
    return x.map((v) => v - mu);
  });
  let values: Float64Array = new Float64Array(Math.min(n, DIRECT_LAGS));
  let known = 0; // lags 0 .. known-1 are computed
  return (t: number): number => {
    if (t < known) return values[t];
    if (t >= values.length) {
      if (known < n) {
        values = meanAutocovarianceUnchecked(chains);
        known = n;
      }
      return values[t];
    }
    const end = Math.min(values.length, Math.max(t + 1, known + LAG_BLOCK));
    for (let lag = known; lag < end; lag++) {
      let s = 0;
      for (const xc of centred) for (let j = 0; j + lag < n; j++) s += xc[j] * xc[j + lag];
      values[lag] = s / (n * m);
    }
    known = end;
    return values[t];
  };
}
