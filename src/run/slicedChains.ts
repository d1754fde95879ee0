/**
 * The chains of a model run in the thread that started it (`gpmcmc sample --model ...`), one
 * after another as the driver's `sample` runs them (chain c on new Rng(seed, c), the same
 * starting point and initial tunable value), with checkpoints, resume and a stop request.
 *
 * A chain runs in slices of about `sliceMs` of sampling: at the end of a slice the driver stops it
 * with a checkpoint kept in memory, the event loop takes a turn (so that SIGINT and SIGTERM
 * handlers run and can request the stop), and the next slice resumes from that checkpoint. A
 * resume draws exactly what the chain never stopped would have drawn (the driver's and the
 * kernels' saveState/restoreState, test/samplers/*Resume.test.ts), so the slices change no draw.
 */
import type { StopFlag } from "../parallel/pool.js";
import { Rng } from "../random/rng.js";
import type { AdaptOptions } from "../samplers/chain/adaptation.js";
import type { ChainCheckpoint, CheckpointOptions } from "../samplers/chain/chainCheckpoint.js";
import { allocateStats } from "../samplers/chain/chainRecords.js";
import { runChain, type ChainResult, type ChainStorage } from "../samplers/chain/driver.js";
import type { Kernel } from "../samplers/types.js";

export interface SlicedChainsOptions {
  draws: number;
  burnIn: number;
  thin: number;
  chains: number;
  seed: number;
  /** Every chain's starting point. */
  init: Float64Array;
  adapt?: AdaptOptions;
  /** Once requested, the chain running ends at its next transition (with a checkpoint) and no other starts. */
  stop?: StopFlag;
  /**
   * Checkpoints every `every` transitions, on a stop and at each chain's end; their draws and
   * statistics are views into the chain's storage (CheckpointOptions.views), valid until the chain
   * goes on: `save` writes them at once.
   */
  checkpoint?: CheckpointOptions;
  /** Per chain, the checkpoint to continue from (undefined: the chain starts afresh). */
  resume?: (ChainCheckpoint | undefined)[];
  /** Called with each chain's result as it ends, before the next chain starts (the kernel still holds that chain's state). */
  onChain?: (result: ChainResult) => void;
  /** Milliseconds of sampling between turns of the event loop (default 250). */
  sliceMs?: number;
}

export interface SlicedChainsResult {
  /** The chains that ran, in order; the last is stopped (`stopped: true`) when the run was. */
  chainResults: ChainResult[];
  /** False when a stop was requested before every chain had all its draws. */
  complete: boolean;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function runSlicedChains(kernel: Kernel, options: SlicedChainsOptions): Promise<SlicedChainsResult> {
  const { draws, burnIn, thin, init, adapt, stop } = options;
  const sliceMs = options.sliceMs ?? 250;
  const initialTunableValue = kernel.tunable?.value;
  const chainResults: ChainResult[] = [];
  for (let c = 0; c < options.chains; c++) {
    if (stop?.requested) return { chainResults, complete: false };
    const rng = new Rng(options.seed, c);
    const storage: ChainStorage = { samples: new Float64Array(draws * init.length), stats: allocateStats(draws) };
    let resume = options.resume?.[c];
    for (;;) {
      const deadline = performance.now() + sliceMs;
      let sliced = false;
      let polls = 0;
      let sliceEnd: ChainCheckpoint | undefined;
      const result = runChain(kernel, rng, {
        draws, burnIn, thin, init, adapt, initialTunableValue, chainIndex: c, resume,
        // at least one transition per slice, so that every slice makes progress
        shouldStop: () => stop?.requested === true || (sliced = polls++ > 0 && performance.now() > deadline),
        checkpoint: {
          // the slices resume into the same storage, and the caller's save writes at once: no copies of the draws
          views: true,
          every: options.checkpoint?.every ?? 0,
          save: (cp) => (sliced && !stop?.requested ? (sliceEnd = cp) : options.checkpoint?.save(cp)),
        },
      }, storage);
      if (!result.stopped) {
        options.onChain?.(result);
        chainResults.push(result);
        break;
      }
      if (!sliceEnd) {
        chainResults.push(result);
        return { chainResults, complete: false };
      }
      resume = sliceEnd;
      await nextTurn();
    }
  }
  return { chainResults, complete: true };
}
