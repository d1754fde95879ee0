/**
 * One task per chain on the worker pool, as every kind of run starts its chains: at most
 * `parallel` at once (default: the number of cores, at most the number of chains), results in
 * chain order, a run complete when no chain was stopped early.
 */
import type { Progress } from "../samplers/chain/driver.js";
import { defaultParallelism, runTasks, type StopFlag, type Task } from "../parallel/pool.js";
import type { TaskHandle } from "../parallel/tasks.js";

export interface ChainTaskOptions<R> {
  parallel?: number;
  inProcess?: boolean;
  stop?: StopFlag;
  onProgress?: (p: Progress) => void;
  onChain?: (r: R) => void;
}

export async function runChainTasks<I, R extends { stopped?: boolean }>(task: TaskHandle<I, R>, inputs: I[], options: ChainTaskOptions<R>): Promise<{ results: R[]; seconds: number; workers: number; complete: boolean }> {
  const tasks: Task<I>[] = inputs.map((input) => ({ kind: task.kind, input }));
  const parallel = Math.min(options.parallel ?? defaultParallelism(inputs.length), inputs.length);
  const t0 = performance.now();
  const results = await runTasks<R, Progress>(tasks, {
    parallel,
    inProcess: options.inProcess,
    stop: options.stop,
    onProgress: options.onProgress && ((_, p) => options.onProgress!(p)),
    onResult: options.onChain && ((_, r) => options.onChain!(r)),
  });
  return { results, seconds: (performance.now() - t0) / 1000, workers: options.inProcess ? 0 : parallel, complete: !results.some((r) => r.stopped) };
}
