/**
 * Every low-level routine of both backends, every variant, n in {1, 2, 3, 17, 64, 200}: checked
 * against naive loops (cases.ts) and against each other. The native tests skip, with the reason,
 * when the addon is not built; the js ones always run.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { jsBackend } from "../../src/linalg/index.js";
import { backends, native, nativeSkip, SENTINEL } from "./helpers.js";
import { casesAt, degenerateCases } from "./cases.js";

const SIZES = [1, 2, 3, 17, 64, 200];

for (const { name, be, skip } of backends) {
  describe(`${name} backend against naive loops`, { skip }, () => {
    for (const s of SIZES) {
      test(`all routines and variants, n = ${s}`, () => {
        for (const c of casesAt(s)) {
          const err = c.verify(c.exec(be!));
          assert.equal(err, "", `${c.label}: ${err}`);
        }
      });
    }
    test("empty shapes", () => {
      for (const c of degenerateCases()) {
        const err = c.verify(c.exec(be!));
        assert.equal(err, "", `${c.label}: ${err}`);
      }
    });
  });
}

describe("js and native backends agree", { skip: nativeSkip }, () => {
  for (const s of SIZES) {
    test(`n = ${s}`, () => {
      for (const c of casesAt(s)) {
        const a = c.exec(jsBackend);
        const b = c.exec(native!);
        // Both already pass the rounding-error bounds above; here they must also be close to
        // each other, relative to the size of the output (the inputs are well conditioned).
        let scale = 1e-300;
        for (let k = 0; k < a.length; k++) if (a[k] !== SENTINEL && Number.isFinite(a[k])) scale = Math.max(scale, Math.abs(a[k]));
        let worst = 0;
        for (let k = 0; k < a.length; k++) {
          if (Number.isNaN(a[k]) && Number.isNaN(b[k])) continue;
          worst = Math.max(worst, Math.abs(a[k] - b[k]) / scale);
        }
        assert.ok(worst <= 1e-12, `${c.label}: max difference ${worst} relative to max |output|`);
      }
    });
  }
});
