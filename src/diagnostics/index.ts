/**
 * MCMC diagnostics: autocorrelation, effective sample size (Geyer's initial monotone sequence,
 * as the source papers report it; rank-normalised bulk and tail ESS), R-hat (classic
 * Gelman-Rubin; rank-normalised split R-hat), Monte Carlo standard errors, quantiles,
 * per-variable summaries, the Mann-Whitney test, and the comparison paper's R-hat display.
 *
 * A chain of one scalar quantity is a Float64Array; "chains" is an array of them, one length.
 */
export { DiagnosticsInputError, MIN_DRAWS } from "./errors.js";
export type { DiagnosticsInputProblem } from "./errors.js";
export { fft, nextPowerOfTwo } from "./fft.js";
export { autocorrelation, autocovariance, meanAutocovariance } from "./autocorrelation.js";
export {
  combinedAutocorrelation,
  essBasic,
  essBulk,
  essGeyer,
  essGeyerSingle,
  essMean,
  essOfChains,
  essQuantile,
  essTail,
  geyerInitialMonotone,
  integratedAutocorrelationTime,
} from "./ess.js";
export type { GeyerEstimate } from "./ess.js";
export { rhat, rhatBulk, rhatClassic, rhatSplit, rhatTail } from "./rhat.js";
export type { RhatClassicForm, RhatClassicOptions } from "./rhat.js";
export { foldAroundMedian, pooledRanks, RANK_OFFSET, rankNormalize, splitChains } from "./transforms.js";
export { median, pooledSorted, quantile, quantileSorted } from "./quantile.js";
export { mcseMean, mcseQuantile, meanAndSd } from "./mcse.js";
export { betaCdf, betaQuantile } from "./beta.js";
export { drawsArray, drawsFromChains, variableChains } from "./draws.js";
export type { DrawsArray } from "./draws.js";
export { essGeyerByChain, minEssByChain, summarize, summarizeDraws, summaryRow } from "./summary.js";
export type { DrawsSummary, VariableSummary } from "./summary.js";
export { exactDistribution, mannWhitneyU, orderMethods } from "./mannWhitney.js";
export type { Alternative, MannWhitneyOptions, MannWhitneyResult, MethodOrdering } from "./mannWhitney.js";
export {
  fractionBelow,
  medianOf,
  PAPER_CHECKPOINTS,
  RHAT_CODE_BOUNDS,
  rhatAtCheckpoints,
  rhatCode,
  rhatConvergenceTable,
} from "./convergence.js";
export type { ConvergenceTable } from "./convergence.js";
export { ESS_PER_SECOND_BASIS, essRhatExtremes } from "./runFigures.js";
export type { EssRhatExtremes } from "./runFigures.js";
export { operationCounts } from "./operationCounts.js";
export type { OperationCounts } from "./operationCounts.js";
export { EBFMI_THRESHOLD, ebfmi, ESS_PER_CHAIN, formatRhat, judgeRun, RHAT_THRESHOLD, verdictFigures, verdictLines, withRunWarnings } from "./verdict.js";
export type { JudgedQuantity, Remedies, RunEvidence, Verdict, VerdictCheck, VerdictWarning } from "./verdict.js";
