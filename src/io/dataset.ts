/**
 * Data sets: CSV with a header line; the response column (`y` by default) holds the labels or
 * targets, every other column is an input. Everything is checked before a number is used, and
 * the first problem is reported as a DataError naming the file, line and column.
 */
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { Matrix } from "../linalg/matrix.js";
import { likelihoodTraits, type BinaryCoding, type ResponseKind } from "../likelihoods/registry.js";
import { DataError, quoteCell } from "./errors.js";
import { readNumber } from "./numbers.js";

/** What the response holds: the likelihood registry's ResponseKind (likelihoods/registry.ts says each). */
export type LabelKind = ResponseKind;
export type { BinaryCoding };

export interface ReadDatasetOptions {
  /** Name of the response column (default "y"). */
  responseColumn?: string;
  /** What the response holds (default "real"); see LabelKind. */
  labels?: LabelKind;
  /** Coding of the returned binary labels (default "plusMinusOne"); only with labels "binary". */
  binaryCoding?: BinaryCoding;
  /** A file without the response column is read with `y` all NaN and `hasResponse` false (test inputs to predict at). */
  responseOptional?: boolean;
  /**
   * Checks the header's input columns (the response left out) before any row is read, so that a
   * file of another layout is refused for its columns, not for a cell that the layout explains.
   */
  checkColumns?: (inputNames: string[], headerLine: number) => void;
}

export interface Dataset {
  /** Inputs, n x d, column-major: row i is case i (line i + 2 of the file, blank lines aside). */
  X: Matrix;
  /** Responses, length n; binary labels in the requested coding. */
  y: Float64Array;
  /** Names of the input columns in file order (the response column left out). */
  inputNames: string[];
  /** Name of the response column. */
  responseName: string;
  n: number;
  d: number;
  /** The path as given. */
  path: string;
  /** False when the file had no response column (ReadDatasetOptions.responseOptional); y is then NaN. */
  hasResponse?: boolean;
}

/** The label kind a likelihood needs, from its entry in the likelihood registry (unknown names: "real"). */
export function labelKindFor(likelihood: string): LabelKind {
  return likelihoodTraits(likelihood)?.responses ?? "real";
}

/** Reads and checks a data set from a CSV file. Throws DataError on the first problem. */
export function readDataset(path: string, options: ReadDatasetOptions = {}): Dataset {
  return parseDataset(readTextFile(path), path, options);
}

/**
 * Reads a whole text file, turning file-system failures into one-line DataErrors; a file with a
 * control byte (binary: an executable, a compressed file) is one too, naming the byte and where
 * it is, so that no message echoes its bytes.
 */
export function readTextFile(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new DataError({ file: path }, fileSystemReason(e));
  }
  const at = firstBinaryByte(bytes);
  if (at >= 0) {
    const lineStart = bytes.lastIndexOf(0x0a, at) + 1;
    let line = 1;
    for (let i = bytes.indexOf(0x0a); i >= 0 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
    let column = 1; // in characters: UTF-8 continuation bytes (10xxxxxx) do not start one
    for (let i = lineStart; i < at; i++) if ((bytes[i]! & 0xc0) !== 0x80) column++;
    throw new DataError({ file: path, line, column }, `the file is not text (binary byte 0x${bytes[at]!.toString(16).padStart(2, "0")})`);
  }
  return bytes.toString("utf8");
}

/** The offset of the first control byte other than tab, line feed, vertical tab, form feed and carriage return; -1 if none. */
function firstBinaryByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if ((b < 0x20 && (b < 0x09 || b > 0x0d)) || b === 0x7f) return i;
  }
  return -1;
}

function fileSystemReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EISDIR":
      return "is a directory, not a file";
    case "EACCES":
    case "EPERM":
      return "cannot be read: permission denied";
    case "ENOTDIR":
      return "no such file (a part of the path is not a directory)";
    default:
      return `cannot be read: ${(e as Error).message}`;
  }
}

/** A parsed CSV record with the (1-based) line it ends on. */
interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/** Splits CSV text into records with csv-parse, mapping its errors to DataError. */
export function parseCsvRecords(text: string, file: string, extra: { comment?: string } = {}): CsvRecord[] {
  try {
    return parse(text, {
      bom: true,
      info: true,
      relax_column_count: true, // ragged rows are reported below, with the line and counts
      skip_empty_lines: true,
      trim: true,
      ...(extra.comment !== undefined ? { comment: extra.comment, comment_no_infix: true } : {}),
    }) as CsvRecord[];
  } catch (e) {
    const err = e as Error & { lines?: number; code?: string };
    const line = typeof err.lines === "number" && err.lines > 0 ? err.lines : undefined;
    const what =
      err.code === "CSV_QUOTE_NOT_CLOSED"
        ? 'a quoted cell (opened with ") is never closed'
        : err.code === "CSV_INVALID_CLOSING_QUOTE"
          ? "a quote ends in the middle of a cell"
          : err.message.replace(/^[A-Za-z ]+: /, "");
    throw new DataError({ file, line }, `malformed CSV: ${what}`);
  }
}

