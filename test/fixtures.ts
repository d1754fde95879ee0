/** Paths of test fixtures and scratch directories (tests run from dist/test/...). */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (dist/test/fixtures.js is three levels below it). */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export function fixture(...parts: string[]): string {
  return join(REPO_ROOT, "test", "fixtures", ...parts);
}

/** A real data set from shared/data (beside the clone, or inside it), or undefined when absent. */
export function sharedData(name: string): string | undefined {
  for (const p of [join(REPO_ROOT, "..", "shared", "data", name), join(REPO_ROOT, "shared", "data", name)]) {
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** A fresh empty directory; `cleanup` removes it. */
export function scratchDir(): { dir: string; cleanup: () => void; entries: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), "gpmcmc-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }), entries: () => readdirSync(dir).sort() };
}
