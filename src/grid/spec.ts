/**
 * A grid spec (JSON): a job kind, fixed settings shared by all jobs, and axes whose Cartesian
 * product gives the jobs, one per cell; and the directory where results, draws and checkpoints
 * go. Read and checked here, each problem named by its field.
 *
 *   { "grid": "table2 seed=1", "kind": "simulated-latent-chain",
 *     "fixed": { "draws": 200, "burnIn": 50, "dataSeed": 1 },
 *     "axes": { "likelihood": ["logistic"], "n": [20], "d": [2], "data-set": [0, 1],
 *               "sampler": ["mh-v1", "ess"], "chain": [0, 1, 2, 3] },
 *     "out": "grid-out", "checkpointEvery": 100 }
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import { readTextFile } from "../io/dataset.js";
import { vectorNames } from "../io/cmdstan.js";
import { DataError } from "../io/errors.js";
import { registerTaskKind } from "../parallel/tasks.js";
import { cellIdentity, jobId } from "./identity.js";

const jobKinds: string[] = [];
const drawNamers = new Map<string, (dim: number) => string[]>();
const fixedKeys = new Map<string, readonly string[]>();

/**
 * Registers a grid job kind: the task kind (src/parallel/tasks.ts) of the function `exportName`
 * of `module` that runs one job, the settings its jobs read from a spec's "fixed" (`fixed`: any
 * other key there is refused), and the names of the columns of its draws file (`drawNames`, given
 * the draw's length; absent for a kind that keeps no draws). Each job module calls it as it loads,
 * so the kinds a spec may name are those of the modules loaded (the command line loads them all).
 */
export function registerGridJobKind(kind: string, module: string | URL, exportName: string, fixed: readonly string[], drawNames?: (dim: number) => string[]): void {
  registerTaskKind(kind, module, exportName);
  if (!jobKinds.includes(kind)) jobKinds.push(kind);
  fixedKeys.set(kind, fixed);
  if (drawNames) drawNamers.set(kind, drawNames);
}

/** The names of the `dim` columns of a job's draws, as its kind names them (x.1, ..., x.dim where it names none, or not that many). */
export function gridDrawNames(kind: string, dim: number): string[] {
  const names = drawNamers.get(kind)?.(dim);
  return names !== undefined && names.length === dim ? names : vectorNames("x", dim);
}

/** The grid job kinds registered so far, in the order their modules loaded. */
export function gridJobKinds(): readonly string[] {
  return jobKinds;
}

export interface GridSpec {
  /** The grid's name, the first word(s) of every job's identity. */
  grid: string;
  /** A registered task kind (a grid job module registers its own). */
  kind: string;
  fixed: Record<string, unknown>;
  axes: Record<string, (string | number)[]>;
  /** Output directory, relative to the spec file: results/, draws/, checkpoints/ under it. */
  out: string;
  /** Transitions between a job's checkpoints (0 or absent: none). */
  checkpointEvery?: number;
}

/** One job of a grid: what a worker needs to run it, as plain data. */
export interface GridJob {
  id: string;
  identity: string;
  kind: string;
  /** The cell (one value per axis). */
  cell: Record<string, string | number>;
  fixed: Record<string, unknown>;
  /** Where the job writes its draws and its checkpoints (absolute paths). */
  drawsDir: string;
  checkpointDir: string;
  checkpointEvery: number;
}

/** A spec read from a file, with its output directory resolved. */
export interface LoadedGrid {
  spec: GridSpec;
  path: string;
  /** The absolute output directory. */
  outDir: string;
}

function fail(path: string, message: string): never {
  throw new DataError({ file: path }, message);
}

