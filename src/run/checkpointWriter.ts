/**
 * Writing a run's checkpoints as they come from its chains: each checkpoint, then the chain's
 * draws so far as its draws file marked incomplete (both atomically, in the thread that started
 * the run), so that a run killed at any moment leaves a readable draws file of complete rows and
 * a checkpoint at least as far on. The last checkpoint, at a chain's end, is the complete chain,
 * whose draws file the run writes when it gets the result.
 */
import { OutputDir } from "../io/atomic.js";
import type { ChainCheckpoint } from "../samplers/chain/chainCheckpoint.js";
import type { ChainResult } from "../samplers/chain/driver.js";
import { checkpointComplete, writeCheckpoint } from "./checkpoint.js";
import { writeChainDraws } from "./outputs.js";
import type { LatentGpRunSpec } from "./runSpec.js";

/** Where a run's checkpoints go, how often, and what its draws files record. */
export interface ChainCheckpointTarget {
  dir: string;
  /** Transitions between checkpoints (0: only on a stop and at each chain's end). */
  every: number;
  dataFile: string;
  dataSha256?: string;
}

/** A chain task sends each checkpoint as a message `{ checkpoint }` (parallel/checkpointMessage.ts). */
export { isCheckpointMessage } from "../parallel/checkpointMessage.js";

/**
 * Saves checkpoints into target.dir; a chain's draws so far go through `writeDraws` (default: the
 * draws file of a run of `spec` with fixed hyperparameters).
 */
export function checkpointWriter(target: ChainCheckpointTarget, spec: LatentGpRunSpec | ((out: OutputDir, partial: ChainResult) => void)): (cp: ChainCheckpoint) => void {
  const writeDraws = typeof spec === "function" ? spec : (out: OutputDir, r: ChainResult) => void writeChainDraws(out, r, spec, target.dataFile, target.dataSha256);
  const out = new OutputDir(target.dir);
  return (cp) => {
    writeCheckpoint(target.dir, cp);
    if (checkpointComplete(cp)) return;
    const partial: ChainResult = {
      chain: cp.chain, dim: cp.dim, draws: cp.kept, samples: cp.samples, stats: cp.stats,
      tunedValue: cp.phase === "sampling" ? cp.tunableValue : undefined, summary: cp.summary,
      seconds: { ...cp.seconds, total: cp.seconds.burnIn + cp.seconds.sampling }, stopped: true,
    };
    writeDraws(out, partial);
  };
}
