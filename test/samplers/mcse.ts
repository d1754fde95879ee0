/**
 * Moment checks for the invariance tests: z-scores of sample means and covariances against the
 * known ones, with batch-means standard errors (src/diagnostics/batchMeans.ts).
 */
import { batchMeans, transform } from "../../src/diagnostics/batchMeans.js";
import type { SampleResult } from "../../src/samplers/chain/driver.js";

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
