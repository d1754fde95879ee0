/**
 * Reading draws files in CmdStan's layout back (ours, or CmdStan's own; see cmdstan.ts): the
 * configuration comments, the adaptation block, the timing block and the draws, with saved
 * burn-in rows set apart; and the draws files of an output directory.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { drawsFileName } from "./cmdstanWriter.js";
import { parseCsvRecords, readTextFile } from "./dataset.js";
import { DataError, quoteCell } from "./errors.js";
import { readNumber } from "./numbers.js";

/** A draws file read back: ours or CmdStan's own. */
export interface CmdStanCsv {
  path: string;
  /** `key = value` comments above the header ("(Default)" dropped); the first of repeated keys. */
  config: Record<string, string>;
  /** All comment lines, without the leading "#". */
  comments: string[];
  columns: string[];
  /** Columns whose names end in "__" (lp__ included), in file order. */
  samplerColumns: string[];
  /** The other columns (the model's variables), in file order. */
  variables: string[];
  /** Number of post-burn-in rows. */
  draws: number;
  /** One array per column (aligned with `columns`), post-burn-in rows. */
  values: Float64Array[];
  /** Saved burn-in rows (CmdStan's save_warmup = 1), one array per column; usually empty. */
  warmupValues: Float64Array[];
  stepSize?: number;
  /** Diagonal, or dense row-major, inverse mass matrix from the adaptation block. */
  inverseMetric?: number[];
  timing?: { warmupSeconds?: number; samplingSeconds?: number; totalSeconds?: number };
  /** True when the file says the run stopped early. */
  incomplete: boolean;
}

/** The values of one column. Throws when there is no such column. */
export function columnValues(csv: CmdStanCsv, name: string): Float64Array {
  const j = csv.columns.indexOf(name);
  if (j < 0) throw new DataError({ file: csv.path }, `no column ${quoteCell(name)}`);
  return csv.values[j];
}

/** Reads a draws file. Throws DataError naming the line and column of the first problem. */
export function readCmdStanCsv(path: string): CmdStanCsv {
  return parseCmdStanCsv(readTextFile(path), path);
}

