/**
 * Worker thread of terminate.test.ts (through terminateChild.ts): calls into the native addon in
 * a synchronous loop that never ends, so the only way out is Worker.terminate(), which then
 * comes while the thread is inside (or between) native calls. `workerData.mode` picks the calls:
 * "dimension-error": potrf on a too-short array, so the addon constructs our DimensionError
 *   (napi_new_instance, which runs JS) and throws it;
 * "describe": describe(), which sets properties on a new object (napi_set_named_property);
 * "create-backend": createBackend() again (the module's per-call set-up: instance data,
 *   function creation, many property sets).
 */
import { parentPort, workerData } from "node:worker_threads";
import { DimensionError } from "../../src/linalg/errors.js";
import { getBackend, loadNativeBackend } from "../../src/linalg/backend.js";

const mode = (workerData as { mode: string }).mode;
const backend = getBackend();
if (backend.name !== "native") throw new Error(`terminateWorker needs the native backend, got ${backend.name}`);
const short = new Float64Array(1);
let calls = 0;
// The loop is synchronous: after this message the main thread can only stop us by terminate().
parentPort?.postMessage("ready");
for (;;) {
  if (mode === "dimension-error") {
    try {
      backend.potrf("L", 2, short, 2);
    } catch (e) {
      if (!(e instanceof DimensionError)) throw e;
    }
  } else if (mode === "describe") {
    backend.describe();
  } else if (mode === "create-backend") {
    if (loadNativeBackend() === undefined) throw new Error("the native addon did not load");
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  calls++;
}
