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
