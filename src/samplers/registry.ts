/**
 * The one registry of samplers of f | y, theta for latent GP targets: each sampler's name, its
 * defaults and its meaning, for the library, `gpmcmc sample`, `gpmcmc ais`, AIS and the
 * experiments alike. A sampler is described by plain data (a `LatentSamplerSpec`, what a worker
 * thread needs to rebuild the same kernel) and built by `latentSampler`.
 *
 * Each spec names its tunable after what it is: `alpha` (Neal's MH v1 and v2, eqs. 11-12 of the
 * comparison paper), `proposalSd` (random-walk MH) or `stepSize` (the leapfrog or Langevin step
 * epsilon of HMC, RMHMC and SMMALA). Leapfrog samplers have `leapfrogSteps` (a fixed count,
 * unless `randomiseSteps`) or `maxLeapfrogSteps` (HMC v1 and v2, whose count is drawn from
 * 1..lambda_max as in Section 3.6).
 *
 * "hmc" uses the prior mass M^-1 = K by default (M = K^-1, the exact metric of the prior, given
 * through the Cholesky factor of K; momenta p = L_K^-T z): for a latent GP the identity is a
 * poor mass, as K couples the latent values strongly and spans many orders of magnitude in
 * scale. `mass: "identity"` is the option. "hmc-v2" is the same mass with randomised trajectory
 * lengths, as the comparison paper runs it.
 */
import type { AdaptOptions } from "./chain/adaptation.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";
import { ellipticalSlice } from "./kernels/ellipticalSlice.js";
import { exactHmc } from "./kernels/exactHmc.js";
import { hmc } from "./kernels/hmc.js";
import { DEFAULT_MAX_LEAPFROG_STEPS, hmcV1, hmcV2 } from "./kernels/hmcGp.js";
import { laplaceHmc } from "./kernels/laplaceHmc.js";
import type { LaplaceIntegrator } from "./integrators/laplaceDynamics.js";
import { laplaceNuts } from "./kernels/laplaceNuts.js";
import { identityMass, massFromInverseCholesky, type MassMatrix } from "./integrators/massMatrix.js";
import { MH_TARGET_ACCEPTANCE, randomWalkMetropolis } from "./kernels/metropolisRw.js";
import { MGRAD_TARGET_ACCEPTANCE, mgrad } from "./kernels/mgrad.js";
import { mhV1, mhV2 } from "./kernels/mhNeal.js";
import { lagrangianMc } from "./kernels/lagrangianMc.js";
import { DEFAULT_FIXED_POINT_TOLERANCE, DEFAULT_REVERSIBILITY_TOLERANCE, rmhmc } from "./kernels/rmhmc.js";
import { HMC_TARGET_ACCEPTANCE } from "./integrators/trajectoryOptions.js";
import { NUTS_DEFAULT_MAX_TREE_DEPTH, NUTS_TARGET_ACCEPTANCE } from "./kernels/nuts.js";
import { MALA_TARGET_ACCEPTANCE, smmala } from "./kernels/smmala.js";
import { checkSpec, completeSpec, specFields, type SamplerEntry } from "./samplerEntry.js";
import { checkPositive, checkPositiveInteger } from "./kernels/metropolis.js";
import { LAPLACE_INTEGRATORS } from "./integrators/laplaceDynamics.js";
import type { Kernel } from "./types.js";

/** The names, in the order `gpmcmc sample --help` lists them. */
export const LATENT_SAMPLER_NAMES = ["laplace-hmc", "laplace-nuts", "rmhmc", "hmc", "mh", "mh-v1", "mh-v2", "ess", "hmc-v1", "hmc-v2", "smmala", "exact-hmc", "mgrad"] as const;
export type LatentSamplerName = (typeof LATENT_SAMPLER_NAMES)[number];

