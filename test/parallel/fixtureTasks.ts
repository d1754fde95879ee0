/** Task kinds for the pool's tests (imported by the tests and, by URL, by the workers). */
import { getBackend } from "../../src/linalg/backend.js";
import { DimensionError, NotPositiveDefiniteError } from "../../src/linalg/errors.js";
import { registerErrorType } from "../../src/parallel/errors.js";
import { registerTaskKind, type TaskContext } from "../../src/parallel/tasks.js";
import { Rng } from "../../src/random/rng.js";

/** Draws `count` normals from stream `stream` of `seed`, after waiting `delayMs` (to reorder completions). */
export async function normalsTask(input: { seed: number; stream: number; count: number; delayMs: number }, context: TaskContext) {
  await new Promise((r) => setTimeout(r, input.delayMs));
  const rng = new Rng(input.seed, input.stream);
  const values = Float64Array.from({ length: input.count }, () => rng.normal());
  context.progress({ drawn: input.count });
  return { index: context.index, values };
}

/** Throws the error its input names. */
export function failTask(input: { error: "range" | "pivot" | "plain" }): never {
  if (input.error === "range") throw new RangeError("step size must be positive");
  if (input.error === "pivot") throw new NotPositiveDefiniteError(3, -0.5, "test matrix");
  throw new Error("plain failure");
}

/** Counts until a stop is requested (a synchronous loop, as a chain is), reporting once it starts. */
export function spinTask(_input: null, context: TaskContext) {
  const stoppedAtStart = context.stopRequested();
  let count = 0;
  context.progress("started");
  while (!context.stopRequested()) count++;
  return { stoppedAtStart, count };
}

registerTaskKind("test-normals", import.meta.url, "normalsTask");
registerTaskKind("test-fail", import.meta.url, "failTask");
registerTaskKind("test-spin", import.meta.url, "spinTask");
registerErrorType(NotPositiveDefiniteError);

/** The linear-algebra backend the task's thread uses. */
export function backendTask(): string {
  return getBackend().describe().backend;
}

registerTaskKind("test-backend", import.meta.url, "backendTask");

/**
 * Calls into the linear-algebra backend until a stop is requested: a DimensionError from potrf
 * (thrown by the native addon on that backend) and describe(), so that a worker running it is
 * almost always inside a native call (terminate.test.ts stops such workers).
 */
export function nativeSpinTask(_input: null, context: TaskContext) {
  const backend = getBackend();
  const short = new Float64Array(1);
  let calls = 0;
  context.progress("started");
  while (!context.stopRequested()) {
    try {
      backend.potrf("L", 2, short, 2);
    } catch (e) {
      if (!(e instanceof DimensionError)) throw e;
    }
    backend.describe();
    calls++;
  }
  return calls;
}

registerTaskKind("test-native-spin", import.meta.url, "nativeSpinTask");
