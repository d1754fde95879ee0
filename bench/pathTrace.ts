// The moves of one gpmcmc command between the files of dist/src, for bench/samplePath.ts --moves.
//
// A copy of a built checkout's dist/ is instrumented: every function body (declarations,
// expressions, arrows, methods, accessors; not constructors, whose super() must come first) calls
// a recorder on entry and on exit, so the recorder keeps the stack of the files whose functions
// are running. Entering a function of file B while the innermost running function is in file A is
// a move A -> B (a call), and returning from it to A a move B -> A (a return). The recorder
// writes each move the first time a thread makes it, so the count is
// of distinct moves (file pairs), over every thread (the preload runs in worker threads too, which
// inherit the --import). An async function or generator is recorded on entry but does not stay on
// the stack (its body runs on after the call returns), so a call it makes after an await counts
// from the file that resumed it: the count is of the synchronous call structure.
//
// A move "back up a layer" goes to a file of a higher layer (scripts/layers.json) than the file
// it leaves: a call back up (a callback), or a return from a call down; the calls back up are
// counted apart.
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

interface Edit {
  pos: number;
  text: string;
  /** Pre-order index of the function it belongs to (outer functions first). */
  order: number;
  closing: boolean;
}

/** The source with a recorder call at the entry and exit of every function body. */
export function instrument(code: string, id: number): string {
  const sf = ts.createSourceFile("f.js", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits: Edit[] = [];
  let order = 0;
  const visit = (node: ts.Node): void => {
    const fn = ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node);
    const body = fn ? (node as ts.FunctionLikeDeclarationBase).body : undefined;
    if (body) {
      const o = order++;
      const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) ?? [] : [];
      const isAsync = modifiers.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
      const isGenerator = (node as ts.FunctionLikeDeclarationBase).asteriskToken !== undefined;
      const enter = isAsync || isGenerator ? `__gpmcmcEnter(${id}, false);` : `__gpmcmcEnter(${id}, true);try{`;
      const exit = isAsync || isGenerator ? "" : "}finally{__gpmcmcExit()}";
      if (ts.isBlock(body)) {
        edits.push({ pos: body.getStart(sf) + 1, text: enter, order: o, closing: false });
        edits.push({ pos: body.getEnd() - 1, text: exit, order: o, closing: true });
      } else {
        edits.push({ pos: body.getStart(sf), text: `{${enter}return (`, order: o, closing: false });
        edits.push({ pos: body.getEnd(), text: `);${exit}}`, order: o, closing: true });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // applied from the end; at one position an outer function's closing goes after an inner one's,
  // and its opening before an inner one's
  edits.sort((a, b) => b.pos - a.pos || (a.closing === b.closing ? (a.closing ? a.order - b.order : b.order - a.order) : a.closing ? 1 : -1));
  let out = code;
  for (const e of edits) out = out.slice(0, e.pos) + e.text + out.slice(e.pos);
  return out;
}

/** The recorder, loaded with --import in every thread: the stack of running files, each new move appended to `${out}/moves-<pid>-<thread>.txt`. */
function preload(out: string): string {
  return `import { appendFileSync } from "node:fs";
import { threadId } from "node:worker_threads";
const file = ${JSON.stringify(out)} + "/moves-" + process.pid + "-" + threadId + ".txt";
const stack = [];
const seen = new Set();
globalThis.__gpmcmcEnter = (id, push) => {
  const top = stack.length > 0 ? stack[stack.length - 1] : -1;
  const key = top * 100000 + id;
  if (!seen.has(key)) { seen.add(key); appendFileSync(file, top + " " + id + "\\n"); }
  if (push) stack.push(id);
};
globalThis.__gpmcmcExit = () => {
  const from = stack.pop();
  const to = stack.length > 0 ? stack[stack.length - 1] : -1;
  const key = -(from * 100000 + to) - 1;
  if (to >= 0 && from !== to && !seen.has(key)) { seen.add(key); appendFileSync(file, from + " " + to + " r\\n"); }
};
`;
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? jsFiles(p) : n.endsWith(".js") ? [p] : [];
  });
}

/**
 * An instrumented copy of `root`'s build in `work` (dist/ copied, its src/ files instrumented;
 * package.json, node_modules and build/ linked) and the preload that records into `work`.
 * Returns the preload's path and the files by id (paths relative to dist/src).
 */
export function instrumentedCopy(root: string, work: string): { preload: string; files: string[] } {
  cpSync(join(root, "dist"), join(work, "dist"), { recursive: true });
  for (const name of ["package.json", "node_modules", "build"]) symlinkSync(join(root, name), join(work, name));
  const src = join(work, "dist", "src");
  const files = jsFiles(src).sort();
  files.forEach((f, id) => writeFileSync(f, instrument(readFileSync(f, "utf8"), id)));
  mkdirSync(join(work, "moves"));
  writeFileSync(join(work, "preload.mjs"), preload(join(work, "moves")));
  return { preload: join(work, "preload.mjs"), files: files.map((f) => relative(src, f)) };
}

export interface Moves {
  /** Distinct moves between two files of dist/src, calls and returns (from the command's entry, file -1, excluded). */
  moves: number;
  /** Those going to a file of a higher layer than the one they leave. */
  up: number;
  /** The distinct calls from one file into another. */
  calls: number;
  /** Those calling into a file of a higher layer (callbacks). */
  callsUp: number;
  /** The up moves by pair of folders, most first. */
  upByFolders: [string, number][];
}

/** Counts the moves recorded in `work`/moves, with the layers of scripts/layers.json. */
export function countMoves(work: string, files: string[], layers: string[][]): Moves {
  const pairs = new Set<string>();
  const calls = new Set<string>();
  for (const name of readdirSync(join(work, "moves"))) {
    for (const line of readFileSync(join(work, "moves", name), "utf8").split("\n")) {
      const [a, b] = line.split(" ").map(Number);
      if (!line || a < 0 || a === b) continue;
      pairs.add(`${a} ${b}`);
      if (!line.endsWith(" r")) calls.add(`${a} ${b}`);
    }
  }
  const unit = (f: string) => (f.includes("/") ? `src/${f.slice(0, f.indexOf("/"))}` : `src/${f.replace(/\.js$/, ".ts")}`);
  const layer = (f: string) => layers.findIndex((l) => l.includes(unit(f)));
  const upByFolders = new Map<string, number>();
  let up = 0;
  const isUp = (p: string) => {
    const [a, b] = p.split(" ").map((i) => files[Number(i)]);
    return layer(b) > layer(a);
  };
  for (const p of pairs) {
    const [a, b] = p.split(" ").map((i) => files[Number(i)]);
    if (isUp(p)) {
      up++;
      const key = `${unit(a).slice(4)} -> ${unit(b).slice(4)}`;
      upByFolders.set(key, (upByFolders.get(key) ?? 0) + 1);
    }
  }
  return { moves: pairs.size, up, calls: calls.size, callsUp: [...calls].filter(isUp).length, upByFolders: [...upByFolders].sort((x, y) => y[1] - x[1]) };
}
