/**
 * The trace of an annealed importance sampling run, `ais.json` in its output directory, which
 * `gpmcmc report` draws as log Z against time. The AIS command writes it with `writeAisTrace`
 * (or `OutputDir.writeJson(AIS_TRACE_FILE, trace)` after `checkAisTrace`):
 *
 *   {
 *     "logZ": -105.43,                 the final estimate of log Z (log marginal likelihood)
 *     "standardError": 0.12,           its standard error
 *     "runs": [                        independent annealing runs, each a sequence of points
 *       { "run": 1,
 *         "points": [ { "seconds": 0, "temperature": 0, "logWeight": 0 },
 *                     { "seconds": 0.8, "temperature": 0.01, "logWeight": -3.2 }, ...,
 *                     { "seconds": 61.5, "temperature": 1, "logWeight": -105.6 } ] },
 *       ...
 *     ],
 *     "references": [ { "label": "EP", "logZ": -105.9 } ]      optional horizontal lines
 *   }
 *
 * A point says where a run stood after `seconds` of its own computing time: at inverse
 * temperature `temperature` (beta in [0, 1] of the annealed target L_beta, note eq. 4) with
 * accumulated log importance weight `logWeight` = sum over the steps so far of
 * (beta_k - beta_{k-1}) log L(f_{k-1}). It is the log of the run's unbiased estimate of
 * Z_beta / Z_0, so at temperature 1 it is the run's estimate of log Z (Z_0 = 1 when the path
 * starts at the prior). A run may stand for one annealed particle or for a group whose
 * weights are averaged; `logZ` and `standardError` are the run's overall result, however the
 * runs were combined. Within a run, seconds and temperature never decrease.
 */
import { DataError } from "./errors.js";
import { readTextFile } from "./dataset.js";
import { writeJsonAtomic } from "./atomic.js";

/** The name of the AIS trace in a run directory. */
export const AIS_TRACE_FILE = "ais.json";

export interface AisTracePoint {
  /** Computing time of the run so far, in seconds (>= 0). */
  seconds: number;
  /** Inverse temperature beta in [0, 1]. */
  temperature: number;
  /** Accumulated log importance weight at this temperature (log Z estimate at 1). */
  logWeight: number;
}

export interface AisRunTrace {
  /** 1-based run number. */
  run: number;
  points: AisTracePoint[];
}

/** A value of log Z to draw beside the estimate, e.g. from EP or corrected EP. */
export interface AisReference {
  label: string;
  logZ: number;
  standardError?: number;
}

export interface AisTrace {
  logZ: number;
  standardError: number;
  runs: AisRunTrace[];
  references?: AisReference[];
}

/** Reads and checks an AIS trace file. Throws DataError naming the file and the bad field. */
export function readAisTrace(path: string): AisTrace {
  return parseAisTrace(readTextFile(path), path);
}

/** Parses and checks AIS trace text; `path` names it in messages. */
export function parseAisTrace(text: string, path: string): AisTrace {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const at = /position (\d+)/.exec(message);
    if (at !== null) {
      const before = text.slice(0, Number(at[1]));
      const line = before.split("\n").length;
      const column = Number(at[1]) - before.lastIndexOf("\n");
      throw new DataError({ file: path, line, column }, `not valid JSON: ${message.replace(/\s*\(line \d+ column \d+\)$/, "")}`);
    }
    throw new DataError({ file: path }, `not valid JSON: ${message}`);
  }
  return checkAisTrace(value, path);
}

/**
 * Checks that `value` is an AIS trace as described at the top of this file and returns it
 * typed (a copy holding only the known fields). Throws DataError naming `path` and the field.
 */
