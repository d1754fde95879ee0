/**
 * Taking up an output directory again after its run was interrupted: the lock (runLock.ts), and
 * the temporary files that killed writers left behind (AtomicFile's hidden
 * `.NAME.PID.HEX.tmp`, never renamed into place, so never a part of the run's output).
 */
import { readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { OutputDir, readOutputMarker } from "./atomic.js";
import { OutputError } from "./errors.js";
import { acquireRunLock, processAlive } from "./runLock.js";

const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * Removes the temporary files of AtomicFiles in `dir` that no process will commit: those of
 * processes that are gone (killed while writing), and, with `own`, this process's (a command
 * aborting while its worker threads write).
 */
export function removeOrphanTempFiles(dir: string, own = false): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid ? !own : processAlive(pid)) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Takes `dir`, which holds an interrupted run, to continue that run: locks it (runLock.ts) and
 * keeps its files. Throws OutputError when another process holds it or it holds no run.
 */
export function resumeOutputDir(dir: string, command: string): OutputDir {
  const marker = readOutputMarker(dir);
  if (marker === undefined) throw new OutputError(dir, "is not a gpmcmc output directory");
  acquireRunLock(dir, command);
  removeOrphanTempFiles(dir);
  return new OutputDir(dir);
}

