/**
 * A grid's results on disk: one file per finished job, `results/<job id>.json` under the grid's
 * output directory, written atomically (so a job's result is there whole or not at all), read
 * back in the order of the spec's jobs. Draws and checkpoints go beside it (draws/, checkpoints/).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../io/atomic.js";
import { decodeExact, encodeExact } from "../run/checkpoint.js";
import type { GridJob } from "./spec.js";

export function resultsDir(outDir: string): string {
  return join(outDir, "results");
}

/** Stores a finished job's result. */
export function writeJobResult(outDir: string, id: string, result: unknown): void {
  mkdirSync(resultsDir(outDir), { recursive: true });
  writeFileAtomic(join(resultsDir(outDir), `${id}.json`), encodeExact(result) + "\n");
}

/** The stored result of a job, or undefined when it has not finished. */
export function readJobResult<R>(outDir: string, id: string): R | undefined {
  try {
    return decodeExact<R>(readFileSync(join(resultsDir(outDir), `${id}.json`), "utf8"));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/** The results of `jobs` in their order (undefined where a job has not finished). */
export function readJobResults<R>(outDir: string, jobs: readonly GridJob[]): (R | undefined)[] {
  return jobs.map((j) => readJobResult<R>(outDir, j.id));
}
