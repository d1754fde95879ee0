/**
 * The summary of a run over the latent values f.1 .. f.n, as the papers report it: effective
 * sample sizes by Geyer's initial monotone sequence (min, median, max over the variables), the
 * classic Gelman-Rubin R-hat (max over the variables; needs two chains or more), the acceptance
 * rate and divergences of the sampling phase, timings, and efficiency as min ESS per second of
 * sampling. The ESS and R-hat are src/diagnostics' essGeyer and rhatClassic.
 */
import { MIN_DRAWS } from "../diagnostics/errors.js";
import { essGeyer } from "../diagnostics/ess.js";
import { rhatClassic } from "../diagnostics/rhat.js";
import type { ChainResult } from "../samplers/driver.js";

/** One chain's share of a run. */
export interface ChainReport {
  /** 1-based, as in the draws file names. */
  chain: number;
  /** Draws kept (fewer than the run's when the chain was stopped early). */
  draws: number;
  /** False when the chain was stopped early. */
  complete: boolean;
  acceptanceRate: number;
  divergences: number;
  burnInAcceptanceRate: number | null;
  burnInDivergences: number;
  /** Step size after burn-in (adapted or as given). */
  stepSize: number | null;
  burnInSeconds: number;
  samplingSeconds: number;
  /** Operation counts over the chain, burn-in included. */
  gradientCalls: number;
  metricCalls: number;
  inverseMetricCalls: number;
  fixedPointIterations: number;
  leapfrogSteps: number;
  densityEvaluations: number;
}

/** The run's diagnostics; null where a figure cannot be computed (too few draws or chains, constant draws). */
export interface RunSummary {
  chains: number;
  /** Draws kept per chain (the shortest chain's, when a stopped run's chains differ: the figures use that many of each). */
  draws: number;
  /** Number of latent variables summarised. */
  variables: number;
  /** ESS by Geyer's initial monotone sequence over all chains (not split). */
  minEss: number | null;
  medianEss: number | null;
  maxEss: number | null;
  /** The variable with the smallest ESS, e.g. "f.7". */
  minEssVariable: string | null;
  /** Classic Gelman-Rubin R-hat, largest over the variables (null with one chain). */
  rhatMax: number | null;
  rhatMaxVariable: string | null;
  /** Fraction of sampling-phase transitions accepted, over all chains. */
  acceptanceRate: number;
  /** Mean acceptance probability over the sampling phase. */
  meanAcceptStat: number;
  /** Divergent transitions in the sampling phase, all chains. */
  divergences: number;
  burnInDivergences: number;
  /** Wall-clock seconds of burn-in and sampling, all chains. */
  seconds: number;
  /** The chains' sampling phases added up (so the figure does not depend on how many ran at once). */
  samplingSeconds: number;
  /** minEss / samplingSeconds. */
  essPerSecond: number | null;
  perChain: ChainReport[];
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * Summarises chains of one run (all with the same dimension; the ESS and R-hat use the first
 * `draws` draws of each, the shortest chain's, when a stopped run's chains differ). `names[j]` names
 * variable j in the report (default f.1 .. f.n). `seconds` is the run's wall-clock time
 * (default: the chains' total times added up).
 */
export function summariseRun(results: readonly ChainResult[], options: { names?: string[]; seconds?: number } = {}): RunSummary {
  if (results.length === 0) throw new RangeError("summariseRun: no chains");
  const { dim } = results[0];
  for (const r of results) {
    if (r.dim !== dim) throw new RangeError("summariseRun: chains differ in dimension");
    if (r.draws !== results[0].draws && !r.stopped && !results[0].stopped) throw new RangeError("summariseRun: chains differ in draws");
  }
  const draws = Math.min(...results.map((r) => r.draws));
  const names = options.names ?? Array.from({ length: dim }, (_, j) => `f.${j + 1}`);
  const m = results.length;

  const ess = new Float64Array(dim).fill(NaN);
  const rhat = new Float64Array(dim).fill(NaN);
  if (draws >= MIN_DRAWS) {
    const chains = results.map(() => new Float64Array(draws));
    for (let j = 0; j < dim; j++) {
      for (let c = 0; c < m; c++) {
        const s = results[c].samples;
        const out = chains[c];
        for (let i = 0; i < draws; i++) out[i] = s[i * dim + j];
      }
      ess[j] = essGeyer(chains);
      if (m >= 2) rhat[j] = rhatClassic(chains);
    }
  }
  const essStats = orderStats(ess);
  let rhatMax = NaN;
  let rhatArg = -1;
  for (let j = 0; j < dim; j++) {
    if (Number.isFinite(rhat[j]) && !(rhat[j] <= rhatMax)) {
      rhatMax = rhat[j];
      rhatArg = j;
    }
  }

  const perChain: ChainReport[] = results.map((r) => {
    const s = r.summary;
    return {
      chain: r.chain + 1,
      draws: r.draws,
      complete: r.stopped !== true,
      acceptanceRate: s.acceptanceRate,
      divergences: s.divergences,
      burnInAcceptanceRate: finite(s.burnInAcceptanceRate),
      burnInDivergences: s.burnInDivergences,
      stepSize: r.tunedValue ?? null,
      burnInSeconds: r.seconds.burnIn,
      samplingSeconds: r.seconds.sampling,
      gradientCalls: s.gradientCalls,
      metricCalls: s.metricCalls,
      inverseMetricCalls: s.inverseMetricCalls,
      fixedPointIterations: s.fixedPointIterations,
      leapfrogSteps: s.leapfrogSteps,
      densityEvaluations: s.densityEvaluations,
    };
  });
  // The chains of a run have the same number of sampling transitions, so the run's rates are the
  // means of the chains' rates.
  const sum = (f: (r: ChainResult) => number) => results.reduce((t, r) => t + f(r), 0);
  const samplingSeconds = sum((r) => r.seconds.sampling);
  const minEss = finite(essStats.min);
  return {
    chains: m,
    draws,
    variables: dim,
    minEss,
    medianEss: finite(essStats.median),
    maxEss: finite(essStats.max),
    minEssVariable: essStats.argMin >= 0 ? names[essStats.argMin] : null,
    rhatMax: finite(rhatMax),
    rhatMaxVariable: rhatArg >= 0 ? names[rhatArg] : null,
    acceptanceRate: sum((r) => r.summary.acceptanceRate) / m,
    meanAcceptStat: sum((r) => r.summary.meanAcceptStat) / m,
    divergences: sum((r) => r.summary.divergences),
    burnInDivergences: sum((r) => r.summary.burnInDivergences),
    seconds: options.seconds ?? sum((r) => r.seconds.total),
    samplingSeconds,
    essPerSecond: minEss !== null && samplingSeconds > 0 ? minEss / samplingSeconds : null,
    perChain,
  };
}

/** Min (with its index), median and max of the finite entries; NaN when there are none. */
function orderStats(v: Float64Array): { min: number; median: number; max: number; argMin: number } {
  const idx: number[] = [];
  for (let j = 0; j < v.length; j++) if (Number.isFinite(v[j])) idx.push(j);
  if (idx.length === 0) return { min: NaN, median: NaN, max: NaN, argMin: -1 };
  idx.sort((a, b) => v[a] - v[b]);
  const k = idx.length >> 1;
  const median = idx.length % 2 ? v[idx[k]] : 0.5 * (v[idx[k - 1]] + v[idx[k]]);
  return { min: v[idx[0]], median, max: v[idx[idx.length - 1]], argMin: idx[0] };
}
