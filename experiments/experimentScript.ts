/**
 * What the comparison paper's table scripts (table2.ts, hyperTables.ts) share around their
 * grids: the report of a `--check` (recomputed cells against a committed file), the result file
 * that records the command that made it, and running a script's main as a command; and, for the
 * scripts of Girolami & Calderhead's experiments (logisticRegression.ts, volatility.ts), their
 * grid options and the comparison of recomputed cells with a file's.
 */
import { readFileSync, realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseRedisUrl } from "../src/grid/queue.js";
import type { GridPlace } from "../src/grid/runGrid.js";
import { writeJsonAtomic } from "../src/io/atomic.js";
import { getBackend } from "../src/linalg/backend.js";
import { currentSamplerName, renamedSampler } from "../src/samplers/renamedSamplers.js";

/**
 * How far a recomputed figure may be from a file's when the two were not computed bit for bit
 * alike: |a - b| <= CHECK_TOLERANCE max(1, |a|, |b|). OpenBLAS picks its kernels by CPU
 * (`gpmcmc info` names them), another kernel sums in another order, and the last bits of a
 * figure then differ; a short chain keeps such a difference near 1e-8 of the figure, while another
 * seed, another chain or a broken sampler moves it at the scale of the Monte Carlo error.
 */
export const CHECK_TOLERANCE = 1e-6;
/** CHECK_TOLERANCE as --check prints it. */
export const CHECK_TOLERANCE_TEXT = CHECK_TOLERANCE.toExponential();

/** A value as a JSON file stores it (NaN and Infinity become null). */
export function asStored(x: unknown): unknown {
  return x === undefined ? undefined : (JSON.parse(JSON.stringify(x)) as unknown);
}

/** JSON values with the same structure whose numbers agree to `tolerance` (0: bit for bit, as JSON text). */
export function sameFigures(a: unknown, b: unknown, tolerance: number): boolean {
  if (tolerance === 0) return JSON.stringify(a) === JSON.stringify(b);
  if (typeof a === "number" && typeof b === "number") return a === b || Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameFigures(x, b[i], tolerance));
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && sameFigures((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], tolerance));
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What a result file records of the arithmetic that made it: the backend and, for OpenBLAS, the CPU kernel it ran. */
export interface ArithmeticRecord {
  backend: string;
  /** OpenBLAS's core (its kernels), as `gpmcmc info` names it; absent in files made before it was recorded. */
  blasCore?: string;
}

/** This process's backend and OpenBLAS core, to record in a result file. */
export function arithmeticRecord(): ArithmeticRecord {
  const b = getBackend().describe();
  return b.core === undefined ? { backend: `${b.backend} (${b.library})` } : { backend: `${b.backend} (${b.library})`, blasCore: b.core };
}

/**
 * Prints how a recomputed run compares with a committed file and returns the exit code: 0 when
 * every figure is identical ("identical to") or agrees to CHECK_TOLERANCE ("agree to tolerance",
 * where the arithmetic differs in its last bits), 1 when some figure differs by more ("DIFFERS"
 * lines). `compare(tolerance)` lists the differences at that tolerance (0: bit for bit).
 */
export function reportCheck(file: string, committed: ArithmeticRecord, recomputed: ArithmeticRecord & { cells: unknown[] }, compare: (tolerance: number) => string[]): number {
  const out = (line: string) => process.stdout.write(line + "\n");
  const cells = `${recomputed.cells.length} cell(s) recomputed`;
  if (recomputed.backend !== committed.backend) out(`note: backend ${recomputed.backend}, the file's ${committed.backend}`);
  const kernels = committed.blasCore === undefined ? `the file does not record its OpenBLAS core, this process runs ${recomputed.blasCore ?? "none"}` : `OpenBLAS core ${recomputed.blasCore ?? "none"} here, ${committed.blasCore} in the file`;
  const exact = compare(0);
  if (exact.length === 0) {
    out(`${cells}: identical to ${file}`);
    return 0;
  }
  const diffs = compare(CHECK_TOLERANCE);
  if (diffs.length === 0) {
    const example = exact[0]!.length > 200 ? `${exact[0]!.slice(0, 200)}...` : exact[0]!;
    out(`note: ${exact.length} figure(s) differ in their last bits (${kernels}), e.g. ${example}`);
    out(`${cells}: agree to tolerance ${CHECK_TOLERANCE_TEXT} (|a - b| <= ${CHECK_TOLERANCE_TEXT} max(1, |a|, |b|)) with ${file}`);
    return 0;
  }
  for (const line of diffs) out(`DIFFERS ${line}`);
  if (recomputed.blasCore !== committed.blasCore) {
    const pin = committed.blasCore === undefined ? "" : `; OPENBLAS_CORETYPE=${committed.blasCore} recomputes it bit for bit on a CPU that runs that core`;
    out(`note: ${kernels}: another kernel's floating-point order changes the last bits, and a long chain can amplify them beyond the tolerance${pin}`);
  }
  out(`${cells}: different from ${file}`);
  return 1;
}