/** Reads and checks a grid spec; its kind must be a registered job kind (registerGridJobKind). */
export function readGridSpec(path: string): LoadedGrid {
  const text = readTextFile(path); // a missing file is "PATH: no such file", a binary one named as such
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    fail(path, `is not JSON: ${(e as Error).message}`);
  }
  const spec = checkGridSpec(raw, path);
  if (!jobKinds.includes(spec.kind)) fail(path, `unknown job kind ${JSON.stringify(spec.kind)} in "kind" (known: ${jobKinds.join(", ")})`);
  const known = fixedKeys.get(spec.kind)!;
  for (const k of Object.keys(spec.fixed)) {
    if (!known.includes(k)) fail(path, `unknown field ${JSON.stringify(`fixed.${k}`)} (known in "fixed" of kind ${spec.kind}: ${known.join(", ")})`);
  }
  return { spec, path, outDir: resolve(dirname(path), spec.out) };
}

/** Checks a spec given as a value (`where` names it in messages). */
export function checkGridSpec(raw: unknown, where: string): GridSpec {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail(where, "a grid spec is a JSON object");
  const s = raw as Record<string, unknown>;
  for (const k of Object.keys(s)) if (!["grid", "kind", "fixed", "axes", "out", "checkpointEvery"].includes(k)) fail(where, `unknown field ${JSON.stringify(k)} (known: grid, kind, fixed, axes, out, checkpointEvery)`);
  if (typeof s.grid !== "string" || s.grid === "") fail(where, `"grid" must be a non-empty string (the name that starts every job's identity)`);
  if (typeof s.kind !== "string" || s.kind === "") fail(where, `"kind" must name a job kind, e.g. "simulated-latent-chain"`);
  if (typeof s.out !== "string" || s.out === "") fail(where, `"out" must be a directory name`);
  const fixed = s.fixed ?? {};
  if (typeof fixed !== "object" || fixed === null || Array.isArray(fixed)) fail(where, `"fixed" must be an object`);
  if (typeof s.axes !== "object" || s.axes === null || Array.isArray(s.axes)) fail(where, `"axes" must be an object of arrays`);
  const axes = s.axes as Record<string, unknown>;
  if (Object.keys(axes).length === 0) fail(where, `"axes" has no axis`);
  for (const [k, v] of Object.entries(axes)) {
    if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(k)) fail(where, `axis name ${JSON.stringify(k)} must be a word (letters, digits, - or _)`);
    if (k in (fixed as object)) fail(where, `${JSON.stringify(k)} is both an axis and a fixed setting`);
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "string" || (typeof x === "number" && Number.isFinite(x)))) {
      fail(where, `axis ${JSON.stringify(k)} must be a non-empty array of strings or numbers`);
    }
    if (new Set(v.map(String)).size !== v.length) fail(where, `axis ${JSON.stringify(k)} repeats a value`);
  }
  const every = s.checkpointEvery;
  if (every !== undefined && !(Number.isInteger(every) && (every as number) >= 0)) fail(where, `"checkpointEvery" must be a non-negative integer`);
  return { grid: s.grid, kind: s.kind, fixed: fixed as Record<string, unknown>, axes: axes as GridSpec["axes"], out: s.out, checkpointEvery: every as number | undefined };
}

/** The jobs of a grid, one per cell, the last axis varying fastest. */
export function gridJobs(g: LoadedGrid): GridJob[] {
  const { spec, outDir } = g;
  const names = Object.keys(spec.axes);
  const cells: Record<string, string | number>[] = [{}];
  for (const name of names) {
    const next: Record<string, string | number>[] = [];
    for (const c of cells) for (const v of spec.axes[name]) next.push({ ...c, [name]: v });
    cells.splice(0, cells.length, ...next);
  }
  return cells.map((cell) => {
    const identity = cellIdentity(spec.grid, cell);
    return {
      id: jobId(spec.kind, identity, spec.fixed), identity, kind: spec.kind, cell, fixed: spec.fixed,
      drawsDir: join(outDir, "draws"), checkpointDir: join(outDir, "checkpoints"), checkpointEvery: spec.checkpointEvery ?? 0,
    };
  });
}

/** The absolute form of `p` relative to the spec's directory. */
export function specRelative(g: LoadedGrid, p: string): string {
  return isAbsolute(p) ? p : resolve(dirname(g.path), p);
}
