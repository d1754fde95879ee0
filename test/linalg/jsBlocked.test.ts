/**
 * The blocked and packed code of the js backend, run on small matrices by shrinking its block
 * sizes, so that every edge (a last block shorter than the others, partial micro-tiles, one
 * block, many blocks) is met at sizes where naive loops check it cheaply. At the default sizes
 * only n = 200 in kernels.test.ts reaches the blocked code.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { jsBackend } from "../../src/linalg/index.js";
import { jsTuning } from "../../src/linalg/js.js";
import { casesAt, gemmCase, potrfCase, syrkCase, trsmCase } from "./cases.js";
import { seKernelEntries } from "./helpers.js";

function withTuning(t: Partial<typeof jsTuning>, body: () => void): void {
  const saved = { ...jsTuning };
  Object.assign(jsTuning, t);
  try {
    body();
  } finally {
    Object.assign(jsTuning, saved);
  }
}

for (const nb of [1, 3, 8]) {
  test(`blocked js routines with block size ${nb}`, () => {
    withTuning({ nb, blockedFrom: 2, gemmPackedFrom: 1 }, () => {
      for (const s of [2, 3, 5, 17, 23]) {
        for (const c of casesAt(s)) {
          const err = c.verify(c.exec(jsBackend));
          assert.equal(err, "", `nb=${nb}: ${c.label}: ${err}`);
        }
      }
    });
  });
}

test("packed gemm across its KC, MC and NC panel boundaries", () => {
  // KC = 256, MC = 128, NC = 512: these shapes cross each boundary with a partial last panel.
  const shapes: [number, number, number][] = [[130, 7, 259], [257, 5, 9], [3, 515, 11], [129, 513, 257]];
  for (const [m, n, k] of shapes) {
    for (const tA of ["N", "T"] as const) for (const tB of ["N", "T"] as const) {
      const c = gemmCase(tA, tB, m, n, k);
      const err = c.verify(c.exec(jsBackend));
      assert.equal(err, "", `${c.label}: ${err}`);
    }
  }
});

test("blocked Cholesky, syrk and trsm at a size the default blocking splits unevenly (n = 211)", () => {
  const n = 211;
  for (const uplo of ["L", "U"] as const) {
    const c = potrfCase(n, uplo, seKernelEntries(n, 0.1, 1e-3));
    assert.equal(c.verify(c.exec(jsBackend)), "", c.label);
    const s = syrkCase(uplo, "T", n, 40);
    assert.equal(s.verify(s.exec(jsBackend)), "", s.label);
  }
  for (const side of ["L", "R"] as const) {
    const t = trsmCase(side, "L", "T", "N", side === "L" ? n : 9, side === "L" ? 9 : n);
    assert.equal(t.verify(t.exec(jsBackend)), "", t.label);
  }
});
