/**
 * Backend selection, in child processes (the choice is made once per process): fallback to js
 * with one stderr line when the addon is missing, GPMCMC_BACKEND=native as an error then, and
 * the install script never failing `npm ci`. A missing addon is simulated by pointing
 * GPMCMC_NATIVE_ADDON at a file that does not exist.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nativeSkip } from "./helpers.js";

const root = fileURLToPath(new URL("../../../", import.meta.url)); // dist/test/linalg -> package root
const cli = join(root, "dist/src/cli/main.js");
const index = join(root, "dist/src/index.js");

function run(args: string[], env: Record<string, string | undefined>, cwd = root) {
  const e: NodeJS.ProcessEnv = { ...process.env };
  delete e.GPMCMC_BACKEND;
  delete e.GPMCMC_NATIVE_ADDON;
  for (const [k, v] of Object.entries(env)) if (v !== undefined) e[k] = v;
  const r = spawnSync(process.execPath, args, { env: e, cwd, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Factorises two matrices above the small-order cutoff and prints the backend used.
const useLibrary = `
const m = await import(${JSON.stringify(index)});
for (let r = 0; r < 2; r++) {
  const n = 40, a = new m.Matrix(n, n);
  for (let i = 0; i < n; i++) a.set(i, i, 2);
  m.cholesky(a);
}
process.stdout.write(m.getBackend().name);
`;
const missing = { GPMCMC_NATIVE_ADDON: "/nonexistent/gpmcmc_native.node" };

test("without the addon the library runs on js and says so once on stderr", () => {
  const r = run(["--input-type=module", "-e", useLibrary], missing);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "js");
  const lines = r.stderr.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /^gpmcmc: using the pure TypeScript linear-algebra backend .*apt-get install libopenblas-dev/);
});

test("GPMCMC_BACKEND=native without the addon is an error, in the library and the CLI", () => {
  const lib = run(["--input-type=module", "-e", useLibrary], { ...missing, GPMCMC_BACKEND: "native" });
  assert.notEqual(lib.status, 0);
  assert.match(lib.stderr, /BackendError: GPMCMC_BACKEND=native, but the native addon is not available/);
  const c = run([cli, "info"], { ...missing, GPMCMC_BACKEND: "native" });
  assert.equal(c.status, 2);
  assert.equal(c.stdout, "");
  // One clear line, no stack trace.
  assert.match(c.stderr, /^gpmcmc: GPMCMC_BACKEND=native, but the native addon is not available \(Cannot find module .*\)\. Install OpenBLAS .*\n$/);
});

test("GPMCMC_BACKEND must be js or native", () => {
  const c = run([cli, "info"], { GPMCMC_BACKEND: "fast" });
  assert.equal(c.status, 2);
  assert.match(c.stderr, /^gpmcmc: GPMCMC_BACKEND must be "js" or "native", not "fast"\n$/);
});

test("gpmcmc info on js reports why native is not used", () => {
  const forced = run([cli, "info", "--json"], { GPMCMC_BACKEND: "js" });
  assert.equal(forced.status, 0, forced.stderr);
  assert.equal(forced.stderr, "");
  const j = JSON.parse(forced.stdout);
  assert.equal(j.backend, "js");
  assert.equal(j.threads, 1);
  assert.equal(j.nativeUnavailable, "not selected (GPMCMC_BACKEND=js)");
  const absent = run([cli, "info"], missing);
  assert.equal(absent.status, 0, absent.stderr);
  assert.match(absent.stdout, /^linear algebra: js \(pure TypeScript\)$/m);
  assert.match(absent.stdout, /^native backend: Cannot find module/m);
});

test("gpmcmc info with the addon: backend, OpenBLAS core and threads", { skip: nativeSkip }, () => {
  const r = run([cli, "info", "--json"], {});
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.backend, "native");
  assert.match(j.library, /^OpenBLAS /);
  assert.ok(j.core.length > 0 && j.threads >= 1 && j.cores >= 1);
  const t = run([cli, "info"], { OPENBLAS_NUM_THREADS: "1" });
  assert.match(t.stdout, /^linear algebra: native \(OpenBLAS [^)]*\)$/m);
  assert.match(t.stdout, /^OpenBLAS core: \S+/m);
  assert.match(t.stdout, /^threads: 1 of \d+ cores$/m);
});

test("the install script never fails the install when the addon cannot be built", () => {
  const dir = mkdtempSync(join(tmpdir(), "gpmcmc-build-"));
  try {
    copyFileSync(join(root, "binding.gyp"), join(dir, "binding.gyp"));
    // node-gyp failing as it does when OpenBLAS is missing (the link step finds no -lopenblas).
    const fakeGyp = join(dir, "fake-node-gyp.mjs");
    writeFileSync(fakeGyp, "console.error('ld: cannot find -lopenblas'); process.exit(1);\n");
    const script = join(root, "scripts/buildNative.mjs");
    const failed = run([script], { npm_config_node_gyp: fakeGyp }, dir);
    assert.equal(failed.status, 0);
    assert.match(failed.stderr, /could not be built; the pure TypeScript backend will be used/);
    assert.match(failed.stderr, /apt-get install libopenblas-dev/);
    const noGyp = run([script], { npm_config_node_gyp: "" }, dir);
    assert.equal(noGyp.status, 0);
    assert.match(noGyp.stderr, /node-gyp not found/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
