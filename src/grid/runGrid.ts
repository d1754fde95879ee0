/**
 * How an experiment script runs its grids: in a directory it keeps (--grid-dir: results, draws
 * and checkpoints stay, so a rerun runs only what is missing) or a temporary one removed at the
 * end, and each grid's jobs on the local pool of worker threads or, with a redis:// URL, on the
 * BullMQ queue that `gpmcmc worker` processes run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runGridLocally } from "./localRunner.js";
import { awaitGrid, submitGrid } from "./queue.js";
import type { GridJob } from "./spec.js";

/** Where and how the grids run. */
export interface GridPlace {
  /** Keep the grids' results, draws and checkpoints here; default a temporary directory, removed. */
  gridDir?: string;
  /** Worker threads of the local pool (default: the number of cores). */
  parallel?: number;
  /** Run the jobs on the BullMQ queue at this redis:// URL (`gpmcmc worker` processes run them; gridDir must be shared with them). */
  queue?: string;
}

/** Runs `use` with the grids' root directory: options.gridDir, or a temporary directory named after `name`, removed afterwards. */
export async function withGridRoot<T>(place: GridPlace, name: string, use: (root: string) => Promise<T>): Promise<T> {
  const root = place.gridDir !== undefined ? resolve(place.gridDir) : mkdtempSync(join(tmpdir(), `gpmcmc-${name}-`));
  try {
    return await use(root);
  } finally {
    if (place.gridDir === undefined) rmSync(root, { recursive: true, force: true });
  }
}

/** Runs the jobs without a stored result in outDir, here or on the queue, and returns once every job has its result. */
export async function runGridJobs(place: GridPlace, outDir: string, jobs: readonly GridJob[]): Promise<void> {
  if (place.queue !== undefined) {
    await submitGrid(place.queue, jobs);
    await awaitGrid(place.queue, outDir, jobs);
  } else {
    await runGridLocally(outDir, jobs, { parallel: place.parallel });
  }
}
