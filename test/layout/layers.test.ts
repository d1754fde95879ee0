// The layers of DESIGN.md, checked on every import of src/, bench/ and experiments/: a file
// imports only from its own folder or from a lower layer; nothing in src/ imports test/ or bench/;
// no files import each other in a cycle. The checker is also fed synthetic imports (an upward
// one, one into test/, a cycle) and must report each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative } from "node:path";
import { REPO_ROOT, typeScriptSources as sourceFiles } from "../fixtures.js";

/** The layers, bottom up (scripts/layers.json, which says what they mean; bench/samplePath.ts reads it too). */
export const LAYERS: readonly (readonly string[])[] = (JSON.parse(readFileSync(join(REPO_ROOT, "scripts", "layers.json"), "utf8")) as { layers: string[][] }).layers;

/** An import of one repository file by another (paths relative to the root, with /). */
export interface ImportEdge {
  from: string;
  to: string;
}

/** The unit a path belongs to: its first two segments under src/ (a folder, or a file at the top of src/), else its first. */
function unitOf(path: string): string {
  const parts = path.split("/");
  return parts[0] === "src" ? parts.slice(0, 2).join("/") : parts[0];
}

function layerOf(unit: string): number {
  return LAYERS.findIndex((layer) => layer.includes(unit));
}

/** One line per import that breaks the layering, or that starts or ends in a folder the table does not place. */
export function layerViolations(edges: readonly ImportEdge[]): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    const a = unitOf(from);
    const b = unitOf(to);
    if (a === b) continue;
    const la = layerOf(a);
    const lb = layerOf(b);
    if (la < 0) out.push(`${from}: its folder ${a} is in no layer`);
    else if (lb < 0) out.push(`${from} imports ${to}, outside the layers (${b})`);
    else if (lb >= la) out.push(`${from} imports ${to}: ${b} is ${lb === la ? "in the same layer as" : "above"} ${a}`);
  }
  return out;
}

/** The import cycles among files: each strongly connected component of more than one file (or a file importing itself). */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from)!.push(to);
  }
  // Tarjan's algorithm, iterative so that deep import chains cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; i: number }[] = [{ node: root, i: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const succ = next.get(top.node)!;
      if (top.i < succ.length) {
        const w = succ[top.i++];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== top.node);
        if (component.length > 1 || succ.includes(top.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

/** The module specifiers a TypeScript source imports or re-exports (static and literal dynamic imports), comments left out. */
export function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out: string[] = [];
  for (const re of [/\b(?:import|export)\s[^;'"]*?\bfrom\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, /^\s*import\s*["']([^"']+)["']/gm]) {
    for (const m of code.matchAll(re)) out.push(m[1]);
  }
  return out;
}

/** Every relative import of src/, bench/ and experiments/ (package imports such as "commander" are not layers). */
function repositoryImports(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const top of ["src", "bench", "experiments"]) {
    for (const file of sourceFiles(join(REPO_ROOT, top))) {
      const from = relative(REPO_ROOT, file).split("\\").join("/");
      for (const spec of importSpecifiers(readFileSync(file, "utf8"))) {
        if (!spec.startsWith(".")) continue;
        edges.push({ from, to: posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, ".ts") });
      }
    }
  }
  return edges;
}

test("every import of src/, bench/ and experiments/ goes down the layers, and none goes into test/", () => {
  const edges = repositoryImports();
  assert.ok(edges.length > 300, `only ${edges.length} imports found: the parser is missing some`);
  assert.ok(edges.some((e) => e.from === "src/cli/sample.ts" && e.to === "src/samplers/registry.ts"), "a known import was not found");
  assert.deepEqual(layerViolations(edges), []);
  // every folder of src/ has its place in the table
  for (const name of readdirSync(join(REPO_ROOT, "src"))) assert.ok(layerOf(`src/${name}`) >= 0, `src/${name} is in no layer`);
});

test("no files of src/, bench/ or experiments/ import each other in a cycle", () => {
  assert.deepEqual(importCycles(repositoryImports()), []);
});

test("negative control: an upward import, a same-layer import, an import of test/ and cycles are each reported", () => {
  const found = layerViolations([
    { from: "src/linalg/matrix.ts", to: "src/cli/main.ts" },
    { from: "src/annealing/ais.ts", to: "src/approx/ep.ts" },
    { from: "src/samplers/kernels/hmc.ts", to: "test/samplers/mcse.ts" },
    { from: "bench/rmhmc.ts", to: "test/samplers/mcse.ts" },
    { from: "src/newFolder/x.ts", to: "src/linalg/matrix.ts" },
    { from: "src/cli/sample.ts", to: "src/run/chains.ts" },
  ]);
  assert.deepEqual(found, [
    "src/linalg/matrix.ts imports src/cli/main.ts: src/cli is above src/linalg",
    "src/annealing/ais.ts imports src/approx/ep.ts: src/approx is in the same layer as src/annealing",
    "src/samplers/kernels/hmc.ts imports test/samplers/mcse.ts, outside the layers (test)",
    "bench/rmhmc.ts imports test/samplers/mcse.ts, outside the layers (test)",
    "src/newFolder/x.ts: its folder src/newFolder is in no layer",
  ]);
  const cycles = importCycles([
    { from: "a.ts", to: "b.ts" }, { from: "b.ts", to: "c.ts" }, { from: "c.ts", to: "a.ts" },
    { from: "c.ts", to: "d.ts" }, { from: "e.ts", to: "e.ts" }, { from: "f.ts", to: "a.ts" },
  ]);
  assert.deepEqual(cycles.sort((x, y) => x[0].localeCompare(y[0])), [["a.ts", "b.ts", "c.ts"], ["e.ts"]]);
  assert.deepEqual(importSpecifiers('import { a } from "./a.js";\n// import { b } from "./b.js";\nexport type {\n  C,\n} from "../c.js";\nconst m = await import("./d.js");\nimport "./e.js";'), ["./a.js", "../c.js", "./d.js", "./e.js"]);
});