/**
 * The default sampler of `gpmcmc sample` and of the library: multinomial NUTS whitened by a
 * Gaussian approximation's covariance, chosen by measurement (BENCHMARKS.md, "Laplace-whitened HMC
 * and NUTS against Stan"); on probit `runLatentGp` whitens it by EP's covariance
 * (run/whiteningMass.ts; BENCHMARKS.md, "laplace-nuts whitened by EP's covariance").
 */
export const DEFAULT_LATENT_SAMPLER: LatentSamplerName = "laplace-nuts";

/**
 * The Gaussian approximations whose covariance (K^-1 + W)^-1 whitens laplace-hmc and laplace-nuts:
 * Laplace's at the mode, or EP's (W = EP's site precisions). run/whiteningMass.ts fits them and
 * says which is the default.
 */
export const WHITENINGS = ["laplace", "ep"] as const;
export type WhiteningName = (typeof WHITENINGS)[number];

/** HMC mass matrices: "prior" (M^-1 = K, the default) or "identity". */
export const HMC_MASSES = ["prior", "identity"] as const;
export type HmcMassName = (typeof HMC_MASSES)[number];

/** RMHMC's integrators: the generalised leapfrog (fast, or the note's Algorithm 1 as written), or the explicit Lagrangian one. */
export const RMHMC_INTEGRATORS = ["fast", "reference", "lagrangian"] as const;
export type RmhmcIntegrator = (typeof RMHMC_INTEGRATORS)[number];

/** How RMHMC solves its implicit equations (see RmhmcOptions). */
export type FixedPointSpec = { kind: "tolerance"; tolerance: number } | { kind: "iterations"; iterations: number };

interface Adapted {
  /** Acceptance rate burn-in adaptation aims for (default: the sampler's, `latentSamplerInfo`). */
  targetAcceptance?: number;
}

/** Riemannian manifold HMC with the target's metric (generalised leapfrog). */
export interface RmhmcSpec extends Adapted {
  sampler: "rmhmc";
  stepSize: number;
  leapfrogSteps: number;
  /** Draw the number of leapfrog steps uniformly from 1..leapfrogSteps (default false). */
  randomiseSteps?: boolean;
  /** Default: to a tolerance of 1e-8 (RmhmcOptions' default). */
  fixedPoint?: FixedPointSpec;
  /** The reversibility check's tolerance, or false (off); default: RmhmcOptions' (on with a fixed-point tolerance). */
  reversibilityTolerance?: number | false;
  /**
   * "fast" (default), "reference" (the note's Algorithm 1 as written), or "lagrangian": the same
   * target and metric with the explicit integrator of Riemannian manifold Lagrangian Monte Carlo
   * (lagrangianMc.ts), which has no implicit equation (fixedPoint and reversibilityTolerance do
   * not apply to it).
   */
  variant?: RmhmcIntegrator;
}

/** HMC in coordinates whitened by Laplace's covariance (K^-1 + W)^-1 at the mode (laplaceHmc.ts). */
export interface LaplaceHmcSpec extends Adapted {
  sampler: "laplace-hmc";
  stepSize: number;
  leapfrogSteps: number;
  randomiseSteps?: boolean;
  /** Which approximation's W `runLatentGp` fills in as `massDiagonal` (unset: run/whiteningMass.ts's default). */
  whitening?: WhiteningName;
  /** W of the mass (K^-1 + W)^-1: the whitening's, which `runLatentGp` fills in (default: the Fisher information at f = 0). */
  massDiagonal?: readonly number[];
}

/** Multinomial NUTS (Stan's) in the same whitened coordinates (laplaceNuts.ts). */
export interface LaplaceNutsSpec extends Adapted {
  sampler: "laplace-nuts";
  stepSize: number;
  /** Largest tree depth: at most 2^maxTreeDepth - 1 leapfrog steps per transition. */
  maxTreeDepth: number;
  /** As laplace-hmc's. */
  whitening?: WhiteningName;
  /** As laplace-hmc's. */
  massDiagonal?: readonly number[];
  /** "split" (the default: the whitening Gaussian's part of the dynamics solved exactly) or "leapfrog" (laplaceDynamics.ts). */
  integrator: LaplaceIntegrator;
  /** The split integrator's centre, the whitening Gaussian's mean, which `runLatentGp` fills in with `massDiagonal` (default 0). */
  center?: readonly number[];
}

