/**
 * Child process of terminate.test.ts: `node terminateChild.js MODE ROUNDS` terminates ROUNDS
 * worker threads while they are busy in native calls, and prints "ok ROUNDS" if the process
 * survived. It runs in a child process because the failure it looks for is an abort of the
 * whole process (std::terminate on a C++ exception escaping the addon, or a Node-API fatal
 * error), which would otherwise take the test runner down with it.
 *
 * MODE is one of terminateWorker.ts's loops, or "pool": runTasks with two tasks that spin in
 * native calls and an onProgress callback that throws once both run, so that the pool
 * terminates both workers in mid-loop (as it does when a task fails).
 */
import { Worker } from "node:worker_threads";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { getBackend } from "../../src/linalg/backend.js";
import { runTasks } from "../../src/parallel/pool.js";
import "./fixtureTasks.js";

const [mode, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);
if (!(Number.isInteger(rounds) && rounds > 0)) throw new Error(`usage: terminateChild.js MODE ROUNDS, got ${process.argv.slice(2).join(" ")}`);
if (getBackend().name !== "native") throw new Error(`terminateChild needs the native backend, got ${getBackend().name}`);

for (let i = 0; i < rounds; i++) {
  if (mode === "pool") {
    let started = 0;
    const run = runTasks([{ kind: "test-native-spin", input: null }, { kind: "test-native-spin", input: null }], {
      parallel: 2,
      onProgress: () => {
        if (++started === 2) throw new Error("stop the pool");
      },
    });
    await run.then(
      () => {
        throw new Error("the pool should have failed");
      },
      (e: unknown) => {
        if (!(e instanceof Error) || e.message !== "stop the pool") throw e;
      },
    );
    await sleep(i % 3); // the pool does not wait for its workers to stop: let some stop before the next round
  } else {
    const w = new Worker(new URL("./terminateWorker.js", import.meta.url), { workerData: { mode } });
    const failed = once(w, "error").then(([e]) => {
      throw e;
    });
    await Promise.race([once(w, "message"), failed]);
    // the delay varies where in its loop the worker is when it is stopped
    await sleep(i % 3);
    await w.terminate();
  }
}
process.stdout.write(`ok ${rounds}\n`);
