/**
 * The chain driver: burn-in (with step-size adaptation on kernel.tunable, and the kernel's own
 * adaptation, kernel.adaptation: burn-in only, the driver counting its transitions), thinning,
 * per-draw statistics named as CmdStan names them (lp__, accept_stat__, stepsize__,
 * n_leapfrog__, divergent__, energy__), several chains from one seed, and timings.
 *
 * One chain is `runChain(kernel, rng, options)`: its result depends only on the kernel's
 * construction, the generator and the options (the kernel's tunable is set at the start and
 * restored at the end), and its options and result are plain data and typed arrays, so a worker
 * thread can rebuild the kernel from a serialisable description and run the same chain. `sample`
 * runs chains one after another, chain c on the stream `new Rng(seed, c)`.
 */
import { Rng } from "../../random/rng.js";
import type { RandomSource } from "../../random/types.js";
import { makeAdapter, type Adapter, type AdaptOptions } from "./adaptation.js";
import { checkResume, type ChainCheckpoint, type CheckpointOptions } from "./chainCheckpoint.js";
import { allocateStats, countOperations, countTreeDepth, firstStageDiverged, statsSlice, statsView, type ChainSummary, type DrawStatColumns } from "./chainRecords.js";
import type { Kernel, SamplerState, StepInfo } from "../types.js";

export type { ChainSummary, DrawStatColumns } from "./chainRecords.js";


export interface Progress {
  chain: number;
  /** Transitions done so far, burn-in included (1-based). */
  iteration: number;
  /** burnIn + draws * thin. */
  iterations: number;
  phase: "burn-in" | "sampling";
  /** Fraction of accepted transitions so far in this phase. */
  acceptanceRate: number;
  /** Divergent transitions so far in this phase. */
  divergences: number;
  stepSize: number | undefined;
  elapsedSeconds: number;
}

export interface ChainOptions {
  /** Number of draws kept. */
  draws: number;
  /** Transitions before the first kept draw (default 0); adaptation runs during these only. */
  burnIn?: number;
  /** Keep every thin-th transition after burn-in (default 1). */
  thin?: number;
  /** Starting position. */
  init: ArrayLike<number>;
  /** Burn-in adaptation of kernel.tunable (default: none, the tunable keeps its value); a kernel's own, kernel.adaptation, runs whatever this says. */
  adapt?: AdaptOptions;
  /** Value of kernel.tunable at the start of the chain (default: its current value). */
  initialTunableValue?: number;
  /** Index reported in progress (default 0). */
  chainIndex?: number;
  onProgress?: (progress: Progress) => void;
  /** Transitions between progress reports (default: about 20 reports per chain). */
  progressInterval?: number;
  /**
   * Polled before each transition; once it returns true the chain ends there and its result
   * holds the draws kept so far (`stopped: true`). For a cooperative stop (Ctrl-C) of a chain
   * running in a synchronous loop, e.g. on a worker thread.
   */
  shouldStop?: () => boolean;
  /** Checkpoints of the chain (the generator must then be an Rng, whose state can be saved). */
  checkpoint?: CheckpointOptions;
  /** Continue the chain from this checkpoint (of a chain with the same kernel, options and draws). */
  resume?: ChainCheckpoint;
}


export interface ChainResult {
  chain: number;
  dim: number;
  draws: number;
  /** The draws, draw-major: samples[i * dim + j] is variable j of draw i. */
  samples: Float64Array;
  stats: DrawStatColumns;
  /** The tunable's value used after burn-in (undefined for kernels without one). */
  tunedValue: number | undefined;
  summary: ChainSummary;
  seconds: { burnIn: number; sampling: number; total: number };
  /** True when the chain was stopped early (ChainOptions.shouldStop): `draws` are the draws kept until then. */
  stopped?: boolean;
}

/** Where runChain writes its draws and statistics (views into larger arrays, or its own). */
export interface ChainStorage {
  samples: Float64Array;
  stats: DrawStatColumns;
}



