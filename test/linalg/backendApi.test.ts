/**
 * The backend contract apart from the arithmetic: in-place work on typed-array views (byte
 * offsets included), the same typed errors for bad calls on both backends (the native one must
 * never read past an array), thread control, and describe().
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import { DimensionError, jsBackend } from "../../src/linalg/index.js";
import type { LinalgBackend } from "../../src/linalg/index.js";
import { backends, native, nativeSkip, SENTINEL } from "./helpers.js";

const f = (n: number, v = 1) => new Float64Array(n).fill(v);

/** Bad calls, each with the error class both backends must raise and a pattern of its message. */
const badCalls: [string, (be: LinalgBackend) => unknown, new (...a: never[]) => Error, RegExp][] = [
  ["potrf a too short", (be) => be.potrf("L", 3, f(8), 3), DimensionError, /potrf: a has 8 entries, needs at least 9 \(3 x 3 with leading dimension 3\)/],
  ["potrf lda < n", (be) => be.potrf("L", 3, f(9), 2), DimensionError, /potrf: lda must be an integer >= 3, got 2/],
  ["potrf negative n", (be) => be.potrf("L", -1, f(9), 3), DimensionError, /potrf: n must be an integer between 0 and 2147483647, got -1/],
  ["potrf fractional n", (be) => be.potrf("L", 2.5, f(9), 3), DimensionError, /got 2\.5/],
  ["potrf bad uplo", (be) => be.potrf("X" as "L", 3, f(9), 3), TypeError, /potrf: uplo must be "L" or "U"/],
  ["potrf lower-case uplo", (be) => be.potrf("l" as "L", 3, f(9), 3), TypeError, /uplo/],
  ["potrf plain array", (be) => be.potrf("L", 1, [4] as unknown as Float64Array, 1), TypeError, /potrf: a must be a Float64Array/],
  ["potrf Float32Array", (be) => be.potrf("L", 1, new Float32Array(1) as unknown as Float64Array, 1), TypeError, /Float64Array/],
  ["potrf missing argument", (be) => (be.potrf as (...a: unknown[]) => number)("L", 3, f(9)), TypeError, /potrf: expected 4 arguments, got 3/],
  ["potrf string n", (be) => be.potrf("L", "3" as unknown as number, f(9), 3), TypeError, /potrf: n must be a number/],
  ["trsm side R checks A against n", (be) => be.trsm("R", "L", "N", "N", 2, 4, 1, f(15), 4, f(8), 2), DimensionError, /trsm: a has 15 entries, needs at least 16/],
  ["trsm b too short", (be) => be.trsm("L", "L", "N", "N", 4, 3, 1, f(16), 4, f(11), 4), DimensionError, /trsm: b has 11 entries, needs at least 12/],
  ["trsm ldb < m", (be) => be.trsm("L", "L", "N", "N", 4, 3, 1, f(16), 4, f(12), 3), DimensionError, /trsm: ldb must be an integer >= 4/],
  ["trsm bad diag", (be) => be.trsm("L", "L", "N", "X" as "N", 1, 1, 1, f(1), 1, f(1), 1), TypeError, /trsm: diag must be "N" or "U"/],
  ["trsv x too short", (be) => be.trsv("L", "N", "N", 3, f(9), 3, f(2)), DimensionError, /trsv: x has 2 entries, needs at least 3/],
  ["syrk trans T: A is k x n", (be) => be.syrk("L", "T", 3, 5, 1, f(14), 5, 0, f(9), 3), DimensionError, /syrk: a has 14 entries, needs at least 15 \(5 x 3/],
  ["syrk c too short", (be) => be.syrk("U", "N", 3, 2, 1, f(6), 3, 0, f(8), 3), DimensionError, /syrk: c has 8 entries/],
  ["syrk alpha not a number", (be) => be.syrk("U", "N", 3, 2, "1" as unknown as number, f(6), 3, 0, f(9), 3), TypeError, /syrk: alpha must be a number/],
  ["gemm transA T: A is k x m", (be) => be.gemm("T", "N", 2, 2, 3, 1, f(5), 3, f(6), 3, 0, f(4), 2), DimensionError, /gemm: a has 5 entries, needs at least 6 \(3 x 2/],
  ["gemm lda < rows of A", (be) => be.gemm("N", "N", 2, 2, 3, 1, f(6), 1, f(6), 3, 0, f(4), 2), DimensionError, /gemm: lda must be an integer >= 2, got 1/],
  ["gemm c too short for ldc", (be) => be.gemm("N", "N", 2, 2, 3, 1, f(6), 2, f(6), 3, 0, f(4), 3), DimensionError, /gemm: c has 4 entries, needs at least 5/],
  // Two faults: every leading dimension is checked before any array's length, on both backends.
  ["gemm short a and bad ldc: ldc first", (be) => be.gemm("N", "N", 2, 2, 3, 1, f(5), 2, f(6), 3, 0, f(4), 1), DimensionError, /gemm: ldc must be an integer >= 2, got 1/],
  ["syrk short a and bad ldc: ldc first", (be) => be.syrk("L", "N", 3, 2, 1, f(5), 3, 0, f(9), 2), DimensionError, /syrk: ldc must be an integer >= 3, got 2/],
  ["trsm short a and bad ldb: ldb first", (be) => be.trsm("L", "L", "N", "N", 4, 3, 1, f(15), 4, f(12), 3), DimensionError, /trsm: ldb must be an integer >= 4, got 3/],
  ["gemv trans T: x has m entries", (be) => be.gemv("T", 3, 2, 1, f(6), 3, f(2), 0, f(2)), DimensionError, /gemv: x has 2 entries, needs at least 3/],
  ["gemv y too short", (be) => be.gemv("N", 3, 2, 1, f(6), 3, f(2), 0, f(2)), DimensionError, /gemv: y has 2 entries, needs at least 3/],
  ["symv y too short", (be) => be.symv("L", 3, 1, f(9), 3, f(3), 0, f(2)), DimensionError, /symv: y has 2 entries, needs at least 3/],
  ["scaleRows b too short", (be) => be.scaleRows(3, 2, f(3), f(6), 3, f(5), 3), DimensionError, /scaleRows: b has 5 entries, needs at least 6/],
  ["scaleRows w too short", (be) => be.scaleRows(3, 2, f(2), f(6), 3, f(6), 3), DimensionError, /scaleRows: w has 2 entries, needs at least 3/],
  ["scaleRows ldb < m", (be) => be.scaleRows(3, 2, f(3), f(6), 3, f(6), 2), DimensionError, /scaleRows: ldb must be an integer >= 3, got 2/],
  ["rowSumsOfSquares out too short", (be) => be.rowSumsOfSquares(3, 2, f(6), 3, f(2)), DimensionError, /rowSumsOfSquares: out has 2 entries, needs at least 3/],
  ["rowSumsOfSquares a too short", (be) => be.rowSumsOfSquares(3, 2, f(5), 3, f(3)), DimensionError, /rowSumsOfSquares: a has 5 entries, needs at least 6/],
  ["logisticWeightRoots out too short", (be) => be.logisticWeightRoots(3, f(3), f(2)), DimensionError, /logisticWeightRoots: out has 2 entries, needs at least 3/],
  ["logisticWeightRoots e not a Float64Array", (be) => be.logisticWeightRoots(1, [0] as unknown as Float64Array, f(1)), TypeError, /logisticWeightRoots: e must be a Float64Array/],
  ["crossWeightedSquares w too short", (be) => be.crossWeightedSquares(3, 2, f(6), 3, f(2), f(2), f(3), f(2)), DimensionError, /crossWeightedSquares: w has 2 entries, needs at least 3/],
  ["crossWeightedSquares lda < m", (be) => be.crossWeightedSquares(3, 2, f(6), 2, f(2), f(3), f(3), f(2)), DimensionError, /crossWeightedSquares: lda must be an integer >= 3, got 2/],
  ["setThreads 0", (be) => be.setThreads(0), RangeError, /setThreads: the thread count must be an integer between 1 and 1024/],
  ["setThreads 1.5", (be) => be.setThreads(1.5), RangeError, /setThreads/],
];

for (const { name, be, skip } of backends) {
  describe(`${name} backend contract`, { skip }, () => {
    test("bad calls raise typed errors and change nothing", () => {
      for (const [label, call, cls, pattern] of badCalls) {
        assert.throws(() => call(be!), (e: unknown) => {
          assert.ok(e instanceof cls, `${label}: got ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
          assert.match((e as Error).message, pattern, label);
          assert.equal((e as Error).name, cls.name, `${label}: the error's name`);
          return true;
        });
      }
      // A failing check leaves the arrays alone (nothing is computed before all checks pass).
      const c = f(4, SENTINEL);
      assert.throws(() => be!.gemm("N", "N", 2, 2, 3, 1, f(6), 2, f(5), 3, 0, c, 2), DimensionError);
      assert.deepEqual(c, f(4, SENTINEL));
    });

    test("works in place on views with a byte offset and touches nothing outside them", () => {
      // A 5 x 5 SPD matrix inside a bigger buffer, starting at element 3, leading dimension 6.
      const n = 5;
      const ld = 6;
      const buf = new Float64Array(3 + ld * n + 4).fill(SENTINEL);
      const view = buf.subarray(3, 3 + ld * (n - 1) + n);
      for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) view[i + j * ld] = (i === j ? n : 0) + 1 / (1 + i + j);
      const copy = new Float64Array(ld * n);
      for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) copy[i + j * ld] = view[i + j * ld];
      assert.equal(be!.potrf("L", n, view, ld), 0);
      assert.equal(jsBackend.potrf("L", n, copy, ld), 0);
      for (let j = 0; j < n; j++) for (let i = j; i < n; i++) assert.ok(Math.abs(view[i + j * ld] - copy[i + j * ld]) < 1e-14);
      for (let k = 0; k < 3; k++) assert.equal(buf[k], SENTINEL, "before the view");
      for (let k = 3 + view.length; k < buf.length; k++) assert.equal(buf[k], SENTINEL, "after the view");
      for (let j = 0; j < n - 1; j++) assert.equal(view[n + j * ld], SENTINEL, "padding row");

      // Vectors as views of one shared buffer: y <- A x with x and y in the same ArrayBuffer.
      const vec = new Float64Array(12).fill(SENTINEL);
      const x = vec.subarray(1, 4);
      const y = vec.subarray(6, 9);
      x.set([1, 2, 3]);
      const a = Float64Array.from([1, 0, 0, 0, 2, 0, 0, 0, 3]);
      be!.gemv("N", 3, 3, 1, a, 3, x, 0, y);
      assert.deepEqual([...y], [1, 4, 9]);
      assert.deepEqual([...vec.subarray(9)], [SENTINEL, SENTINEL, SENTINEL]);
      assert.equal(vec[0], SENTINEL);
      assert.deepEqual([...vec.subarray(4, 6)], [SENTINEL, SENTINEL]);
    });

    test("threads and describe()", () => {
      const d = be!.describe();
      assert.equal(d.backend, be!.name);
      assert.ok(d.threads >= 1);
      const before = be!.getThreads();
      be!.setThreads(1);
      assert.equal(be!.getThreads(), 1);
      if (be!.name === "native") {
        assert.match(d.library, /^OpenBLAS \d+\.\d+/);
        assert.ok(typeof d.core === "string" && d.core.length > 0);
        assert.ok(typeof d.cores === "number" && d.cores >= 1);
        assert.match(d.config ?? "", /OpenBLAS/);
        be!.setThreads(2);
        assert.equal(be!.getThreads(), 2);
        assert.equal(be!.describe().threads, 2);
      }
      be!.setThreads(before);
    });
  });
}

describe("native addon details", { skip: nativeSkip }, () => {
  test("the backend object is frozen and named", () => {
    assert.equal(native!.name, "native");
    assert.ok(Object.isFrozen(native));
  });

  test("the same result with 1 and 2 OpenBLAS threads", () => {
    const n = 300;
    const a = new Float64Array(n * n);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) a[i + j * n] = Math.exp(-((i - j) ** 2) / 50) + (i === j ? 0.1 : 0);
    const before = native!.getThreads();
    const results = [1, 2].map((t) => {
      native!.setThreads(t);
      const c = a.slice();
      assert.equal(native!.potrf("L", n, c, n), 0);
      return c;
    });
    native!.setThreads(before);
    let worst = 0;
    for (let k = 0; k < n * n; k++) worst = Math.max(worst, Math.abs(results[0][k] - results[1][k]));
    assert.ok(worst < 1e-12, `max difference ${worst}`);
  });
});

