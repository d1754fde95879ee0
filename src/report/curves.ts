/**
 * Draws turned into the curves the report plots: thinned traces, kernel density estimates,
 * histograms, rank histograms, running means, and the energy statistics of Betancourt (2016,
 * Diagnosing suboptimal cotangent disintegrations in Hamiltonian Monte Carlo, arXiv:1604.00695).
 */

/** A plotted point; null y leaves a gap. */
export type Point = [number, number | null];

/** Rounds for plotting: 6 significant digits keep the page small and are beyond screen resolution. */
export function forPlot(v: number): number | null {
  return Number.isFinite(v) ? Number(v.toPrecision(6)) : null;
}

/**
 * Every k-th draw (k = ceil(n / maxPoints)) as [draw number (1-based), value] pairs, and k.
 * The last draw is always kept so the trace spans the whole chain.
 */
export function thinnedTrace(x: ArrayLike<number>, maxPoints: number): { points: Point[]; every: number } {
  const n = x.length;
  const every = Math.max(1, Math.ceil(n / maxPoints));
  const points: Point[] = [];
  for (let i = 0; i < n; i += every) points.push([i + 1, forPlot(x[i])]);
  if (n > 0 && (n - 1) % every !== 0) points.push([n, forPlot(x[n - 1])]);
  return { points, every };
}

/** The finite values of a set of arrays, their minimum and maximum. */
function finiteRange(xs: readonly ArrayLike<number>[]): { lo: number; hi: number; count: number } {
  let lo = Infinity;
  let hi = -Infinity;
  let count = 0;
  for (const x of xs) {
    for (let i = 0; i < x.length; i++) {
      const v = x[i];
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
      count++;
    }
  }
  return { lo, hi, count };
}

function finiteValues(x: ArrayLike<number>): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < x.length; i++) if (Number.isFinite(x[i])) out.push(x[i]);
  return Float64Array.from(out);
}

function meanVariance(x: Float64Array): { mean: number; variance: number } {
  let m = 0;
  for (let i = 0; i < x.length; i++) m += x[i];
  m /= x.length;
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] - m) * (x[i] - m);
  return { mean: m, variance: x.length > 1 ? s / (x.length - 1) : 0 };
}

/** Silverman's rule of thumb, 0.9 min(sd, IQR / 1.34) n^(-1/5) (Silverman 1986, eq. 3.31). */
export function silvermanBandwidth(x: Float64Array): number {
  const n = x.length;
  if (n < 2) return NaN;
  const sorted = Float64Array.from(x).sort();
  const q = (p: number) => {
    const h = (n - 1) * p;
    const i = Math.floor(h);
    return i + 1 < n ? sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]) : sorted[i];
  };
  const sd = Math.sqrt(meanVariance(x).variance);
  const iqr = (q(0.75) - q(0.25)) / 1.34;
  const spread = iqr > 0 ? Math.min(sd, iqr) : sd;
  return 0.9 * spread * Math.pow(n, -0.2);
}

/**
 * Gaussian kernel density estimates of several samples on one common grid of `points` values
 * spanning all of them (3 bandwidths beyond the extremes), each with its own Silverman
 * bandwidth. Non-finite draws are left out. A sample with no spread gives no curve (null).
 */
export function kernelDensities(samples: readonly ArrayLike<number>[], points = 128): { grid: Float64Array; densities: (Float64Array | null)[] } {
  const clean = samples.map(finiteValues);
  const widths = clean.map(silvermanBandwidth);
  const { lo, hi, count } = finiteRange(clean);
  if (count === 0) return { grid: new Float64Array(0), densities: clean.map(() => null) };
  const hMax = Math.max(0, ...widths.filter((h) => h > 0));
  const pad = hMax > 0 ? 3 * hMax : Math.max(Math.abs(lo), 1) * 1e-3;
  const a = lo - pad;
  const b = hi + pad;
  const grid = new Float64Array(points);
  for (let g = 0; g < points; g++) grid[g] = a + ((b - a) * g) / (points - 1);
  const densities = clean.map((x, c) => {
    const h = widths[c];
    if (!(h > 0)) return null;
    const d = new Float64Array(points);
    const norm = 1 / (x.length * h * Math.sqrt(2 * Math.PI));
    for (let g = 0; g < points; g++) {
      let s = 0;
      const t = grid[g];
      for (let i = 0; i < x.length; i++) {
        const z = (t - x[i]) / h;
        if (z < 8 && z > -8) s += Math.exp(-0.5 * z * z);
      }
      d[g] = s * norm;
    }
    return d;
  });
  return { grid, densities };
}

/**
 * Histograms of several samples on shared bins: `bins` equal-width bins over the range of all
 * finite values. Returns the bin centres, the bin width and the counts of each sample.
 */
export function sharedHistogram(samples: readonly ArrayLike<number>[], bins: number): { centres: Float64Array; width: number; counts: Float64Array[] } {
  const { lo, hi, count } = finiteRange(samples);
  if (count === 0) return { centres: new Float64Array(0), width: 0, counts: samples.map(() => new Float64Array(0)) };
  const span = hi > lo ? hi - lo : Math.max(Math.abs(lo), 1) * 1e-3;
  const a = hi > lo ? lo : lo - span / 2;
  const width = span / bins;
  const centres = new Float64Array(bins);
  for (let k = 0; k < bins; k++) centres[k] = a + (k + 0.5) * width;
  const counts = samples.map((x) => {
    const c = new Float64Array(bins);
    for (let i = 0; i < x.length; i++) {
      const v = x[i];
      if (!Number.isFinite(v)) continue;
      c[Math.min(bins - 1, Math.max(0, Math.floor((v - a) / width)))]++;
    }
    return c;
  });
  return { centres, width, counts };
}

/**
 * Rank histogram of each chain (Vehtari et al. 2021, sec. 4.2 "rank plots"): the pooled ranks
 * 1..S of a chain's draws counted in `bins` equal bins of [0, S]. For chains that mix, every
 * bin holds about draws / bins.
 */
export function rankHistograms(ranks: readonly Float64Array[], bins: number): Float64Array[] {
  let total = 0;
  for (const r of ranks) total += r.length;
  return ranks.map((r) => {
    const c = new Float64Array(bins);
    for (let i = 0; i < r.length; i++) c[Math.min(bins - 1, Math.floor(((r[i] - 0.5) / total) * bins))]++;
    return c;
  });
}

/** Running mean of x (non-finite values skipped), thinned to at most maxPoints points. */
export function runningMean(x: ArrayLike<number>, maxPoints: number): Point[] {
  const n = x.length;
  const every = Math.max(1, Math.ceil(n / maxPoints));
  const out: Point[] = [];
  let s = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(x[i])) {
      s += x[i];
      k++;
    }
    if (i % every === 0 || i === n - 1) out.push([i + 1, k > 0 ? forPlot(s / k) : null]);
  }
  return out;
}

/** The energies less their mean, and their successive differences E_t - E_{t-1}, of one chain. */
export function energyTransitions(energy: ArrayLike<number>): { centred: Float64Array; differences: Float64Array } {
  const x = Float64Array.from(energy as ArrayLike<number>);
  const m = meanVariance(finiteValues(x)).mean;
  const centred = x.map((v) => v - m);
  const differences = new Float64Array(Math.max(0, x.length - 1));
  for (let i = 1; i < x.length; i++) differences[i - 1] = x[i] - x[i - 1];
  return { centred, differences };
}
