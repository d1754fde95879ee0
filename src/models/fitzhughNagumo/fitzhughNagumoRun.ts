/**
 * The Fitzhugh-Nagumo model's run (Girolami & Calderhead 2011, Section 10) as the model registry
 * declares it: observations of V and R at times from 0 (a CSV file with the columns t, V, R, in
 * any order), its options' defaults (noise sd 0.5, prior N(0, 10^2), V(0), R(0) = -1, 1, the
 * search for the mode from the true (a, b, c)), the target with its posterior mode found by BFGS
 * (as in the paper, chains start there), and the parametric samplers but IWLS.
 */
import { parseCsvRecords, readTextFile } from "../../io/dataset.js";
import { DataError } from "../../io/errors.js";
import { readNumber } from "../../io/numbers.js";
import { denseMetricTarget, type DenseMetricTarget } from "../../targets/denseMetric.js";
import { parametricModelSampler, withDefaults, type ModelRun, type ParametricModelSamplerOptions } from "../modelRun.js";
import { FN_INITIAL_STATE, FN_TRUE_PARAMETERS } from "./equations.js";
import { posteriorMode, type PosteriorMode } from "./mode.js";
import { FN_DEFAULT_NOISE_SD, FN_DEFAULT_PRIOR_SD, fitzhughNagumoModel, type FitzhughNagumoData, type FitzhughNagumoModel } from "./model.js";

/** The model's options (`--noise-sd`, `--prior-sd`, `--initial-state`, `--start`). */
export interface FitzhughNagumoRunOptions {
  noiseSd: number;
  /** The sd tau of the N(0, tau^2) prior of a, b and c (c > 0). */
  priorSd: number;
  /** The known V(0), R(0) at t = 0. */
  initialState: number[];
  /** Where the search for the posterior mode starts (a, b, c). */
  start: number[];
}

export const FITZHUGH_NAGUMO_DEFAULTS: Readonly<FitzhughNagumoRunOptions> = { noiseSd: FN_DEFAULT_NOISE_SD, priorSd: FN_DEFAULT_PRIOR_SD, initialState: [...FN_INITIAL_STATE], start: [...FN_TRUE_PARAMETERS] };

/** The posterior, its mode, and where chains start (the mode's theta, the best point found where the search did not converge). */
export interface FitzhughNagumoTarget {
  readonly model: FitzhughNagumoModel;
  readonly target: DenseMetricTarget;
  readonly mode: PosteriorMode;
  readonly init: Float64Array;
}

/** Reads the t, V, R columns (in any order, other columns refused); times from 0, non-decreasing. */
export function readFitzhughNagumoData(path: string): FitzhughNagumoData {
  const records = parseCsvRecords(readTextFile(path), path);
  if (records.length === 0) throw new DataError({ file: path, line: 1 }, "empty file: expected a header t,V,R and one row per time");
  const header = records[0].record;
  const at: Record<string, number> = {};
  header.forEach((h, k) => {
    if (!["t", "V", "R"].includes(h)) throw new DataError({ file: path, line: records[0].info.lines, column: k + 1 }, `unexpected column ${JSON.stringify(h)}: the columns are t, V, R`);
    if (at[h] !== undefined) throw new DataError({ file: path, line: records[0].info.lines, column: k + 1 }, `column ${h} appears twice`);
    at[h] = k;
  });
  for (const name of ["t", "V", "R"]) if (at[name] === undefined) throw new DataError({ file: path, line: records[0].info.lines }, `no column ${name} in the header (expected t, V, R)`);
  const rows = records.slice(1);
  if (rows.length === 0) throw new DataError({ file: path, line: records[0].info.lines + 1 }, "no data rows after the header");
  const cols = { t: new Float64Array(rows.length), V: new Float64Array(rows.length), R: new Float64Array(rows.length) };
  rows.forEach((row, j) => {
    const line = row.info.lines;
    if (row.record.length !== header.length) throw new DataError({ file: path, line }, `${row.record.length} cells, expected ${header.length}`);
    for (const name of ["t", "V", "R"] as const) {
      const k = at[name];
      const tok = readNumber(row.record[k]);
      if (tok.kind !== "number") throw new DataError({ file: path, line, column: k + 1, columnName: name }, `${name} must be a finite number, got ${JSON.stringify(row.record[k])}`);
      cols[name][j] = tok.value;
    }
    const t = cols.t[j];
    if (t < 0) throw new DataError({ file: path, line, column: at.t + 1, columnName: "t" }, `time ${t} is before 0, where the initial state is given`);
    if (j > 0 && t < cols.t[j - 1]) throw new DataError({ file: path, line, column: at.t + 1, columnName: "t" }, `time ${t} is before the previous row's ${cols.t[j - 1]}: rows must be in time order`);
  });
  return { times: cols.t, v: cols.V, r: cols.R };
}

export const fitzhughNagumoRun: ModelRun<FitzhughNagumoData, FitzhughNagumoRunOptions, FitzhughNagumoTarget, ParametricModelSamplerOptions> = {
  defaults: FITZHUGH_NAGUMO_DEFAULTS,
  readData: readFitzhughNagumoData,
  buildTarget(data, options) {
    const { noiseSd, priorSd, initialState, start } = withDefaults(FITZHUGH_NAGUMO_DEFAULTS, options);
    const model = fitzhughNagumoModel(data, { noiseSd, priorSd, initialState: [initialState[0], initialState[1]] });
    const mode = posteriorMode(model, start);
    return { model, target: denseMetricTarget(model), mode, init: mode.theta };
  },
  sampler: (target, name, options) => parametricModelSampler(target.target, target.init, "fitzhugh-nagumo", name, options),
};
