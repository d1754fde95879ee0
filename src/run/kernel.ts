/**
 * Samplers for a latent GP target, described by plain data (what a worker thread needs to
 * rebuild the same kernel) and built here.
 *
 * RMHMC uses the target's local geometry (note eq. 16). HMC needs a constant mass matrix; for a
 * latent GP posterior the identity is a poor one (the prior covariance K couples the latent
 * values strongly and spans many orders of magnitude in scale), so the default is the prior
 * mass: M^-1 = K, i.e. M = K^-1, the exact metric of the prior (HMC v2 of the comparison paper,
 * Section 3.6), given through the Cholesky factor of K; momenta are then p = L_K^-T z. (The
 * library's `latentSamplers` registry names the same choice "hmc-v2", with randomised trajectory
 * lengths, and its "hmc" has the identity mass.) Every other name (mh, mh-v1, mh-v2, ess, hmc-v1,
 * hmc-v2, smmala) is built by that registry, so `gpmcmc sample` and the experiments run the same
 * kernels.
 */
import { hmc } from "../samplers/hmc.js";
import { identityMass, massFromInverseCholesky, type MassMatrix } from "../samplers/massMatrix.js";
import { DEFAULT_MAX_LEAPFROG_STEPS } from "../samplers/hmcGp.js";
import { latentSamplerInfo, latentSamplers, type LatentSamplerName } from "../samplers/registry.js";
import { DEFAULT_FIXED_POINT_TOLERANCE, DEFAULT_REVERSIBILITY_TOLERANCE, rmhmc } from "../samplers/rmhmc.js";
import type { Kernel } from "../samplers/types.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";

/** Samplers for latent GP targets, by name: this module's rmhmc and hmc, then the registry's others. */
export const LATENT_GP_SAMPLERS = ["rmhmc", "hmc", "mh", "mh-v1", "mh-v2", "ess", "hmc-v1", "hmc-v2", "smmala"] as const;
export type LatentGpSamplerName = (typeof LATENT_GP_SAMPLERS)[number];
/** The samplers built by src/samplers/registry.ts (all but rmhmc and hmc). */
export type RegistrySamplerName = Exclude<LatentGpSamplerName, "rmhmc" | "hmc">;

/** HMC mass matrices: "prior" (M^-1 = K, the default) or "identity". */
export const HMC_MASSES = ["prior", "identity"] as const;
export type HmcMassName = (typeof HMC_MASSES)[number];

/** How RMHMC solves its implicit equations (see RmhmcOptions). */
export type FixedPointSpec = { kind: "tolerance"; tolerance: number } | { kind: "iterations"; iterations: number };

/** A sampler, as plain data. */
export interface LatentGpSamplerSpec {
  sampler: LatentGpSamplerName;
  /**
   * The initial value of the sampler's tunable: the step size (rmhmc, hmc, hmc-v1, hmc-v2,
   * smmala), alpha (mh-v1, mh-v2, eqs. 11-12 of the comparison paper) or the proposal sd (mh);
   * 0 for ess, which has none.
   */
  stepSize: number;
  /** Leapfrog steps (rmhmc, hmc), or their maximum lambda_max (hmc-v1, hmc-v2, randomised); 0 for samplers without any. */
  leapfrogSteps: number;
  /** Draw the number of leapfrog steps uniformly from 1..leapfrogSteps (default false). */
  randomiseSteps?: boolean;
  /** RMHMC only; default: to a tolerance of 1e-8 (RmhmcOptions' default). */
  fixedPoint?: FixedPointSpec;
  /** RMHMC only: the reversibility check's tolerance, or false (off); default: RmhmcOptions' (on with a fixed-point tolerance). */
  reversibilityTolerance?: number | false;
  /** RMHMC only: "fast" (default) or "reference" (the note's Algorithm 1 as written). */
  variant?: "fast" | "reference";
  /** HMC only; default "prior". */
  mass?: HmcMassName;
  /** Acceptance rate step-size adaptation aims for (default: the sampler's, 0.65). */
  targetAcceptance?: number;
}

/**
 * Defaults of `gpmcmc sample` for each sampler, where the user gives none. Step size 0.1 and 10
 * leapfrog steps are the note's USPS setting (Section 5). RMHMC adapts towards a higher
 * acceptance rate than HMC's 0.65: a position fixed point that does not converge is a rejected,
 * divergent transition costing the full iteration budget, and those become frequent as the step
 * size grows (on a synthetic n = 30 probit problem, targets 0.65 / 0.8 / 0.9 gave 23% / 7% / 1%
 * divergent transitions and min ESS per second 21 / 77 / 295).
 */
