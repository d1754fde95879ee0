/**
 * A grid's draws as run directories (`gpmcmc grid collect --draws DIR`): for each finished job
 * that kept draws (OUT/draws/<job id>.json, every digit of each double), a directory named after
 * its cell holding draws_1.csv, in the layout `gpmcmc sample` writes (the job is one chain; its
 * columns named as its kind names them), and job.json, the job's identity, id, kind, cell and
 * settings; so that `gpmcmc diagnose DIR/<cell>` and `gpmcmc report DIR/<cell>` read it as a run.
 * A job keeps no per-draw sampler statistics: lp__, accept_stat__, stepsize__, n_leapfrog__,
 * divergent__ and energy__ are written as nan (not recorded). Everything is written into a staging
 * directory beside DIR and moved into place once whole, so a collect that fails leaves nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, rmdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { checkOutputDir, prepareOutputDir } from "../io/atomic.js";
import { drawsFileName, writeCmdStanCsv, type DrawStats } from "../io/cmdstan.js";
import { DataError, fileErrorReason, OutputError } from "../io/errors.js";
import { decodeExact } from "../run/checkpoint.js";
import { gridDrawNames, type GridJob, type LoadedGrid } from "./spec.js";

/** What a finished job's stored result says of its draws (every chain job's record has these). */
export interface JobDrawsRecord {
  dim: number;
  draws: number;
  /** The draws file's name in the grid's draws directory ("" for a job that keeps none). */
  drawsFile: string;
  /** Seconds of burn-in (where the kind counts them apart) and of sampling. */
  seconds?: { burnIn?: number; sampling?: number };
}

/** A finished job's draws as its draws file holds them (store.ts's writeJobDraws). */
interface StoredDraws {
  identity: string;
  dim: number;
  draws: number;
  samples: Float64Array;
}

/** What was collected: one directory per job with draws, and the finished jobs that kept none. */
export interface CollectedDraws {
  dir: string;
  cells: { name: string; identity: string; draws: number; dim: number }[];
  withoutDraws: string[];
}

/** A file-name-safe name of at most this many characters. */
const MAX_NAME = 200;

/**
 * The directory name of a job's cell: its axes as key=value joined by commas (the grid's name, the
 * same for every job, left out), characters other than letters, digits and . _ = , + - made _; a
 * name longer than MAX_NAME, or one another cell already took, ends with the job's id.
 */
export function cellDirName(job: GridJob, taken: ReadonlySet<string> = new Set()): string {
  const name = Object.entries(job.cell).map(([k, v]) => `${k}=${v}`).join(",").replace(/[^A-Za-z0-9._=,+-]/g, "_");
  if (name.length <= MAX_NAME && !taken.has(name) && !name.startsWith(".")) return name;
  return `${name.slice(0, MAX_NAME)}-${job.id}`;
}

/** A job's draws file, read and checked against its result. */
function readStoredDraws(job: GridJob, record: JobDrawsRecord): StoredDraws {
  const path = join(job.drawsDir, record.drawsFile);
  let stored: StoredDraws;
  try {
    stored = decodeExact<StoredDraws>(readFileSync(path, "utf8"));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const what = `the draws file of finished job "${job.identity}"`;
    throw new DataError({ file: path }, code === undefined ? `is not a draws file of a grid job: ${(e as Error).message}` : code === "ENOENT" ? `is missing: ${what} (its result names it)` : `${what} cannot be read: ${fileErrorReason(e)}`);
  }
  const { dim, draws, samples } = stored ?? {};
  if (stored?.identity !== job.identity || dim !== record.dim || draws !== record.draws || !(samples instanceof Float64Array) || samples.length !== dim * draws) {
    throw new DataError({ file: path }, `is not the draws of finished job "${job.identity}" (${record.draws} draws of ${record.dim} numbers)`);
  }
  return stored;
}

const NOT_RECORDED: DrawStats = { lp: NaN, acceptStat: NaN, stepSize: NaN, nLeapfrog: NaN, divergent: null, energy: NaN };

/** The settings a cell's draws file names in its comments: the job's id and cell, and the grid's shared scalar settings. */
function settingsOf(job: GridJob): Record<string, string | number> {
  const key = (k: string) => k.replace(/[^A-Za-z0-9_]/g, "_");
  const settings: Record<string, string | number> = { grid_job: job.id, grid_kind: job.kind };
  for (const [k, v] of Object.entries(job.cell)) settings[`cell.${key(k)}`] = v;
  for (const [k, v] of Object.entries(job.fixed)) if (typeof v === "string" || typeof v === "number") settings[`fixed.${key(k)}`] = v;
  return settings;
}

