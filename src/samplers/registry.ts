/**
 * The samplers of f | y, theta by the names the command line uses (`--sampler`), each a factory
 * (target, options) -> Kernel over a latent GP target (an `AnnealedLatentTarget` at beta = 1 is
 * the posterior). Every factory takes the same options object and reads the fields that apply to
 * it (`latentSamplerInfo` says which); the others are ignored.
 */
import { ellipticalSlice } from "./ellipticalSlice.js";
import { hmc } from "./hmc.js";
import { DEFAULT_MAX_LEAPFROG_STEPS, hmcV1, hmcV2 } from "./hmcGp.js";
import type { LatentGpTarget } from "./latentTarget.js";
import { MH_TARGET_ACCEPTANCE, randomWalkMetropolis } from "./metropolisRw.js";
import { mhV1, mhV2 } from "./mhNeal.js";
import { rmhmc } from "./rmhmc.js";
import { MALA_TARGET_ACCEPTANCE, smmala } from "./smmala.js";
import type { Kernel, SamplerState } from "./types.js";

export const LATENT_SAMPLER_NAMES = ["mh", "mh-v1", "mh-v2", "ess", "hmc", "hmc-v1", "hmc-v2", "smmala", "rmhmc"] as const;
export type LatentSamplerName = (typeof LATENT_SAMPLER_NAMES)[number];

export interface LatentSamplerOptions {
  /** Initial proposal scale of "mh" (default 0.1). */
  scale?: number;
  /** Initial alpha of "mh-v1" and "mh-v2" (default 0.1). */
  alpha?: number;
  /** Initial step size of "hmc", "hmc-v1", "hmc-v2" (default 0.1), "smmala" and "rmhmc" (default 0.5). */
  stepSize?: number;
  /** lambda_max of "hmc", "hmc-v1", "hmc-v2" and "rmhmc": steps drawn uniformly from 1..lambda_max (default 10). */
  maxLeapfrogSteps?: number;
  /** Fixed-point iterations per implicit step of "rmhmc" (default: iterate to tolerance). */
  fixedPointIterations?: number;
  /** The acceptance rate burn-in adaptation aims for (default per sampler: `latentSamplerInfo`). */
  targetAcceptance?: number;
}

export type LatentSamplerFactory = (target: LatentGpTarget, options?: LatentSamplerOptions) => Kernel<SamplerState>;

export interface LatentSamplerInfo {
  /** What the tunable is (undefined: nothing to tune). */
  tunable: "scale" | "alpha" | "stepSize" | undefined;
  /** Its initial value when the options give none. */
  initialValue: number | undefined;
  /** Default target acceptance rate of burn-in adaptation. */
  targetAcceptance: number | undefined;
  /** Whether `maxLeapfrogSteps` applies. */
  leapfrog: boolean;
  /** One line for help texts. */
  description: string;
}

/** HMC's default target acceptance (hmc.ts; Beskos et al. 2013's 0.651). */
const HMC_TARGET_ACCEPTANCE = 0.65;

