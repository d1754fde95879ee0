/**
 * What a command may allocate, checked before it allocates anything or writes a file, so that a
 * run too large for the machine is one line naming the option or data file that makes it so
 * (exit code 2), not a failed allocation midway through with a half-made output directory.
 *
 * The memory the process can be given is the machine's (os.totalmem()), or less where a control
 * group limits the process (process.constrainedMemory()), or what GPMCMC_MAX_MEMORY says (bytes,
 * e.g. 8e9 or 8G: on a shared machine, or to check a large run's size elsewhere). Three things are
 * checked against it: the n x n matrices of a GP model (K and its Cholesky factor, at least), the
 * chains' own state (CHAIN_STATE_BYTES a chain), the draws a run keeps in memory (draws x chains x columns x 8 bytes) and the traces of AIS's runs
 * (runs x temperatures points, which ais.json, one JSON text, must also hold with --out). A chain's checkpoint is one
 * JSON text, a V8 string of at most buffer.constants.MAX_STRING_LENGTH characters holding the
 * base64 of the chain's draws so far, so with --out a chain's draws must also fit in one.
 */
import { constants as bufferConstants } from "node:buffer";
import { totalmem } from "node:os";
import type { Dataset } from "../io/dataset.js";
import { DataError } from "../io/errors.js";
import { OptionError } from "./options.js";

/** The environment variable that sets the memory gpmcmc may use, in bytes. */
export const MAX_MEMORY_VARIABLE = "GPMCMC_MAX_MEMORY";

/** The memory this process may use, and the words naming where that figure comes from. */
export interface MemoryLimit {
  bytes: number;
  /** e.g. "this machine's memory (os.totalmem(): 25.3 GB)". */
  what: string;
}

const UNITS: Record<string, number> = { "": 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** The memory limit: GPMCMC_MAX_MEMORY if set, else the control group's limit where it is below the machine's memory, else the machine's memory. */
export function memoryLimit(env: Record<string, string | undefined> = process.env): MemoryLimit {
  const raw = env[MAX_MEMORY_VARIABLE];
  if (raw !== undefined && raw.trim() !== "") {
    const m = /^\s*(\d+(?:\.\d*)?(?:e\d+)?)\s*([kKMGT]?)B?\s*$/.exec(raw);
    const bytes = m ? Number(m[1]) * UNITS[m[2]!]! : NaN;
    if (!(bytes > 0 && Number.isFinite(bytes))) throw new OptionError(MAX_MEMORY_VARIABLE, `must be a number of bytes, e.g. 8e9 or 8G, got ${JSON.stringify(raw)}`);
    return { bytes, what: `${MAX_MEMORY_VARIABLE} (${formatBytes(bytes)})` };
  }
  const machine = totalmem();
  const constrained = typeof process.constrainedMemory === "function" ? process.constrainedMemory() : undefined;
  if (constrained !== undefined && constrained > 0 && constrained < machine) {
    return { bytes: constrained, what: `this process's memory limit (its control group's: ${formatBytes(constrained)})` };
  }
  return { bytes: machine, what: `this machine's memory (os.totalmem(): ${formatBytes(machine)})` };
}

/** Bytes in decimal units to 3 significant digits: "880 MB", "28.8 GB". */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "kB", "MB", "GB", "TB", "PB", "EB"];
  let k = 0;
  while (k < units.length - 1 && bytes >= 1000 ** (k + 1)) k++;
  return k === 0 ? `${bytes} bytes` : `${(bytes / 1000 ** k).toPrecision(3)} ${units[k]}`;
}

/** The per-draw statistics every chain keeps beside its variables (CmdStan's lp__ ... energy__). */
const STATISTICS = 6;

/**
 * The most bytes of draws one chain's checkpoint can hold: its JSON text is one string, holding
 * the base64 (4 characters per 3 bytes) of the draws, with some room for the rest of the state.
 */
export const CHECKPOINT_LIMIT_BYTES = Math.floor(((bufferConstants.MAX_STRING_LENGTH - 2 ** 20) * 3) / 4);

/** A run's draws: per chain, `draws` rows of `variables` values and the statistics. */
export interface DrawsSize {
  draws: number;
  chains: number;
  variables: number;
  /** Whether the chains checkpoint (with --out or --resume): each chain's draws must then fit in one checkpoint. */
  checkpoint: boolean;
  /** Bytes a chain's checkpoint holds besides its draws (e.g. kept n x n factorisations). */
  checkpointExtra?: number;
}

/**
 * Bytes each chain keeps besides its draws: its task, its sampler's state and its result's
 * objects and statistics, in the JS heap (measured: 2.0 to 2.6 kB a chain for 500 and 3000
 * chains of one draw at n = 5; rounded up to 4 kB). Chains are allocated together (one task and
 * one result each), so their number is bounded by the memory limit over this.
 */
export const CHAIN_STATE_BYTES = 4000;

/**
 * Throws an OptionError on --chains when the chains' own state (chains x CHAIN_STATE_BYTES) is
 * more than the memory limit, giving the most chains that fit; on --draws when the run's draws (draws x chains x columns x 8 bytes) are
 * more than the memory limit, or, when it checkpoints, a chain's draws more than one checkpoint
 * can hold: the message gives the bytes and the options that lower them.
 */
