#!/usr/bin/env node
// Install step: builds the OpenBLAS addon when OpenBLAS is present. Never fails the install:
// without it the library runs on the pure TypeScript backend.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const gyp = process.env.npm_config_node_gyp;
if (!existsSync("binding.gyp")) process.exit(0);
if (!gyp) {
  console.error("gpmcmc: node-gyp not found; skipping the native OpenBLAS backend (the pure TypeScript one will be used).");
  process.exit(0);
}
const r = spawnSync(process.execPath, [gyp, "rebuild"], { stdio: ["ignore", "inherit", "inherit"] });
if (r.status !== 0) {
  console.error("gpmcmc: the native OpenBLAS backend could not be built; the pure TypeScript backend will be used.\n" +
    "gpmcmc: for the fast one: apt-get install libopenblas-dev, then npm ci (or npm rebuild).");
}
process.exit(0);