/** Parses draws-file text; `path` names it in messages. */
export function parseCmdStanCsv(text: string, path: string): CmdStanCsv {
  if (text.replace(/^\uFEFF/, "").trim() === "") throw new DataError({ file: path }, "file is empty");
  // Comments with their line numbers (csv-parse skips them, so they are gathered here).
  const comments: { line: number; text: string }[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].replace(/^\uFEFF/, "");
    if (l.startsWith("#")) comments.push({ line: i + 1, text: l.slice(1) });
  }
  // a JSON file (a summary, an approximation) given by mistake: say what it is, not where its quotes break the CSV
  const first = lines.findIndex((l) => l.trim() !== "" && !l.replace(/^\uFEFF/, "").startsWith("#"));
  if (first >= 0 && /^\s*[{[]/.test(lines[first]!.replace(/^\uFEFF/, ""))) {
    throw new DataError({ file: path, line: first + 1 }, "is JSON, not a CmdStan draws file (a CSV file with an lp__ column)");
  }
  const records = parseCsvRecords(text, path, { comment: "#" });
  if (records.length === 0) throw new DataError({ file: path }, "no header line: the file has only comments");
  const header = records[0].record;
  const headerLine = records[0].info.lines;
  const seen = new Map<string, number>();
  for (let j = 0; j < header.length; j++) {
    const name = header[j];
    if (name === "") throw new DataError({ file: path, line: headerLine, column: j + 1 }, `column ${j + 1} of the header has no name`);
    const first = seen.get(name);
    if (first !== undefined) {
      throw new DataError({ file: path, line: headerLine, column: j + 1, columnName: name }, `column name ${quoteCell(name)} is repeated (first in column ${first + 1})`);
    }
    seen.set(name, j);
  }
  if (!seen.has("lp__")) {
    throw new DataError({ file: path, line: headerLine }, "no lp__ column: not a CmdStan draws file");
  }

  const config: Record<string, string> = {};
  let stepSize: number | undefined;
  let inverseMetric: number[] | undefined;
  const timing: { warmupSeconds?: number; samplingSeconds?: number; totalSeconds?: number } = {};
  let metricRowsLeft = 0; // rows of the inverse mass matrix still to read; -1: dense, count unknown
  for (const c of comments) {
    const t = c.text.replace(/\(Default\)\s*$/, "").trim();
    if (metricRowsLeft !== 0) {
      const row = t.split(",").map((s) => readNumber(s));
      if (row.some((r) => r.kind !== "number")) {
        throw new DataError({ file: path, line: c.line }, `inverse mass matrix row ${quoteCell(t)} is not a list of numbers`);
      }
      inverseMetric ??= [];
      for (const r of row) inverseMetric.push((r as { value: number }).value);
      // a dense matrix has as many rows as its first row has entries
      metricRowsLeft = metricRowsLeft < 0 ? row.length - 1 : metricRowsLeft - 1;
      continue;
    }
    if (/^Diagonal elements of inverse mass matrix:?$/.test(t)) {
      metricRowsLeft = 1;
      continue;
    }
    if (/^Elements of inverse mass matrix:?$/.test(t)) {
      metricRowsLeft = -1;
      continue;
    }
    const time = /^(?:Elapsed Time:\s*)?(\S+)\s+seconds\s+\((Warm-up|Sampling|Total)\)$/.exec(t);
    if (time) {
      const r = readNumber(time[1]);
      if (r.kind !== "number") throw new DataError({ file: path, line: c.line }, `elapsed time ${quoteCell(time[1])} is not a number`);
      if (time[2] === "Warm-up") timing.warmupSeconds = r.value;
      else if (time[2] === "Sampling") timing.samplingSeconds = r.value;
      else timing.totalSeconds = r.value;
      continue;
    }
    const kv = /^([^=]+?)\s*=\s*(.*)$/.exec(t);
    if (!kv) continue;
    const [, key, value] = kv;
    if (key === "Step size") {
      const r = readNumber(value);
      if (r.kind !== "number") throw new DataError({ file: path, line: c.line }, `step size ${quoteCell(value)} is not a number`);
      stepSize = r.value;
    } else if (c.line < headerLine || key === "incomplete" || key === "completed_draws") {
      if (!(key in config)) config[key] = value.trim();
    }
  }

  const m = header.length;
  const nRows = records.length - 1;
  const all = header.map(() => new Float64Array(nRows));
  for (let t = 0; t < nRows; t++) {
    const { record, info } = records[t + 1];
    if (record.length !== m) {
      throw new DataError({ file: path, line: info.lines }, `row has ${record.length} ${record.length === 1 ? "cell" : "cells"}, the header has ${m}`);
    }
    for (let j = 0; j < m; j++) {
      const r = readNumber(record[j]);
      let v: number;
      if (r.kind === "number" || r.kind === "infinite") v = r.value;
      else if (r.kind === "nan") v = NaN;
      else {
        const what = r.kind === "empty" ? `cell in column ${quoteCell(header[j])} is empty` : `cell ${quoteCell(record[j])} in column ${quoteCell(header[j])} is not a number`;
        throw new DataError({ file: path, line: info.lines, column: j + 1, columnName: header[j] }, what);
      }
      all[j][t] = v;
    }
  }

  // Saved burn-in rows come first (CmdStan writes ceil(num_warmup / thin) of them).
  let nWarm = 0;
  const save = config["save_warmup"];
  if (save === "1" || save === "true") {
    const w = Number(config["num_warmup"] ?? "0");
    const thin = Number(config["thin"] ?? "1");
    if (Number.isInteger(w) && w > 0 && Number.isInteger(thin) && thin > 0) nWarm = Math.min(nRows, Math.ceil(w / thin));
  }
  const warmupValues = all.map((a) => a.slice(0, nWarm));
  const values = nWarm === 0 ? all : all.map((a) => a.slice(nWarm));

  const samplerColumns = header.filter((h) => h.endsWith("__"));
  return {
    path,
    config,
    comments: comments.map((c) => c.text),
    columns: header,
    samplerColumns,
    variables: header.filter((h) => !h.endsWith("__")),
    draws: nRows - nWarm,
    values,
    warmupValues,
    stepSize,
    inverseMetric,
    timing: Object.keys(timing).length > 0 ? timing : undefined,
    incomplete: config["incomplete"] === "1",
  };
}

/**
 * The draws files of an output directory, `draws_1.csv, draws_2.csv, ...` in chain order.
 * Throws DataError when the directory cannot be read or holds none.
 */
export function findDrawsFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such directory" : code === "ENOTDIR" ? "not a directory" : `cannot be read: ${(e as Error).message}`;
    throw new DataError({ file: dir }, why);
  }
  const chains = names
    .map((n) => /^draws_([1-9][0-9]*)\.csv$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  if (chains.length === 0) throw new DataError({ file: dir }, "no draws files (draws_1.csv, draws_2.csv, ...) in this directory");
  return chains.map((k) => join(dir, drawsFileName(k)));
}
