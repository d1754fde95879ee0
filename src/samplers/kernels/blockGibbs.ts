/**
 * Block Gibbs sampling with a Metropolis-type kernel per block (Metropolis-within-Gibbs): one
 * transition is a sweep over the blocks, each updated by a kernel that leaves the block's full
 * conditional invariant, built afresh from the current position (so it conditions on the other
 * blocks' current values). Girolami & Calderhead 2011 sample the stochastic volatility model this
 * way (Section 8: (beta, sigma, phi) | x, then x | (beta, sigma, phi)) and the Cox process's
 * hyperparameters and field (Section 9). Each sweep leaves the joint target invariant because
 * each block's move does.
 *
 * Each block has its own step size. During the first `adaptIterations` sweeps (the burn-in) it is
 * adapted by dual averaging (adaptation.ts) towards the block kernel's own target acceptance; the
 * averaged value is kept from then on. The driver's single-tunable adaptation does not apply (the
 * kernel has no tunable).
 */
import type { RandomSource } from "../../random/types.js";
import { DualAveraging } from "../chain/adaptation.js";
import { initialPosition } from "../chain/initialPoint.js";
import type { Kernel, SamplerState, StepInfo } from "../types.js";

export interface GibbsBlock {
  readonly name: string;
  /** The block is position[start .. start + length). */
  readonly start: number;
  readonly length: number;
  /** A kernel on the block's conditional given `position` (whose block entries it must not read). */
  kernelFor(position: Float64Array): Kernel;
  /** The starting step size of a kernel with a tunable (default: the kernel's own). */
  readonly stepSize?: number;
  /** Adapt the step size during the adaptation sweeps (default true for kernels with a tunable). */
  readonly adapt?: boolean;
}

export interface BlockGibbsOptions {
  /** The joint log density at a full position (reported as the state's log density, lp__). */
  logDensity(position: Float64Array): number;
  /** Sweeps during which the block step sizes adapt (default 0). */
  adaptIterations?: number;
}

export interface BlockSummary {
  name: string;
  /** The step size in use (after adaptation: the averaged one); NaN for kernels without one. */
  stepSize: number;
  /** Accepted fraction of the block's transitions after the adaptation sweeps. */
  acceptanceRate: number;
  transitions: number;
}

export interface BlockGibbsKernel extends Kernel {
  summary(): BlockSummary[];
}

