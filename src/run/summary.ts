/**
 * The summary of a run over the latent values f.1 .. f.n, as the papers report it: effective
 * sample sizes by Geyer's initial monotone sequence (min, median, max over the variables), the
 * classic Gelman-Rubin R-hat (max over the variables; needs two chains or more), the acceptance
 * rate and divergences of the sampling phase, timings, and efficiency as min ESS per second of
 * sampling, the seconds added up over the chains (ESS_PER_SECOND_BASIS). The ESS and R-hat are
 * src/diagnostics' essGeyer and rhatClassic.
 */
import { MIN_DRAWS } from "../diagnostics/errors.js";
import { essGeyer } from "../diagnostics/ess.js";
import { operationCounts, type OperationCounts } from "../diagnostics/operationCounts.js";
import { rhatClassic } from "../diagnostics/rhat.js";
import { ESS_PER_SECOND_BASIS, essRhatExtremes, type EssRhatExtremes } from "../diagnostics/runFigures.js";
import type { ChainResult } from "../samplers/chain/driver.js";

/** One chain's share of a run; its operation counts are over the chain, burn-in included. */
export interface ChainReport extends OperationCounts {
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
  /** NUTS: sampling transitions whose tree reached its largest depth (absent for other samplers). */
  treeDepthSaturations?: number;
  /** Step size after burn-in (adapted or as given). */
  stepSize: number | null;
  burnInSeconds: number;
  samplingSeconds: number;
}

/** The run's diagnostics; null where a figure cannot be computed (too few draws or chains, constant draws). */
export interface RunSummary extends EssRhatExtremes {
  chains: number;
  /** Draws kept per chain (the shortest chain's, when a stopped run's chains differ: the figures use that many of each). */
  draws: number;
  /** Number of latent variables summarised. */
  variables: number;
  /** Fraction of sampling-phase transitions accepted, over all chains. */
  acceptanceRate: number;
  /** Mean acceptance probability over the sampling phase. */
  meanAcceptStat: number;
  /** Divergent transitions in the sampling phase, all chains. */
  divergences: number;
  burnInDivergences: number;
  /** NUTS: sampling transitions whose tree reached its largest depth, all chains (absent for other samplers). */
  treeDepthSaturations?: number;
  /** Wall-clock seconds of burn-in and sampling, all chains (however many ran at once). */
  seconds: number;
  /** The chains' sampling phases (burn-in excluded) added up: chain-seconds, so the figure does not depend on how many ran at once. */
  samplingSeconds: number;
  /** minEss / samplingSeconds: min ESS per chain-second of sampling. */
  essPerSecond: number | null;
  /** What essPerSecond divides by, in words (ESS_PER_SECOND_BASIS). */
  essPerSecondBasis: string;
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
      ...(s.treeDepthSaturations === undefined ? {} : { treeDepthSaturations: s.treeDepthSaturations }),
      stepSize: r.tunedValue ?? null,
      burnInSeconds: r.seconds.burnIn,
      samplingSeconds: r.seconds.sampling,
      ...operationCounts(s),
    };
  });
  // The chains of a run have the same number of sampling transitions, so the run's rates are the
  // means of the chains' rates.
  const sum = (f: (r: ChainResult) => number) => results.reduce((t, r) => t + f(r), 0);
  const samplingSeconds = sum((r) => r.seconds.sampling);
  const extremes = essRhatExtremes(ess, rhat, names);
  const minEss = extremes.minEss;
  return {
    chains: m,
    draws,
    variables: dim,
    ...extremes,
    acceptanceRate: sum((r) => r.summary.acceptanceRate) / m,
    meanAcceptStat: sum((r) => r.summary.meanAcceptStat) / m,
    divergences: sum((r) => r.summary.divergences),
    burnInDivergences: sum((r) => r.summary.burnInDivergences),
    ...(results.some((r) => r.summary.treeDepthSaturations !== undefined) ? { treeDepthSaturations: sum((r) => r.summary.treeDepthSaturations ?? 0) } : {}),
    seconds: options.seconds ?? sum((r) => r.seconds.total),
    samplingSeconds,
    essPerSecond: minEss !== null && samplingSeconds > 0 ? minEss / samplingSeconds : null,
    essPerSecondBasis: ESS_PER_SECOND_BASIS,
    perChain,
  };
}
