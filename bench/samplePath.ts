// The files one `gpmcmc` command enters: run it with V8's coverage on (NODE_V8_COVERAGE, every
// thread, workers included), then count the files of dist/src it loaded and those in which it
// called at least one function besides the module's top level, by folder. With --root DIR it runs
// another built checkout's command instead (e.g. `git worktree add --detach /tmp/base main`, then
// `npm ci` there), so that two builds' paths can be set side by side. Also prints the count of
// source files by folder of that checkout. With --moves it runs the command a second time on an
// instrumented copy of the build (bench/pathTrace.ts) and counts the distinct moves between files
// and those back up a layer (scripts/layers.json).
//   npm run bench -- samplePath [--root DIR] [--json] [--moves] -- sample --data data/synth_tr.csv --lengthscale 1 ...
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { countMoves, instrumentedCopy, type Moves } from "./pathTrace.js";

interface FunctionCoverage {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
}

const argv = process.argv.slice(2);
const split = argv.indexOf("--");
const own = split < 0 ? argv : argv.slice(0, split);
const command = split < 0 ? [] : argv.slice(split + 1);
const rootAt = own.indexOf("--root");
const root = resolve(rootAt >= 0 ? own[rootAt + 1] : ".");
const json = own.includes("--json");
const withMoves = own.includes("--moves");
if (command.length === 0) {
  console.error("samplePath: give the gpmcmc command after --, e.g. -- sample --data data/synth_tr.csv --lengthscale 1 --signal-sd 1");
  process.exit(2);
}

const dist = join(root, "dist", "src");
const coverage = mkdtempSync(join(tmpdir(), "gpmcmc-path-"));
try {
  const r = spawnSync(process.execPath, [join(dist, "cli", "main.js"), ...command], { cwd: root, env: { ...process.env, NODE_V8_COVERAGE: coverage }, encoding: "utf8" });
  if (r.status !== 0) {
    console.error(`samplePath: the command failed (exit ${r.status}): ${r.stderr}`);
    process.exit(1);
  }
  const loaded = new Set<string>();
  const entered = new Set<string>();
  for (const name of readdirSync(coverage)) {
    const report = JSON.parse(readFileSync(join(coverage, name), "utf8")) as { result: { url: string; functions: FunctionCoverage[] }[] };
    for (const script of report.result) {
      if (!script.url.startsWith("file://")) continue;
      const path = fileURLToPath(script.url);
      if (!path.startsWith(dist + "/")) continue;
      const file = relative(dist, path);
      loaded.add(file);
      // the module's top level is the function whose range starts at 0; any other called function is an entry
      if (script.functions.some((f) => f.ranges[0].startOffset > 0 && f.ranges[0].count > 0)) entered.add(file);
    }
  }
  const byFolder = (files: Iterable<string>) => {
    const out: Record<string, number> = {};
    for (const f of files) {
      const folder = f.includes("/") ? f.slice(0, f.indexOf("/")) : f;
      out[folder] = (out[folder] ?? 0) + 1;
    }
    return Object.fromEntries(Object.entries(out).sort());
  };
  const sources = (dir: string): string[] => readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : n.endsWith(".ts") ? [relative(join(root, "src"), p)] : [];
  });
  const src = sources(join(root, "src"));
  let moves: Moves | undefined;
  if (withMoves) {
    const work = mkdtempSync(join(tmpdir(), "gpmcmc-moves-"));
    try {
      const { preload, files } = instrumentedCopy(root, work);
      const m = spawnSync(process.execPath, ["--import", preload, join(work, "dist", "src", "cli", "main.js"), ...command], { cwd: root, encoding: "utf8" });
      if (m.status !== 0) {
        console.error(`samplePath: the instrumented command failed (exit ${m.status}): ${m.stderr}`);
        process.exit(1);
      }
      const here = fileURLToPath(new URL("../../", import.meta.url));
      moves = countMoves(work, files, (JSON.parse(readFileSync(join(here, "scripts", "layers.json"), "utf8")) as { layers: string[][] }).layers);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const result = {
    root, command: command.join(" "),
    loaded: loaded.size, entered: entered.size, enteredByFolder: byFolder(entered),
    sourceFiles: src.length, sourceFilesByFolder: byFolder(src),
    ...(moves ? { moves: moves.moves, movesUp: moves.up, calls: moves.calls, callsUp: moves.callsUp, movesUpByFolders: moves.upByFolders } : {}),
  };
  if (json) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(`${result.command} (${root})`);
    console.log(`files loaded ${result.loaded}, entered ${result.entered}: ${Object.entries(result.enteredByFolder).map(([k, v]) => `${k} ${v}`).join(", ")}`);
    if (moves) {
      console.log(`moves between files ${moves.moves} (calls and returns), back up a layer ${moves.up}; calls ${moves.calls}, back up a layer ${moves.callsUp}`);
      console.log(`  up by folders: ${moves.upByFolders.map(([k, v]) => `${k} ${v}`).join(", ")}`);
    }
    console.log(`source files ${result.sourceFiles}: ${Object.entries(result.sourceFilesByFolder).map(([k, v]) => `${k} ${v}`).join(", ")}`);
  }
} finally {
  rmSync(coverage, { recursive: true, force: true });
}