function checkCount(name: string, v: number, min: number): void {
  if (!Number.isInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${v}`);
}

/** Runs one chain: burn-in with optional adaptation, then draws * thin transitions keeping every thin-th. */
export function runChain<S extends SamplerState, I extends StepInfo>(kernel: Kernel<S, I>, rng: RandomSource, options: ChainOptions, storage?: ChainStorage): ChainResult {
  const draws = options.draws;
  const burnIn = options.burnIn ?? 0;
  const thin = options.thin ?? 1;
  checkCount("draws", draws, 0);
  checkCount("burnIn", burnIn, 0);
  checkCount("thin", thin, 1);
  const dim = options.init.length;
  checkCount("dimension of init", dim, 1);
  const chain = options.chainIndex ?? 0;
  const out = storage ?? { samples: new Float64Array(draws * dim), stats: allocateStats(draws) };
  if (out.samples.length !== draws * dim || out.stats.lp.length !== draws) throw new RangeError("runChain: storage does not fit draws x dim");

  const tunable = kernel.tunable;
  const kernelAdaptation = kernel.adaptation;
  const savedValue = tunable?.value;
  const iterations = burnIn + draws * thin;
  const interval = options.progressInterval ?? Math.max(1, Math.ceil(iterations / 20));
  const onProgress = options.onProgress;
  const summary: ChainSummary = {
    transitions: iterations, acceptanceRate: NaN, meanAcceptStat: NaN, divergences: 0, burnInAcceptanceRate: NaN,
    burnInDivergences: 0, gradientCalls: 0, metricCalls: 0, inverseMetricCalls: 0, fixedPointIterations: 0, leapfrogSteps: 0, densityEvaluations: 0,
  };
  const t0 = performance.now();
  let tBurnInEnd = t0;
  try {
    if (tunable && options.initialTunableValue !== undefined) tunable.value = options.initialTunableValue;
    const adapter: Adapter | undefined = tunable && options.adapt && burnIn > 0
      ? makeAdapter(options.adapt, tunable.value, tunable.targetAcceptance, burnIn)
      : undefined;

    const resume = options.resume;
    if (resume) checkResume(resume, { dim, draws, burnIn, thin });
    let state = resume?.kernelState && kernel.restoreState
      ? kernel.restoreState(resume.kernelState)
      : kernel.init(Float64Array.from(resume ? resume.position : options.init));
    if (state.position.length !== dim) throw new RangeError(`runChain: kernel state has dimension ${state.position.length}, init ${dim}`);
    let accepted = resume?.tallies.accepted ?? 0;
    let acceptSum = resume?.tallies.acceptSum ?? 0;
    let divergences = resume?.tallies.divergences ?? 0;
    let kept = resume?.kept ?? 0;
    // Where the chain starts: at 0, or where the checkpoint left it, in its phase.
    const resumedInSampling = resume?.phase === "sampling";
    const startBurnIn = resume ? Math.min(resume.done, burnIn) : 0;
    const startSampling = resume && resumedInSampling ? resume.done - burnIn : 0;
    const before = resume?.seconds ?? { burnIn: 0, sampling: 0 };
    if (resume) {
      Object.assign(summary, resume.summary, { transitions: iterations });
      // (nothing to copy when the checkpoint's arrays are views of this storage: CheckpointOptions.views)
      if (!sameView(resume.samples, out.samples)) out.samples.set(resume.samples.subarray(0, kept * dim));
      for (const k of Object.keys(out.stats) as (keyof DrawStatColumns)[]) if (!sameView(resume.stats[k], out.stats[k])) out.stats[k].set(resume.stats[k].subarray(0, kept));
      if (tunable && resume.tunableValue !== undefined) tunable.value = resume.tunableValue;
      if (adapter && resume.adapter) adapter.restore(resume.adapter);
      rng = Rng.restore(resume.rng); // the caller's generator is where the chain started; continue where it was
    }
    const checkpoint = options.checkpoint;
    if (checkpoint && !(rng instanceof Rng)) throw new RangeError("runChain: checkpoints need an Rng generator");
    const save = (done: number, phase: "burn-in" | "sampling") => {
      const now = performance.now();
      checkpoint!.save({
        chain, dim, draws, burnIn, thin, done, phase,
        position: Float64Array.from(state.position),
        kernelState: kernel.saveState?.(state),
        rng: (rng as Rng).snapshot(),
        tunableValue: tunable?.value,
        adapter: adapter?.snapshot(),
        tallies: { accepted, acceptSum, divergences },
        summary: { ...summary },
        kept,
        samples: checkpoint!.views ? out.samples.subarray(0, kept * dim) : out.samples.slice(0, kept * dim),
        stats: checkpoint!.views ? statsView(out.stats, 0, kept) : statsSlice(out.stats, kept),
        seconds: phase === "burn-in"
          ? { burnIn: before.burnIn + (now - t0) / 1000, sampling: 0 }
          : { burnIn: before.burnIn + (resumedInSampling ? 0 : (tBurnInEnd - t0) / 1000), sampling: before.sampling + (now - tBurnInEnd) / 1000 },
      });
    };
    const every = checkpoint?.every ?? 0;
    const report = (iteration: number, phase: "burn-in" | "sampling", done: number) => {
      onProgress!({
        chain, iteration, iterations, phase, acceptanceRate: accepted / done, divergences,
        stepSize: tunable?.value, elapsedSeconds: (performance.now() - t0) / 1000,
      });
    };

    const shouldStop = options.shouldStop;
    let stopped = false;
    /** One transition and its tallies, or undefined (and `stopped`) when asked to stop first. */
    const transition = (): I | undefined => {
      if (shouldStop?.()) {
        stopped = true;
        return undefined;
      }
      const r = kernel.step(state, rng);
      state = r.state;
      const info = r.info;
      if (info.accepted) accepted++;
      if (info.divergent) divergences++;
      countOperations(summary, info);
      return info;
    };
    let burnInDone = startBurnIn;
    for (let t = startBurnIn; t < burnIn && !resumedInSampling; t++) {
      const info = transition();
      if (!info) break;
      burnInDone = t + 1;
      // a divergent first stage counts as a divergence for adaptation, whatever a second stage did
      if (adapter) {
        const firstDiverged = firstStageDiverged(info);
        tunable!.value = adapter.update(info.acceptanceProbability, info.accepted && !firstDiverged, info.divergent || firstDiverged);
      }
      kernelAdaptation?.update(info);
      if (onProgress && ((t + 1) % interval === 0 || t + 1 === burnIn)) report(t + 1, "burn-in", t + 1);
      if (every > 0 && (t + 1) % every === 0) save(t + 1, "burn-in");
    }
    if (stopped && checkpoint) save(burnInDone, "burn-in");
    tBurnInEnd = performance.now();
    if (!resumedInSampling) {
      if (adapter) tunable!.value = adapter.final();
      // (a chain stopped in its burn-in has not ended it: its checkpoint resumes there)
      if (!stopped) kernelAdaptation?.end();
      summary.burnInAcceptanceRate = burnInDone > 0 ? accepted / burnInDone : NaN;
      summary.burnInDivergences = divergences;
      accepted = 0;
      acceptSum = 0;
      divergences = 0;
    }

    const sampling = stopped ? 0 : draws * thin;
    let samplingDone = startSampling;
    const { samples, stats } = out;
    for (let t = startSampling; t < sampling; t++) {
      const info = transition();
      if (!info) {
        if (checkpoint) save(burnIn + t, "sampling");
        break;
      }
      samplingDone = t + 1;
      acceptSum += info.acceptanceProbability;
      countTreeDepth(summary, info);
      if ((t + 1) % thin === 0) {
        samples.set(state.position, kept * dim);
        stats.lp[kept] = state.logDensity;
        stats.acceptStat[kept] = info.acceptanceProbability;
        stats.stepSize[kept] = info.stepSize;
        stats.nLeapfrog[kept] = info.leapfrogSteps;
        stats.divergent[kept] = info.divergent ? 1 : 0;
        stats.energy[kept] = info.energy;
        kept++;
      }
      if (onProgress && ((t + 1) % interval === 0 || t + 1 === sampling)) report(burnIn + t + 1, "sampling", t + 1);
      if (every > 0 && (burnIn + t + 1) % every === 0 && t + 1 < sampling) save(burnIn + t + 1, "sampling");
    }
    if (checkpoint && !stopped) save(burnIn + sampling, "sampling");
    summary.acceptanceRate = samplingDone > 0 ? accepted / samplingDone : NaN;
    summary.meanAcceptStat = samplingDone > 0 ? acceptSum / samplingDone : NaN;
    summary.divergences = divergences;
    const t1 = performance.now();
    const result: ChainResult = {
      chain,
      dim,
      draws,
      samples: out.samples,
      stats: out.stats,
      tunedValue: tunable?.value,
      summary,
      seconds: {
        burnIn: before.burnIn + (resumedInSampling ? 0 : (tBurnInEnd - t0) / 1000),
        sampling: before.sampling + (t1 - tBurnInEnd) / 1000,
        total: before.burnIn + before.sampling + (t1 - t0) / 1000,
      },
    };
    if (stopped) {
      summary.transitions = burnInDone + samplingDone;
      Object.assign(result, { stopped: true, draws: kept, samples: out.samples.subarray(0, kept * dim), stats: statsView(out.stats, 0, kept) });
    }
    return result;
  } finally {
    if (tunable && savedValue !== undefined) tunable.value = savedValue;
  }
}


/** Whether `a` starts where `b` does in the same buffer. */
function sameView(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return a.buffer === b.buffer && a.byteOffset === b.byteOffset;
}

export interface SampleOptions {
  draws: number;
  burnIn?: number;
  thin?: number;
  /** Number of chains (default 1). */
  chains?: number;
  /** Chain c runs on new Rng(seed, c). */
  seed: number | bigint;
  /** One starting point for every chain, or one per chain. */
  init?: ArrayLike<number> | ArrayLike<number>[];
  /** Starting point of chain c, drawn before the chain starts from the chain's own generator. */
  initFn?: (chain: number, rng: RandomSource) => ArrayLike<number>;
  adapt?: AdaptOptions;
  onProgress?: (progress: Progress) => void;
  progressInterval?: number;
}

export interface SampleResult {
  chains: number;
  draws: number;
  dim: number;
  /** chain x draw x dim: samples[(c * draws + i) * dim + j]. */
  samples: Float64Array;
  /** chain x draw: stats.lp[c * draws + i]. */
  stats: DrawStatColumns;
  /** Per chain: summary, tuned value, timings (their samples and stats are views into the arrays above). */
  chainResults: ChainResult[];
  seconds: { total: number };
}

/** Runs `chains` chains one after another from `seed`, chain c on new Rng(seed, c). */
export function sample<S extends SamplerState, I extends StepInfo>(kernel: Kernel<S, I>, options: SampleOptions): SampleResult {
  const chains = options.chains ?? 1;
  checkCount("chains", chains, 1);
  checkCount("draws", options.draws, 0);
  if ((options.init === undefined) === (options.initFn === undefined)) throw new RangeError("sample: give exactly one of init and initFn");
  const initialTunableValue = kernel.tunable?.value;
  const t0 = performance.now();
  const draws = options.draws;
  let dim = -1;
  let samples = new Float64Array(0);
  let stats = allocateStats(0);
  const chainResults: ChainResult[] = [];
  for (let c = 0; c < chains; c++) {
    const rng = new Rng(options.seed, c);
    const init = options.initFn ? options.initFn(c, rng) : initFor(options.init!, c, chains);
    if (dim < 0) {
      dim = init.length;
      samples = new Float64Array(chains * draws * dim);
      stats = allocateStats(chains * draws);
    } else if (init.length !== dim) {
      throw new RangeError(`sample: the starting point of chain ${c} has length ${init.length}, chain 0's has ${dim}`);
    }
    const storage: ChainStorage = {
      samples: samples.subarray(c * draws * dim, (c + 1) * draws * dim),
      stats: statsView(stats, c * draws, (c + 1) * draws),
    };
    chainResults.push(runChain(kernel, rng, {
      draws, burnIn: options.burnIn, thin: options.thin, init, adapt: options.adapt, initialTunableValue,
      chainIndex: c, onProgress: options.onProgress, progressInterval: options.progressInterval,
    }, storage));
  }
  return { chains, draws, dim, samples, stats, chainResults, seconds: { total: (performance.now() - t0) / 1000 } };
}

function initFor(init: ArrayLike<number> | ArrayLike<number>[], chain: number, chains: number): ArrayLike<number> {
  const first = init[0];
  if (typeof first === "number") return init as ArrayLike<number>;
  const perChain = init as ArrayLike<number>[];
  if (perChain.length !== chains) throw new RangeError(`sample: ${perChain.length} starting points for ${chains} chains`);
  return perChain[chain];
}

/** Variable j of chain c as a new array (what ESS and R-hat take). */
export function chainTrace(result: SampleResult, chain: number, j: number): Float64Array {
  const { draws, dim } = result;
  const out = new Float64Array(draws);
  const base = chain * draws * dim;
  for (let i = 0; i < draws; i++) out[i] = result.samples[base + i * dim + j];
  return out;
}
