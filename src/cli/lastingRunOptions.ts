/**
 * The options of a long run that must survive faults: --checkpoint-every, --resume and
 * --overwrite, checked before anything is read or written.
 */
import { OptionError, parsePath, parsePositiveInteger } from "./options.js";

export interface RawLastingRunOptions {
  out?: string;
  checkpointEvery?: string;
  resume?: string;
  overwrite?: boolean;
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
  return { checkpointEvery, resume, overwrite: raw.overwrite === true };
}
