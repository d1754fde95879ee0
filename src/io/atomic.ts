/**
 * Outputs that are never half-written: every file is written to a temporary name in its own
 * directory and renamed into place once complete (rename within a directory is atomic on
 * POSIX file systems), and the output directory is checked before any work starts.
 */
import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
  accessSync,
  constants as fsConstants,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { VERSION } from "../version.js";
import { fileErrorReason, OutputError } from "./errors.js";
import { acquireRunLock, checkRunLock, releaseRunLock, RUN_LOCK } from "./runLock.js";

function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

/**
 * A file being written: the content goes to a temporary file beside `path`, which `commit`
 * flushes and renames to `path`, and `abort` removes. Until commit, `path` is untouched.
 */
export class AtomicFile {
  readonly path: string;
  readonly tempPath: string;
  private fd: number | undefined;

  constructor(path: string) {
    this.path = path;
    this.tempPath = tempNameFor(path);
    try {
      this.fd = openSync(this.tempPath, "wx", 0o644);
    } catch (e) {
      throw new OutputError(path, `cannot be written: ${fileErrorReason(e, this.tempPath)}`);
    }
  }

  /** Appends text. */
  write(text: string): void {
    if (this.fd === undefined) throw new Error(`AtomicFile ${this.path}: write after commit or abort`);
    try {
      let buf = Buffer.from(text, "utf8");
      while (buf.length > 0) {
        const k = writeSync(this.fd, buf);
        buf = buf.subarray(k);
      }
    } catch (e) {
      this.abort();
      throw new OutputError(this.path, `cannot be written: ${fileErrorReason(e)}`);
    }
  }

  /** Flushes to disk and renames into place. */
  commit(): void {
    if (this.fd === undefined) throw new Error(`AtomicFile ${this.path}: commit after commit or abort`);
    const fd = this.fd;
    try {
      fsyncSync(fd);
      closeSync(fd);
      this.fd = undefined;
      renameSync(this.tempPath, this.path);
    } catch (e) {
      this.abort();
      throw new OutputError(this.path, `cannot be written: ${fileErrorReason(e)}`);
    }
  }

  /** Discards what was written (safe to call more than once, and after a failed commit). */
  abort(): void {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed or invalid: nothing more to release
      }
      this.fd = undefined;
    }
    try {
      unlinkSync(this.tempPath);
    } catch {
      // the temporary file is already gone (renamed or never created)
    }
  }

  get open(): boolean {
    return this.fd !== undefined;
  }
}

/** Writes a whole file atomically: readers see the old content or the new, never a part. */
export function writeFileAtomic(path: string, content: string): void {
  const f = new AtomicFile(path);
  f.write(content);
  f.commit();
}

/** Writes `value` as indented JSON (with a final newline) atomically. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + "\n");
}

/** The file that marks a directory as a gpmcmc output directory. */
export const OUTPUT_MARKER = ".gpmcmc";

/** What the marker file holds. */
export interface OutputMarker {
  tool: "gpmcmc";
  version: string;
  /** Files (names inside the directory) the last run wrote. */
  files: string[];
  /** False while a run is in progress or when it stopped early. */
  complete: boolean;
}

export interface OutputDirCheck {
  /** The directory as given. */
  path: string;
  /** What preparing it will do. */
  action: "create" | "reuse-ours" | "reuse-empty" | "force";
  /** The marker of a previous run, when the directory is ours. */
  previous?: OutputMarker;
  /** For "create": the directories that will be made, outermost first. */
  toCreate: string[];
}

export interface OutputDirOptions {
  /** Write into an existing directory that is not a gpmcmc output directory. */
  force?: boolean;
  /**
   * What to do with a directory holding an earlier gpmcmc run: "reuse" replaces its files
   * (the default), "refuse" stops with a hint (--resume for an interrupted run, --overwrite) unless
   * `overwrite` is given.
   */
  existingRuns?: "reuse" | "refuse";
  overwrite?: boolean;
  /** The command taking the directory, named in its lock (runLock.ts; default "run"). */
  command?: string;
}

