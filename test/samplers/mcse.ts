/**
 * Batch-means Monte Carlo standard errors for the invariance tests: each chain is cut into
 * floor(sqrt(n)) batches of equal length; the standard error of the overall mean is the standard
 * deviation of the batch means over sqrt(number of batches). Pooling batches across chains also
 * catches chains that disagree with each other.
 */
import type { SampleResult } from "../../src/samplers/driver.js";

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
export function transform(result: SampleResult, f: (x: Float64Array) => number): Float64Array[] {
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

export interface MomentCheck {
  name: string;
  estimate: number;
  truth: number;
  mcse: number;
  z: number;
}

/**
 * z-scores of the means and of the central second moments (variances and covariances, centred
 * at the true mean) against a known mean and covariance.
 */
export function momentZScores(result: SampleResult, mean: ArrayLike<number>, cov: (i: number, j: number) => number): MomentCheck[] {
  const d = result.dim;
  const checks: MomentCheck[] = [];
  const add = (name: string, f: (x: Float64Array) => number, truth: number) => {
    const { mean: est, mcse } = batchMeans(transform(result, f));
    checks.push({ name, estimate: est, truth, mcse, z: (est - truth) / mcse });
  };
  for (let i = 0; i < d; i++) add(`E[x${i}]`, (x) => x[i], mean[i]);
  for (let i = 0; i < d; i++) {
    for (let j = i; j < d; j++) add(`Cov[x${i},x${j}]`, (x) => (x[i] - mean[i]) * (x[j] - mean[j]), cov(i, j));
  }
  return checks;
}

export function maxAbsZ(checks: MomentCheck[]): number {
  return Math.max(...checks.map((c) => Math.abs(c.z)));
}

export function describe(checks: MomentCheck[]): string {
  return checks.map((c) => `${c.name}: ${c.estimate.toFixed(4)} vs ${c.truth.toFixed(4)} (mcse ${c.mcse.toExponential(2)}, z ${c.z.toFixed(2)})`).join("\n");
}