/** HMC with a constant mass matrix. */
export interface HmcSpec extends Adapted {
  sampler: "hmc";
  stepSize: number;
  leapfrogSteps: number;
  randomiseSteps?: boolean;
  /** Default "prior" (M^-1 = K). */
  mass?: HmcMassName;
}

/** HMC v1 (M^-1 = (K^-1 + C)^-1) and v2 (M^-1 = K) of the comparison paper, Section 3.6: steps drawn from 1..maxLeapfrogSteps. */
export interface HmcGpSpec<N extends "hmc-v1" | "hmc-v2" = "hmc-v1" | "hmc-v2"> extends Adapted {
  sampler: N;
  stepSize: number;
  maxLeapfrogSteps: number;
}

export interface SmmalaSpec extends Adapted {
  sampler: "smmala";
  stepSize: number;
}

/** Random-walk Metropolis, N(f, proposalSd^2 I) proposal. */
export interface MhSpec extends Adapted {
  sampler: "mh";
  proposalSd: number;
}

/** Neal's MH v1 (f' = f + alpha z) and v2 (f' = sqrt(1 - alpha^2) f + alpha z), z ~ N(0, K). */
export interface MhNealSpec<N extends "mh-v1" | "mh-v2" = "mh-v1" | "mh-v2"> extends Adapted {
  sampler: N;
  alpha: number;
}

/** Elliptical slice sampling: nothing to tune. */
export interface EssSpec {
  sampler: "ess";
}

/** Exact HMC on the probit model's truncated-Gaussian form (exactHmc.ts): nothing to tune. */
export interface ExactHmcSpec {
  sampler: "exact-hmc";
}

/** The marginal auxiliary gradient sampler of Titsias & Papaspiliopoulos (mgrad.ts); stepSize is its delta. */
export interface MgradSpec extends Adapted {
  sampler: "mgrad";
  stepSize: number;
}

/** A sampler, as plain data. */
export type LatentSamplerSpec = LaplaceHmcSpec | LaplaceNutsSpec | RmhmcSpec | HmcSpec | HmcGpSpec<"hmc-v1"> | HmcGpSpec<"hmc-v2"> | SmmalaSpec | MhSpec | MhNealSpec<"mh-v1"> | MhNealSpec<"mh-v2"> | EssSpec | ExactHmcSpec | MgradSpec;
export type LatentSamplerSpecOf<N extends LatentSamplerName> = Extract<LatentSamplerSpec, { sampler: N }>;
/** A spec with any field but the name left out: `latentSamplerSpec` fills in the sampler's defaults. */
export type LatentSamplerSpecInput = { [N in LatentSamplerName]: { sampler: N } & Partial<Omit<LatentSamplerSpecOf<N>, "sampler">> }[LatentSamplerName];

/** A latent sampler's registry entry (samplerEntry.ts), with the likelihoods it is limited to. */
export interface LatentSamplerInfo<N extends LatentSamplerName = LatentSamplerName> extends SamplerEntry<AnnealedLatentTarget, LatentSamplerSpecOf<N>> {
  /** The likelihoods whose posterior it can sample (undefined: any); exact HMC needs probit's truncated-Gaussian form. */
  likelihoods?: readonly string[];
}

/** laplace-hmc's initial step and step count: f is nearly white in its coordinates (laplaceHmc.ts). */
const LAPLACE_HMC_STEP = 0.5;
const LAPLACE_HMC_STEPS = 8;

/**
 * Step size 0.1 and 10 leapfrog steps are the note's USPS setting (Section 5). RMHMC adapts
 * towards a higher acceptance rate than HMC's 0.65: a position fixed point that does not converge
 * is a rejected, divergent transition costing the full iteration budget, and those become
 * frequent as the step size grows (BENCHMARKS.md, "RMHMC's divergences").
 */
