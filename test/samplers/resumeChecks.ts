/**
 * What the checkpoint tests of every sampler family share: the comparison of two chains on all
 * that must not depend on an interruption, and the run of a chain resumed from each of its
 * checkpoints (read back from their JSON, on a fresh kernel as a new process builds) and from a
 * stop at chosen transitions.
 */
import assert from "node:assert/strict";
import { Rng } from "../../src/random/rng.js";
import { decodeExact, encodeExact } from "../../src/run/checkpoint.js";
import type { ChainCheckpoint } from "../../src/samplers/chain/chainCheckpoint.js";
import { runChain, type ChainOptions, type ChainResult } from "../../src/samplers/chain/driver.js";
import type { Kernel } from "../../src/samplers/types.js";

/** Draws, per-draw statistics, tuned value and operation counts: what must not depend on an interruption. */
export function sameChain(a: ChainResult, b: ChainResult, what: string): void {
  assert.deepEqual(a.samples, b.samples, `${what}: draws`);
  assert.deepEqual(a.stats, b.stats, `${what}: per-draw statistics`);
  assert.equal(a.tunedValue, b.tunedValue, `${what}: tuned value`);
  const { transitions, acceptanceRate, meanAcceptStat, divergences, burnInAcceptanceRate, gradientCalls, metricCalls, densityEvaluations } = a.summary;
  const s = b.summary;
  assert.deepEqual(
    { transitions, acceptanceRate, meanAcceptStat, divergences, burnInAcceptanceRate, gradientCalls, metricCalls, densityEvaluations },
    { transitions: s.transitions, acceptanceRate: s.acceptanceRate, meanAcceptStat: s.meanAcceptStat, divergences: s.divergences, burnInAcceptanceRate: s.burnInAcceptanceRate, gradientCalls: s.gradientCalls, metricCalls: s.metricCalls, densityEvaluations: s.densityEvaluations },
    `${what}: summary`,
  );
}

/** A chain of `kernel()` from `options` on new Rng(seed, 0), with checkpoints or a resume. */
export function chainOf(kernel: () => Kernel, options: ChainOptions, seed: number, extra: Pick<ChainOptions, "checkpoint" | "resume" | "shouldStop"> = {}): ChainResult {
  return runChain(kernel(), new Rng(seed, 0), { ...options, ...extra });
}

/**
 * Checks that the chain resumed from each checkpoint taken every `every` transitions, and from a
 * stop after each of `stops` transitions, draws what the chain never stopped drew; returns the
 * reference chain and the checkpoints (for negative controls).
 */
export function resumesExactly(kernel: () => Kernel, options: ChainOptions, seed: number, every: number, stops: number[]): { reference: ChainResult; saved: ChainCheckpoint[] } {
  const reference = chainOf(kernel, options, seed);
  const saved: ChainCheckpoint[] = [];
  const checkpointed = chainOf(kernel, options, seed, { checkpoint: { every, save: (cp) => saved.push(decodeExact<ChainCheckpoint>(encodeExact(cp))) } });
  sameChain(checkpointed, reference, "with checkpoints");
  const total = (options.burnIn ?? 0) + options.draws * (options.thin ?? 1);
  assert.equal(saved.length, Math.floor((total - 1) / every) + 1, "a checkpoint every `every` transitions and one at the end");
  for (const cp of saved) sameChain(chainOf(kernel, options, seed, { resume: cp }), reference, `resumed after ${cp.done}`);
  for (const stopAfter of stops) {
    let polls = 0;
    let cp: ChainCheckpoint | undefined;
    const stopped = chainOf(kernel, options, seed, { shouldStop: () => polls++ >= stopAfter, checkpoint: { every: 0, save: (c) => (cp = decodeExact<ChainCheckpoint>(encodeExact(c))) } });
    assert.equal(stopped.stopped, true);
    assert.equal(cp!.done, stopAfter);
    sameChain(chainOf(kernel, options, seed, { resume: cp }), reference, `stopped after ${stopAfter}`);
  }
  return { reference, saved };
}

/** Whether the chain resumed from `cp` differs from `reference` (what a negative control expects). */
export function resumeDiffers(kernel: () => Kernel, options: ChainOptions, seed: number, cp: ChainCheckpoint, reference: ChainResult): boolean {
  try {
    sameChain(chainOf(kernel, options, seed, { resume: cp }), reference, "resumed");
    return false;
  } catch (e) {
    if (e instanceof assert.AssertionError) return true;
    throw e;
  }
}
