/**
 * Runs a grid on this machine: the jobs without a stored result, as tasks on the worker pool
 * (src/parallel; one job per thread at a time, each running OpenBLAS on one thread, so a job's
 * draws do not depend on the number of threads), each result stored as soon as its job ends.
 * A grid stopped and run again runs only what is missing, each job resuming from its checkpoint.
 */
import { runTasks, type StopFlag } from "../parallel/pool.js";
import type { GridJob } from "./spec.js";
import { readJobResult, writeJobResult } from "./store.js";

export interface LocalGridOptions {
  /** Worker threads (default: the number of cores, at most the number of jobs to run). */
  parallel?: number;
  stop?: StopFlag;
  /** Hears of each job as it ends. */
  onJob?: (job: GridJob, result: unknown) => void;
}

/** Runs the jobs of a grid that have no stored result; returns how many ran. */
export async function runGridLocally(outDir: string, jobs: readonly GridJob[], options: LocalGridOptions = {}): Promise<{ ran: number; skipped: number }> {
  const todo = jobs.filter((j) => readJobResult(outDir, j.id) === undefined);
  if (todo.length > 0) {
    await runTasks(todo.map((j) => ({ kind: j.kind, input: j })), {
      parallel: options.parallel === undefined ? undefined : Math.min(options.parallel, todo.length),
      stop: options.stop,
      onResult: (i, r) => {
        writeJobResult(outDir, todo[i].id, r);
        options.onJob?.(todo[i], r);
      },
    });
  }
  return { ran: todo.length, skipped: jobs.length - todo.length };
}
