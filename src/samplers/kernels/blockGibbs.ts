/**
 * Block Gibbs sampling with a Metropolis-type kernel per block (Metropolis-within-Gibbs): one
 * transition is a sweep over the blocks, each updated by a kernel that leaves the block's full
 * conditional invariant, built afresh from the current position (so it conditions on the other
 * blocks' current values). Girolami & Calderhead 2011 sample the stochastic volatility model this
 * way (Section 8: (beta, sigma, phi) | x, then x | (beta, sigma, phi)) and the Cox process's
 * hyperparameters and field (Section 9). Each sweep leaves the joint target invariant because
 * each block's move does.
 *
 * Each block has its own step size. During the chain's burn-in (with `adapt`) it is adapted by dual
 * averaging (adaptation.ts) towards the block kernel's own target acceptance; the averaged value
 * is kept from then on. The kernel has no tunable: the per-block dual averaging is its own
 * adaptation (Kernel.adaptation), which the chain driver runs after each burn-in sweep with the
 * blocks' outcomes, and ends with burn-in. A sweep uses the step sizes as they are: it is a
 * function of the state and the generator.
 */
import type { RandomSource } from "../../random/types.js";
import { DualAveraging } from "../chain/adaptation.js";
import { initialPosition } from "../chain/initialPoint.js";
import type { CountedStepInfo, Kernel, SamplerState } from "../types.js";

export interface GibbsBlock {
  readonly name: string;
  /** The block is position[start .. start + length). */
  readonly start: number;
  readonly length: number;
  /** A kernel on the block's conditional given `position` (whose block entries it must not read). */
  kernelFor(position: Float64Array): Kernel<SamplerState, CountedStepInfo>;
  /** The starting step size of a kernel with a tunable (default: the kernel's own). */
  readonly stepSize?: number;
  /** Adapt the step size in burn-in, when the kernel adapts (default true for kernels with a tunable). */
  readonly adapt?: boolean;
}

export interface BlockGibbsOptions {
  /** The joint log density at a full position (reported as the state's log density, lp__). */
  logDensity(position: Float64Array): number;
  /** Adapt the block step sizes in the chain's burn-in (default false). */
  adapt?: boolean;
}

/** A sweep's outcome: the sum of its blocks' work, and each block's transition (what the step sizes adapt on). */
export interface BlockGibbsStepInfo extends CountedStepInfo {
  blocks: CountedStepInfo[];
}

export interface BlockSummary {
  name: string;
  /** The step size in use (after adaptation: the averaged one); NaN for kernels without one. */
  stepSize: number;
  /** Accepted fraction of the block's transitions after burn-in (all of them when the kernel does not adapt). */
  acceptanceRate: number;
  transitions: number;
}

export interface BlockGibbsKernel extends Kernel<SamplerState, BlockGibbsStepInfo> {
  summary(): BlockSummary[];
}

