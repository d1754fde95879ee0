/**
 * A directory and its missing ancestors, made one level at a time from the nearest existing
 * ancestor, so that one the file system refuses (under /proc, read-only, a file in the way) is an
 * OutputError naming it and why: mkdirSync's own recursion ({ recursive: true }) retries for ever
 * where the file system answers ENOENT under a directory that exists (/proc).
 */
import { existsSync, mkdirSync, rmdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileErrorReason, OutputError } from "./errors.js";

/**
 * Makes `dir` (and its missing ancestors); returns the directories made, outermost first. On a
 * failure it removes those it made and throws OutputError(dir, "cannot be created: WHY").
 */
export function makeDirs(dir: string): string[] {
  const missing: string[] = [];
  let d = resolve(dir);
  for (; !existsSync(d); d = dirname(d)) missing.unshift(d);
  if (missing.length === 0 && !statSync(d).isDirectory()) throw new OutputError(dir, "exists and is not a directory");
  const made: string[] = [];
  for (const m of missing) {
    try {
      mkdirSync(m);
      made.push(m);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST" && statSync(m).isDirectory()) continue; // made meanwhile (another job, another worker)
      for (const r of [...made].reverse()) {
        try {
          rmdirSync(r);
        } catch {
          // no longer empty: not ours to remove
        }
      }
      throw new OutputError(dir, `cannot be created: ${fileErrorReason(e, m)}`);
    }
  }
  return made;
}
