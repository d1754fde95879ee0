/**
 * What the comparison paper's table scripts (table2.ts, hyperTables.ts) share around their
 * grids: the report of a `--check` (recomputed cells against a committed file), the result file
 * that records the command that made it, and running a script's main as a command.
 */
import { pathToFileURL } from "node:url";
import { writeJsonAtomic } from "../src/io/atomic.js";

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
