/** Paths of test fixtures and scratch directories (tests run from dist/test/...). */
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { fileURLToPath } from "node:url";

/** The repository root (dist/test/fixtures.js is three levels below it). */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export function fixture(...parts: string[]): string {
  return join(REPO_ROOT, "test", "fixtures", ...parts);
}

/**
 * A real data set shipped in data/ (provenance and sha256 in data/README.md). The tests need
 * it, so a missing file is an error, not a reason to skip.
 */
export function dataFile(name: string): string {
  const p = join(REPO_ROOT, "data", name);
  if (!existsSync(p)) throw new Error(`${p} is missing: the repository ships it (see data/README.md)`);
  return p;
}

/** True where the tests run under CI (CI=true, as CI services set it). */
export function underCi(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false";
}

const reported = new Set<string>();

/**
 * The `skip` option of tests that need something from outside the repository (the native
 * OpenBLAS addon, Chromium), given why it is missing (false: present, run). A skip is never
 * silent: the reason goes to stderr, which the test runner shows, besides the runner's own
 * "# SKIP" line. Under CI a missing prerequisite fails instead: CI installs them (.ci/run), so
 * their absence there is a broken set-up, and a green run must mean every test ran. (The
 * dependent tests still skip there, so the failure is the one test that names the reason.)
 */
export function skipUnlessAvailable(missing: string | false): string | false {
  if (missing === false) return false;
  if (!reported.has(missing)) {
    reported.add(missing);
    if (underCi()) {
      test(`prerequisite under CI: ${missing}`, () => {
        throw new Error(`CI is set and a prerequisite is missing, so the tests that need it cannot run: ${missing}`);
      });
    } else {
      process.stderr.write(`SKIPPED (prerequisite missing): ${missing}\n`);
    }
  }
  return missing;
}

/** The same for a check inside a test: fails under CI, else says on stderr and in the test's diagnostics what was not checked. */
export function prerequisiteMissing(t: TestContext, missing: string): void {
  if (underCi()) throw new Error(`CI is set and a prerequisite is missing: ${missing}`);
  process.stderr.write(`SKIPPED part of "${t.name}" (prerequisite missing): ${missing}\n`);
  t.diagnostic(`part skipped: ${missing}`);
}

/** A fresh empty directory; `cleanup` removes it. */
export function scratchDir(): { dir: string; cleanup: () => void; entries: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), "gpmcmc-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }), entries: () => readdirSync(dir).sort() };
}

/** Every file and directory under dir with its content (bytes as latin1 text), to compare a directory before and after a command. */
export function snapshotDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const rel = prefix + e.name;
      if (e.isSymbolicLink()) out[rel] = `-> ${readlinkSync(join(d, e.name))}`; // a link is not followed (it may lead to /proc)
      else if (e.isDirectory()) {
        out[rel + "/"] = "";
        walk(join(d, e.name), rel + "/");
      } else out[rel] = readFileSync(join(d, e.name), "latin1");
    }
  };
  walk(dir, "");
  return out;
}

/** The TypeScript sources under a folder (declaration files left out), searched recursively. */
export function typeScriptSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...typeScriptSources(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}
