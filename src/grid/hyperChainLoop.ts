/**
 * The iteration loop of a hyperparameter chain of Tables 3-6 (hyperChains.ts), with its
 * checkpoints: every `every` iterations (and when a stop is asked for) the whole state goes to
 * `save` — the chain's own state (theta, f, the tunables' dual averaging, the cache of K(theta)
 * and its factors: src/hyper/jointChainState.ts), the generator's state words, the draws kept so
 * far and the tallies after burn-in — so that a chain resumed from a checkpoint draws, bit for
 * bit, what the chain never stopped would have drawn, and counts the same work.
 */
import { snapshotOpCounts, type OpCounts } from "../linalg/counters.js";
import { Rng, type RngSnapshot } from "../random/rng.js";

/** What one chain gives: theta's sampled components after burn-in, and its costs. */
export interface ChainOutput {
  /** draws x m, row-major (draw after draw). */
  samples: Float64Array;
  m: number;
  accepted: number;
  steps: number;
  ops: OpCounts;
  samplingMs: number;
}

/** A chain as the loop drives it. */
export interface HyperStepper {
  /** Components of theta kept per draw. */
  m: number;
  /** One iteration: the kept components after it, whether its theta update was accepted, and its steps. */
  step(rng: Rng): { x: Float64Array; accepted: boolean; steps: number };
  /** Ends burn-in (the tunables keep their adapted values). */
  freeze(): void;
  saveState(): Float64Array;
  restoreState(saved: Float64Array): void;
}

/** A chain's state after `done` iterations. */
export interface HyperChainCheckpoint {
  m: number;
  draws: number;
  burnIn: number;
  /** Iterations done, burn-in included. */
  done: number;
  state: Float64Array;
  rng: RngSnapshot;
  /** The first max(0, done - burnIn) draws, row-major. */
  samples: Float64Array;
  accepted: number;
  steps: number;
  /** O(n^3) work and milliseconds after burn-in, so far. */
  ops: OpCounts;
  samplingMs: number;
}

export interface HyperCheckpointing {
  /** Iterations between checkpoints (0: only on a stop). */
  every: number;
  save: (cp: HyperChainCheckpoint) => void;
  /** Continue from this checkpoint instead of the chain's start. */
  resume?: HyperChainCheckpoint;
  /** Polled after each iteration: once true, the loop saves a checkpoint and returns, stopped. */
  shouldStop?: () => boolean;
}

const OPS = ["cholesky", "triangularSolveMatrix", "symmetricProduct", "matrixProduct", "flops"] as const;

/** so far + (now - since), per counter. */
function addSince(soFar: OpCounts, now: OpCounts, since: OpCounts): OpCounts {
  const out = { ...soFar };
  for (const k of OPS) out[k] = soFar[k] + now[k] - since[k];
  return out;
}

const ZERO: OpCounts = { cholesky: 0, triangularSolveMatrix: 0, symmetricProduct: 0, matrixProduct: 0, flops: 0 };

/** Why a checkpoint cannot continue this chain, or undefined when it can. */
export function checkpointMismatch(cp: HyperChainCheckpoint, chain: { m: number; draws: number; burnIn: number }): string | undefined {
  for (const k of ["m", "draws", "burnIn"] as const) if (cp[k] !== chain[k]) return `the checkpoint is of a chain with ${k} ${cp[k]}, this one has ${chain[k]}`;
  const kept = Math.max(0, cp.done - chain.burnIn);
  if (!Number.isInteger(cp.done) || cp.done < 0 || cp.done > chain.burnIn + chain.draws || cp.samples.length !== kept * chain.m) return `the checkpoint after iteration ${cp.done} does not fit its draws`;
  return undefined;
}

/** Runs burn-in and draws iterations of `chain` on `rng` (or from `ck.resume`); `stopped` when a stop cut it short. */
export function runHyperLoop(draws: number, burnIn: number, chain: HyperStepper, startRng: Rng, ck?: HyperCheckpointing): ChainOutput & { stopped: boolean } {
  const m = chain.m;
  const total = burnIn + draws;
  const out: ChainOutput = { samples: new Float64Array(draws * m), m, accepted: 0, steps: 0, ops: ZERO, samplingMs: 0 };
  let rng = startRng;
  let start = 0;
  let opsBase = ZERO;
  let from = 0;
  const r = ck?.resume;
  if (r) {
    const why = checkpointMismatch(r, { m, draws, burnIn });
    if (why) throw new RangeError(why);
    chain.restoreState(r.state);
    rng = Rng.restore(r.rng);
    out.samples.set(r.samples);
    out.accepted = r.accepted;
    out.steps = r.steps;
    out.ops = r.ops;
    out.samplingMs = r.samplingMs;
    from = r.done;
  }
  // the phase after burn-in is timed and counted from here (continuing the saved tallies)
  const beginSampling = () => {
    opsBase = snapshotOpCounts();
    start = performance.now();
  };
  if (from > burnIn) beginSampling();
  const checkpoint = (done: number): HyperChainCheckpoint => {
    const sampling = done > burnIn;
    return {
      m, draws, burnIn, done, state: chain.saveState(), rng: rng.snapshot(), samples: out.samples.slice(0, Math.max(0, done - burnIn) * m),
      accepted: out.accepted, steps: out.steps,
      ops: sampling ? addSince(out.ops, snapshotOpCounts(), opsBase) : ZERO,
      samplingMs: sampling ? out.samplingMs + performance.now() - start : 0,
    };
  };
  for (let it = from; it < total; it++) {
    if (it === burnIn) {
      chain.freeze();
      beginSampling();
    }
    const s = chain.step(rng);
    if (it >= burnIn) {
      out.samples.set(s.x, (it - burnIn) * m);
      if (s.accepted) out.accepted++;
      out.steps += s.steps;
    }
    const done = it + 1;
    if (ck && done < total) {
      if (ck.shouldStop?.()) {
        ck.save(checkpoint(done));
        return { ...out, stopped: true };
      }
      if (ck.every > 0 && done % ck.every === 0) ck.save(checkpoint(done));
    }
  }
  // (draws >= 1, so the loop passed burn-in's end or started after it)
  out.ops = addSince(out.ops, snapshotOpCounts(), opsBase);
  out.samplingMs += performance.now() - start;
  return { ...out, stopped: false };
}
