/**
 * The README's API example is test/api/readmeExample.ts verbatim, and it runs: compiled, as a
 * user would run it, importing the package by its name.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../fixtures.js";

const EXAMPLE = join(REPO_ROOT, "test", "api", "readmeExample.ts");

test("README: the API section's example is test/api/readmeExample.ts, verbatim", () => {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const api = readme.slice(readme.indexOf("\n## API\n"));
  const block = /```ts\n([\s\S]*?)```/.exec(api);
  assert.ok(block, "no ts code block in the API section");
  assert.equal(block[1], readFileSync(EXAMPLE, "utf8"));
});

test("README: the API example runs and prints its figures", () => {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, "dist", "test", "api", "readmeExample.js")], {
    encoding: "utf8",
    env: { ...process.env, GPMCMC_BACKEND: "js" },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^f\.1: ESS \d+ from 2 x 200 draws\nmin ESS \d+, max R-hat 1\.\d{3}, complete: true\n$/);
});
