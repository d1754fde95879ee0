/**
 * The stochastic volatility model's two-block Gibbs sampler (Girolami & Calderhead 2011, Section
 * 8): the position is (beta, sigma, phi, x_1..x_T); a sweep samples (beta, sigma, phi) | x with
 * one transition of a parametric sampler on the 3-dimensional dense-metric conditional
 * (models/volatility/svParameters.ts), then x | (beta, sigma, phi) with one transition of a
 * sampler on the latent conditional with its constant tridiagonal metric
 * (models/volatility/svLatent.ts).
 *
 * The samplers, by block:
 * - parameters: mala, hmc (identity mass), mmala (full drift), rmhmc (generalised leapfrog), those
 *   of samplers/parametricRegistry.ts;
 * - volatilities: mala; hmc (identity mass); mmala, whose Christoffel terms vanish because G does
 *   not depend on x (Section 8.2, eq. 30), so it is the Langevin proposal preconditioned by G^-1;
 *   rmhmc, which with a constant metric is the leapfrog with mass G = I/2 + C^-1 (Section 8.2):
 *   HMC with the tridiagonal mass of samplers/integrators/tridiagonalMass.ts, every step O(T).
 * Step sizes adapt per block during burn-in (samplers/kernels/blockGibbs.ts); the numbers of leapfrog
 * steps are the paper's (Section 8.3) where it gives them. With `interweave` a third block follows:
 * (sigma, phi) moved with the innovations eta fixed, the volatilities following
 * (interweave.ts), which the centred parameters' block cannot do.
 */
import { latentStatistics, SV_PRIOR, svLogLikelihood, svLogPrior, type SvPriorOptions } from "./svModel.js";
import { svLatentTarget } from "./svLatent.js";
import { SV_INTERWEAVE_SCALE, svNonCentredKernel } from "./interweave.js";
import { svParameterModel } from "./svParameters.js";
import { blockGibbs, type BlockGibbsKernel, type GibbsBlock } from "../../samplers/kernels/blockGibbs.js";
import { hmc } from "../../samplers/kernels/hmc.js";
import { mala } from "../../samplers/kernels/mala.js";
import { identityMass } from "../../samplers/integrators/massMatrix.js";
import { buildParametricSampler, PARAMETRIC_PRESETS, parametricSamplerInfo, parametricSamplerSpec } from "../../samplers/parametricRegistry.js";
import { completeSpec, type SamplerEntry } from "../../samplers/samplerEntry.js";
import { HMC_TARGET_ACCEPTANCE } from "../../samplers/integrators/trajectoryOptions.js";
import { MALA_TARGET_ACCEPTANCE, smmala } from "../../samplers/kernels/smmala.js";
import { tridiagonalMass } from "../../samplers/integrators/tridiagonalMass.js";
import type { Kernel } from "../../samplers/types.js";
import { denseMetricTarget } from "../../targets/denseMetric.js";

export const SV_SAMPLER_NAMES = ["rmhmc", "mmala", "mala", "hmc"] as const;
export type SvSamplerName = (typeof SV_SAMPLER_NAMES)[number];

export function isSvSamplerName(s: string): s is SvSamplerName {
  return (SV_SAMPLER_NAMES as readonly string[]).includes(s);
}

/** A sampler of the volatilities x | (beta, sigma, phi) as plain data. */
export interface SvLatentSpec {
  sampler: SvSamplerName;
  stepSize: number;
  leapfrogSteps?: number;
  targetAcceptance?: number;
}

type SvLatentTarget = ReturnType<typeof svLatentTarget>;

/**
 * The samplers of the volatilities (Section 8.2), entries of the one registry shape
 * (samplers/samplerEntry.ts): the paper's RMHMC 0.1 and 50 steps per volatility proposal; its
 * HMC figures are garbled, so HMC takes RMHMC's count.
 */
