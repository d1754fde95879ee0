/**
 * Errors for bad input files and unusable output paths. Each carries what a user needs to fix
 * the problem, and its message is one line in the style of compilers: `file:line:column: what`.
 */
import { statSync } from "node:fs";
import { dirname } from "node:path";

/** Where in a file a problem is: 1-based line (the header is line 1) and 1-based column. */
export interface DataLocation {
  /** The path as the user gave it. */
  file: string;
  line?: number;
  column?: number;
  /** The column's name from the header, when there is one. */
  columnName?: string;
}

/** A data file that cannot be used: missing, unreadable, or with a bad header, row or cell. */
export class DataError extends Error {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly columnName?: string;
  /** What is wrong, without the location prefix. */
  readonly reason: string;

  constructor(where: DataLocation, reason: string) {
    super(`${formatLocation(where)}: ${oneLine(reason)}`);
    this.name = "DataError";
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
    this.columnName = where.columnName;
    this.reason = oneLine(reason);
  }
}

/** An output path that cannot be used (exists and is not ours, not a directory, not writable). */
export class OutputError extends Error {
  /** The path as the user gave it. */
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`output ${JSON.stringify(path)}: ${oneLine(reason)}`);
    this.name = "OutputError";
    this.path = path;
  }
}

function formatLocation(w: DataLocation): string {
  let s = w.file;
  if (w.line !== undefined) {
    s += `:${w.line}`;
    if (w.column !== undefined) s += `:${w.column}`;
  }
  return s;
}

/** Messages are one line: a cell holding a newline must not split the report. */
export function oneLine(s: string): string {
  return s.replace(/\r\n|\r|\n/g, "\\n");
}

/** Quotes a cell for a message, shortening very long ones. */
export function quoteCell(s: string, max = 40): string {
  const t = s.length > max ? s.slice(0, max - 3) + "..." : s;
  return JSON.stringify(t);
}

/**
 * A file-system error in words (the common codes named plainly, others by their message). Given
 * the path that was being made, ENOENT whose directory exists (e.g. under /proc, which has no room
 * for new files) says so instead of claiming the directory is missing.
 */
export function fileErrorReason(e: unknown, path?: string): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === "ENOENT" && path !== undefined && isDirectory(dirname(path))) {
    return `the file system refuses to create it in ${JSON.stringify(dirname(path))} (ENOENT), although that directory exists`;
  }
  switch (err.code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "read-only file system";
    case "ENOSPC":
      return "no space left on the device";
    case "ENOENT":
      return "its directory does not exist";
    case "ENOTDIR":
      return "a part of the path is not a directory";
    case "EISDIR":
      return "is a directory";
    default:
      return err.message;
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
