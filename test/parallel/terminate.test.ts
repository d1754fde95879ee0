/**
 * Terminating a worker thread while it is inside the native addon must not abort the process.
 * Worker.terminate() (the pool calls it when a task fails) makes every Node-API call in that
 * thread that could run JS fail from then on, napi_throw included; the addon used to let the
 * resulting C++ exception escape into V8 ("terminate called after throwing an instance of
 * 'Napi::Error'", SIGABRT), or hit a Node-API fatal error while building the error. Each case
 * runs in a child process (terminateChild.ts), so that an abort shows as a failed test rather
 * than killing the runner. Before the fix each of these aborted within the first few rounds.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { nativeSkip } from "../linalg/helpers.js";

const child = fileURLToPath(new URL("./terminateChild.js", import.meta.url));
// Rounds per case (a pool round starts two workers and loads the task modules: slower).
const cases: [mode: string, rounds: number][] = [["dimension-error", 20], ["describe", 20], ["create-backend", 20], ["pool", 8]];

for (const [mode, rounds] of cases) {
  test(`terminating workers busy in native calls (${mode}, ${rounds} times) does not abort the process`, { skip: nativeSkip }, () => {
    const r = spawnSync(process.execPath, [child, mode, String(rounds)], {
      env: { ...process.env, GPMCMC_BACKEND: "native" },
      encoding: "utf8",
      timeout: 120_000,
    });
    const what = `status ${r.status}, signal ${r.signal}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
    assert.equal(r.signal, null, what);
    assert.equal(r.status, 0, what);
    assert.equal(r.stdout, `ok ${rounds}\n`, what);
    assert.doesNotMatch(r.stderr, /terminate called|FATAL ERROR/, what);
  });
}
