/**
 * The lock that keeps two commands out of one output directory: a file `.gpmcmc.lock` made with
 * O_CREAT | O_EXCL (so of two processes racing for it exactly one makes it), naming the process
 * that holds it (pid, host, command, start time). It is removed when the run ends, and on the
 * process's exit; a lock left by a process that is gone (killed with SIGKILL, or a machine that
 * rebooted) is stale: the next command finds that no process has its pid on this host and takes
 * the lock over. A lock made on another host cannot be checked from here, so it is respected,
 * and the message says which file to remove if that host's process is gone.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { OutputError } from "./errors.js";

/** The lock file's name inside an output directory. */
export const RUN_LOCK = ".gpmcmc.lock";

/** What a lock file says. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The command that holds the directory, e.g. "sample". */
  command: string;
  /** ISO 8601, UTC. */
  startedAt: string;
}

const held = new Map<string, LockHolder>();
let exitHookInstalled = false;

function readHolder(path: string): LockHolder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, "utf8")) as Partial<LockHolder>;
    if (typeof h.pid !== "number" || typeof h.host !== "string") return undefined;
    return { pid: h.pid, host: h.host, command: String(h.command ?? "?"), startedAt: String(h.startedAt ?? "?") };
  } catch {
    return undefined; // gone, or being written: treated as no holder we can name
  }
}

/** An unreadable lock file older than a few seconds was left by a process killed while making it. */
function oldEmpty(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > 5000;
  } catch {
    return true;
  }
}

/** Whether a process with this pid runs on this host (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The process holding `dir`, or undefined when the directory is free: no lock, a stale lock,
 * or a lock of this very process (a library caller running one command after another).
 */
export function liveLockHolder(dir: string): LockHolder | undefined {
  const h = readHolder(join(dir, RUN_LOCK));
  if (h === undefined) return undefined;
  if (h.host === hostname() && (h.pid === process.pid || !processAlive(h.pid))) return undefined;
  return h;
}

function inUse(dir: string, h: LockHolder): OutputError {
  const where = h.host === hostname() ? `process ${h.pid}` : `process ${h.pid} on host ${h.host} (remove ${join(dir, RUN_LOCK)} if that process is gone)`;
  return new OutputError(dir, `is in use by gpmcmc ${h.command}, ${where}, since ${h.startedAt}; wait for it to end, or choose another directory`);
}

/** Throws OutputError when another live process holds `dir`. */
export function checkRunLock(dir: string): void {
  const h = liveLockHolder(dir);
  if (h !== undefined) throw inUse(dir, h);
}

/**
 * Takes the lock of `dir` (an existing directory) for `command`, or throws OutputError naming
 * the process that holds it. A stale lock, or one of this process, is replaced.
 */
export function acquireRunLock(dir: string, command: string): void {
  const path = join(dir, RUN_LOCK);
  const me: LockHolder = { pid: process.pid, host: hostname(), command, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "wx", 0o644);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new OutputError(dir, `cannot be locked: ${(e as Error).message}`);
      const h = liveLockHolder(dir);
      const written = readHolder(path);
      if (h !== undefined) throw inUse(dir, h);
      if (written === undefined && attempt === 0 && !oldEmpty(path)) {
        // being written by a process that has just made it: that process holds the directory
        throw new OutputError(dir, "is being taken by another gpmcmc command; wait for it to end, or choose another directory");
      }
      try {
        unlinkSync(path); // stale, or ours: replace it
      } catch {
        // removed meanwhile by its owner
      }
      continue;
    }
    try {
      writeSync(fd, JSON.stringify(me) + "\n");
    } finally {
      closeSync(fd);
    }
    held.set(dir, me);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on("exit", () => {
        for (const d of [...held.keys()]) releaseRunLock(d);
      });
    }
    return;
  }
  const h = liveLockHolder(dir);
  throw h !== undefined ? inUse(dir, h) : new OutputError(dir, "could not be locked: another gpmcmc command took it at the same moment");
}

/** Removes this process's lock of `dir` (nothing when it holds none there). */
export function releaseRunLock(dir: string): void {
  const mine = held.get(dir);
  if (mine === undefined) return;
  held.delete(dir);
  const now = readHolder(join(dir, RUN_LOCK));
  if (now?.pid !== mine.pid || now.startedAt !== mine.startedAt) return; // not ours any more
  try {
    unlinkSync(join(dir, RUN_LOCK));
  } catch {
    // already gone
  }
}
