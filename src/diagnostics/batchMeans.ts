/**
 * Batch-means Monte Carlo standard errors, used by the invariance tests and the RMHMC integrator
 * benchmark: each chain is cut into floor(sqrt(n)) batches of equal length; the standard error of
 * the overall mean is the standard deviation of the batch means over sqrt(number of batches).
 * Pooling batches across chains also catches chains that disagree with each other.
 */

/** Draws of several chains, chain-major then draw-major (the driver's SampleResult has this shape). */
export interface ChainDraws {
  chains: number;
  draws: number;
  dim: number;
  /** samples[(c * draws + i) * dim + j]: variable j of draw i of chain c. */
  samples: Float64Array;
}

/** The mean of all series together and its batch-means standard error. */
export function batchMeans(series: Float64Array[]): { mean: number; mcse: number } {
  const means: number[] = [];
  for (const s of series) {
    const n = s.length;
    const batches = Math.max(2, Math.floor(Math.sqrt(n)));
    const size = Math.floor(n / batches);
    for (let b = 0; b < batches; b++) {
      let sum = 0;
      for (let i = b * size; i < (b + 1) * size; i++) sum += s[i];
      means.push(sum / size);
    }
  }
  const k = means.length;
  const mean = means.reduce((a, b) => a + b, 0) / k;
  let v = 0;
  for (const m of means) v += (m - mean) * (m - mean);
  v /= k - 1;
  return { mean, mcse: Math.sqrt(v / k) };
}

/** Per chain, the series f(draw) for every draw. */
export function transform(result: ChainDraws, f: (x: Float64Array) => number): Float64Array[] {
  const out: Float64Array[] = [];
  const x = new Float64Array(result.dim);
  for (let c = 0; c < result.chains; c++) {
    const s = new Float64Array(result.draws);
    for (let i = 0; i < result.draws; i++) {
      const base = (c * result.draws + i) * result.dim;
      for (let j = 0; j < result.dim; j++) x[j] = result.samples[base + j];
      s[i] = f(x);
    }
    out.push(s);
  }
  return out;
}