export function checkAisTrace(value: unknown, path: string): AisTrace {
  const fail = (field: string, what: string, got?: unknown): never => {
    throw new DataError({ file: path }, `${field}: ${what}${got === undefined ? "" : `, got ${shown(got)}`}`);
  };
  if (!isObject(value)) fail("the file", "must hold a JSON object with logZ, standardError and runs", value);
  const v = value as Record<string, unknown>;
  const logZ = finite(v.logZ, "logZ", fail);
  const standardError = finite(v.standardError, "standardError", fail);
  if (standardError < 0) fail("standardError", "must be >= 0", v.standardError);
  if (!Array.isArray(v.runs) || v.runs.length === 0) fail("runs", "must be a non-empty array of runs", v.runs);
  const runs: AisRunTrace[] = [];
  const seen = new Set<number>();
  (v.runs as unknown[]).forEach((r, i) => {
    const at = `runs[${i}]`;
    if (!isObject(r)) fail(at, "must be an object with run and points", r);
    const ro = r as Record<string, unknown>;
    if (typeof ro.run !== "number" || !Number.isInteger(ro.run) || ro.run < 1) fail(`${at}.run`, "must be a whole number >= 1", ro.run);
    const run = ro.run as number;
    if (seen.has(run)) fail(`${at}.run`, `run ${run} appears more than once`);
    seen.add(run);
    if (!Array.isArray(ro.points) || ro.points.length === 0) fail(`${at}.points`, "must be a non-empty array of points", ro.points);
    const points: AisTracePoint[] = [];
    (ro.points as unknown[]).forEach((p, k) => {
      const pat = `${at}.points[${k}]`;
      if (!isObject(p)) fail(pat, "must be an object with seconds, temperature and logWeight", p);
      const po = p as Record<string, unknown>;
      const seconds = finite(po.seconds, `${pat}.seconds`, fail);
      if (seconds < 0) fail(`${pat}.seconds`, "must be >= 0", po.seconds);
      const temperature = finite(po.temperature, `${pat}.temperature`, fail);
      if (temperature < 0 || temperature > 1) fail(`${pat}.temperature`, "must be in [0, 1]", po.temperature);
      const logWeight = finite(po.logWeight, `${pat}.logWeight`, fail);
      const prev = points[points.length - 1];
      if (prev !== undefined && seconds < prev.seconds) fail(`${pat}.seconds`, `is less than the point before (${prev.seconds}): time must not decrease within a run`, po.seconds);
      if (prev !== undefined && temperature < prev.temperature) {
        fail(`${pat}.temperature`, `is less than the point before (${prev.temperature}): temperature must not decrease within a run`, po.temperature);
      }
      points.push({ seconds, temperature, logWeight });
    });
    runs.push({ run, points });
  });
  const trace: AisTrace = { logZ, standardError, runs };
  if (v.references !== undefined) {
    if (!Array.isArray(v.references)) fail("references", "must be an array", v.references);
    trace.references = (v.references as unknown[]).map((r, i) => {
      const at = `references[${i}]`;
      if (!isObject(r)) fail(at, "must be an object with label and logZ", r);
      const ro = r as Record<string, unknown>;
      if (typeof ro.label !== "string" || ro.label.trim() === "") fail(`${at}.label`, "must be a non-empty string", ro.label);
      const ref: AisReference = { label: ro.label as string, logZ: finite(ro.logZ, `${at}.logZ`, fail) };
      if (ro.standardError !== undefined) {
        ref.standardError = finite(ro.standardError, `${at}.standardError`, fail);
        if (ref.standardError < 0) fail(`${at}.standardError`, "must be >= 0", ro.standardError);
      }
      return ref;
    });
  }
  return trace;
}

/** Checks `trace` and writes it atomically as indented JSON to `path`. */
export function writeAisTrace(path: string, trace: AisTrace): void {
  writeJsonAtomic(path, checkAisTrace(trace, path));
}

function isObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function finite(v: unknown, field: string, fail: (field: string, what: string, got?: unknown) => never): number {
  if (v === undefined) return fail(field, "is missing (a finite number)");
  if (typeof v !== "number" || !Number.isFinite(v)) return fail(field, "must be a finite number", v);
  return v;
}

function shown(v: unknown): string {
  if (v === undefined) return "nothing";
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 40 ? s.slice(0, 37) + "..." : s;
}
