/**
 * Typed errors and input checks shared by the diagnostics.
 *
 * Structural problems (no chains, chains of different lengths, too few draws or chains, a
 * probability outside [0, 1]) are errors. Non-finite draws are not: a diagnostic of a quantity
 * with NaN or infinite draws is NaN, as in the posterior R package and ArviZ, so a summary of
 * many variables still reports the others.
 */

/** Why an input was refused. */
export type DiagnosticsInputProblem =
  | "no-chains"
  | "not-float64"
  | "ragged-chains"
  | "too-few-draws"
  | "too-few-chains"
  | "bad-layout"
  | "bad-argument";

/** Raised when the draws given to a diagnostic do not have the shape it needs. */
export class DiagnosticsInputError extends Error {
  readonly problem: DiagnosticsInputProblem;
  constructor(problem: DiagnosticsInputProblem, message: string) {
    super(message);
    this.name = "DiagnosticsInputError";
    this.problem = problem;
  }
}

/** The fewest draws per chain any diagnostic here accepts (ArviZ's minimum too). */
export const MIN_DRAWS = 4;

/**
 * Checks that `chains` is a non-empty array of Float64Arrays of one length, with at least
 * `minChains` chains and `minDraws` draws each; returns the number of draws per chain.
 */
export function checkChains(chains: readonly Float64Array[], what: string, minChains = 1, minDraws = MIN_DRAWS): number {
  if (!Array.isArray(chains) || chains.length === 0) {
    throw new DiagnosticsInputError("no-chains", `${what}: needs an array of at least one chain (Float64Array), got ${describe(chains)}`);
  }
  for (let c = 0; c < chains.length; c++) {
    if (!(chains[c] instanceof Float64Array)) {
      throw new DiagnosticsInputError("not-float64", `${what}: chain ${c} is ${describe(chains[c])}, not a Float64Array`);
    }
  }
  const n = chains[0].length;
  for (let c = 1; c < chains.length; c++) {
    if (chains[c].length !== n) {
      throw new DiagnosticsInputError(
        "ragged-chains",
        `${what}: chains must have the same length; chain 0 has ${n} draws, chain ${c} has ${chains[c].length}`,
      );
    }
  }
  if (chains.length < minChains) {
    throw new DiagnosticsInputError("too-few-chains", `${what}: needs at least ${minChains} chains, got ${chains.length}`);
  }
  if (n < minDraws) {
    throw new DiagnosticsInputError("too-few-draws", `${what}: needs at least ${minDraws} draws per chain, got ${n}`);
  }
  return n;
}

/** Checks one sequence (a single chain) and returns its length. */
export function checkSequence(x: Float64Array, what: string, minDraws = MIN_DRAWS): number {
  if (!(x instanceof Float64Array)) {
    throw new DiagnosticsInputError("not-float64", `${what}: needs a Float64Array, got ${describe(x)}`);
  }
  if (x.length < minDraws) {
    throw new DiagnosticsInputError("too-few-draws", `${what}: needs at least ${minDraws} draws, got ${x.length}`);
  }
  return x.length;
}

/** Checks a probability argument. */
export function checkProbability(p: number, what: string): void {
  if (!(p >= 0 && p <= 1)) throw new DiagnosticsInputError("bad-argument", `${what}: probability must be in [0, 1], got ${p}`);
}

/** True when every value of every chain is finite. */
export function allFinite(chains: readonly Float64Array[]): boolean {
  for (const x of chains) for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return false;
  return true;
}

/** True when all values of all chains are equal (a diagnostic of a constant is undefined). */
export function allEqual(chains: readonly Float64Array[]): boolean {
  const v = chains[0][0];
  for (const x of chains) for (let i = 0; i < x.length; i++) if (x[i] !== v) return false;
  return true;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return `an array of length ${v.length}`;
  if (typeof v === "object") return `a ${(v as object).constructor?.name ?? "object"}`;
  return `${typeof v} ${String(v)}`;
}
