/** The messages between the pool (main thread) and its workers, and the typed arrays a result transfers. */
import type { SerialisedError } from "./errors.js";
import type { TaskKindLocation } from "./tasks.js";

/** Main thread to worker: run one task. */
export interface RunMessage {
  type: "run";
  index: number;
  location: TaskKindLocation;
  input: unknown;
}

/** Worker to main thread. */
export type WorkerMessage =
  | { type: "progress"; index: number; message: unknown }
  | { type: "result"; index: number; result: unknown }
  | { type: "error"; index: number; error: SerialisedError };

/**
 * The ArrayBuffers behind the typed arrays in `value` (searched through arrays and plain
 * objects), to transfer rather than copy. Node Buffers are left out: they may share a pool.
 */
export function transferablesOf(value: unknown, out: Set<ArrayBuffer> = new Set(), depth = 0): ArrayBuffer[] {
  if (depth > 16 || value === null || typeof value !== "object") return [...out];
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer && !Buffer.isBuffer(value)) out.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const v of value) transferablesOf(v, out, depth + 1);
  } else if (Object.getPrototypeOf(value) === Object.prototype) {
    for (const v of Object.values(value)) transferablesOf(v, out, depth + 1);
  }
  return [...out];
}
