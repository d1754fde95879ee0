/**
 * Entry module of the pool's worker threads: sets OpenBLAS to one thread (the pool runs one
 * task per core; BLAS threads on top would oversubscribe the cores), then runs the tasks it
 * is sent, one at a time, sending back progress messages, results (typed arrays transferred)
 * and errors.
 */
import { parentPort, workerData } from "node:worker_threads";
import { getBackend } from "../linalg/backend.js";
import { serialiseError } from "./errors.js";
import { transferablesOf, type RunMessage, type WorkerMessage } from "./messages.js";
import { loadTaskFunction, type TaskContext } from "./tasks.js";

const port = parentPort;
if (port === null) throw new Error("gpmcmc's pool worker must run in a worker thread");
const stop = new Int32Array((workerData as { stop: SharedArrayBuffer }).stop);
getBackend().setThreads(1);

const send = (m: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

port.on("message", (m: RunMessage) => {
  void run(m);
});

async function run(m: RunMessage): Promise<void> {
  const context: TaskContext = {
    index: m.index,
    progress: (message) => send({ type: "progress", index: m.index, message }),
    stopRequested: () => Atomics.load(stop, 0) !== 0,
  };
  try {
    const fn = await loadTaskFunction(m.location);
    const result = await fn(m.input, context);
    send({ type: "result", index: m.index, result }, transferablesOf(result));
  } catch (e) {
    send({ type: "error", index: m.index, error: serialiseError(e) });
  }
}