export const latentSamplerInfo: Record<LatentSamplerName, LatentSamplerInfo> = {
  "mh": { tunable: "scale", initialValue: 0.1, targetAcceptance: MH_TARGET_ACCEPTANCE, leapfrog: false, description: "random-walk Metropolis, N(f, s^2 I) proposal (Section 3.1)" },
  "mh-v1": { tunable: "alpha", initialValue: 0.1, targetAcceptance: MH_TARGET_ACCEPTANCE, leapfrog: false, description: "Neal's MH v1, f' = f + alpha z, z ~ N(0, K) (Section 3.5, eq. 11)" },
  "mh-v2": { tunable: "alpha", initialValue: 0.1, targetAcceptance: MH_TARGET_ACCEPTANCE, leapfrog: false, description: "Neal's MH v2, f' = sqrt(1 - alpha^2) f + alpha z, likelihood-ratio acceptance (Section 3.5, eq. 12)" },
  "ess": { tunable: undefined, initialValue: undefined, targetAcceptance: undefined, leapfrog: false, description: "elliptical slice sampling (Section 3.4, Algorithm 3)" },
  "hmc": { tunable: "stepSize", initialValue: 0.1, targetAcceptance: HMC_TARGET_ACCEPTANCE, leapfrog: true, description: "HMC with the identity mass (Section 3.2, Algorithm 1)" },
  "hmc-v1": { tunable: "stepSize", initialValue: 0.1, targetAcceptance: HMC_TARGET_ACCEPTANCE, leapfrog: true, description: "HMC v1, M^-1 = (K^-1 + C)^-1, C the Fisher information at f = 0 (Section 3.6, Algorithm 4)" },
  "hmc-v2": { tunable: "stepSize", initialValue: 0.1, targetAcceptance: HMC_TARGET_ACCEPTANCE, leapfrog: true, description: "HMC v2, M^-1 = K (Section 3.6, Algorithm 4)" },
  "smmala": { tunable: "stepSize", initialValue: 0.5, targetAcceptance: MALA_TARGET_ACCEPTANCE, leapfrog: false, description: "simplified manifold MALA, metric K^-1 + R(f) (Section 3.3, eq. 10, Algorithm 2)" },
  "rmhmc": { tunable: "stepSize", initialValue: 0.5, targetAcceptance: HMC_TARGET_ACCEPTANCE, leapfrog: true, description: "Riemannian manifold HMC with the target's metric (generalised leapfrog)" },
};

function initial(name: LatentSamplerName, given: number | undefined): number {
  return given ?? latentSamplerInfo[name].initialValue!;
}

export const latentSamplers: Record<LatentSamplerName, LatentSamplerFactory> = {
  "mh": (target, o = {}) => randomWalkMetropolis(target, { scale: initial("mh", o.scale), targetAcceptance: o.targetAcceptance }),
  "mh-v1": (target, o = {}) => mhV1(target, { alpha: initial("mh-v1", o.alpha), targetAcceptance: o.targetAcceptance }),
  "mh-v2": (target, o = {}) => mhV2(target, { alpha: initial("mh-v2", o.alpha), targetAcceptance: o.targetAcceptance }),
  "ess": (target) => ellipticalSlice(target),
  "hmc": (target, o = {}) => hmc(target, {
    stepSize: initial("hmc", o.stepSize), leapfrogSteps: o.maxLeapfrogSteps ?? DEFAULT_MAX_LEAPFROG_STEPS, randomiseSteps: true,
    targetAcceptance: o.targetAcceptance,
  }),
  "hmc-v1": (target, o = {}) => hmcV1(target, { stepSize: initial("hmc-v1", o.stepSize), maxLeapfrogSteps: o.maxLeapfrogSteps, targetAcceptance: o.targetAcceptance }),
  "hmc-v2": (target, o = {}) => hmcV2(target, { stepSize: initial("hmc-v2", o.stepSize), maxLeapfrogSteps: o.maxLeapfrogSteps, targetAcceptance: o.targetAcceptance }),
  "smmala": (target, o = {}) => smmala(target, { stepSize: initial("smmala", o.stepSize), targetAcceptance: o.targetAcceptance }),
  "rmhmc": (target, o = {}) => rmhmc(target, {
    stepSize: initial("rmhmc", o.stepSize), leapfrogSteps: o.maxLeapfrogSteps ?? DEFAULT_MAX_LEAPFROG_STEPS, randomiseSteps: true,
    fixedPointIterations: o.fixedPointIterations, targetAcceptance: o.targetAcceptance,
  }),
};

/** Whether `name` is one of LATENT_SAMPLER_NAMES. */
export function isLatentSamplerName(name: string): name is LatentSamplerName {
  return (LATENT_SAMPLER_NAMES as readonly string[]).includes(name);
}