/** Checks a data set given as CSV text; `path` names it in messages. */
export function parseDataset(text: string, path: string, options: ReadDatasetOptions = {}): Dataset {
  const responseName = options.responseColumn ?? "y";
  const labels = options.labels ?? "real";
  const coding = options.binaryCoding ?? "plusMinusOne";
  if (text.replace(/^\uFEFF/, "").trim() === "") throw new DataError({ file: path }, "file is empty");

  const records = parseCsvRecords(text, path);
  const header = records[0].record;
  const headerLine = records[0].info.lines;
  if (header.every((h) => readNumber(h).kind === "number")) {
    throw new DataError(
      { file: path, line: headerLine },
      `no header: the first line looks like data; the file needs a header line naming the columns (the response ${quoteCell(responseName)} and the inputs)`,
    );
  }
  checkHeader(header, path, headerLine);

  const yCol = header.indexOf(responseName);
  if (yCol < 0 && options.responseOptional) return parseInputsOnly(records, header, path, responseName);
  if (yCol < 0) {
    throw new DataError({ file: path, line: headerLine }, `no response column ${quoteCell(responseName)} in the header (columns: ${listNames(header)})`);
  }
  if (header.length === 1) {
    throw new DataError({ file: path, line: headerLine }, `no input columns: the header has only ${quoteCell(responseName)}`);
  }
  options.checkColumns?.(header.filter((_, j) => j !== yCol), headerLine);
  const n = records.length - 1;
  if (n === 0) throw new DataError({ file: path, line: headerLine }, "header only: no data rows follow it");

  const d = header.length - 1;
  const inputCols: number[] = [];
  for (let j = 0; j < header.length; j++) if (j !== yCol) inputCols.push(j);
  const X = new Matrix(n, d);
  const y = new Float64Array(n);
  const labelCheck = makeLabelCheck(labels, coding, path, yCol, responseName);

  for (let i = 0; i < n; i++) {
    const { record, info } = records[i + 1];
    const line = info.lines;
    if (record.length !== header.length) {
      throw new DataError(
        { file: path, line },
        `row has ${record.length} ${record.length === 1 ? "cell" : "cells"}, the header has ${header.length}`,
      );
    }
    for (let k = 0; k < d; k++) {
      const j = inputCols[k];
      X.data[i + k * n] = numericCell(record[j], path, line, j, header[j]);
    }
    y[i] = labelCheck(numericCell(record[yCol], path, line, yCol, responseName), record[yCol], line);
  }
  if (labels === "binary") recode(y, coding);
  return { X, y, inputNames: inputCols.map((j) => header[j]), responseName, n, d, path };
}

/** A data set whose file has no response column: every column is an input, y is NaN. */
function parseInputsOnly(records: CsvRecord[], header: string[], path: string, responseName: string): Dataset {
  const headerLine = records[0].info.lines;
  const n = records.length - 1;
  if (n === 0) throw new DataError({ file: path, line: headerLine }, "header only: no data rows follow it");
  const d = header.length;
  const X = new Matrix(n, d);
  for (let i = 0; i < n; i++) {
    const { record, info } = records[i + 1];
    if (record.length !== d) throw new DataError({ file: path, line: info.lines }, `row has ${record.length} ${record.length === 1 ? "cell" : "cells"}, the header has ${d}`);
    for (let j = 0; j < d; j++) X.data[i + j * n] = numericCell(record[j], path, info.lines, j, header[j]);
  }
  return { X, y: new Float64Array(n).fill(NaN), inputNames: [...header], responseName, n, d, path, hasResponse: false };
}

/**
 * Takes the input column `name` out of a data set (e.g. a Poisson model's exposure): the data set
 * without it, and its values by case. Undefined when the data have no such input column.
 */
export function takeInputColumn(data: Dataset, name: string): { data: Dataset; values: Float64Array } | undefined {
  const k = data.inputNames.indexOf(name);
  if (k < 0) return undefined;
  const n = data.n;
  const X = new Matrix(n, data.d - 1);
  X.data.set(data.X.data.subarray(0, k * n), 0);
  X.data.set(data.X.data.subarray((k + 1) * n), k * n);
  const values = data.X.data.slice(k * n, (k + 1) * n);
  return { data: { ...data, X, inputNames: data.inputNames.filter((_, j) => j !== k), d: data.d - 1 }, values };
}

