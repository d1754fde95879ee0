/**
 * The summary of a run over the latent values f.1 .. f.n, as the papers report it: effective
 * sample sizes by Geyer's initial monotone sequence (min, median, max over the variables), the
 * classic Gelman-Rubin R-hat (max over the variables; needs two chains or more), the acceptance
 * rate and divergences of the sampling phase, timings, and efficiency as min ESS per second of
 * sampling, the seconds added up over the chains (ESS_PER_SECOND_BASIS); and the verdict on the
 * run (bulk and tail ESS and rank-normalised R-hat of lp__ and every variable, divergences, tree
 * depth, E-BFMI), judged by diagnostics/verdict.ts as `gpmcmc diagnose` judges the run's files.
 * Every figure is src/diagnostics' `summarize` of a variable's chains.
 */
import { MIN_DRAWS } from "../diagnostics/errors.js";
import { operationCounts, type OperationCounts } from "../diagnostics/operationCounts.js";
import { ESS_PER_SECOND_BASIS, essRhatExtremes, type EssRhatExtremes } from "../diagnostics/runFigures.js";
import { summarize } from "../diagnostics/summary.js";
import { judgeRun, type JudgedQuantity, type Remedies, type Verdict } from "../diagnostics/verdict.js";
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
  /** Fraction of sampling-phase transitions accepted (that moved), over all chains. */
  acceptanceRate: number;
  /** Mean acceptance statistic (accept_stat__) over the sampling phase: what Stan reports, and NUTS's adaptation aims at. */
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
  /** The verdict on the run: the same checks, thresholds and words as `gpmcmc diagnose` (diagnostics/verdict.ts). */
  verdict: Verdict;
}

/** What summariseRun is told besides the chains. */
export interface SummariseOptions {
  /** names[j] names variable j (default f.1 .. f.n). */
  names?: string[];
  /** The run's wall-clock seconds (default: the chains' total times added up). */
  seconds?: number;
  /** Transitions per kept draw (default 1): the divergences are counted among draws x thin transitions. */
  thin?: number;
  /** NUTS's largest tree depth, for the verdict's words. */
  maxTreeDepth?: number;
  /** Whether the sampler's divergences are divergences (default true; the pm scheme's are proposals rejected for want of a usable estimate). */
  divergences?: boolean;
  /** What the command that ran the chains offers against each problem (diagnostics/verdict.ts). */
  remedies?: Remedies;
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * Summarises chains of one run (all with the same dimension; the figures use the first `draws`
 * draws of each, the shortest chain's, when a stopped run's chains differ) and judges it.
 */
export function summariseRun(results: readonly ChainResult[], options: SummariseOptions = {}): RunSummary {
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
  // lp__ and the variables, as `gpmcmc diagnose` reads them from the draws files
  const quantities: JudgedQuantity[] = [];
  if (draws >= MIN_DRAWS) {
    const chains = results.map(() => new Float64Array(draws));
    const judge = (name: string) => {
      const v = summarize(chains);
      quantities.push({ name, rhat: v.rhat, essBulk: v.essBulk, essTail: v.essTail });
      return v;
    };
    results.forEach((r, c) => chains[c].set(r.stats.lp.subarray(0, draws)));
    judge("lp__");
    for (let j = 0; j < dim; j++) {
      for (let c = 0; c < m; c++) {
        const s = results[c].samples;
        const out = chains[c];
        for (let i = 0; i < draws; i++) out[i] = s[i * dim + j];
      }
      const v = judge(names[j]);
      ess[j] = v.essGeyer;
      rhat[j] = v.rhatClassic;
    }
  } else {
    // too few draws to judge: every quantity is named as not computable, never passed
    for (const name of ["lp__", ...names]) quantities.push({ name, rhat: NaN, essBulk: NaN, essTail: NaN });
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
  const trees = results.every((r) => r.summary.treeDepthSaturations !== undefined);
  const verdict = judgeRun(
    {
      quantities,
      chains: m,
      draws,
      divergences: options.divergences === false ? null : results.map((r) => r.summary.divergences),
      transitions: results.reduce((t, r) => t + r.draws, 0) * (options.thin ?? 1),
      ...(trees ? { treeDepth: { saturated: results.map((r) => r.summary.treeDepthSaturations as number), maxDepth: options.maxTreeDepth ?? null } } : {}),
      energy: results.map((r) => r.stats.energy.subarray(0, draws)),
    },
    options.remedies,
  );
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
    verdict,
  };
}
