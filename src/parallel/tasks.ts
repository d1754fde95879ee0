/**
 * Task kinds: a name (e.g. "latent-gp-chain") mapped to a function exported by a module, so a
 * worker thread can import the module by URL and run the function on plain data. A layer adds
 * its own kind by calling `registerTaskKind` when its task module loads; the pool needs no
 * change for it.
 */

/** What a task function can do besides computing its result. */
export interface TaskContext {
  /** The task's position in the list given to the pool. */
  readonly index: number;
  /** Sends a message (plain data) to the pool's onProgress callback on the main thread. */
  progress(message: unknown): void;
  /**
   * Whether a stop was requested. Synchronous loops cannot receive messages, so long tasks
   * poll this between steps and, once it is true, return what they have so far.
   */
  stopRequested(): boolean;
}

/**
 * A task: plain data in (structured-cloneable), a result out. Typed arrays in the result are
 * transferred to the main thread, not copied, so the task must not keep using them.
 */
export type TaskFunction<I = never, R = unknown> = (input: I, context: TaskContext) => R | Promise<R>;

/** Where a task kind's function lives: a module URL (file: URL of compiled JS) and an export name. */
export interface TaskKindLocation {
  module: string;
  exportName: string;
}

const kinds = new Map<string, TaskKindLocation>();

/**
 * Registers task kind `kind` as the function `exportName` of the module at `module` (usually
 * the registering module's own `import.meta.url`). Registering a kind again with the same
 * location is harmless; with another location it is an error.
 */
export function registerTaskKind(kind: string, module: string | URL, exportName: string): void {
  const location = { module: String(module), exportName };
  const before = kinds.get(kind);
  if (before !== undefined && (before.module !== location.module || before.exportName !== exportName)) {
    throw new Error(`task kind ${JSON.stringify(kind)} is already registered (${before.exportName} in ${before.module})`);
  }
  kinds.set(kind, location);
}

/**
 * A registered task kind with the types of its input and result, what a caller runs tasks by:
 * the type checker follows it to the function's types, and a reader to its definition.
 */
export interface TaskHandle<I, R> {
  readonly kind: string;
  /** Types only (never set): the function the kind runs. */
  readonly fn?: (input: I, context: TaskContext) => R | Promise<R>;
}

/**
 * Registers task kind `kind` as `fn`, the function exported as `exportName` from `module` (the
 * defining module's own `import.meta.url`), and returns its typed handle. Throws where `fn`'s name
 * is not `exportName`, so the string a worker imports by and the function the types come from
 * cannot drift apart.
 */
export function defineTaskKind<I, R>(kind: string, module: string | URL, exportName: string, fn: TaskFunction<I, R>): TaskHandle<I, Awaited<R>> {
  if (fn.name !== exportName) throw new Error(`task kind ${JSON.stringify(kind)}: the function is ${JSON.stringify(fn.name)}, not the export ${JSON.stringify(exportName)}`);
  registerTaskKind(kind, module, exportName);
  return { kind };
}

/** The location of a registered task kind. */
export function taskKindLocation(kind: string): TaskKindLocation {
  const location = kinds.get(kind);
  if (location === undefined) {
    throw new RangeError(`unknown task kind ${JSON.stringify(kind)} (registered: ${[...kinds.keys()].join(", ") || "none"})`);
  }
  return location;
}

/** Imports the function of a task kind (in whichever thread runs it). */
export async function loadTaskFunction(location: TaskKindLocation): Promise<TaskFunction<unknown, unknown>> {
  const mod = (await import(location.module)) as Record<string, unknown>;
  const fn = mod[location.exportName];
  if (typeof fn !== "function") throw new TypeError(`${location.module} has no function ${location.exportName}`);
  return fn as TaskFunction<unknown, unknown>;
}
