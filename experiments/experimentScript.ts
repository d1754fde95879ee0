/**
 * What the comparison paper's table scripts (table2.ts, hyperTables.ts) share around their
 * grids: the report of a `--check` (recomputed cells against a committed file), the result file
 * that records the command that made it, and running a script's main as a command; and, for the
 * scripts of Girolami & Calderhead's experiments (logisticRegression.ts, volatility.ts), their
 * grid options and the comparison of recomputed cells with a file's.
 */
import { pathToFileURL } from "node:url";
import { parseRedisUrl } from "../src/grid/queue.js";
import type { GridPlace } from "../src/grid/runGrid.js";
import { writeJsonAtomic } from "../src/io/atomic.js";
import { getBackend } from "../src/linalg/backend.js";

/** Prints the differences of a recomputed run from the committed file; returns the exit code (0: identical). */
export function reportCheck(file: string, committedBackend: string, recomputed: { backend: string; cells: unknown[] }, diffs: string[]): number {
  if (recomputed.backend !== committedBackend) process.stdout.write(`note: backend ${recomputed.backend}, the file's ${committedBackend}\n`);
  for (const line of diffs) process.stdout.write(`DIFFERS ${line}\n`);
  process.stdout.write(`${recomputed.cells.length} cell(s) recomputed: ${diffs.length === 0 ? "identical to" : "different from"} ${file}\n`);
  return diffs.length === 0 ? 0 : 1;
}

/** Writes a run's result with the command that made it, so any of its cells can be recomputed and checked (--check). */
export function writeResultFile(json: string, script: string, argv: string[], result: object): void {
  writeJsonAtomic(json, { command: `node dist/experiments/${script}.js ${argv.join(" ")}`, date: new Date().toISOString(), node: process.version, ...result });
}

/** Runs `main` when `moduleUrl` is the script node was started with: a thrown error is one line and exit code 2. */
export async function runAsCommand(moduleUrl: string, name: string, main: (argv: string[]) => Promise<number>): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  let code: number;
  try {
    code = await main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${name}: ${(e as Error).message}\n`);
    code = 2;
  }
  process.exit(code);
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  if (i + 1 >= args.length) throw new Error(`${name} needs a value`);
  return args[i + 1];
}

/**
 * --grid-dir, --parallel and --queue: where and how a script's grids run. The local pool runs one
 * job at a time unless --parallel says otherwise, since these scripts time their runs in CPU
 * seconds of the process, which count every thread.
 */
export function experimentGridPlace(args: string[]): GridPlace {
  const queue = option(args, "--queue");
  const parallel = option(args, "--parallel");
  if (queue !== undefined) {
    try {
      parseRedisUrl(queue);
    } catch (e) {
      throw new Error(`--queue: ${(e as Error).message}`);
    }
    if (parallel !== undefined) throw new Error("--parallel applies to a local run; with --queue each `gpmcmc worker` sets its own --concurrency");
  }
  const p = Number(parallel ?? "1");
  if (!Number.isInteger(p) || p < 1) throw new Error(`--parallel: ${JSON.stringify(parallel)} is not a whole number >= 1`);
  return { gridDir: option(args, "--grid-dir"), parallel: queue === undefined ? p : undefined, queue };
}

/**
 * Where recomputed cells differ from expected ones, matched by `keyOf`, every field but `timings`
 * (compared as JSON text, so numbers bit for bit); empty when they agree.
 */
export function compareCells<C extends object>(expected: readonly C[], actual: readonly C[], keyOf: (c: C) => string, timings: readonly string[]): string[] {
  const diffs: string[] = [];
  const byKey = new Map(actual.map((c) => [keyOf(c), c]));
  for (const c of expected) {
    const a = byKey.get(keyOf(c)) as Record<string, unknown> | undefined;
    byKey.delete(keyOf(c));
    if (!a) {
      diffs.push(`${keyOf(c)}: not recomputed`);
      continue;
    }
    for (const [k, v] of Object.entries(c)) {
      if (timings.includes(k)) continue;
      if (JSON.stringify(a[k]) !== JSON.stringify(v)) diffs.push(`${keyOf(c)}: ${k} ${JSON.stringify(a[k])?.slice(0, 60)}, expected ${JSON.stringify(v)?.slice(0, 60)}`);
    }
  }
  for (const k of byKey.keys()) diffs.push(`${k}: not expected`);
  return diffs;
}

/** The value after option `name`, or `fallback` when the option is absent. */
export function optionValue(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1]! : fallback;
}

/** Option `name` as a whole number >= min (`fallback` when absent). */
export function wholeNumberOption(args: string[], name: string, fallback: string, min: number): number {
  const raw = optionValue(args, name, fallback);
  const x = Number(raw);
  if (!Number.isInteger(x) || x < min) throw new Error(`${name}: ${JSON.stringify(raw)} is not a whole number >= ${min}`);
  return x;
}

/**
 * The start of such a script's main: unknown options refused, one BLAS thread (as the grid's
 * worker threads run, so a run's numbers depend on its identity alone), the backend's name, and,
 * with --check FILE, the file and the other arguments.
 */
export function scriptStart(args: string[], known: readonly string[]): { backend: string; check?: { file: string; rest: string[] } } {
  for (const a of args) if (a.startsWith("--") && !known.includes(a)) throw new Error(`unknown option ${a} (known: ${known.join(" ")})`);
  getBackend().setThreads(1);
  const b = getBackend().describe();
  const backend = `${b.backend} (${b.library})`;
  const at = args.indexOf("--check");
  if (at < 0) return { backend };
  const file = args[at + 1];
  if (!file) throw new Error("--check needs a file");
  return { backend, check: { file, rest: args.filter((_, i) => i !== at && i !== at + 1) } };
}