export const latentSamplerInfo: { readonly [N in LatentSamplerName]: LatentSamplerInfo<N> } = {
  "laplace-hmc": entry({ sampler: "laplace-hmc", stepSize: LAPLACE_HMC_STEP, leapfrogSteps: LAPLACE_HMC_STEPS, randomiseSteps: true, targetAcceptance: HMC_TARGET_ACCEPTANCE }, "stepSize",
    "HMC with M^-1 = Laplace's covariance (K^-1 + W)^-1 at the mode (whitened f), steps drawn from 1..leapfrogSteps",
    (target, s) => laplaceHmc(target, { stepSize: s.stepSize, leapfrogSteps: s.leapfrogSteps, randomiseSteps: s.randomiseSteps, targetAcceptance: s.targetAcceptance, diagonal: s.massDiagonal }),
    ["whitening", "massDiagonal"], (s) => oneOf("laplace-hmc", "whitening", s.whitening, WHITENINGS)),
  "laplace-nuts": entry({ sampler: "laplace-nuts", stepSize: LAPLACE_HMC_STEP, maxTreeDepth: NUTS_DEFAULT_MAX_TREE_DEPTH, integrator: "split", targetAcceptance: NUTS_TARGET_ACCEPTANCE }, "stepSize",
    "multinomial NUTS (Stan's) with the metric of laplace-hmc, trajectory length chosen per transition, the whitening Gaussian's part of the dynamics solved exactly",
    (target, s) => laplaceNuts(target, { stepSize: s.stepSize, maxTreeDepth: s.maxTreeDepth, targetAcceptance: s.targetAcceptance, diagonal: s.massDiagonal, integrator: s.integrator, center: s.center }),
    ["whitening", "massDiagonal", "center"], (s) => {
      oneOf("laplace-nuts", "integrator", s.integrator, LAPLACE_INTEGRATORS);
      oneOf("laplace-nuts", "whitening", s.whitening, WHITENINGS);
    }),
  "rmhmc": {
    ...entry({ sampler: "rmhmc", stepSize: 0.1, leapfrogSteps: 10, targetAcceptance: 0.9 }, "stepSize",
      "Riemannian manifold HMC with the target's metric (generalised leapfrog)", buildRmhmc,
      ["randomiseSteps", "fixedPoint", "reversibilityTolerance", "variant"]),
    checkFields: checkRmhmcFields,
  },
  "hmc": entry({ sampler: "hmc", stepSize: 0.1, leapfrogSteps: 10, mass: "prior", targetAcceptance: HMC_TARGET_ACCEPTANCE }, "stepSize",
    "HMC with the prior mass M^-1 = K (or mass \"identity\"), a fixed number of leapfrog steps",
    (target, s) => hmc(target, { stepSize: s.stepSize, leapfrogSteps: s.leapfrogSteps, randomiseSteps: s.randomiseSteps, targetAcceptance: s.targetAcceptance, mass: (s.mass ?? "prior") === "prior" ? priorMass(target) : identityMass(target.dim) }),
    ["randomiseSteps"], (s) => oneOf("hmc", "mass", s.mass, HMC_MASSES)),
  "mh": entry({ sampler: "mh", proposalSd: 0.1, targetAcceptance: MH_TARGET_ACCEPTANCE }, "proposalSd",
    "random-walk Metropolis, N(f, s^2 I) proposal (Section 3.1)",
    (target, s) => randomWalkMetropolis(target, { scale: s.proposalSd, targetAcceptance: s.targetAcceptance })),
  "mh-v1": entry({ sampler: "mh-v1", alpha: 0.1, targetAcceptance: MH_TARGET_ACCEPTANCE }, "alpha",
    "Neal's MH v1, f' = f + alpha z, z ~ N(0, K) (Section 3.5, eq. 11)",
    (target, s) => mhV1(target, { alpha: s.alpha, targetAcceptance: s.targetAcceptance })),
  "mh-v2": entry({ sampler: "mh-v2", alpha: 0.1, targetAcceptance: MH_TARGET_ACCEPTANCE }, "alpha",
    "Neal's MH v2, f' = sqrt(1 - alpha^2) f + alpha z, likelihood-ratio acceptance (Section 3.5, eq. 12)",
    (target, s) => mhV2(target, { alpha: s.alpha, targetAcceptance: s.targetAcceptance })),
  "ess": entry({ sampler: "ess" }, undefined, "elliptical slice sampling (Section 3.4, Algorithm 3)", (target) => ellipticalSlice(target)),
  "hmc-v1": entry({ sampler: "hmc-v1", stepSize: 0.1, maxLeapfrogSteps: DEFAULT_MAX_LEAPFROG_STEPS, targetAcceptance: HMC_TARGET_ACCEPTANCE }, "stepSize",
    "HMC v1, M^-1 = (K^-1 + C)^-1, C the Fisher information at f = 0, steps drawn from 1..lambda_max (Section 3.6, Algorithm 4)",
    (target, s) => hmcV1(target, { stepSize: s.stepSize, maxLeapfrogSteps: s.maxLeapfrogSteps, targetAcceptance: s.targetAcceptance })),
  "hmc-v2": entry({ sampler: "hmc-v2", stepSize: 0.1, maxLeapfrogSteps: DEFAULT_MAX_LEAPFROG_STEPS, targetAcceptance: HMC_TARGET_ACCEPTANCE }, "stepSize",
    "HMC v2, M^-1 = K, steps drawn from 1..lambda_max (Section 3.6, Algorithm 4)",
    (target, s) => hmcV2(target, { stepSize: s.stepSize, maxLeapfrogSteps: s.maxLeapfrogSteps, targetAcceptance: s.targetAcceptance })),
  "smmala": entry({ sampler: "smmala", stepSize: 0.5, targetAcceptance: MALA_TARGET_ACCEPTANCE }, "stepSize",
    "simplified manifold MALA, metric K^-1 + R(f) (Section 3.3, eq. 10, Algorithm 2)",
    (target, s) => smmala(target, { stepSize: s.stepSize, targetAcceptance: s.targetAcceptance })),
  "exact-hmc": {
    ...entry({ sampler: "exact-hmc" }, undefined,
      "probit only: exact HMC on z = f + e truncated to y_i z_i > 0 (Pakman & Paninski 2014), then f | z; no step size, no rejections", (target) => exactHmc(target)),
    likelihoods: ["probit"],
    refuses: (target) => target.likelihood.name === "probit" ? undefined : `exact-hmc: applies only to the probit likelihood (y_i = sign(f_i + e_i)), not ${target.likelihood.name}`,
  },
  "mgrad": entry({ sampler: "mgrad", stepSize: 1, targetAcceptance: MGRAD_TARGET_ACCEPTANCE }, "stepSize",
    "marginal auxiliary gradient MH (Titsias & Papaspiliopoulos 2018), O(n^2) per step on one eigendecomposition of K",
    (target, s) => mgrad(target, { stepSize: s.stepSize, targetAcceptance: s.targetAcceptance })),
};