test("the addon works in worker threads (one per chain), each with its own error class", { skip: nativeSkip }, async () => {
  const index = new URL("../../src/index.js", import.meta.url).href;
  const code = `
    const { parentPort } = require("node:worker_threads");
    import(${JSON.stringify(index)}).then((m) => {
      const be = m.loadNativeBackend();
      be.setThreads(1);
      const a = new Float64Array([4, 2, 2, 3]);
      const info = be.potrf("L", 2, a, 2);
      let error = "";
      try { be.potrf("L", 3, a, 3); } catch (e) { error = (e instanceof m.DimensionError) + " " + e.name; }
      parentPort.postMessage({ info, l: [...a], error });
    });`;
  const results = await Promise.all([0, 1].map(() => new Promise<{ info: number; l: number[]; error: string }>((resolve, reject) => {
    const w = new Worker(code, { eval: true });
    w.once("message", (m) => resolve(m));
    w.once("error", reject);
  })));
  for (const r of results) {
    assert.equal(r.info, 0);
    assert.deepEqual(r.l, [2, 1, 2, Math.sqrt(2)]);
    assert.equal(r.error, "true DimensionError");
  }
  // The main thread's backend still works after the workers have gone.
  const a = new Float64Array([9]);
  assert.equal(native!.potrf("L", 1, a, 1), 0);
  assert.equal(a[0], 3);
});