export const svLatentSamplerInfo: { readonly [N in SvSamplerName]: SamplerEntry<SvLatentTarget, SvLatentSpec> } = {
  rmhmc: {
    description: "the leapfrog with the constant metric G = I/2 + C^-1 as mass (tridiagonal, O(T) a step)",
    defaults: { sampler: "rmhmc", stepSize: 0.1, leapfrogSteps: 50, targetAcceptance: 0.8 }, tunable: "stepSize", fields: ["stepSize", "leapfrogSteps", "targetAcceptance"],
    build: (t, s) => hmc(t, { stepSize: s.stepSize, leapfrogSteps: s.leapfrogSteps!, mass: tridiagonalMass(t.metricFactor), targetAcceptance: s.targetAcceptance }),
  },
  mmala: {
    description: "the Langevin proposal preconditioned by G^-1 (G constant: no Christoffel terms, Section 8.2, eq. 30)",
    defaults: { sampler: "mmala", stepSize: 0.5, targetAcceptance: 0.7 }, tunable: "stepSize", fields: ["stepSize", "targetAcceptance"],
    build: (t, s) => smmala(t, { stepSize: s.stepSize, targetAcceptance: s.targetAcceptance }),
  },
  mala: {
    description: "Metropolis-adjusted Langevin, identity metric",
    defaults: { sampler: "mala", stepSize: 0.05, targetAcceptance: MALA_TARGET_ACCEPTANCE }, tunable: "stepSize", fields: ["stepSize", "targetAcceptance"],
    build: (t, s) => mala(t, { stepSize: s.stepSize, targetAcceptance: s.targetAcceptance }),
  },
  hmc: {
    description: "HMC with the identity mass",
    defaults: { sampler: "hmc", stepSize: 0.05, leapfrogSteps: 50, targetAcceptance: HMC_TARGET_ACCEPTANCE }, tunable: "stepSize", fields: ["stepSize", "leapfrogSteps", "targetAcceptance"],
    build: (t, s) => hmc(t, { stepSize: s.stepSize, leapfrogSteps: s.leapfrogSteps!, mass: identityMass(t.dim), targetAcceptance: s.targetAcceptance }),
  },
};

/** The parameter block's preset of the parametric registry (samplers/parametricRegistry.ts). */
const SV_PARAMETERS = "volatility-parameters";

/** Starting step sizes (adapted in burn-in) and leapfrog steps per block and sampler, from the two registries. */
export const SV_BLOCK_DEFAULTS: { readonly [B in "parameters" | "volatilities"]: { readonly [N in SvSamplerName]: { stepSize: number; leapfrogSteps?: number } } } = {
  parameters: Object.fromEntries(SV_SAMPLER_NAMES.map((n) => {
    const s = parametricSamplerSpec(n, {}, SV_PARAMETERS);
    return [n, { stepSize: s.stepSize!, ...(PARAMETRIC_PRESETS[SV_PARAMETERS]![n]?.leapfrogSteps !== undefined ? { leapfrogSteps: s.leapfrogSteps } : {}) }];
  })) as { [N in SvSamplerName]: { stepSize: number; leapfrogSteps?: number } },
  volatilities: Object.fromEntries(SV_SAMPLER_NAMES.map((n) => {
    const d = svLatentSamplerInfo[n].defaults;
    return [n, { stepSize: d.stepSize, ...(d.leapfrogSteps !== undefined ? { leapfrogSteps: d.leapfrogSteps } : {}) }];
  })) as { [N in SvSamplerName]: { stepSize: number; leapfrogSteps?: number } },
};

export interface SvBlockChoice {
  sampler: SvSamplerName;
  stepSize?: number;
  leapfrogSteps?: number;
  /** Adapt the step size in burn-in (default true). */
  adapt?: boolean;
}

export interface SvGibbsOptions extends SvPriorOptions {
  parameters: SvBlockChoice;
  volatilities: SvBlockChoice;
  /** A third block per sweep: the interweaving step of interweave.ts (its scale adapted unless adapt is false). */
  interweave?: { scale?: number; adapt?: boolean };
  /** Adapt the blocks' step sizes in the chain's burn-in (blockGibbs's `adapt`). */
  adapt: boolean;
}

