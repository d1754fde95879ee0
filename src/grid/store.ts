/**
 * A grid's results on disk: one file per finished job, `results/<job id>.json` under the grid's
 * output directory, written atomically (so a job's result is there whole or not at all), read
 * back in the order of the spec's jobs. Draws and checkpoints go beside it (draws/, checkpoints/).
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../io/atomic.js";
import { OutputError } from "../io/errors.js";
import { makeDirs } from "../io/makeDirs.js";
import { registerErrorType } from "../parallel/errors.js";
import { decodeExact, encodeExact } from "../run/checkpoint.js";
import type { GridJob } from "./spec.js";

// a job's directory that cannot be made (makeDirs) is one line naming it, from whichever thread runs the job
registerErrorType(OutputError);

export function resultsDir(outDir: string): string {
  return join(outDir, "results");
}

/** Stores a finished job's result. */
export function writeJobResult(outDir: string, id: string, result: unknown): void {
  makeDirs(resultsDir(outDir));
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

/** Where a job's checkpoint goes: the grid's checkpoint directory, under the job's id. */
export function jobCheckpointPath(job: GridJob): string {
  return join(job.checkpointDir, `${job.id}.json`);
}

/** The job's checkpoint (as the job kind wrote it), or undefined when there is none: the job starts afresh. */
export function readJobCheckpoint<T>(job: GridJob): T | undefined {
  try {
    return decodeExact<T>(readFileSync(jobCheckpointPath(job), "utf8"));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/** Writes the job's checkpoint, atomically (a job killed at any moment leaves its last whole checkpoint). */
export function writeJobCheckpoint(job: GridJob, checkpoint: unknown): void {
  makeDirs(job.checkpointDir);
  writeFileAtomic(jobCheckpointPath(job), encodeExact(checkpoint) + "\n");
}

/**
 * Writes a finished job's draws (draws x dim, draw-major) into the grid's draws directory and
 * removes its checkpoint, the draws file being the job's record now; returns the file's name.
 */
export function writeJobDraws(job: GridJob, dim: number, draws: number, samples: Float64Array): string {
  makeDirs(job.drawsDir);
  const drawsFile = `${job.id}.json`;
  writeFileAtomic(join(job.drawsDir, drawsFile), encodeExact({ identity: job.identity, dim, draws, samples }) + "\n");
  rmSync(jobCheckpointPath(job), { force: true });
  return drawsFile;
}
