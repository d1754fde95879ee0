#!/usr/bin/env node
// Runs a benchmark: node scripts/runBench.mjs <name> [args ...] runs dist/bench/<name>.js with
// the args (npm run bench -- <name> ... compiles the TypeScript first). C yardsticks in bench/
// (bench/*.c) are compiled first, against OpenBLAS, when their source is newer than the binary;
// without a C compiler or OpenBLAS the benchmark runs without them and says so.
import { existsSync, readdirSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";

const [name, ...args] = process.argv.slice(2);
const available = existsSync("dist/bench")
  ? readdirSync("dist/bench").filter((f) => f.endsWith(".js")).map((f) => f.slice(0, -3))
  : [];
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <name> [args]; benchmarks: ${available.join(", ") || "none built (run npm run build)"}`);
  process.exit(2);
}

for (const src of readdirSync("bench").filter((f) => f.endsWith(".c"))) {
  const bin = `bench/${src.slice(0, -2)}`;
  if (existsSync(bin) && statSync(bin).mtimeMs >= statSync(`bench/${src}`).mtimeMs) continue;
  const cc = process.env.CC || "cc";
  const r = spawnSync(cc, ["-O2", `bench/${src}`, "-o", bin, "-lopenblas", "-lm"], { stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) console.error(`runBench: could not compile bench/${src} (${cc}, -lopenblas); running without it`);
}

const r = spawnSync(process.execPath, [`dist/bench/${name}.js`, ...args], { stdio: "inherit" });
process.exit(r.status ?? 1);