export const SAMPLER_DEFAULTS: Readonly<Record<LatentGpSamplerName, { stepSize: number; leapfrogSteps: number; targetAcceptance: number }>> = {
  rmhmc: { stepSize: 0.1, leapfrogSteps: 10, targetAcceptance: 0.9 },
  hmc: { stepSize: 0.1, leapfrogSteps: 10, targetAcceptance: 0.65 },
  ...registryDefaults(["mh", "mh-v1", "mh-v2", "ess", "hmc-v1", "hmc-v2", "smmala"]),
};

/** The registry's own defaults (src/samplers/registry.ts, latentSamplerInfo) for `names`. */
function registryDefaults(names: RegistrySamplerName[]): Record<RegistrySamplerName, { stepSize: number; leapfrogSteps: number; targetAcceptance: number }> {
  const out = {} as Record<RegistrySamplerName, { stepSize: number; leapfrogSteps: number; targetAcceptance: number }>;
  for (const name of names) {
    const info = latentSamplerInfo[name];
    out[name] = { stepSize: info.initialValue ?? 0, leapfrogSteps: info.leapfrog ? DEFAULT_MAX_LEAPFROG_STEPS : 0, targetAcceptance: info.targetAcceptance ?? NaN };
  }
  return out;
}

/** Whether the sampler draws its number of leapfrog steps from 1..leapfrogSteps (the comparison paper's HMC v1 and v2). */
export function randomisesSteps(sampler: LatentGpSamplerName): boolean {
  return sampler === "hmc-v1" || sampler === "hmc-v2";
}

/** The prior mass matrix M^-1 = K of `target`, through the target's own factor of K (no O(n^3) work). */
export function priorMass(target: AnnealedLatentTarget): MassMatrix {
  return massFromInverseCholesky(target.kernelCholesky);
}

/** How RMHMC solves and checks its leapfrog steps, in words ("fixed points to 1e-8, reversibility checked to 0.01"). */
export function describeLeapfrogSolve(spec: Pick<LatentGpSamplerSpec, "fixedPoint" | "reversibilityTolerance">): string {
  const fp = spec.fixedPoint;
  const solve = fp?.kind === "iterations" ? `${fp.iterations} fixed-point iterations` : `fixed points to ${fp?.tolerance ?? DEFAULT_FIXED_POINT_TOLERANCE}`;
  const check = spec.reversibilityTolerance ?? (fp?.kind === "iterations" ? false : DEFAULT_REVERSIBILITY_TOLERANCE);
  return `${solve}, ${check === false ? "no reversibility check" : `reversibility checked to ${check}`}`;
}

/** Builds the kernel a spec describes. */
export function latentGpKernel(target: AnnealedLatentTarget, spec: LatentGpSamplerSpec): Kernel {
  const common = {
    stepSize: spec.stepSize,
    leapfrogSteps: spec.leapfrogSteps,
    randomiseSteps: spec.randomiseSteps,
    targetAcceptance: spec.targetAcceptance,
  };
  switch (spec.sampler) {
    case "rmhmc": {
      if (spec.mass !== undefined) throw new RangeError("a mass matrix applies to hmc only");
      const fp = spec.fixedPoint;
      const variant = spec.variant ?? "fast";
      return rmhmc(variant === "reference" ? target.referenceTarget() : target, {
        ...common,
        variant,
        fixedPointTolerance: fp?.kind === "tolerance" ? fp.tolerance : undefined,
        fixedPointIterations: fp?.kind === "iterations" ? fp.iterations : undefined,
        reversibilityTolerance: spec.reversibilityTolerance,
      });
    }
    case "hmc": {
      if (spec.fixedPoint !== undefined || spec.variant !== undefined || spec.reversibilityTolerance !== undefined) {
        throw new RangeError("fixed points, reversibility checks and integrator variants apply to rmhmc only");
      }
      const mass = (spec.mass ?? "prior") === "prior" ? priorMass(target) : identityMass(target.dim);
      return hmc(target, { ...common, mass });
    }
    case "mh":
    case "mh-v1":
    case "mh-v2":
    case "ess":
    case "hmc-v1":
    case "hmc-v2":
    case "smmala": {
      if (spec.fixedPoint !== undefined || spec.variant !== undefined || spec.mass !== undefined || spec.reversibilityTolerance !== undefined) {
        throw new RangeError(`fixed points, reversibility checks, integrator variants and mass matrices do not apply to ${spec.sampler}`);
      }
      const name: LatentSamplerName = spec.sampler;
      // Each factory reads the fields that apply to it (the tunable's initial value under its own name).
      return latentSamplers[name](target, {
        scale: spec.stepSize,
        alpha: spec.stepSize,
        stepSize: spec.stepSize,
        maxLeapfrogSteps: latentSamplerInfo[name].leapfrog ? spec.leapfrogSteps : undefined,
        targetAcceptance: spec.targetAcceptance,
      });
    }
    default:
      throw new RangeError(`unknown sampler ${JSON.stringify(spec.sampler)} (known: ${LATENT_GP_SAMPLERS.join(", ")})`);
  }
}
