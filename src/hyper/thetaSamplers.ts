/**
 * The samplers of theta (comparison paper, Section 3.2): the kernels of src/samplers run on a
 * theta target (./thetaTargets.ts).
 *
 * - "mh": random-walk Metropolis, proposal covariance alpha^2 I (alpha adapted to 25%);
 * - "hmc": HMC with identity mass, step epsilon and a number of leapfrog steps drawn uniformly
 *   from 1..10 (epsilon adapted to 65%);
 * - "smmala": simplified manifold MALA with the Fisher metric of Appendix A plus the prior's
 *   negative Hessian (epsilon adapted to 57.4%).
 *
 * Burn-in adapts the tunable by dual averaging (src/samplers/chain/adaptation.ts) and freezes it after.
 */
import { DualAveraging } from "../samplers/chain/adaptation.js";
import { hmc } from "../samplers/kernels/hmc.js";
import { identityMass } from "../samplers/integrators/massMatrix.js";
import { MH_TARGET_ACCEPTANCE, randomWalkMetropolis } from "../samplers/kernels/metropolisRw.js";
import { MALA_TARGET_ACCEPTANCE, smmala } from "../samplers/kernels/smmala.js";
import { HMC_TARGET_ACCEPTANCE } from "../samplers/integrators/trajectoryOptions.js";
import type { SamplerEntry } from "../samplers/samplerEntry.js";
import type { Kernel, StepInfo } from "../samplers/types.js";
import type { Target } from "../targets/types.js";

export const THETA_SAMPLER_NAMES = ["mh", "hmc", "smmala"] as const;
export type ThetaSamplerName = (typeof THETA_SAMPLER_NAMES)[number];

/** The paper's bound on HMC's leapfrog steps for theta (Section 3.2). */
export const THETA_MAX_LEAPFROG_STEPS = 10;

/** A sampler of theta as plain data: its tunable's initial value and the acceptance rate burn-in adapts it to. */
export type ThetaSamplerSpec =
  | { sampler: "mh"; proposalSd: number; targetAcceptance: number }
  | { sampler: "hmc"; stepSize: number; maxLeapfrogSteps: number; targetAcceptance: number }
  | { sampler: "smmala"; stepSize: number; targetAcceptance: number };

/**
 * The samplers of theta, entries of the one registry shape (samplers/samplerEntry.ts). Burn-in
 * adapts the tunable outside the kernel (AdaptedValue), so a kernel is built per transition with
 * the current value.
 */
export const thetaSamplerInfo: { readonly [N in ThetaSamplerName]: SamplerEntry<Target, Extract<ThetaSamplerSpec, { sampler: N }>> } = {
  mh: {
    description: "random-walk Metropolis, proposal covariance alpha^2 I",
    defaults: { sampler: "mh", proposalSd: 0.5, targetAcceptance: MH_TARGET_ACCEPTANCE }, tunable: "proposalSd", fields: ["proposalSd", "targetAcceptance"],
    build: (target, s) => randomWalkMetropolis(target, { scale: s.proposalSd }),
  },
  hmc: {
    description: `HMC with the identity mass, leapfrog steps drawn from 1..${THETA_MAX_LEAPFROG_STEPS}`,
    defaults: { sampler: "hmc", stepSize: 0.2, maxLeapfrogSteps: THETA_MAX_LEAPFROG_STEPS, targetAcceptance: HMC_TARGET_ACCEPTANCE }, tunable: "stepSize", fields: ["stepSize", "maxLeapfrogSteps", "targetAcceptance"],
    build: (target, s) => hmc(target, { stepSize: s.stepSize, leapfrogSteps: s.maxLeapfrogSteps, randomiseSteps: true, mass: identityMass(target.dim) }),
  },
  smmala: {
    description: "simplified manifold MALA, the Fisher metric of Appendix A plus the prior's negative Hessian",
    defaults: { sampler: "smmala", stepSize: 0.5, targetAcceptance: MALA_TARGET_ACCEPTANCE }, tunable: "stepSize", fields: ["stepSize", "targetAcceptance"],
    build: (target, s) => smmala(target, { stepSize: s.stepSize }),
  },
};

export function isThetaSamplerName(name: string): name is ThetaSamplerName {
  return (THETA_SAMPLER_NAMES as readonly string[]).includes(name);
}

/** The kernel `name` on `target` with tunable `value`. */
export function thetaKernel(name: ThetaSamplerName, target: Target, value: number): Kernel {
  const info = thetaSamplerInfo[name] as SamplerEntry<Target, ThetaSamplerSpec>;
  return info.build(target, { ...info.defaults, [info.tunable!]: value } as ThetaSamplerSpec, undefined);
}

/**
 * A tunable value that burn-in adapts (dual averaging towards `targetAcceptance`) and that stays
 * fixed after `freeze`.
 */
export class AdaptedValue {
  value: number;
  private adapter: DualAveraging | undefined;

  constructor(initial: number, targetAcceptance: number) {
    this.value = initial;
    this.adapter = new DualAveraging(initial, targetAcceptance);
  }

  /** Takes one burn-in transition's outcome (nothing once frozen). */
  record(info: StepInfo): void {
    if (this.adapter) this.value = this.adapter.update(info.acceptanceProbability, info.accepted);
  }

  freeze(): void {
    if (this.adapter) this.value = this.adapter.final();
    this.adapter = undefined;
  }

  get adapting(): boolean {
    return this.adapter !== undefined;
  }

  /** The value and, while adapting, the dual averaging's running state (what a checkpoint keeps). */
  snapshot(): number[] {
    return [this.value, ...(this.adapter?.snapshot() ?? [])];
  }

  /** Takes the state `snapshot` gave, of a value built with the same target acceptance. */
  restore(state: readonly number[]): void {
    this.value = state[0]!;
    if (state.length === 1) this.adapter = undefined;
    else this.adapter!.restore(state.slice(1));
  }
}

/** The adapted tunable of theta sampler `name`, from its default initial value unless given. */
export function thetaTunable(name: ThetaSamplerName, initial?: number): AdaptedValue {
  const info = thetaSamplerInfo[name] as SamplerEntry<Target, ThetaSamplerSpec>;
  const defaults = info.defaults as unknown as Record<string, number>;
  return new AdaptedValue(initial ?? defaults[info.tunable!], defaults.targetAcceptance);
}

/** One transition of `name` on `target` from x, recording the outcome in `tuned`. */
export function thetaStep(name: ThetaSamplerName, target: Target, x: Float64Array, tuned: AdaptedValue, rng: import("../random/types.js").RandomSource): { x: Float64Array; info: StepInfo } {
  const kernel = thetaKernel(name, target, tuned.value);
  const { state, info } = kernel.step(kernel.init(x), rng);
  tuned.record(info);
  return { x: Float64Array.from(state.position), info };
}
