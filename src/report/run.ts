/**
 * A run directory as the report reads it: the chains' draws files (CmdStan layout, see
 * io/cmdstan.ts), the run's summary.json when there is one, and the AIS trace (io/ais.ts)
 * of an annealed importance sampling run.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { DataError } from "../io/errors.js";
import { findDrawsFiles, readCmdStanCsv, type CmdStanCsv } from "../io/cmdstan.js";
import { AIS_TRACE_FILE, readAisTrace, type AisTrace } from "../io/ais.js";
import { readTextFile } from "../io/dataset.js";

/** The name of the run summary in a run directory. */
export const SUMMARY_FILE = "summary.json";

export interface RunData {
  /** The directory as given. */
  dir: string;
  /** One draws file per chain, in chain order (empty for an AIS run without draws). */
  chains: CmdStanCsv[];
  /** The columns shared by all chains (sampler columns, then variables). */
  columns: string[];
  /** summary.json, when present. */
  summary?: Record<string, unknown>;
  ais?: AisTrace;
}

/**
 * Reads a run directory. Throws DataError when it is missing or not a directory, holds no
 * draws files (draws_1.csv, ...) and no ais.json, or a file in it is malformed, or the chains'
 * columns differ.
 */
export function loadRun(dir: string): RunData {
  let st;
  try {
    st = statSync(dir);
  } catch {
    throw new DataError({ file: dir }, "no such directory");
  }
  if (!st.isDirectory()) throw new DataError({ file: dir }, "not a directory: give the run's output directory");
  const aisPath = join(dir, AIS_TRACE_FILE);
  const ais = existsSync(aisPath) ? readAisTrace(aisPath) : undefined;
  const hasDraws = readdirSync(dir).some((n) => /^draws_[1-9][0-9]*\.csv$/.test(n));
  // An AIS run may have no draws; otherwise findDrawsFiles says what is missing.
  const files = ais !== undefined && !hasDraws ? [] : findDrawsFiles(dir);
  const chains = files.map(readCmdStanCsv);
  const columns = chains.length > 0 ? chains[0].columns : [];
  for (const c of chains.slice(1)) {
    if (c.columns.length !== columns.length || c.columns.some((name, j) => name !== columns[j])) {
      throw new DataError({ file: c.path }, `its columns differ from those of ${basename(chains[0].path)}: the files are not chains of one run`);
    }
  }
  for (const c of chains) {
    if (c.draws === 0) throw new DataError({ file: c.path }, "no draws: the file has a header but no rows after burn-in");
  }
  const run: RunData = { dir, chains, columns };
  const summaryPath = join(dir, SUMMARY_FILE);
  if (existsSync(summaryPath)) run.summary = readSummary(summaryPath);
  if (ais !== undefined) run.ais = ais;
  return run;
}

function readSummary(path: string): Record<string, unknown> {
  const text = readTextFile(path);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new DataError({ file: path }, `not valid JSON: ${(e as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new DataError({ file: path }, "must hold a JSON object");
  return value as Record<string, unknown>;
}