/** The marker of a gpmcmc output directory, or undefined when it has none (or not ours). */
export function readOutputMarker(dir: string): OutputMarker | undefined {
  return readMarker(dir);
}

function readMarker(dir: string): OutputMarker | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, OUTPUT_MARKER), "utf8");
  } catch {
    return undefined;
  }
  try {
    const m = JSON.parse(text) as Partial<OutputMarker>;
    if (m.tool !== "gpmcmc") return undefined;
    return {
      tool: "gpmcmc",
      version: String(m.version ?? ""),
      files: Array.isArray(m.files) ? m.files.filter((f): f is string => typeof f === "string") : [],
      complete: m.complete === true,
    };
  } catch {
    return undefined;
  }
}

function isWritableDir(dir: string): boolean {
  try {
    accessSync(dir, fsConstants.W_OK | fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks that `dir` can be used as an output directory, writing nothing: either it does not
 * exist and its nearest existing ancestor is a writable directory, or it is an empty
 * directory, or it holds our marker file, or `force` is given. Throws OutputError naming the
 * path otherwise. Run it before any sampling so that a bad --out fails at once.
 */
export function checkOutputDir(dir: string, options: OutputDirOptions = {}): OutputDirCheck {
  if (dir === "") throw new OutputError(dir, "the output directory name is empty");
  let st;
  try {
    st = statSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw new OutputError(dir, `cannot be used: ${fileErrorReason(e)}`);
  }
  if (st !== undefined) {
    if (!st.isDirectory()) throw new OutputError(dir, "exists and is not a directory");
    if (!isWritableDir(dir)) throw new OutputError(dir, "the directory is not writable");
    checkRunLock(dir);
    const previous = readMarker(dir);
    if (previous !== undefined && options.existingRuns === "refuse" && !options.overwrite) {
      throw new OutputError(
        dir,
        previous.complete
          ? "holds a finished gpmcmc run; choose another directory, or use --overwrite to replace it"
          : `holds an interrupted gpmcmc run; continue it with --resume ${dir}, or use --overwrite to replace it`,
      );
    }
    if (previous !== undefined) return { path: dir, action: "reuse-ours", previous, toCreate: [] };
    const entries = readdirSync(dir).filter((e) => e !== RUN_LOCK); // a stale lock, or the one this command has just taken
    if (entries.length === 0) return { path: dir, action: "reuse-empty", toCreate: [] };
    if (options.force) return { path: dir, action: "force", toCreate: [] };
    throw new OutputError(
      dir,
      `the directory exists, is not empty and is not a gpmcmc output directory (it has no ${OUTPUT_MARKER} file); ` +
        "choose a new directory, or use --force to write into it",
    );
  }
  // Walk up to the nearest existing ancestor: it must be a writable directory.
  const toCreate: string[] = [];
  let p = resolve(dir);
  for (;;) {
    toCreate.unshift(p);
    const parent = dirname(p);
    if (parent === p) throw new OutputError(dir, "no existing directory above it");
    let pst;
    try {
      pst = statSync(parent);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        p = parent;
        continue;
      }
      if (code === "ENOTDIR") {
        // some ancestor of `parent` is a file: find it to name it
        p = parent;
        continue;
      }
      throw new OutputError(dir, `cannot be created: ${fileErrorReason(e)}`);
    }
    const shown = JSON.stringify(isAbsolute(dir) ? parent : relative(process.cwd(), parent) || ".");
    if (!pst.isDirectory()) throw new OutputError(dir, `cannot be created: ${shown} is a file, not a directory`);
    if (!isWritableDir(parent)) throw new OutputError(dir, `cannot be created: ${shown} is not writable`);
    return { path: dir, action: "create", toCreate };
  }
}

/**
 * An output directory in use. Files written through it are atomic and recorded in the
 * marker, which `finish` marks complete; a run that stops early leaves `complete: false`.
 */
export class OutputDir {
  readonly path: string;
  private readonly written = new Set<string>();

  /** Use `prepareOutputDir` to make one. */
  constructor(path: string) {
    this.path = path;
  }

  /** Full path of a file in the directory. */
  file(name: string): string {
    return join(this.path, name);
  }

  /** Starts an atomic file in the directory; `commit` it when complete. */
  open(name: string): AtomicFile {
    checkName(name);
    const f = new AtomicFile(this.file(name));
    this.written.add(name);
    return f;
  }

  writeText(name: string, content: string): void {
    checkName(name);
    writeFileAtomic(this.file(name), content);
    this.written.add(name);
  }

  writeJson(name: string, value: unknown): void {
    this.writeText(name, JSON.stringify(value, null, 2) + "\n");
  }

  /** The names written so far. */
  files(): string[] {
    return [...this.written].sort();
  }

  /**
   * Lists in the marker, before they exist, the files the run may write (still `complete:
   * false`), so that a run killed at any moment leaves a marker naming all it wrote.
   */
  plan(names: string[]): void {
    for (const n of names) checkName(n);
    writeMarker(this.path, { tool: "gpmcmc", version: VERSION, files: [...new Set([...names, ...this.written])].sort(), complete: false });
  }

  /** Records a file another thread or process wrote into the directory for this run. */
  adopt(name: string): void {
    checkName(name);
    this.written.add(name);
  }

  /** Records the files written and whether the run completed, and lets the directory go (its lock). */
  finish(complete = true): void {
    try {
      writeMarker(this.path, { tool: "gpmcmc", version: VERSION, files: this.files(), complete });
    } finally {
      this.release();
    }
  }

  /** Removes this process's lock of the directory (finish does it). */
  release(): void {
    releaseRunLock(this.path);
  }
}

function checkName(name: string): void {
  if (name === "" || name === OUTPUT_MARKER || name.includes("/") || name.includes("\\") || name === "." || name === "..") {
    throw new Error(`not a plain file name for an output: ${JSON.stringify(name)}`);
  }
}

function writeMarker(dir: string, marker: OutputMarker): void {
  writeJsonAtomic(join(dir, OUTPUT_MARKER), marker);
}

/**
 * Makes `dir` ready for a run: checks it (as checkOutputDir), creates it, proves it writable,
 * removes the files a previous gpmcmc run recorded there (so no stale chain survives), and
 * writes the marker with `complete: false`. On failure it removes the directories it created
 * and throws OutputError: nothing is left behind.
 */
export function prepareOutputDir(dir: string, options: OutputDirOptions = {}): OutputDir {
  let check = checkOutputDir(dir, options);
  const created: string[] = [];
  let locked = false;
  try {
    for (const p of check.toCreate) {
      try {
        mkdirSync(p);
        created.push(p);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new OutputError(dir, `cannot be created: ${fileErrorReason(e, p)}`);
      }
    }
    acquireRunLock(dir, options.command ?? "run");
    locked = true;
    // Checked again under the lock: a command that held the directory until now may have left a run there.
    if (check.action === "create" || check.action === "reuse-empty") check = { ...checkOutputDir(dir, options), toCreate: [] };
    if (check.previous !== undefined) {
      for (const name of check.previous.files) {
        try {
          checkName(name);
        } catch {
          continue; // a marker naming something outside the directory is not followed
        }
        const p = join(dir, name);
        try {
          if (lstatSync(p).isFile()) unlinkSync(p);
        } catch {
          // already gone
        }
      }
    }
    writeMarker(dir, { tool: "gpmcmc", version: VERSION, files: [], complete: false });
  } catch (e) {
    if (locked) releaseRunLock(dir);
    for (const p of created.reverse()) {
      try {
        rmdirSync(p);
      } catch {
        // not empty or already gone: leave it
      }
    }
    if (e instanceof OutputError) {
      // errors from the marker's AtomicFile name the marker: name the directory first
      throw e.path === dir ? e : new OutputError(dir, `cannot be used: ${e.message}`);
    }
    throw new OutputError(dir, `cannot be used: ${fileErrorReason(e)}`);
  }
  return new OutputDir(dir);
}
