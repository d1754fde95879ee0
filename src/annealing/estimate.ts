/**
 * The AIS estimate of log Z from R independent runs with log weights w_r:
 *   Z-hat = (1/R) sum_r exp(w_r),  log Z-hat = m + log((1/R) sum_r exp(w_r - m)),  m = max_r w_r
 * (log-sum-exp, so no weight overflows or underflows to zero all together). Z-hat is unbiased
 * for Z; log Z-hat is biased low by about var(Z-hat) / (2 Z^2).
 *
 * Standard error, by the delta method on the mean of u_r = exp(w_r - m):
 *   se(log Z-hat) ~ se(u-bar) / u-bar = sd(u) / (sqrt(R) u-bar),  sd with the R - 1 divisor.
 * It needs R >= 2; it is only as good as the sample variance of the weights, which
 * underestimates a heavy right tail (few runs, a poor schedule). The effective sample size
 * (sum u)^2 / sum u^2 says how many runs carry the estimate.
 */

export interface AisEstimate {
  logZ: number;
  /** Delta-method standard error of log Z-hat (NaN for one run). */
  standardError: number;
  /** (sum u)^2 / sum u^2 in [1, R]. */
  effectiveSampleSize: number;
}

/** log Z-hat, its standard error and the weights' effective sample size from the runs' log weights. */
export function aisEstimate(logWeights: ArrayLike<number>): AisEstimate {
  const R = logWeights.length;
  if (R === 0) throw new RangeError("no log weights");
  let m = -Infinity;
  for (let r = 0; r < R; r++) {
    const w = logWeights[r];
    if (Number.isNaN(w) || w === Infinity) throw new RangeError(`log weight ${r + 1} is ${w}`);
    if (w > m) m = w;
  }
  if (m === -Infinity) return { logZ: -Infinity, standardError: NaN, effectiveSampleSize: 0 };
  let sum = 0;
  let sumSq = 0;
  for (let r = 0; r < R; r++) {
    const u = Math.exp(logWeights[r] - m);
    sum += u;
    sumSq += u * u;
  }
  const mean = sum / R;
  const logZ = m + Math.log(mean);
  let standardError = NaN;
  if (R > 1) {
    let ss = 0;
    for (let r = 0; r < R; r++) {
      const d = Math.exp(logWeights[r] - m) - mean;
      ss += d * d;
    }
    standardError = Math.sqrt(ss / (R - 1) / R) / mean;
  }
  return { logZ, standardError, effectiveSampleSize: (sum * sum) / sumSq };
}
