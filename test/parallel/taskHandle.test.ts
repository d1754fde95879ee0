// Typed task handles (src/parallel/tasks.ts defineTaskKind): the handle names a registered kind
// whose location is the defining module's export, and a function whose name is not the export
// named is refused, so the string a worker imports by cannot drift from the typed function.
import { test } from "node:test";
import assert from "node:assert/strict";
import { defineTaskKind, taskKindLocation } from "../../src/parallel/tasks.js";
import { LATENT_GP_CHAIN, LATENT_GP_CHAIN_TASK } from "../../src/run/chainTask.js";

export function handleTestTask(input: { x: number }): number {
  return input.x + 1;
}

test("a task kind defined by its function: registered, typed, refused when the export name is not the function's", () => {
  const handle = defineTaskKind("test-handle-task", import.meta.url, "handleTestTask", handleTestTask);
  assert.equal(handle.kind, "test-handle-task");
  assert.deepEqual(taskKindLocation("test-handle-task"), { module: import.meta.url, exportName: "handleTestTask" });
  // negative control: the export named is another function
  assert.throws(() => defineTaskKind("test-handle-other", import.meta.url, "otherTask", handleTestTask), /the function is "handleTestTask", not the export "otherTask"/);
  assert.throws(() => taskKindLocation("test-handle-other"), /unknown task kind/);
  // the run layer's chains go by their handles
  assert.equal(LATENT_GP_CHAIN.kind, LATENT_GP_CHAIN_TASK);
  assert.equal(taskKindLocation(LATENT_GP_CHAIN.kind).exportName, "latentGpChainTask");
});