/** log p(beta, sigma, phi, x | y) up to a constant, at the position (beta, sigma, phi, x). */
export function svJointLogDensity(y: Float64Array, position: Float64Array, betaPriorRate: number = SV_PRIOR.betaRate): number {
  const x = position.subarray(3);
  const s = latentStatistics(y, x);
  return svLogLikelihood(s, position[0], position[1], position[2]) + svLogPrior(position[0], position[1], position[2], betaPriorRate);
}

/**
 * A starting point: beta the root mean square of y, sigma and phi near their prior modes
 * (0.2, 0.9), and x_t the log of the local mean of y^2 / beta^2 over t - 10..t + 10 (a smoothed
 * volatility estimate, so that burn-in need not carry x from 0 to the data's levels).
 */
export function svInitialPoint(y: Float64Array): Float64Array {
  const T = y.length;
  let m = 0;
  for (const v of y) m += v * v;
  const beta2 = m / T || 1;
  const init = new Float64Array(3 + T);
  init[0] = Math.sqrt(beta2);
  init[1] = 0.2;
  init[2] = 0.9;
  const w = 10;
  for (let t = 0; t < T; t++) {
    let s = 0, k = 0;
    for (let u = Math.max(0, t - w); u <= Math.min(T - 1, t + w); u++, k++) s += y[u] * y[u];
    init[3 + t] = Math.log(Math.max(s / k / beta2, 1e-3));
  }
  return init;
}

function latentKernel(y: Float64Array, position: Float64Array, choice: SvBlockChoice, options: SvPriorOptions): Kernel {
  const target = svLatentTarget(y, position[0], position[1], position[2], options);
  const info = svLatentSamplerInfo[choice.sampler];
  const spec = completeSpec<SvLatentSpec>(svLatentSamplerInfo, { sampler: choice.sampler, stepSize: choice.stepSize, leapfrogSteps: info.fields.includes("leapfrogSteps") ? choice.leapfrogSteps : undefined });
  return info.build(target, spec, undefined);
}

function parameterKernel(y: Float64Array, position: Float64Array, choice: SvBlockChoice, options: SvPriorOptions): Kernel {
  const model = svParameterModel(latentStatistics(y, position.subarray(3)), options);
  const spec = parametricSamplerSpec(choice.sampler, { stepSize: choice.stepSize, leapfrogSteps: parametricSamplerInfo[choice.sampler].fields.includes("leapfrogSteps") ? choice.leapfrogSteps : undefined }, SV_PARAMETERS);
  return buildParametricSampler(denseMetricTarget(model), spec, { init: position.subarray(0, 3), burnIn: 0 }, false).kernel;
}

/** The two-block Gibbs kernel on (beta, sigma, phi, x_1..x_T) for the returns y. */
export function svGibbsKernel(y: Float64Array, options: SvGibbsOptions): BlockGibbsKernel {
  const T = y.length;
  const rate = options.betaPriorRate ?? SV_PRIOR.betaRate;
  const prior: SvPriorOptions = { betaPriorRate: rate, broken: options.broken };
  const dP = SV_BLOCK_DEFAULTS.parameters[options.parameters.sampler];
  const dV = SV_BLOCK_DEFAULTS.volatilities[options.volatilities.sampler];
  const blocks: GibbsBlock[] = [
    { name: "parameters", start: 0, length: 3, stepSize: options.parameters.stepSize ?? dP.stepSize, adapt: options.parameters.adapt, kernelFor: (p) => parameterKernel(y, p, options.parameters, prior) },
    { name: "volatilities", start: 3, length: T, stepSize: options.volatilities.stepSize ?? dV.stepSize, adapt: options.volatilities.adapt, kernelFor: (p) => latentKernel(y, p, options.volatilities, prior) },
  ];
  const w = options.interweave;
  if (w) {
    const scale = w.scale ?? SV_INTERWEAVE_SCALE;
    blocks.push({ name: "interweave", start: 1, length: 2 + T, stepSize: scale, adapt: w.adapt, kernelFor: (p) => svNonCentredKernel(y, p[0], { scale, betaPriorRate: rate }) });
  }
  return blockGibbs(3 + T, blocks, { logDensity: (p) => svJointLogDensity(y, p, rate), adapt: options.adapt });
}
