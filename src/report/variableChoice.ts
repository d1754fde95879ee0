/**
 * Which variables a report shows, and the draws it shows of them: the options of a report, and
 * the default choice (lp__, the first model variables, then the highest R-hat).
 */
import { columnValues } from "../io/cmdstan.js";
import { rhat } from "../diagnostics/index.js";
import type { RunData } from "./run.js";

export interface ReportOptions {
  /** Columns to show (variables or sampler columns such as lp__); by default chosen as `chooseVariables` says. */
  variables?: string[];
  /** At most this many variables when they are chosen by default (default 8). */
  maxVariables?: number;
  /** Largest autocorrelation lag drawn (default 100, and at most draws - 1). */
  maxLag?: number;
  /** Points per chain in a trace plot; longer chains are thinned for drawing (default 1000). */
  maxTracePoints?: number;
  /** Page title (default "gpmcmc report: DIR"). */
  title?: string;
}

/** A requested variable that the draws do not have. */
export class UnknownVariableError extends Error {
  readonly variable: string;
  constructor(variable: string, available: string[]) {
    const shown = available.length > 12 ? [...available.slice(0, 6), "...", ...available.slice(-3)] : available;
    super(`no column ${JSON.stringify(variable)} in the draws (columns: ${shown.join(", ")})`);
    this.name = "UnknownVariableError";
    this.variable = variable;
  }
}

/** Default number of variables shown. */
export const DEFAULT_MAX_VARIABLES = 8;
/** How many of the first latent variables the default choice includes. */
const FIRST_VARIABLES = 3;

/** Why a variable is shown. */
export type ChoiceReason = "requested" | "log density" | "first" | "highest R-hat";

export interface VariableChoice {
  variables: string[];
  reasons: ChoiceReason[];
  /** R-hat of every model variable (not sampler columns), NaN where undefined; empty with < 4 draws. */
  rhatAll: Map<string, number>;
}

/** Draws per chain used by the diagnostics: the shortest chain's count (chains of an interrupted run may differ). */
export function commonDraws(run: RunData): number {
  return run.chains.length === 0 ? 0 : Math.min(...run.chains.map((c) => c.draws));
}

export function chainsOf(run: RunData, name: string, length?: number): Float64Array[] {
  return run.chains.map((c) => {
    const v = columnValues(c, name);
    return length === undefined ? v : v.subarray(0, length);
  });
}

/**
 * The variables a report shows: those requested, or else lp__, the first 3 model variables
 * and then those with the highest R-hat (undefined R-hat counts as highest: a stuck chain),
 * `maxVariables` in all. Throws UnknownVariableError for a requested name the draws lack.
 */
export function chooseVariables(run: RunData, options: ReportOptions = {}): VariableChoice {
  const n = commonDraws(run);
  const modelVariables = run.chains.length > 0 ? run.chains[0].variables : [];
  const rhatAll = new Map<string, number>();
  if (n >= 4) {
    for (const v of modelVariables) rhatAll.set(v, rhat(chainsOf(run, v, n)));
  }
  if (options.variables !== undefined) {
    const seen = new Set<string>();
    const variables: string[] = [];
    for (const v of options.variables) {
      if (!run.columns.includes(v)) throw new UnknownVariableError(v, run.columns);
      if (!seen.has(v)) variables.push(v);
      seen.add(v);
    }
    return { variables, reasons: variables.map(() => "requested"), rhatAll };
  }
  const max = Math.max(1, options.maxVariables ?? DEFAULT_MAX_VARIABLES);
  const variables: string[] = [];
  const reasons: ChoiceReason[] = [];
  const add = (v: string, why: ChoiceReason) => {
    if (variables.length < max && !variables.includes(v)) {
      variables.push(v);
      reasons.push(why);
    }
  };
  if (run.columns.includes("lp__")) add("lp__", "log density");
  for (const v of modelVariables.slice(0, FIRST_VARIABLES)) add(v, "first");
  const byRhat = [...rhatAll.entries()].sort((a, b) => worse(a[1], b[1]));
  for (const [v] of byRhat) add(v, "highest R-hat");
  for (const v of modelVariables) add(v, "first");
  return { variables, reasons, rhatAll };
}

/** Orders R-hat values worst first; NaN (undefined: constant or stuck chains) before all. */
export function worse(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
  if (Number.isNaN(b)) return 1;
  return b - a;
}