/** Writes one job's run directory (draws_1.csv, job.json) at `path`. */
function writeCell(path: string, job: GridJob, record: JobDrawsRecord, stored: StoredDraws): void {
  const out = prepareOutputDir(path, { command: "grid collect" });
  const burnIn = job.fixed.burnIn;
  writeCmdStanCsv(out.open(drawsFileName(1)), {
    model: job.kind.replace(/-/g, "_"), sampler: String(job.cell.sampler ?? job.cell.method ?? job.kind), draws: stored.draws,
    burnIn: typeof burnIn === "number" ? burnIn : 0, chain: 1, chains: 1, settings: settingsOf(job),
  }, {
    variables: gridDrawNames(job.kind, stored.dim), stats: Array.from({ length: stored.draws }, () => NOT_RECORDED), values: stored.samples,
    timing: { warmupSeconds: record.seconds?.burnIn ?? 0, samplingSeconds: record.seconds?.sampling ?? 0 },
  });
  out.writeJson("job.json", { id: job.id, identity: job.identity, kind: job.kind, cell: job.cell, fixed: job.fixed });
  out.finish(true);
}

/**
 * Writes the draws of the finished jobs into `dir` (see the file's comment). `dir` is checked as
 * every output directory is: an earlier collect there is replaced only with `overwrite`, a
 * directory that is not empty and not gpmcmc's is written into only with `force` (its other
 * entries kept, a cell's directory replaced). Throws DataError when no finished job kept draws,
 * or a draws file is missing or damaged; OutputError when `dir` cannot be used. Nothing is written then.
 */
export function collectGridDraws(g: LoadedGrid, jobs: readonly GridJob[], results: readonly (JobDrawsRecord | undefined)[], dir: string, options: { overwrite?: boolean; force?: boolean } = {}): CollectedDraws {
  const check = checkOutputDir(dir, { existingRuns: "refuse", overwrite: options.overwrite, force: options.force });
  const finished = jobs.flatMap((job, i) => (results[i] ? [{ job, record: results[i]! }] : []));
  const kept = finished.filter((f) => f.record.drawsFile !== "");
  if (kept.length === 0) throw new DataError({ file: g.path }, `no finished job of grid ${JSON.stringify(g.spec.grid)} kept draws (${finished.length} of ${jobs.length} jobs finished, none with a draws file; lgcp-run jobs keep none)`);
  const taken = new Set<string>();
  const cells = kept.map(({ job, record }) => {
    const name = cellDirName(job, taken);
    taken.add(name);
    return { name, job, record, stored: readStoredDraws(job, record) };
  });
  // the staging directory goes beside dir, so that moving it into place is a rename
  const made: string[] = [];
  let stage: string | undefined;
  try {
    for (const p of check.toCreate.slice(0, -1)) {
      mkdirSync(p);
      made.push(p);
    }
    stage = mkdtempSync(join(dirname(resolve(dir)), `.${basename(resolve(dir))}.collect-`));
    const top = prepareOutputDir(stage, { command: "grid collect" });
    for (const c of cells) writeCell(join(stage, c.name), c.job, c.record, c.stored);
    for (const c of cells) top.adopt(c.name);
    top.finish(true);
    if (check.action === "force") {
      // a directory that is not ours: the cells go in beside what it holds
      for (const c of cells) {
        rmSync(join(dir, c.name), { recursive: true, force: true });
        renameSync(join(stage, c.name), join(dir, c.name));
      }
      rmSync(stage, { recursive: true, force: true });
    } else if (check.action === "reuse-ours") {
      const old = `${stage}-old`;
      renameSync(dir, old);
      renameSync(stage, dir);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(stage, dir); // a new directory, or over an empty one
    }
  } catch (e) {
    if (stage !== undefined) rmSync(stage, { recursive: true, force: true });
    for (const p of made.reverse()) rmdirSync(p);
    throw e instanceof OutputError || e instanceof DataError ? e : new OutputError(dir, `cannot be ${check.action === "create" ? "created" : "written"}: ${fileErrorReason(e, resolve(dir))}`);
  }
  const unkept = finished.filter((f) => f.record.drawsFile === "").map((f) => f.job.identity);
  return { dir, cells: cells.map((c) => ({ name: c.name, identity: c.job.identity, draws: c.stored.draws, dim: c.stored.dim })), withoutDraws: unkept };
}
