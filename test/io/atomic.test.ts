import { RUN_LOCK } from "../../src/io/runLock.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  AtomicFile,
  OUTPUT_MARKER,
  OutputError,
  checkOutputDir,
  prepareOutputDir,
  writeFileAtomic,
} from "../../src/io/index.js";
import { scratchDir } from "../fixtures.js";

test("an atomic file is invisible until commit, then complete", () => {
  const s = scratchDir();
  try {
    const path = join(s.dir, "out.txt");
    const f = new AtomicFile(path);
    f.write("first ");
    f.write("second\n");
    assert.equal(existsSync(path), false, "nothing under the final name before commit");
    assert.equal(s.entries().length, 1, "one temporary file");
    assert.ok(s.entries()[0].startsWith(".out.txt."), "the temporary file sits beside the target, hidden");
    f.commit();
    assert.equal(readFileSync(path, "utf8"), "first second\n");
    assert.deepEqual(s.entries(), ["out.txt"], "the temporary file is gone");
  } finally {
    s.cleanup();
  }
});

test("abort leaves nothing, and an existing file keeps its old content", () => {
  const s = scratchDir();
  try {
    const path = join(s.dir, "out.txt");
    writeFileSync(path, "old\n");
    const f = new AtomicFile(path);
    f.write("half a ");
    f.abort();
    f.abort(); // harmless twice
    assert.equal(readFileSync(path, "utf8"), "old\n");
    assert.deepEqual(s.entries(), ["out.txt"]);
    writeFileAtomic(path, "new\n");
    assert.equal(readFileSync(path, "utf8"), "new\n");
    assert.deepEqual(s.entries(), ["out.txt"]);
  } finally {
    s.cleanup();
  }
});

test("an atomic file in a path under a regular file fails with OutputError and writes nothing", () => {
  const s = scratchDir();
  try {
    writeFileSync(join(s.dir, "plain"), "x");
    assert.throws(() => new AtomicFile(join(s.dir, "plain", "out.txt")), (e: unknown) => e instanceof OutputError && /plain\/out\.txt": cannot be written: a part of the path is not a directory/.test(e.message));
    assert.deepEqual(s.entries(), ["plain"]);
  } finally {
    s.cleanup();
  }
});

test("prepareOutputDir creates nested directories with a marker, and files are recorded", () => {
  const s = scratchDir();
  try {
    const dir = join(s.dir, "a", "b", "run");
    const check = checkOutputDir(dir);
    assert.equal(check.action, "create");
    assert.equal(check.toCreate.length, 3);
    assert.deepEqual(s.entries(), [], "checking writes nothing");
    const out = prepareOutputDir(dir);
    // while the run is on, its lock names the process (runLock.ts)
    assert.deepEqual(readdirSync(dir).sort(), [OUTPUT_MARKER, RUN_LOCK]);
    let marker = JSON.parse(readFileSync(join(dir, OUTPUT_MARKER), "utf8"));
    assert.equal(marker.tool, "gpmcmc");
    assert.equal(marker.complete, false);
    out.writeText("draws_1.csv", "x\n");
    out.writeJson("summary.json", { a: 1 });
    out.finish();
    marker = JSON.parse(readFileSync(join(dir, OUTPUT_MARKER), "utf8"));
    assert.deepEqual(marker.files, ["draws_1.csv", "summary.json"]);
    assert.equal(marker.complete, true);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")), { a: 1 });
  } finally {
    s.cleanup();
  }
});

test("reusing our own directory removes the previous run's files but nothing else", () => {
  const s = scratchDir();
  try {
    const dir = join(s.dir, "run");
    const first = prepareOutputDir(dir);
    first.writeText("draws_1.csv", "1\n");
    first.writeText("draws_2.csv", "2\n");
    first.finish();
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    assert.equal(checkOutputDir(dir).action, "reuse-ours");
    const second = prepareOutputDir(dir);
    assert.deepEqual(readdirSync(dir).sort(), [OUTPUT_MARKER, RUN_LOCK, "notes.txt"], "stale chains are gone, the user's file stays");
    second.writeText("draws_1.csv", "new\n");
    second.finish(false);
    const marker = JSON.parse(readFileSync(join(dir, OUTPUT_MARKER), "utf8"));
    assert.deepEqual(marker.files, ["draws_1.csv"]);
    assert.equal(marker.complete, false);
  } finally {
    s.cleanup();
  }
});

test("an empty existing directory is used; a non-empty foreign one is refused unless forced", () => {
  const s = scratchDir();
  try {
    const empty = join(s.dir, "empty");
    mkdirSync(empty);
    assert.equal(checkOutputDir(empty).action, "reuse-empty");
    const foreign = join(s.dir, "foreign");
    mkdirSync(foreign);
    writeFileSync(join(foreign, "thesis.tex"), "precious\n");
    assert.throws(
      () => prepareOutputDir(foreign),
      (e: unknown) =>
        e instanceof OutputError &&
        e.message === `output ${JSON.stringify(foreign)}: the directory exists, is not empty and is not a gpmcmc output directory (it has no .gpmcmc file); choose a new directory, or use --force to write into it`,
    );
    assert.deepEqual(readdirSync(foreign), ["thesis.tex"], "refusal writes nothing");
    const out = prepareOutputDir(foreign, { force: true });
    out.writeText("draws_1.csv", "1\n");
    out.finish();
    assert.deepEqual(readdirSync(foreign).sort(), [OUTPUT_MARKER, "draws_1.csv", "thesis.tex"]);
    assert.equal(readFileSync(join(foreign, "thesis.tex"), "utf8"), "precious\n");
  } finally {
    s.cleanup();
  }
});

test("an output path under a regular file, or that is a file, is refused naming the path", () => {
  const s = scratchDir();
  try {
    const file = join(s.dir, "file.txt");
    writeFileSync(file, "x");
    const under = join(file, "deeper", "run");
    assert.throws(
      () => prepareOutputDir(under),
      (e: unknown) => e instanceof OutputError && e.message === `output ${JSON.stringify(under)}: cannot be created: ${JSON.stringify(file)} is a file, not a directory`,
    );
    assert.throws(() => checkOutputDir(file), (e: unknown) => e instanceof OutputError && e.message === `output ${JSON.stringify(file)}: exists and is not a directory`);
    assert.deepEqual(s.entries(), ["file.txt"]);
    assert.equal(readFileSync(file, "utf8"), "x");
  } finally {
    s.cleanup();
  }
});

test("a failure while preparing leaves the directory as it was", () => {
  const s = scratchDir();
  try {
    // The marker's name is taken by a directory: writing the marker fails after the checks pass.
    const dir = join(s.dir, "odd");
    mkdirSync(join(dir, OUTPUT_MARKER), { recursive: true });
    assert.throws(() => prepareOutputDir(dir, { force: true }), (e: unknown) => e instanceof OutputError && e.message.startsWith(`output ${JSON.stringify(dir)}: `));
    assert.deepEqual(readdirSync(dir), [OUTPUT_MARKER]);
    assert.deepEqual(readdirSync(join(dir, OUTPUT_MARKER)), []);
  } finally {
    s.cleanup();
  }
});

test("output file names must be plain names inside the directory", () => {
  const s = scratchDir();
  try {
    const out = prepareOutputDir(join(s.dir, "run"));
    assert.throws(() => out.writeText("../escape.txt", "x"));
    assert.throws(() => out.writeText(OUTPUT_MARKER, "x"));
    assert.deepEqual(s.entries(), ["run"]);
  } finally {
    s.cleanup();
  }
});
