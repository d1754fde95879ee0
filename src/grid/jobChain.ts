/**
 * One chain of a grid job, checkpointed into the grid's checkpoint directory: with the spec's
 * checkpointEvery the driver hands its whole state (samplers/chain/chainCheckpoint.ts: position, the
 * kernel's own state, generator, adaptation, draws so far) to the job's checkpoint file every
 * that many transitions and when a stop is asked for; a job run again after its worker was
 * stopped or died continues from that file, so its draws are those of the chain never
 * interrupted. Beside the chain the checkpoint keeps the job's own running tallies (`tallies`:
 * CPU seconds, counts of model evaluations), taken at the same transition, so that they too are
 * those of the uninterrupted chain: the CPU time of a resumed job is the sum over its attempts of
 * the time of the transitions it kept (work a killed worker did after its last checkpoint is done
 * again and counted once).
 */
import type { TaskContext } from "../parallel/tasks.js";
import { Rng } from "../random/rng.js";
import { checkResume, type ChainCheckpoint } from "../samplers/chain/chainCheckpoint.js";
import { runChain, type ChainOptions, type ChainResult } from "../samplers/chain/driver.js";
import type { Kernel, SamplerState } from "../samplers/types.js";
import { refuseJob } from "./jobError.js";
import type { GridJob } from "./spec.js";
import { jobCheckpointPath, readJobCheckpoint, writeJobCheckpoint } from "./store.js";

/** The job's own running figures, as plain numbers (saved with each checkpoint, restored on resume). */
export type JobTallies = Record<string, number | number[]>;

/** What a job's checkpoint file holds. */
export interface JobChainCheckpoint<T extends JobTallies = JobTallies> {
  chain: ChainCheckpoint;
  tallies: T;
}

/** A job's tallies: their values now (at a checkpoint) and how to continue from saved ones. */
export interface TallyKeeper<T extends JobTallies> {
  save: () => T;
  restore: (saved: T) => void;
}

/**
 * Runs the job's chain, resuming from its checkpoint when one is there; refuses a checkpoint of
 * another chain's shape (naming the file), throws when a stop cut the chain short (the job is
 * then retried, and resumes). `resumed`: whether it continued from a checkpoint.
 */
export function runJobChain<S extends SamplerState, T extends JobTallies>(
  job: GridJob, context: TaskContext | undefined, kernel: Kernel<S>, seed: number | bigint, options: ChainOptions, tallies?: TallyKeeper<T>,
): ChainResult & { resumed: boolean } {
  const resume = readJobCheckpoint<JobChainCheckpoint<T>>(job);
  if (resume) {
    try {
      if (!resume.chain || !resume.tallies) throw new RangeError("it is not a checkpoint of this job kind");
      checkResume(resume.chain, { dim: options.init.length, draws: options.draws, burnIn: options.burnIn ?? 0, thin: options.thin ?? 1 });
    } catch (e) {
      refuseJob(job, `${jobCheckpointPath(job)}: ${(e as Error).message.replace(/^runChain: /, "")}`);
    }
    tallies?.restore(resume.tallies);
  }
  const r = runChain(kernel, new Rng(seed), {
    ...options,
    checkpoint: job.checkpointEvery > 0 ? { every: job.checkpointEvery, save: (chain) => writeJobCheckpoint(job, { chain, tallies: tallies?.save() ?? {} }) } : undefined,
    resume: resume?.chain,
    shouldStop: context ? () => context.stopRequested() : undefined,
  });
  if (r.stopped) throw new Error(`${job.identity}: stopped before its end`);
  return { ...r, resumed: resume !== undefined };
}

/** CPU seconds (user + system) of the process since `from`. */
export const cpuSecondsSince = (from: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};

/**
 * A clock of the process's CPU seconds over a chain that may span attempts: `seconds()` is the
 * time saved with the checkpoint resumed from (restore) plus this attempt's since then.
 */
export function cpuClock(): { seconds: () => number; keeper: (key: string) => TallyKeeper<JobTallies>; restore: (s: number) => void } {
  let before = 0;
  let from = process.cpuUsage();
  const seconds = () => before + cpuSecondsSince(from);
  const restore = (s: number) => {
    before = s;
    from = process.cpuUsage();
  };
  return { seconds, restore, keeper: (key) => ({ save: () => ({ [key]: seconds() }), restore: (t) => restore(t[key] as number) }) };
}

/** The kernel with its step replaced by `step` (its init, tunable, own adaptation and own saved state passed through). */
export function withStep<S extends SamplerState>(kernel: Kernel<S>, step: Kernel<S>["step"]): Kernel<S> {
  const k: Kernel<S> = { name: kernel.name, init: (x) => kernel.init(x), step, tunable: kernel.tunable, adaptation: kernel.adaptation };
  if (kernel.saveState && kernel.restoreState) {
    k.saveState = (state) => kernel.saveState!(state);
    k.restoreState = (saved) => kernel.restoreState!(saved);
  }
  return k;
}
