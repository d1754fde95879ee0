import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { AIS_TRACE_FILE, checkAisTrace, DataError, parseAisTrace, readAisTrace, writeAisTrace, type AisTrace } from "../../src/io/index.js";
import { scratchDir } from "../fixtures.js";

const good = (): AisTrace => ({
  logZ: -10.5,
  standardError: 0.2,
  runs: [
    { run: 1, points: [{ seconds: 0, temperature: 0, logWeight: 0 }, { seconds: 1.5, temperature: 0.5, logWeight: -4 }, { seconds: 3, temperature: 1, logWeight: -10.4 }] },
    { run: 2, points: [{ seconds: 0, temperature: 0, logWeight: 0 }, { seconds: 2.5, temperature: 1, logWeight: -10.7 }] },
  ],
  references: [{ label: "EP", logZ: -10.9 }, { label: "corrected EP", logZ: -10.6, standardError: 0.01 }],
});

test("an AIS trace is written atomically and read back the same", () => {
  const s = scratchDir();
  try {
    const path = join(s.dir, AIS_TRACE_FILE);
    writeAisTrace(path, good());
    assert.deepEqual(s.entries(), ["ais.json"]);
    assert.deepEqual(readAisTrace(path), good());
    // Unknown fields are dropped, the optional ones may be left out.
    const { references: _r, ...plain } = good();
    assert.deepEqual(checkAisTrace({ ...plain, note: "x" }, "t"), plain);
  } finally {
    s.cleanup();
  }
});

test("a bad AIS trace names the file and the field", () => {
  const cases: [(t: Record<string, unknown>) => unknown, string][] = [
    [() => [1, 2], "the file: must hold a JSON object with logZ, standardError and runs, got [1,2]"],
    [(t) => ({ ...t, logZ: "high" }), 'logZ: must be a finite number, got "high"'],
    [(t) => ({ ...t, logZ: undefined }), "logZ: is missing (a finite number)"],
    [(t) => ({ ...t, standardError: -1 }), "standardError: must be >= 0, got -1"],
    [(t) => ({ ...t, runs: {} }), "runs: must be a non-empty array of runs, got {}"],
    [(t) => ({ ...t, runs: [{ run: 0, points: [] }] }), "runs[0].run: must be a whole number >= 1, got 0"],
    [(t) => ({ ...t, runs: [(t.runs as unknown[])[0], (t.runs as unknown[])[0]] }), "runs[1].run: run 1 appears more than once"],
    [(t) => ({ ...t, runs: [{ run: 1, points: [] }] }), "runs[0].points: must be a non-empty array of points, got []"],
    [(t) => ({ ...t, runs: [{ run: 1, points: [{ seconds: -1, temperature: 0, logWeight: 0 }] }] }), "runs[0].points[0].seconds: must be >= 0, got -1"],
    [(t) => ({ ...t, runs: [{ run: 1, points: [{ seconds: 0, temperature: 1.5, logWeight: 0 }] }] }), "runs[0].points[0].temperature: must be in [0, 1], got 1.5"],
    [(t) => ({ ...t, runs: [{ run: 1, points: [{ seconds: 0, temperature: 1, logWeight: null }] }] }), "runs[0].points[0].logWeight: must be a finite number, got null"],
    [
      (t) => ({ ...t, runs: [{ run: 1, points: [{ seconds: 2, temperature: 0, logWeight: 0 }, { seconds: 1, temperature: 1, logWeight: -1 }] }] }),
      "runs[0].points[1].seconds: is less than the point before (2): time must not decrease within a run, got 1",
    ],
    [
      (t) => ({ ...t, runs: [{ run: 1, points: [{ seconds: 0, temperature: 0.5, logWeight: 0 }, { seconds: 1, temperature: 0.25, logWeight: -1 }] }] }),
      "runs[0].points[1].temperature: is less than the point before (0.5): temperature must not decrease within a run, got 0.25",
    ],
    [(t) => ({ ...t, references: [{ label: "", logZ: 1 }] }), 'references[0].label: must be a non-empty string, got ""'],
    [(t) => ({ ...t, references: [{ label: "EP", logZ: 1, standardError: -0.5 }] }), "references[0].standardError: must be >= 0, got -0.5"],
  ];
  for (const [make, message] of cases) {
    const text = JSON.stringify(make(good() as unknown as Record<string, unknown>));
    assert.throws(
      () => parseAisTrace(text, "run/ais.json"),
      (e: unknown) => e instanceof DataError && e.message === `run/ais.json: ${message}`,
      message,
    );
  }
  // JSON syntax errors say where, when the parser gives a position.
  assert.throws(
    () => parseAisTrace('{\n  "logZ": 1,\n}\n', "ais.json"),
    (e: unknown) => e instanceof DataError && e.line === 3 && e.column === 1 && /^ais\.json:3:1: not valid JSON: /.test(e.message),
  );
  assert.throws(() => parseAisTrace('{"runs": [}', "ais.json"), (e: unknown) => e instanceof DataError && /^ais\.json(:\d+:\d+)?: not valid JSON: /.test(e.message));
  assert.throws(() => readAisTrace("/no/such/ais.json"), (e: unknown) => e instanceof DataError && e.message === "/no/such/ais.json: no such file");
  // Nothing is written for a bad trace.
  const s = scratchDir();
  try {
    assert.throws(() => writeAisTrace(join(s.dir, "ais.json"), { ...good(), logZ: NaN }), DataError);
    assert.deepEqual(s.entries(), []);
  } finally {
    s.cleanup();
  }
});