function checkHeader(header: string[], file: string, line: number): void {
  const seen = new Map<string, number>();
  for (let j = 0; j < header.length; j++) {
    const name = header[j];
    if (name === "") throw new DataError({ file, line, column: j + 1 }, `column ${j + 1} of the header has no name`);
    const first = seen.get(name);
    if (first !== undefined) {
      throw new DataError({ file, line, column: j + 1, columnName: name }, `column name ${quoteCell(name)} is repeated (first in column ${first + 1})`);
    }
    seen.set(name, j);
  }
}

function listNames(names: string[]): string {
  const shown = names.slice(0, 8).map((s) => quoteCell(s, 20));
  return names.length > 8 ? `${shown.join(", ")}, ... (${names.length} in all)` : shown.join(", ");
}

/** A finite number from a cell, or a DataError naming line, column and what the cell holds. */
function numericCell(cell: string, file: string, line: number, j: number, name: string): number {
  const t = readNumber(cell);
  if (t.kind === "number") return t.value;
  const where = { file, line, column: j + 1, columnName: name };
  const col = `in column ${quoteCell(name)}`;
  switch (t.kind) {
    case "empty":
      throw new DataError(where, `cell ${col} is empty (missing values are not supported)`);
    case "nan":
      throw new DataError(where, `cell ${quoteCell(cell)} ${col} is NaN (missing values are not supported)`);
    case "infinite":
      throw new DataError(where, `cell ${quoteCell(cell)} ${col} is not finite`);
    default:
      throw new DataError(where, `cell ${quoteCell(cell)} ${col} is not a number`);
  }
}

/**
 * Returns a checker for response values of the given kind. For binary labels it remembers
 * the first row that fixed the coding (-1 means -1/+1, 0 means 0/1), so a file mixing the two
 * is reported with both lines.
 */
function makeLabelCheck(
  kind: LabelKind,
  coding: BinaryCoding,
  file: string,
  yCol: number,
  name: string,
): (v: number, cell: string, line: number) => number {
  const where = (line: number) => ({ file, line, column: yCol + 1, columnName: name });
  const col = `in column ${quoteCell(name)}`;
  switch (kind) {
    case "real":
      return (v) => v;
    case "count":
      return (v, cell, line) => {
        if (!Number.isInteger(v)) throw new DataError(where(line), `count ${quoteCell(cell)} ${col} is not an integer (counts are 0, 1, 2, ...)`);
        if (v < 0) throw new DataError(where(line), `count ${quoteCell(cell)} ${col} is negative (counts are 0, 1, 2, ...)`);
        return v;
      };
    case "ordinal":
      return (v, cell, line) => {
        if (!Number.isInteger(v)) throw new DataError(where(line), `ordinal label ${quoteCell(cell)} ${col} is not an integer category`);
        return v;
      };
    case "binary": {
      let codingLine = 0;
      let codingValue = 0; // -1 or 0 once seen
      return (v, cell, line) => {
        if (v !== 1 && v !== -1 && v !== 0) {
          throw new DataError(where(line), `label ${quoteCell(cell)} ${col} is not a class label (use -1/+1 or 0/1)`);
        }
        if (v !== 1) {
          if (codingLine === 0) {
            codingLine = line;
            codingValue = v;
          } else if (v !== codingValue) {
            throw new DataError(
              where(line),
              `label ${quoteCell(cell)} ${col} mixes codings: line ${codingLine} has ${codingValue} (use -1/+1 or 0/1, not both)`,
            );
          }
        }
        return v === 0 ? -1 : v; // -1/+1 internally; recoded at the end if 0/1 is asked for
      };
    }
  }
}

function recode(y: Float64Array, coding: BinaryCoding): void {
  if (coding === "plusMinusOne") return;
  for (let i = 0; i < y.length; i++) y[i] = y[i] > 0 ? 1 : 0;
}

/** Number of cases per label value, in ascending order of value (for summaries and checks). */
export function labelCounts(y: ArrayLike<number>): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < y.length; i++) m.set(y[i], (m.get(y[i]) ?? 0) + 1);
  return new Map([...m.entries()].sort((a, b) => a[0] - b[0]));
}

/**
 * The warning for binary labels all of one class: the model is still defined (its posterior is
 * the prior pulled towards that class), but the data hold no case of the other class.
 */
export function oneClassWarning(data: Pick<Dataset, "y" | "n" | "path" | "responseName">, likelihood: string): string | undefined {
  if (labelKindFor(likelihood) !== "binary" || data.n === 0 || !data.y.every((v) => v === data.y[0])) return undefined;
  const label = data.y[0] === 1 ? "+1" : "-1 (0 in a 0/1 file)";
  return `${data.path}: all ${data.n} labels in column ${JSON.stringify(data.responseName)} are ${label}: the data hold one class only (the model is still defined, but nothing in the data speaks for the other class)`;
}
