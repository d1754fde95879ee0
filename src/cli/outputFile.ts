/**
 * Checks on a single output file (--out of laplace, ep, predict and report, --out and --truth of simulate) made
 * before any work, so that a path that cannot be written, or a file that is not ours, stops the
 * command with one line and nothing written.
 */
import { accessSync, closeSync, constants as fsConstants, openSync, readSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { APPROXIMATION_FILE_FORMAT } from "../approx/approximationFile.js";
import { OutputError } from "../io/errors.js";

/**
 * Checks, writing nothing, that `path` can receive the approximation file: its directory
 * exists and is writable, and the path is not a directory, nor an existing file other than a
 * gpmcmc approximation file unless `force`.
 */
export function checkOutputFile(
  path: string,
  force: boolean,
  ours: { is: (path: string) => boolean; what: string; example: string } = { is: isApproximationFile, what: "a gpmcmc approximation file", example: "ep.json" },
): void {
  let st: ReturnType<typeof statSync> | undefined;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") throw new OutputError(path, code === "ENOTDIR" ? "a part of the path is not a directory" : `cannot be checked: ${(e as Error).message}`);
  }
  if (st !== undefined) {
    if (st.isDirectory()) throw new OutputError(path, `is a directory; --out takes a file name (e.g. ${ours.example})`);
    if (!st.isFile()) throw new OutputError(path, "exists and is not a regular file");
    if (!force && !ours.is(path)) {
      throw new OutputError(path, `exists and is not ${ours.what}; give --force to replace it`);
    }
  }
  const dir = dirname(path);
  let dst: ReturnType<typeof statSync>;
  try {
    dst = statSync(dir);
  } catch {
    throw new OutputError(path, `its directory ${JSON.stringify(dir)} does not exist`);
  }
  if (!dst.isDirectory()) throw new OutputError(path, `${JSON.stringify(dir)} is not a directory`);
  try {
    accessSync(dir, fsConstants.W_OK | fsConstants.X_OK);
  } catch {
    throw new OutputError(path, `its directory ${JSON.stringify(dir)} is not writable`);
  }
}

function isApproximationFile(path: string): boolean {
  return new RegExp(`^\\s*\\{\\s*"format"\\s*:\\s*"${APPROXIMATION_FILE_FORMAT}"`).test(fileHead(path, 256));
}

/** Whether the file at `path` is a page `gpmcmc report` wrote (its generator meta tag names gpmcmc). */
export function isReportPage(path: string): boolean {
  return /^<!DOCTYPE html>[\s\S]*<meta name="generator" content="gpmcmc /.test(fileHead(path, 1024));
}

/** The first `bytes` bytes of a file as UTF-8 text ("" where it cannot be read). */
function fileHead(path: string, bytes: number): string {
  const buf = Buffer.alloc(bytes);
  let got = 0;
  try {
    const fd = openSync(path, "r");
    try {
      got = readSync(fd, buf, 0, buf.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return "";
  }
  return buf.subarray(0, got).toString("utf8");
}