/** The Lagrangian integrator solves no implicit equations: a fixed-point setting or a reversibility check does not apply to it. */
function checkRmhmcFields(spec: RmhmcSpec): void {
  oneOf("rmhmc", "variant", spec.variant, RMHMC_INTEGRATORS);
  const fp = spec.fixedPoint;
  if (fp !== undefined) {
    if (fp.kind === "tolerance") checkPositive("rmhmc: fixedPoint.tolerance", fp.tolerance);
    else if (fp.kind === "iterations") checkPositiveInteger("rmhmc: fixedPoint.iterations", fp.iterations);
    else throw new RangeError(`rmhmc: fixedPoint must be { kind: "tolerance", tolerance } or { kind: "iterations", iterations }, got ${JSON.stringify(fp)}`);
  }
  if (spec.reversibilityTolerance !== undefined && spec.reversibilityTolerance !== false) checkPositive("rmhmc: reversibilityTolerance", spec.reversibilityTolerance);
  if (spec.variant === "lagrangian" && (spec.fixedPoint !== undefined || spec.reversibilityTolerance !== undefined)) {
    throw new RangeError("rmhmc: the lagrangian integrator solves no fixed points and needs no reversibility check (fixedPoint and reversibilityTolerance do not apply)");
  }
}

/** RMHMC with the generalised leapfrog ("fast" or "reference"), or the explicit Lagrangian integrator. */
function buildRmhmc(target: AnnealedLatentTarget, spec: RmhmcSpec): Kernel {
  const fp = spec.fixedPoint;
  const variant = spec.variant ?? "fast";
  if (variant === "lagrangian") {
    checkRmhmcFields(spec);
    return lagrangianMc(target, { stepSize: spec.stepSize, leapfrogSteps: spec.leapfrogSteps, randomiseSteps: spec.randomiseSteps, targetAcceptance: spec.targetAcceptance });
  }
  return rmhmc(variant === "reference" ? target.referenceTarget() : target, {
    stepSize: spec.stepSize,
    leapfrogSteps: spec.leapfrogSteps,
    randomiseSteps: spec.randomiseSteps,
    targetAcceptance: spec.targetAcceptance,
    variant,
    fixedPointTolerance: fp?.kind === "tolerance" ? fp.tolerance : undefined,
    fixedPointIterations: fp?.kind === "iterations" ? fp.iterations : undefined,
    reversibilityTolerance: spec.reversibilityTolerance,
  });
}

