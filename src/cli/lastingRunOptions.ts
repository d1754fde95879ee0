/**
 * The options of a long run that must survive faults: --checkpoint-every, --resume and
 * --overwrite (and --force, which like --overwrite says what to do with an existing --out
 * directory), checked before anything is read or written.
 */
import { OptionError, parsePath, parsePositiveInteger } from "./options.js";

export interface RawLastingRunOptions {
  out?: string;
  checkpointEvery?: string;
  resume?: string;
  overwrite?: boolean;
  force?: boolean;
}

export interface LastingRunOptions {
  /** Transitions between checkpoints (0: only on a stop and at each chain's end). */
  checkpointEvery: number;
  /** The directory of the run to continue. */
  resume?: string;
  overwrite: boolean;
}

export function parseLastingRunOptions(raw: RawLastingRunOptions): LastingRunOptions {
  const checkpointEvery = raw.checkpointEvery === undefined ? 0 : parsePositiveInteger("--checkpoint-every", raw.checkpointEvery);
  if (raw.checkpointEvery !== undefined && raw.out === undefined && raw.resume === undefined) {
    throw new OptionError("--checkpoint-every", "needs --out (the checkpoints are written into the output directory)");
  }
  const resume = raw.resume === undefined ? undefined : parsePath("--resume", raw.resume);
  if (resume !== undefined && raw.out !== undefined) throw new OptionError("--resume", "continues the run in its own directory: give --out or --resume, not both");
  if (resume !== undefined && raw.overwrite) throw new OptionError("--overwrite", "cannot be combined with --resume (one continues the run, the other replaces it)");
  // without --out they would say nothing: refused, so that a forgotten --out is not a run that keeps nothing
  if (raw.out === undefined && resume === undefined) {
    if (raw.overwrite) throw new OptionError("--overwrite", "needs --out (it replaces the run in the --out directory)");
    if (raw.force) throw new OptionError("--force", "needs --out (it lets the run write into an existing --out directory that is not gpmcmc's)");
  }
  return { checkpointEvery, resume, overwrite: raw.overwrite === true };
}
