/**
 * Runs independent tasks, each described by plain data (a registered task kind and its input),
 * in at most P worker threads (on the linear-algebra backend this thread uses), and returns their results in task order whatever order they
 * finish in. Each worker runs OpenBLAS on one thread. Progress messages a task sends reach
 * `onProgress` on the main thread; a `StopFlag` (shared memory, so tasks in synchronous loops
 * can poll it) asks every task to stop early and return what it has; the first error in a task
 * stops the others (workers terminated) and is rethrown here as its original class where that
 * class was registered (see errors.ts).
 *
 * The OpenBLAS thread count is process-wide, so the pool sets it to 1 for the whole run, in
 * this thread too, and restores it afterwards: a task gives the same bits whether it ran in a
 * worker or in this thread, and whatever P is.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { getBackend } from "../linalg/backend.js";
import { reviveError } from "./errors.js";
import type { RunMessage, WorkerMessage } from "./messages.js";
import { loadTaskFunction, taskKindLocation, type TaskContext } from "./tasks.js";

/** One task: a registered kind and its input (structured-cloneable plain data). */
export interface Task<I = unknown> {
  kind: string;
  input: I;
}

/** A stop request shared with every task of a run, in any thread. */
export class StopFlag {
  /** Shared with the workers; index 0 is non-zero once a stop is requested. */
  readonly buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  private readonly view = new Int32Array(this.buffer);

  /** Asks all tasks to stop at their next check. */
  request(): void {
    Atomics.store(this.view, 0, 1);
  }

  get requested(): boolean {
    return Atomics.load(this.view, 0) !== 0;
  }
}

export interface PoolOptions<M = unknown, R = unknown> {
  /** Worker threads at most (default: the number of cores); never more than there are tasks. */
  parallel?: number;
  /**
   * Run the tasks one after another in this thread instead (default: only when asked). Note
   * that this thread then cannot handle signals or timers until all tasks are done.
   */
  inProcess?: boolean;
  /** Receives the progress messages of task `index`. */
  onProgress?: (index: number, message: M) => void;
  /** Called as soon as task `index` is done (results still come back in order at the end). */
  onResult?: (index: number, result: R) => void;
  /** Checked by the tasks between steps; tasks that start after a request see it at once. */
  stop?: StopFlag;
}

/** The default worker count for `tasks` tasks: the number of cores, at most `tasks`. */
export function defaultParallelism(tasks: number): number {
  return Math.max(1, Math.min(availableParallelism(), tasks));
}

/** Runs `tasks` and returns their results in task order. */
export async function runTasks<R = unknown, M = unknown>(tasks: readonly Task[], options: PoolOptions<M, R> = {}): Promise<R[]> {
  const parallel = options.parallel ?? defaultParallelism(tasks.length);
  if (!Number.isInteger(parallel) || parallel < 1) throw new RangeError(`parallel must be an integer >= 1, got ${parallel}`);
  const locations = tasks.map((t) => taskKindLocation(t.kind));
  if (tasks.length === 0) return [];
  const backend = getBackend();
  const threads = backend.getThreads();
  backend.setThreads(1);
  try {
    return options.inProcess ? await runHere<R, M>(tasks, locations, options) : await runInWorkers<R, M>(tasks, locations, Math.min(parallel, tasks.length), options);
  } finally {
    backend.setThreads(threads);
  }
}

async function runHere<R, M>(tasks: readonly Task[], locations: ReturnType<typeof taskKindLocation>[], options: PoolOptions<M, R>): Promise<R[]> {
  const stop = options.stop ?? new StopFlag();
  const results: R[] = [];
  for (let i = 0; i < tasks.length; i++) {
    const fn = await loadTaskFunction(locations[i]);
    const context: TaskContext = {
      index: i,
      progress: (message) => options.onProgress?.(i, message as M),
      stopRequested: () => stop.requested,
    };
    // A structured clone, as a worker would get: the task cannot change the caller's input.
    const r = (await fn(structuredClone(tasks[i].input), context)) as R;
    options.onResult?.(i, r);
    results.push(r);
  }
  return results;
}

function runInWorkers<R, M>(tasks: readonly Task[], locations: ReturnType<typeof taskKindLocation>[], parallel: number, options: PoolOptions<M, R>): Promise<R[]> {
  const stop = options.stop ?? new StopFlag();
  const backendName = getBackend().describe().backend;
  const results = new Array<R>(tasks.length);
  const workers: Worker[] = [];
  let next = 0;
  let done = 0;
  let settled = false;
  return new Promise<R[]>((resolve, reject) => {
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      // terminate() resolves once the thread has stopped; the run's outcome does not wait for it.
      for (const w of workers) void w.terminate();
      if (error !== undefined) reject(error);
      else resolve(results);
    };
    const startNext = (w: Worker) => {
      if (next >= tasks.length) return;
      const index = next++;
      const m: RunMessage = { type: "run", index, location: locations[index], input: tasks[index].input };
      w.postMessage(m);
    };
    const onMessage = (w: Worker, m: WorkerMessage) => {
      if (settled) return;
      try {
        if (m.type === "progress") {
          options.onProgress?.(m.index, m.message as M);
        } else if (m.type === "result") {
          results[m.index] = m.result as R;
          done++;
          options.onResult?.(m.index, m.result as R);
          if (done === tasks.length) finish();
          else startNext(w);
        } else {
          finish(reviveError(m.error));
        }
      } catch (e) {
        finish(e); // a callback of ours threw
      }
    };
    for (let p = 0; p < parallel; p++) {
      const w = new Worker(new URL("./worker.js", import.meta.url), {
        workerData: { stop: stop.buffer },
        // the backend this thread uses (it may have been chosen by setBackend), so workers compute the same bits
        env: { ...process.env, GPMCMC_BACKEND: backendName },
      });
      workers.push(w);
      w.on("message", (m: WorkerMessage) => onMessage(w, m));
      w.on("error", (e) => finish(e));
      w.on("exit", (code) => {
        if (!settled) finish(new Error(`a worker thread exited (code ${code}) before its tasks were done`));
      });
      startNext(w);
    }
  });
}