/** A registry entry: its fields are those of `defaults`, then the `optional` ones, with targetAcceptance last (specFields). */
function entry<N extends LatentSamplerName>(
  defaults: LatentSamplerSpecOf<N>,
  tunable: LatentSamplerInfo["tunable"],
  description: string,
  build: (target: AnnealedLatentTarget, spec: LatentSamplerSpecOf<N>) => Kernel,
  optional: readonly string[] = [],
  checkFields?: (spec: LatentSamplerSpecOf<N>) => void,
): LatentSamplerInfo<N> {
  return { defaults, tunable, fields: specFields(defaults, optional), description, build, ...(checkFields ? { checkFields } : {}) };
}

/** Throws a RangeError where a field naming a choice names none of `choices` (unset passes). */
function oneOf(sampler: string, field: string, value: string | undefined, choices: readonly string[]): void {
  if (value !== undefined && !choices.includes(value)) throw new RangeError(`${sampler}: ${field} must be one of ${choices.join(", ")}, got ${JSON.stringify(value)}`);
}

/** Whether `name` is one of LATENT_SAMPLER_NAMES. */
export function isLatentSamplerName(name: string): name is LatentSamplerName {
  return (LATENT_SAMPLER_NAMES as readonly string[]).includes(name);
}

/**
 * The complete spec: the sampler's defaults, overridden by the fields `input` gives (a name alone
 * gives the defaults; a field given as undefined is unset). Throws a RangeError on an unknown name
 * or a field the sampler does not have.
 */
export function latentSamplerSpec(input: LatentSamplerName | LatentSamplerSpecInput): LatentSamplerSpec {
  const given = typeof input === "string" ? { sampler: input } : { ...input };
  return completeSpec<LatentSamplerSpec>(latentSamplerInfo as unknown as Record<string, LatentSamplerInfo>, given);
}

/** The likelihoods a latent sampler can sample under (undefined: any, or not a latent sampler's name). */
export function samplerLikelihoods(name: string): readonly string[] | undefined {
  return isLatentSamplerName(name) ? (latentSamplerInfo[name] as LatentSamplerInfo).likelihoods : undefined;
}

/** Whether burn-in adaptation has something to tune in this sampler (the registry's `tunable`; not so for ess and exact-hmc). */
export function hasTunable(name: LatentSamplerName): boolean {
  return latentSamplerInfo[name].tunable !== undefined;
}

