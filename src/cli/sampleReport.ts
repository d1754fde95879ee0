/** What the sample command's runs (the GP runs, fixed and sampled hyperparameters, and the --model runs) print and record alike. */
import { verdictFigures, verdictLines, type Remedies, type Verdict } from "../diagnostics/verdict.js";
import type { OutputDir } from "../io/atomic.js";
import { modelInfo, type ModelName } from "../models/registry.js";
import type { StopFlag } from "../parallel/pool.js";
import type { LatentGpRunSpec } from "../run/runSpec.js";
import type { SummariseOptions } from "../run/summary.js";
import type { AdaptOptions } from "../samplers/chain/adaptation.js";
import { latentSamplerInfo } from "../samplers/registry.js";

/** A figure for the text summary: whole above 100, else `digits` significant digits; "n/a" when absent. */
export function fmt(x: number | null, digits = 3): string {
  if (x === null || !Number.isFinite(x)) return "n/a";
  return Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(digits);
}

/**
 * The acceptance figure of a summary: for NUTS (a run that counts trees at the largest depth) the
 * mean accept_stat, what Stan reports and the adaptation aims at (a multinomial NUTS transition
 * nearly always moves, so the fraction that moved says little); for the others the fraction of
 * transitions accepted.
 */
export function acceptanceWords(r: { acceptanceRate: number; meanAcceptStat: number; treeDepthSaturations?: number }): string {
  return r.treeDepthSaturations !== undefined ? `mean accept_stat ${fmt(r.meanAcceptStat)}` : `acceptance rate ${fmt(r.acceptanceRate)}`;
}

/**
 * The lines a sampling command's summary gives its verdict in: the figures it is drawn from (bulk
 * and tail ESS, rank-normalised R-hat, over the variables) and the verdict itself, in the words
 * of `gpmcmc diagnose` (diagnostics/verdict.ts). None for a summary.json written before runs
 * were judged (a finished run resumed).
 */
export function verdictSummary(r: { verdict?: Verdict }): { figures: string[]; verdict: string[] } {
  if (r.verdict === undefined) return { figures: [], verdict: [] };
  return { figures: [`bulk and tail ESS, rank-normalised R-hat: ${verdictFigures(r.verdict)}`], verdict: verdictLines(r.verdict) };
}

/** What a --model run's sampler offers against a problem its verdict names: the options its registry entry takes. */
export function modelRemedies(model: ModelName, sampler: string, given: { targetAcceptance?: number }, adapt: AdaptOptions | boolean | undefined): Remedies {
  const fields = modelInfo[model].samplerFields(sampler);
  return {
    ...(adapt && fields.includes("targetAcceptance") ? { targetAcceptance: { option: "--target-acceptance", value: given.targetAcceptance ?? (typeof adapt === "object" ? adapt.targetAcceptance ?? null : null) } } : {}),
    ...(fields.includes("stepSize") ? { stepSize: "--step-size" } : {}),
  };
}

/** The latent sampler's largest tree depth, and what its options offer against what a verdict may name. */
export function latentVerdictOptions(spec: LatentGpRunSpec): Pick<SummariseOptions, "maxTreeDepth" | "remedies"> {
  const s = spec.sampler;
  const depth = s.sampler === "laplace-nuts" ? s.maxTreeDepth : undefined;
  return {
    maxTreeDepth: depth,
    remedies: {
      ...(spec.adapt ? { targetAcceptance: { option: "--target-acceptance", value: spec.adapt.targetAcceptance ?? null } } : {}),
      ...(latentSamplerInfo[s.sampler].tunable === "stepSize" ? { stepSize: "--step-size" } : {}),
      ...(depth !== undefined ? { maxTreeDepth: { option: "--max-tree-depth", value: depth } } : {}),
    },
  };
}

/** The training data as summary.json records it, so that `gpmcmc predict` can check and rebuild it. */
export function dataRecord(data: { path: string; n: number; d: number; inputNames: string[] }, sha256: string, exposureColumn?: string) {
  return { file: data.path, n: data.n, d: data.d, sha256, inputNames: data.inputNames, ...(exposureColumn !== undefined ? { exposureColumn } : {}) };
}

/** Writes summary.json and closes the directory (marked complete or not), then prints the report. */
export function publishReport<R extends { complete: boolean }>(report: R, out: OutputDir | undefined, json: boolean, format: (r: R) => string, print: (text: string) => void): R {
  if (out) {
    out.writeJson("summary.json", report);
    out.finish(report.complete);
  }
  print(json ? JSON.stringify(report) + "\n" : format(report));
  return report;
}

/**
 * Ctrl-C for a run: the first SIGINT sets `stop` (each chain ends at its next transition and its
 * draws so far are written, marked incomplete), the second runs `onAbort` and exits at once with
 * 130 (the output directory stays marked incomplete). With `sigterm` (the message to print),
 * SIGTERM stops the run as the first SIGINT does; `sigint` is the first SIGINT's message (default:
 * a sample run's). Returns what removes the handlers.
 */
export function handleInterrupts(stop: StopFlag, stderr: (text: string) => void, options: { onAbort?: () => void; sigterm?: string; sigint?: string } = {}): () => void {
  const onSigint = () => {
    if (stop.requested) {
      stderr("gpmcmc: aborted; the output directory is marked incomplete\n");
      options.onAbort?.();
      process.exit(130);
    }
    stop.request();
    stderr(options.sigint ?? "gpmcmc: stopping: the draws so far will be kept (Ctrl-C again to abort)\n");
  };
  const onTerm = () => {
    stop.request();
    stderr(options.sigterm ?? "");
  };
  process.on("SIGINT", onSigint);
  if (options.sigterm !== undefined) process.on("SIGTERM", onTerm);
  return () => {
    process.off("SIGINT", onSigint);
    if (options.sigterm !== undefined) process.off("SIGTERM", onTerm);
  };
}