export function blockGibbs(dim: number, blocks: readonly GibbsBlock[], options: BlockGibbsOptions): BlockGibbsKernel {
  for (const b of blocks) {
    if (!(b.start >= 0 && b.length >= 1 && b.start + b.length <= dim)) throw new RangeError(`blockGibbs: block ${b.name} [${b.start}, ${b.start + b.length}) does not fit in ${dim} coordinates`);
  }
  const adaptIterations = options.adaptIterations ?? 0;
  const stepSizes = blocks.map((b) => b.stepSize ?? NaN);
  let adapters: (DualAveraging | undefined)[] = [];
  /** Each adapter's initial step size and target acceptance (what it was made with). */
  const adapterSettings: [number, number][] = blocks.map(() => [NaN, NaN]);
  const accepted = blocks.map(() => 0);
  const counted = blocks.map(() => 0);
  let sweeps = 0;

  function init(x0: Float64Array): SamplerState {
    const position = initialPosition("block-gibbs", x0, dim);
    adapters = blocks.map(() => undefined);
    accepted.fill(0);
    counted.fill(0);
    sweeps = 0;
    blocks.forEach((b, i) => (stepSizes[i] = b.stepSize ?? NaN));
    return { position, logDensity: options.logDensity(position) };
  }

  function step(state: SamplerState, rng: RandomSource): { state: SamplerState; info: StepInfo } {
    const x = Float64Array.from(state.position);
    const adapting = sweeps < adaptIterations;
    const info: StepInfo = {
      accepted: false, acceptanceProbability: 0, divergent: false, energy: NaN, energyError: NaN, stepSize: NaN,
      leapfrogSteps: 0, gradientCalls: 0, metricCalls: 0, fixedPointIterations: 0, inverseMetricCalls: 0, densityEvaluations: 0,
    };
    blocks.forEach((b, i) => {
      const kernel = b.kernelFor(x);
      const tunable = kernel.tunable;
      if (tunable) {
        if (Number.isNaN(stepSizes[i])) stepSizes[i] = tunable.value;
        tunable.value = stepSizes[i];
        if (adapting && b.adapt !== false && !adapters[i]) {
          adapters[i] = new DualAveraging(stepSizes[i], tunable.targetAcceptance);
          adapterSettings[i] = [stepSizes[i], tunable.targetAcceptance];
        }
      }
      const s = kernel.init(x.slice(b.start, b.start + b.length));
      const { state: next, info: bi } = kernel.step(s, rng);
      x.set(next.position, b.start);
      const adapter = adapters[i];
      if (adapter && tunable) stepSizes[i] = adapting ? adapter.update(bi.acceptanceProbability, bi.accepted) : stepSizes[i];
      if (!adapting) {
        counted[i]++;
        if (bi.accepted) accepted[i]++;
      }
      if (i === 0) info.stepSize = bi.stepSize;
      info.accepted ||= bi.accepted;
      info.acceptanceProbability += bi.acceptanceProbability / blocks.length;
      info.divergent ||= bi.divergent;
      info.leapfrogSteps += bi.leapfrogSteps;
      info.gradientCalls += bi.gradientCalls;
      info.metricCalls += bi.metricCalls;
      info.fixedPointIterations += bi.fixedPointIterations;
      info.inverseMetricCalls! += bi.inverseMetricCalls ?? 0;
      info.densityEvaluations! += bi.densityEvaluations ?? 0;
    });
    sweeps++;
    // the end of adaptation: keep each block's averaged step size
    if (sweeps === adaptIterations) adapters.forEach((a, i) => (stepSizes[i] = a ? a.final() : stepSizes[i]));
    return { state: { position: x, logDensity: options.logDensity(x) }, info };
  }

  // The sweeps so far, each block's step size, tallies and dual averaging are the chain's state
  // beside the position: a resumed chain takes them rather than init's fresh ones.
  // [sweeps, log density, x (dim), per block: step size, accepted, counted, adapter flag,
  //  its initial step size and target, its running state (4)]
  const PER_BLOCK = 10;
  const saveState = (state: SamplerState) => {
    const out = [sweeps, state.logDensity, ...state.position];
    blocks.forEach((_, i) => {
      const a = adapters[i];
      out.push(stepSizes[i], accepted[i], counted[i], a ? 1 : 0, ...(a ? adapterSettings[i] : [NaN, NaN]), ...(a ? a.snapshot() : [NaN, NaN, NaN, NaN]));
    });
    return Float64Array.from(out);
  };
  function restoreState(saved: Float64Array): SamplerState {
    if (saved.length !== 2 + dim + PER_BLOCK * blocks.length) throw new RangeError(`block-gibbs: a saved state has ${2 + dim + PER_BLOCK * blocks.length} numbers, got ${saved.length}`);
    sweeps = saved[0];
    adapters = blocks.map((_, i) => {
      const r = saved.subarray(2 + dim + PER_BLOCK * i, 2 + dim + PER_BLOCK * (i + 1));
      [stepSizes[i], accepted[i], counted[i]] = r;
      if (r[3] !== 1) return undefined;
      adapterSettings[i] = [r[4], r[5]];
      const a = new DualAveraging(r[4], r[5]);
      a.restore(Array.from(r.subarray(6)));
      return a;
    });
    return { position: saved.slice(2, 2 + dim), logDensity: saved[1] };
  }

  return {
    name: "block-gibbs",
    saveState,
    restoreState,
    init,
    step,
    summary: () => blocks.map((b, i) => ({ name: b.name, stepSize: stepSizes[i], acceptanceRate: counted[i] ? accepted[i] / counted[i] : NaN, transitions: counted[i] })),
  };
}
