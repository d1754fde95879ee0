import { test } from "node:test";
import assert from "node:assert/strict";
import { getBackend, loadNativeBackend, setBackend } from "../../src/linalg/backend.js";
import { NotPositiveDefiniteError } from "../../src/linalg/errors.js";
import { jsBackend } from "../../src/linalg/js.js";
import { transferablesOf } from "../../src/parallel/messages.js";
import { StopFlag, runTasks, type Task } from "../../src/parallel/pool.js";
import { prerequisiteMissing } from "../fixtures.js";
import "./fixtureTasks.js";

type Normals = { index: number; values: Float64Array };

// Task 0 waits longest, so the tasks tend to finish in reverse order (how workers start on a
// loaded machine can reorder the others; task 0 waits `step` ms more than any of them).
const normals = (n: number, step = 40): Task[] =>
  Array.from({ length: n }, (_, i) => ({ kind: "test-normals", input: { seed: 5, stream: i, count: 50, delayMs: step * (n - i) } }));

test("results come back in task order, whatever order the tasks finish in, with progress forwarded", async () => {
  const finished: number[] = [];
  const progress: [number, unknown][] = [];
  const results = await runTasks<Normals>(normals(4, 300), {
    parallel: 4,
    onResult: (i) => finished.push(i),
    onProgress: (i, m) => progress.push([i, m]),
  });
  assert.deepEqual(results.map((r) => r.index), [0, 1, 2, 3]);
  assert.deepEqual([...finished].sort(), [0, 1, 2, 3]);
  assert.equal(finished[3], 0, `finished in the order ${finished.join(", ")}: task 0 should be last`);
  assert.deepEqual(progress.map(([i]) => i).sort(), [0, 1, 2, 3]);
  assert.deepEqual(progress[0][1], { drawn: 50 });
  for (const r of results) assert.ok(r.values instanceof Float64Array && r.values.length === 50);
  assert.notDeepEqual(results[0].values, results[1].values);
});

test("workers (P = 2 and 3) give the same results as running in this thread", async () => {
  const here = await runTasks<Normals>(normals(5), { inProcess: true });
  for (const parallel of [2, 3]) {
    const there = await runTasks<Normals>(normals(5), { parallel });
    assert.deepEqual(there, here);
  }
});

test("an error in a task is rethrown here with its class, message and fields", async () => {
  const tasks = (error: string): Task[] => [...normals(2), { kind: "test-fail", input: { error } }];
  await assert.rejects(runTasks(tasks("range"), { parallel: 2 }), (e: unknown) => {
    assert.ok(e instanceof RangeError);
    assert.equal((e as Error).message, "step size must be positive");
    return true;
  });
  await assert.rejects(runTasks(tasks("pivot"), { parallel: 3 }), (e: unknown) => {
    assert.ok(e instanceof NotPositiveDefiniteError);
    assert.equal(e.pivotIndex, 3);
    assert.equal(e.pivotValue, -0.5);
    assert.equal(e.name, "NotPositiveDefiniteError");
    assert.match(e.message, /test matrix is not positive definite/);
    assert.match(e.stack ?? "", /failTask/); // the worker's stack
    return true;
  });
  await assert.rejects(runTasks(tasks("plain"), { parallel: 2 }), { name: "Error", message: "plain failure" });
  // in this thread too
  await assert.rejects(runTasks(tasks("range"), { inProcess: true }), RangeError);
});

test("a stop request reaches tasks in synchronous loops; each returns its partial result", async () => {
  const stop = new StopFlag();
  const started = new Set<number>();
  const tasks: Task[] = Array.from({ length: 3 }, () => ({ kind: "test-spin", input: null }));
  const results = await runTasks<{ stoppedAtStart: boolean; count: number }>(tasks, {
    parallel: 2,
    stop,
    onProgress: (i) => {
      started.add(i);
      // stop once both workers are busy: task 2 starts after the request and sees it at once
      if (started.size === 2) stop.request();
    },
  });
  // tasks 0 and 1 were running when the stop came, and their loops ended; task 2 saw it at once
  assert.deepEqual(results.map((r) => r.stoppedAtStart), [false, false, true], JSON.stringify(results));
  assert.equal(results[2].count, 0);
});

test("unknown task kinds and bad worker counts are refused before any work", async () => {
  await assert.rejects(runTasks([{ kind: "no-such-kind", input: null }]), /unknown task kind "no-such-kind"/);
  await assert.rejects(runTasks(normals(2), { parallel: 0 }), /parallel must be an integer >= 1/);
});

test("transferablesOf finds the buffers of typed arrays in results, not Node Buffers", () => {
  const a = new Float64Array(3);
  const b = new Uint8Array(2);
  const found = transferablesOf({ a, nested: [{ b, sub: a.subarray(1) }], n: 1, s: "x", buf: Buffer.from("hi") });
  assert.deepEqual(new Set(found), new Set([a.buffer, b.buffer]));
});

test("workers use the backend this thread uses, also when it was chosen by setBackend", async (t) => {
  const before = getBackend();
  try {
    setBackend(jsBackend);
    assert.deepEqual(await runTasks([{ kind: "test-backend", input: null }, { kind: "test-backend", input: null }], { parallel: 2 }), ["js", "js"]);
    const native = loadNativeBackend();
    if (native !== undefined) {
      setBackend(native);
      assert.deepEqual(await runTasks([{ kind: "test-backend", input: null }], { parallel: 1 }), ["native"]);
    } else {
      prerequisiteMissing(t, "native addon not available: the workers were not checked on the native backend");
    }
  } finally {
    setBackend(before);
  }
});
