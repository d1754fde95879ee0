/**
 * The figures a run is judged by, over its variables, as the papers report them: the smallest,
 * median and largest ESS by Geyer's initial monotone sequence, the largest classic R-hat, and
 * efficiency as min ESS per second. `gpmcmc sample` (run/summary.ts) and `gpmcmc diagnose`
 * (io/diagnosis.ts) report the same figures under the same names.
 */

/** ESS and R-hat extremes over a run's variables; null where a figure cannot be computed. */
export interface EssRhatExtremes {
  /** Geyer initial monotone sequence ESS over all chains (not split): min, median, max. */
  minEss: number | null;
  medianEss: number | null;
  maxEss: number | null;
  /** The variable with the smallest ESS, e.g. "f.7". */
  minEssVariable: string | null;
  /** Classic Gelman-Rubin R-hat, largest over the variables (null with one chain). */
  rhatMax: number | null;
  rhatMaxVariable: string | null;
}

/**
 * What ESS per second divides by: the seconds of the sampling phase (burn-in excluded) added up
 * over the chains, so that the figure is per chain-second and does not depend on how many
 * chains ran at once. Reports carry this text as `essPerSecondBasis`.
 */
export const ESS_PER_SECOND_BASIS = "min ESS over the variables / seconds of sampling (burn-in excluded) summed over chains";

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * The extremes of per-variable ESS and R-hat values (NaN where not computable), `names[j]`
 * naming variable j; non-finite entries are left out.
 */
export function essRhatExtremes(ess: ArrayLike<number>, rhat: ArrayLike<number>, names: readonly string[]): EssRhatExtremes {
  const idx: number[] = [];
  for (let j = 0; j < ess.length; j++) if (Number.isFinite(ess[j])) idx.push(j);
  idx.sort((a, b) => ess[a] - ess[b]);
  const k = idx.length >> 1;
  const median = idx.length === 0 ? NaN : idx.length % 2 ? ess[idx[k]] : 0.5 * (ess[idx[k - 1]] + ess[idx[k]]);
  let rhatArg = -1;
  for (let j = 0; j < rhat.length; j++) {
    if (Number.isFinite(rhat[j]) && (rhatArg < 0 || rhat[j] > rhat[rhatArg])) rhatArg = j;
  }
  return {
    minEss: idx.length > 0 ? finite(ess[idx[0]]) : null,
    medianEss: finite(median),
    maxEss: idx.length > 0 ? finite(ess[idx[idx.length - 1]]) : null,
    minEssVariable: idx.length > 0 ? names[idx[0]] : null,
    rhatMax: rhatArg >= 0 ? rhat[rhatArg] : null,
    rhatMaxVariable: rhatArg >= 0 ? names[rhatArg] : null,
  };
}
