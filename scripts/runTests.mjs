#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with node's built-in test runner.
// Usage: node scripts/runTests.mjs [substring ...]  -- only files whose path contains a substring.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...collect(p));
    else if (name.endsWith(".test.js")) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
let files = collect("dist/test").sort();
if (filters.length > 0) files = files.filter((f) => filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error("runTests: no test files matched");
  process.exit(1);
}
const r = spawnSync(process.execPath, ["--test", "--test-concurrency=2", ...files], { stdio: "inherit" });
process.exit(r.status ?? 1);
