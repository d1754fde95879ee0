/** Independent tasks on worker threads: the pool, task kinds, and errors across threads. */
export { StopFlag, defaultParallelism, runTasks } from "./pool.js";
export type { PoolOptions, Task } from "./pool.js";
export { registerTaskKind, taskKindLocation } from "./tasks.js";
export type { TaskContext, TaskFunction, TaskKindLocation } from "./tasks.js";
export { registerErrorType } from "./errors.js";