export function blockGibbs(dim: number, blocks: readonly GibbsBlock[], options: BlockGibbsOptions): BlockGibbsKernel {
  for (const b of blocks) {
    if (!(b.start >= 0 && b.length >= 1 && b.start + b.length <= dim)) throw new RangeError(`blockGibbs: block ${b.name} [${b.start}, ${b.start + b.length}) does not fit in ${dim} coordinates`);
  }
  const stepSizes = blocks.map((b) => b.stepSize ?? NaN);
  /** The target acceptance of each block's kernel (NaN: a kernel without a tunable, or not seen yet). */
  const targets = blocks.map(() => NaN);
  let adapters: (DualAveraging | undefined)[] = [];
  /** Each adapter's initial step size and target acceptance (what it was made with). */
  const adapterSettings: [number, number][] = blocks.map(() => [NaN, NaN]);
  const accepted = blocks.map(() => 0);
  const counted = blocks.map(() => 0);

  function init(x0: Float64Array): SamplerState {
    const position = initialPosition("block-gibbs", x0, dim);
    adapters = blocks.map(() => undefined);
    accepted.fill(0);
    counted.fill(0);
    blocks.forEach((b, i) => (stepSizes[i] = b.stepSize ?? NaN));
    return { position, logDensity: options.logDensity(position) };
  }

  function step(state: SamplerState, rng: RandomSource): { state: SamplerState; info: BlockGibbsStepInfo } {
    const x = Float64Array.from(state.position);
    const info: BlockGibbsStepInfo = {
      accepted: false, acceptanceProbability: 0, divergent: false, energy: NaN, energyError: NaN, stepSize: NaN,
      leapfrogSteps: 0, gradientCalls: 0, metricCalls: 0, fixedPointIterations: 0, inverseMetricCalls: 0, densityEvaluations: 0,
      blocks: [],
    };
    blocks.forEach((b, i) => {
      const kernel = b.kernelFor(x);
      const tunable = kernel.tunable;
      if (tunable) {
        // (the block kernel's own defaults, the first time: the same in every sweep)
        if (Number.isNaN(stepSizes[i])) stepSizes[i] = tunable.value;
        targets[i] = tunable.targetAcceptance;
        tunable.value = stepSizes[i];
      }
      const s = kernel.init(x.slice(b.start, b.start + b.length));
      const { state: next, info: bi } = kernel.step(s, rng);
      x.set(next.position, b.start);
      info.blocks.push(bi);
      counted[i]++;
      if (bi.accepted) accepted[i]++;
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
    return { state: { position: x, logDensity: options.logDensity(x) }, info };
  }

  // Block i's step size is next used in block i of the next sweep, so adapting after the sweep
  // gives the step sizes adapting within it gave. Each block's dual averaging starts at its first
  // burn-in sweep, from its step size then; the tallies count the sweeps after burn-in.
  const adaptation = options.adapt
    ? {
        update(info: BlockGibbsStepInfo) {
          blocks.forEach((b, i) => {
            if (Number.isNaN(targets[i]) || b.adapt === false) return;
            let adapter = adapters[i];
            if (!adapter) {
              adapter = adapters[i] = new DualAveraging(stepSizes[i], targets[i]);
              adapterSettings[i] = [stepSizes[i], targets[i]];
            }
            const bi = info.blocks[i];
            stepSizes[i] = adapter.update(bi.acceptanceProbability, bi.accepted);
          });
        },
        end() {
          adapters.forEach((a, i) => (stepSizes[i] = a ? a.final() : stepSizes[i]));
          adapters = blocks.map(() => undefined);
          accepted.fill(0);
          counted.fill(0);
        },
      }
    : undefined;

  // Each block's step size, target, tallies and dual averaging are the chain's state beside the
  // position: a resumed chain takes them rather than init's fresh ones.
  // [log density, x (dim), per block: step size, target, accepted, counted, adapter flag,
  //  its initial step size and target, its running state (4)]
  const PER_BLOCK = 11;
  const saveState = (state: SamplerState) => {
    const out = [state.logDensity, ...state.position];
    blocks.forEach((_, i) => {
      const a = adapters[i];
      out.push(stepSizes[i], targets[i], accepted[i], counted[i], a ? 1 : 0, ...(a ? adapterSettings[i] : [NaN, NaN]), ...(a ? a.snapshot() : [NaN, NaN, NaN, NaN]));
    });
    return Float64Array.from(out);
  };
  function restoreState(saved: Float64Array): SamplerState {
    if (saved.length !== 1 + dim + PER_BLOCK * blocks.length) throw new RangeError(`block-gibbs: a saved state has ${1 + dim + PER_BLOCK * blocks.length} numbers, got ${saved.length}`);
    adapters = blocks.map((_, i) => {
      const r = saved.subarray(1 + dim + PER_BLOCK * i, 1 + dim + PER_BLOCK * (i + 1));
      [stepSizes[i], targets[i], accepted[i], counted[i]] = r;
      if (r[4] !== 1) return undefined;
      adapterSettings[i] = [r[5], r[6]];
      const a = new DualAveraging(r[5], r[6]);
      a.restore(Array.from(r.subarray(7)));
      return a;
    });
    return { position: saved.slice(1, 1 + dim), logDensity: saved[0] };
  }

  return {
    name: "block-gibbs",
    adaptation,
    saveState,
    restoreState,
    init,
    step,
    summary: () => blocks.map((b, i) => ({ name: b.name, stepSize: stepSizes[i], acceptanceRate: counted[i] ? accepted[i] / counted[i] : NaN, transitions: counted[i] })),
  };
}