/** Writes a run's result with the command that made it, so any of its cells can be recomputed and checked (--check). */
export function writeResultFile(json: string, script: string, argv: string[], result: object): void {
  const { blasCore } = arithmeticRecord();
  writeJsonAtomic(json, { command: `node dist/experiments/${script}.js ${argv.join(" ")}`, date: new Date().toISOString(), node: process.version, ...result, ...(blasCore === undefined ? {} : { blasCore }) });
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Runs `main` when `moduleUrl` is the script node was started with: a thrown error is one line and exit code 2. */
export async function runAsCommand(moduleUrl: string, name: string, main: (argv: string[]) => Promise<number>): Promise<void> {
  // node loads a module by its real path, so a script started through a symbolic link is compared by its real path too
  if (!process.argv[1] || moduleUrl !== pathToFileURL(realpathOrSelf(process.argv[1])).href) return;
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
 * (bit for bit, as JSON text, at tolerance 0; else to `tolerance`, see sameFigures); empty when they agree.
 */
export function compareCells<C extends object>(expected: readonly C[], actual: readonly C[], keyOf: (c: C) => string, timings: readonly string[], tolerance = 0): string[] {
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
      if (!sameFigures(asStored(a[k]), asStored(v), tolerance)) diffs.push(`${keyOf(c)}: ${k} ${JSON.stringify(a[k])?.slice(0, 60)}, expected ${JSON.stringify(v)?.slice(0, 60)}`);
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
 * worker threads run, so a run's numbers depend on its identity alone), the backend and OpenBLAS core, and,
 * with --check FILE, the file and the other arguments.
 */
export function scriptStart(args: string[], known: readonly string[]): { arithmetic: ArithmeticRecord; check?: { file: string; rest: string[] } } {
  for (const a of args) if (a.startsWith("--") && !known.includes(a)) throw new Error(`unknown option ${a} (known: ${known.join(" ")})`);
  getBackend().setThreads(1);
  const arithmetic = arithmeticRecord();
  const at = args.indexOf("--check");
  if (at < 0) return { arithmetic };
  const file = args[at + 1];
  if (!file) throw new Error("--check needs a file");
  return { arithmetic, check: { file, rest: args.filter((_, i) => i !== at && i !== at + 1) } };
}

/**
 * A result file of Girolami & Calderhead's experiments as the scripts read it: its cells and its
 * command's --samplers with each sampler under its present name. Files made before a sampler was
 * renamed record its former name (src/samplers/renamedSamplers.ts: "simplified-mmala", now
 * "smmala"); their runs' seeds hash that name still, so their cells are recomputed as they were.
 */
export function readResultFile<R extends { cells: { sampler: string }[]; command?: string }>(file: string): R {
  const result = JSON.parse(readFileSync(file, "utf8")) as R;
  const words = result.command?.split(" ");
  const at = words?.indexOf("--samplers") ?? -1;
  if (words && at >= 0 && at + 1 < words.length) words[at + 1] = words[at + 1]!.split(",").map(currentSamplerName).join(",");
  return {
    ...result,
    ...(words ? { command: words.join(" ") } : {}),
    cells: result.cells.map((c) => ({ ...c, sampler: currentSamplerName(c.sampler) })),
  };
}

/** Refuses a sampler's former name in a script's --samplers, naming the present one. */
export function refuseRenamedSampler(name: string): void {
  const renamed = renamedSampler(name);
  if (renamed !== undefined) throw new Error(`--samplers: ${renamed}`);
}
