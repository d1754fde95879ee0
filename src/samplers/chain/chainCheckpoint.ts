/**
 * A chain's full state at a transition boundary, as plain data and typed arrays: what the driver
 * needs to continue the chain so that it draws exactly what the chain never stopped would have
 * drawn. The kernel's state is rebuilt from the position (every latent kernel's state is the
 * position plus quantities computed from it: log density, gradient, geometry; no kernel keeps a
 * momentum between transitions, each draws a fresh one), the generator from its snapshot
 * (state words and the held-back normal), the step-size adaptation from its running sums.
 */
import type { RngSnapshot } from "../../random/rng.js";
import type { ChainSummary, DrawStatColumns } from "./chainRecords.js";

export interface ChainCheckpoint {
  chain: number;
  dim: number;
  /** The chain's configuration, checked on resume: draws kept, burn-in, thinning. */
  draws: number;
  burnIn: number;
  thin: number;
  /** Transitions done, burn-in included. */
  done: number;
  /** The phase whose tallies `tallies` holds ("sampling" once burn-in's end has been handled). */
  phase: "burn-in" | "sampling";
  position: Float64Array;
  /** The kernel's own record of its state, where it keeps one (Kernel.saveState). */
  kernelState?: Float64Array;
  rng: RngSnapshot;
  /** The tunable's value (undefined: the kernel has none). */
  tunableValue?: number;
  /** The adapter's running state (undefined: no adaptation). */
  adapter?: number[];
  /** Counts of the current phase: accepted and divergent transitions, the sum of acceptance statistics. */
  tallies: { accepted: number; acceptSum: number; divergences: number };
  summary: ChainSummary;
  /** Draws kept so far, draw-major, and their statistics. */
  kept: number;
  samples: Float64Array;
  stats: DrawStatColumns;
  /** Seconds spent so far in each phase. */
  seconds: { burnIn: number; sampling: number };
}

/** Where and how often the driver hands out checkpoints. */
export interface CheckpointOptions {
  /** Transitions between checkpoints (0: none but the ones on a stop and at the end). */
  every: number;
  /** Called with each checkpoint, after transition `done`, on a stop, and once at the chain's end. */
  save: (checkpoint: ChainCheckpoint) => void;
  /**
   * The checkpoint's draws and statistics are views into the chain's storage, not copies: for a
   * `save` that uses them at once, or a resume into the same storage (which then copies nothing),
   * so that a checkpoint costs no copy of the draws so far.
   */
  views?: boolean;
}

/** A checkpoint fits a chain when it was made by a chain of the same shape, inside its transitions. */
export function checkResume(cp: ChainCheckpoint, chain: { dim: number; draws: number; burnIn: number; thin: number }): void {
  for (const key of ["dim", "draws", "burnIn", "thin"] as const) {
    if (cp[key] !== chain[key]) throw new RangeError(`runChain: the checkpoint is of a chain with ${key} ${cp[key]}, this chain has ${chain[key]}`);
  }
  const total = chain.burnIn + chain.draws * chain.thin;
  if (!Number.isInteger(cp.done) || cp.done < 0 || cp.done > total) throw new RangeError(`runChain: checkpoint after transition ${cp.done} of ${total}`);
  if (cp.position.length !== chain.dim || cp.samples.length !== cp.kept * chain.dim) throw new RangeError("runChain: the checkpoint's arrays do not fit its dimension");
}

const STAT_KEYS = ["lp", "acceptStat", "stepSize", "nLeapfrog", "divergent", "energy"] as const;

/**
 * What is wrong with a value read back as chain `chain`'s checkpoint of a run of `run`'s shape
 * (its dimension where the caller knows it), in words for a message about its file; undefined
 * when it is such a checkpoint. The checks runChain's checkResume would fail, made before any
 * chain starts, so that a damaged or foreign file is named instead of failing in a worker.
 */
export function chainCheckpointProblem(value: Record<string, unknown>, chain: number, run: { draws: number; burnIn: number; thin: number; dim?: number }): string | undefined {
  const whole = (k: string) => Number.isInteger(value[k]) && (value[k] as number) >= 0;
  for (const k of ["chain", "dim", "draws", "burnIn", "thin", "done", "kept"]) if (!whole(k)) return `its field "${k}" is missing or not a whole number`;
  if (value.phase !== "burn-in" && value.phase !== "sampling") return `its field "phase" is missing or not "burn-in" or "sampling"`;
  for (const k of ["position", "samples"]) if (!(value[k] instanceof Float64Array)) return `its field "${k}" is missing or not an array of numbers`;
  const rng = value.rng as { words?: unknown } | undefined;
  if (typeof rng !== "object" || rng === null || !Array.isArray(rng.words) || rng.words.length !== 4 || !rng.words.every((w) => typeof w === "string" && /^[0-9a-f]{1,16}$/.test(w))) {
    return `its field "rng" is missing or not a generator's state`;
  }
  for (const k of ["tallies", "summary", "seconds", "stats"]) if (typeof value[k] !== "object" || value[k] === null) return `its field "${k}" is missing or not an object`;
  const cp = value as unknown as ChainCheckpoint;
  if (cp.chain !== chain) return `it is chain ${cp.chain + 1}'s, not chain ${chain + 1}'s`;
  const expected: [string, number | undefined][] = [["draws", run.draws], ["burnIn", run.burnIn], ["thin", run.thin], ["dim", run.dim]];
  for (const [k, v] of expected) if (v !== undefined && value[k] !== v) return `its chain has ${k} ${value[k] as number}, the run's chains have ${v}`;
  if (cp.done > cp.burnIn + cp.draws * cp.thin) return `it is after transition ${cp.done} of a chain of ${cp.burnIn + cp.draws * cp.thin}`;
  if (cp.kept > cp.draws || cp.position.length !== cp.dim || cp.samples.length < cp.kept * cp.dim) return "its arrays do not fit its dimension and draws";
  for (const k of STAT_KEYS) {
    const column = (cp.stats as unknown as Record<string, unknown>)[k];
    if (!ArrayBuffer.isView(column) || (column as Float64Array).length < cp.kept) return `its statistics column "${k}" is missing or shorter than its draws`;
  }
  return undefined;
}