export function checkDrawsFit(size: DrawsSize, limit: MemoryLimit = memoryLimit()): void {
  const state = size.chains * CHAIN_STATE_BYTES;
  if (state > limit.bytes) {
    const most = Math.floor(limit.bytes / CHAIN_STATE_BYTES);
    throw new OptionError("--chains", `${size.chains} chains x ${formatBytes(CHAIN_STATE_BYTES)} (each chain's task, sampler state and result, besides its draws) = ${formatBytes(state)}, more than ${limit.what}; at most ${most} chains fit`);
  }
  const columns = size.variables + STATISTICS;
  const perChain = size.draws * columns * 8;
  const product = `${size.draws} draws x ${columns} columns (${size.variables} variable${size.variables === 1 ? "" : "s"}, ${STATISTICS} statistics) x 8 bytes`;
  const all = perChain * size.chains;
  if (all > limit.bytes) {
    throw new OptionError("--draws", `${size.chains} chain${size.chains === 1 ? "" : "s"} x ${product} = ${formatBytes(all)}, more than ${limit.what}; lower --draws or --chains (--thin k keeps one transition in k of a longer chain)`);
  }
  const extra = size.checkpointExtra ?? 0;
  if (size.checkpoint && perChain + extra > CHECKPOINT_LIMIT_BYTES) {
    const plus = extra > 0 ? ` + ${formatBytes(extra)} of kept n x n matrices` : "";
    throw new OptionError("--draws", `${product}${plus} = ${formatBytes(perChain + extra)} per chain, more than a chain's checkpoint can hold (${formatBytes(CHECKPOINT_LIMIT_BYTES)}); lower --draws (--thin k keeps one transition in k of a longer chain)`);
  }
}

/**
 * Throws a DataError naming the data file when the n x n matrices of a GP model on it (`matrices`
 * of them: at least K and its Cholesky factor) need more than the memory limit.
 */
export function checkKernelMatrixFits(data: Pick<Dataset, "n" | "path">, limit: MemoryLimit = memoryLimit(), matrices = 2): void {
  const bytes = matrices * data.n * data.n * 8;
  if (bytes <= limit.bytes) return;
  throw new DataError(
    { file: data.path },
    `n = ${data.n} rows: the n x n kernel matrix K and its Cholesky factor need at least ${matrices} x ${data.n}^2 x 8 bytes = ${formatBytes(bytes)}, more than ${limit.what}; use fewer rows`,
  );
}

/** Bytes a point of an AIS run's trace takes in memory: its three numbers in the run's trace, and again as the point object they make. */
const AIS_POINT_BYTES = 80;
/** Characters a point takes at most in ais.json, indented JSON (a point with its three numbers at 17 digits). */
const AIS_POINT_CHARACTERS = 160;

/** An AIS computation's traces: `runs` runs of `temperatures` + 1 points each. */
export interface AisSize {
  temperatures: number;
  runs: number;
  /** Whether it writes --out: all the runs' traces must fit in one ais.json. */
  out: boolean;
}

/**
 * Throws an OptionError on --temperatures (--runs where they are more) when the runs' traces (runs x (B + 1) points) are more
 * than the memory limit, or, with --out, more than ais.json's one JSON text can hold (a run's
 * checkpoint, 24 bytes a point, holds more): the message gives the sizes and the options that lower them.
 */
export function checkAisFits(size: AisSize, limit: MemoryLimit = memoryLimit()): void {
  const points = size.temperatures + 1;
  const product = `${size.runs} runs x ${points} points (--temperatures + 1)`;
  const bytes = size.runs * points * AIS_POINT_BYTES;
  const option = size.runs > points ? "--runs" : "--temperatures";
  if (bytes > limit.bytes) {
    throw new OptionError(option, `${product} x ${AIS_POINT_BYTES} bytes = ${formatBytes(bytes)}, more than ${limit.what}; lower --temperatures or --runs`);
  }
  if (!size.out) return;
  const characters = size.runs * points * AIS_POINT_CHARACTERS;
  if (characters > bufferConstants.MAX_STRING_LENGTH) {
    throw new OptionError(option, `${product} x about ${AIS_POINT_CHARACTERS} characters = ${formatBytes(characters)} of ais.json, more than one JSON text can hold (${formatBytes(bufferConstants.MAX_STRING_LENGTH)}); lower --temperatures or --runs`);
  }
}

/**
 * Throws a DataError naming the grid spec where a job's "draws" cannot fit in memory: a chain
 * keeps at least draws x (one variable and the statistics) x 8 bytes.
 */
export function checkGridDrawsFit(spec: string, draws: number, limit: MemoryLimit = memoryLimit()): void {
  const columns = 1 + STATISTICS;
  const bytes = draws * columns * 8;
  if (bytes <= limit.bytes) return;
  throw new DataError({ file: spec }, `"draws": ${draws} draws x at least ${columns} columns (a variable and ${STATISTICS} statistics) x 8 bytes = ${formatBytes(bytes)} per chain, more than ${limit.what}; lower "draws"`);
}