/** The acceptance rate burn-in adaptation aims for by default (undefined where there is nothing to adapt). */
export function defaultTargetAcceptance(name: LatentSamplerName): number | undefined {
  const defaults = latentSamplerInfo[name].defaults as { targetAcceptance?: number };
  return hasTunable(name) ? defaults.targetAcceptance : undefined;
}

/**
 * The burn-in adaptation of a latent sampler's run: dual averaging towards `targetAcceptance`
 * (default: the sampler's) when asked for, with a burn-in, and where the sampler has a tunable
 * (elliptical slice sampling and exact HMC have nothing to adapt); else none.
 */
export function latentAdaptation(name: LatentSamplerName, adapt: boolean, burnIn: number, targetAcceptance?: number): AdaptOptions | undefined {
  return adapt && burnIn > 0 && hasTunable(name) ? { method: "dual-averaging", targetAcceptance: targetAcceptance ?? defaultTargetAcceptance(name) } : undefined;
}

/** The initial value of the spec's tunable (alpha, proposal sd or step size, as the registry names it); undefined where there is none. */
export function tunableValue(spec: LatentSamplerSpec): number | undefined {
  const field = latentSamplerInfo[spec.sampler].tunable;
  return field === undefined ? undefined : ((spec as unknown as Record<string, number | undefined>)[field]);
}

/** The spec's leapfrog steps per transition (or their maximum, when drawn at random); undefined for samplers without a leapfrog integrator. */
export function leapfrogSteps(spec: LatentSamplerSpec): { steps: number; randomised: boolean } | undefined {
  switch (spec.sampler) {
    case "rmhmc": case "hmc": case "laplace-hmc": return { steps: spec.leapfrogSteps, randomised: spec.randomiseSteps ?? false };
    case "hmc-v1": case "hmc-v2": return { steps: spec.maxLeapfrogSteps, randomised: true };
    default: return undefined;
  }
}

/** The prior mass matrix M^-1 = K of `target`, through the target's own factor of K (no O(n^3) work). */
export function priorMass(target: AnnealedLatentTarget): MassMatrix {
  return massFromInverseCholesky(target.kernelCholesky);
}

/** How RMHMC solves and checks its leapfrog steps, in words ("fixed points to 1e-8, reversibility checked to 0.01"). */
export function describeLeapfrogSolve(spec: Pick<RmhmcSpec, "fixedPoint" | "reversibilityTolerance">): string {
  const fp = spec.fixedPoint;
  const solve = fp?.kind === "iterations" ? `${fp.iterations} fixed-point iterations` : `fixed points to ${fp?.tolerance ?? DEFAULT_FIXED_POINT_TOLERANCE}`;
  const check = spec.reversibilityTolerance ?? (fp?.kind === "iterations" ? false : DEFAULT_REVERSIBILITY_TOLERANCE);
  return `${solve}, ${check === false ? "no reversibility check" : `reversibility checked to ${check}`}`;
}

/**
 * The complete spec of `input`, checked against `target` without building a kernel (an O(n^3)
 * factorisation for several samplers): its fields, their values, and whether the sampler can run
 * on the target's likelihood. Throws a RangeError naming what is wrong.
 */
export function checkLatentSampler(target: AnnealedLatentTarget, input: LatentSamplerName | LatentSamplerSpecInput): LatentSamplerSpec {
  const spec = latentSamplerSpec(input);
  checkSpec(latentSamplerInfo[spec.sampler] as unknown as LatentSamplerInfo, spec, target);
  return spec;
}

/** Builds the kernel a spec (or a name: its defaults) describes on a latent GP target; unset fields take the sampler's defaults. */
export function latentSampler(target: AnnealedLatentTarget, input: LatentSamplerName | LatentSamplerSpecInput): Kernel {
  const spec = checkLatentSampler(target, input);
  const info = latentSamplerInfo[spec.sampler] as unknown as LatentSamplerInfo;
  return info.build(target, spec, undefined);
}
