/**
 * The comparison paper's convergence display (Filippone, Zhong & Girolami, sec. 4.1): the
 * classic R-hat is computed after 1000, 2000, 5000, 10000 and 20000 iterations; at each
 * checkpoint the median of R-hat across the data sets is put in one of four classes,
 *   R-hat < 1.1,  1.1 <= R-hat < 1.3,  1.3 <= R-hat < 2,  R-hat >= 2,
 * drawn as stacked boxes. The paper does not say how the R-hats of the many variables of one
 * data set are reduced to one number; `rhatConvergenceTable` takes the reduction as an option
 * (the maximum by default: a data set has converged when its worst variable has) and also
 * reports, per checkpoint, the fraction of variables with R-hat below 1.1.
 */
import { DrawsArray, variableChains } from "./draws.js";
import { DiagnosticsInputError, MIN_DRAWS } from "./errors.js";
import { rhatClassic, RhatClassicOptions } from "./rhat.js";

/** The paper's checkpoints (iterations after burn-in). */
export const PAPER_CHECKPOINTS: readonly number[] = [1000, 2000, 5000, 10000, 20000];

/** The class bounds of the paper's display. */
export const RHAT_CODE_BOUNDS: readonly number[] = [1.1, 1.3, 2];

/** The class of an R-hat value: 0 (< 1.1), 1 ([1.1, 1.3)), 2 ([1.3, 2)), 3 (>= 2, or NaN). */
export function rhatCode(r: number): 0 | 1 | 2 | 3 {
  if (r < RHAT_CODE_BOUNDS[0]) return 0;
  if (r < RHAT_CODE_BOUNDS[1]) return 1;
  if (r < RHAT_CODE_BOUNDS[2]) return 2;
  return 3;
}

/**
 * Classic R-hat of every variable using only the first c draws of each chain, for each
 * checkpoint c: result[k][v] for checkpoints[k]. Needs >= 2 chains.
 */
export function rhatAtCheckpoints(d: DrawsArray, checkpoints: readonly number[], options: RhatClassicOptions = {}): Float64Array[] {
  if (d.chains < 2) throw new DiagnosticsInputError("too-few-chains", `rhatAtCheckpoints: needs at least 2 chains, got ${d.chains}`);
  for (const c of checkpoints) {
    if (!(Number.isInteger(c) && c >= MIN_DRAWS && c <= d.draws)) {
      throw new DiagnosticsInputError("bad-argument", `rhatAtCheckpoints: checkpoint ${c} is outside ${MIN_DRAWS}..${d.draws} (draws per chain)`);
    }
  }
  return checkpoints.map((c) => {
    const out = new Float64Array(d.variables);
    const buffers = Array.from({ length: d.chains }, () => new Float64Array(c));
    for (let v = 0; v < d.variables; v++) out[v] = rhatClassic(variableChains(d, v, c, buffers), options);
    return out;
  });
}

/** Fraction of values below the threshold (NaN counts as not below). */
export function fractionBelow(values: ArrayLike<number>, threshold = RHAT_CODE_BOUNDS[0]): number {
  if (values.length === 0) return NaN;
  let k = 0;
  for (let i = 0; i < values.length; i++) if (values[i] < threshold) k++;
  return k / values.length;
}

/** Median (average of the two middle values for an even count; NaN sorts last and counts as large). */
export function medianOf(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN;
  const v = Float64Array.from(values).map((x) => (Number.isNaN(x) ? Infinity : x)).sort();
  const h = (v.length - 1) / 2;
  return (v[Math.floor(h)] + v[Math.ceil(h)]) / 2;
}

export interface ConvergenceTable {
  readonly checkpoints: readonly number[];
  /** rhat[s][k]: the reduced R-hat of data set s at checkpoint k. */
  readonly rhat: number[][];
  /** Median over data sets at each checkpoint. */
  readonly medianRhat: number[];
  /** rhatCode of the median at each checkpoint: the paper's display. */
  readonly codes: (0 | 1 | 2 | 3)[];
  /** Per checkpoint, the fraction of variables (over all data sets) with R-hat < 1.1. */
  readonly fractionConverged: number[];
}

/**
 * The paper's R-hat convergence codes for one method on several data sets (each a DrawsArray
 * of >= 2 chains), at the given checkpoints (default: the paper's, which need 20000 draws).
 */
export function rhatConvergenceTable(
  dataSets: readonly DrawsArray[],
  options: RhatClassicOptions & { checkpoints?: readonly number[]; reduce?: "max" | "median" } = {},
): ConvergenceTable {
  if (dataSets.length === 0) throw new DiagnosticsInputError("no-chains", "rhatConvergenceTable: no data sets given");
  const checkpoints = options.checkpoints ?? PAPER_CHECKPOINTS;
  const reduce = options.reduce ?? "max";
  if (reduce !== "max" && reduce !== "median") throw new DiagnosticsInputError("bad-argument", `rhatConvergenceTable: unknown reduce "${String(reduce)}"`);
  const below = checkpoints.map(() => 0);
  let variables = 0;
  const rhat = dataSets.map((d) => {
    const perCheckpoint = rhatAtCheckpoints(d, checkpoints, options);
    variables += d.variables;
    return perCheckpoint.map((r, k) => {
      below[k] += fractionBelow(r) * r.length;
      if (reduce === "median") return medianOf(r);
      let m = -Infinity;
      for (let i = 0; i < r.length; i++) m = Number.isNaN(r[i]) ? Infinity : Math.max(m, r[i]);
      return m;
    });
  });
  const medianRhat = checkpoints.map((_, k) => medianOf(rhat.map((row) => row[k])));
  return {
    checkpoints,
    rhat,
    medianRhat,
    codes: medianRhat.map(rhatCode),
    fractionConverged: below.map((b) => b / variables),
  };
}
