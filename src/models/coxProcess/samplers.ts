/**
 * The samplers of the log-Gaussian Cox process field x | y with fixed hyperparameters
 * (Girolami & Calderhead 2011, Section 9.1, Table 13), by name, on either grid covariance
 * (models/coxProcess/fieldModel.ts). With the paper's Euclidean covariance, rmhmc and mmala move
 * the whitened torus variables nu (x = mu + R C^1/2 nu) with the constant metric I + lambda C, and
 * a step costs FFTs, O(N log N); with the separable one they move x with G = lambda I + Sigma^-1
 * in the Kronecker eigenbasis, O(N^1.5). The MALA samplers move Christensen's Gamma either way.
 *
 * - "rmhmc": RMHMC with the constant metric G = lambda I + Sigma^-1. dG/dx = 0, so the
 *   generalised leapfrog is the plain leapfrog with mass G and needs no fixed-point iterations
 *   (Section 9): samplers/kernels/hmc.ts with models/coxProcess's spectral mass, O(N^1.5) per step. The
 *   number of steps is drawn uniformly from 1..20 at each transition, as the paper's pseudocode
 *   does (Appendix D): G is the Fisher information at the prior mean, so cells with many points
 *   are stiffer than G says, and a fixed trajectory length can resonate with them (on a 32 x 32
 *   grid, 10 fixed steps left one cell with an ESS of 7 in 400 draws; 1..20 random steps, 146).
 * - "mmala": manifold MALA on the same metric; its Christoffel terms vanish (constant G), so the
 *   simplified kernel of samplers/kernels/smmala.ts is mMALA here. Tuned to 70% acceptance, as Section 7.2
 *   tunes mMALA (Section 9.1 does not say).
 * - "mala-transient": MALA on Christensen et al.'s Gamma = C'(x - mu)
 *   (models/coxProcess/christensen.ts) with the fixed scaling h = l^2 N^-1/2, l = 1.65, for the
 *   transient phase (Christensen, Roberts & Rosenthal 2005 show it needs the N^-1/2 scaling where
 *   stationarity allows N^-1/3), from Gamma = 0 (x = mu 1).
 * - "mala-stationary": the same target tuned for stationarity: it starts at the posterior mode
 *   and its step size, from h = l^2 N^-1/3, is adapted in burn-in to MALA's optimal 57.4%
 *   acceptance (Roberts & Rosenthal 1998). On the 64 x 64 grid h = l^2 N^-1/3 itself accepts
 *   nothing, even from the mode: the posterior in Gamma is far enough from N(0, I) in 4096
 *   dimensions that the constant of the scaling has to be tuned, as the paper did.
 *
 * The other chains start at x = mu 1 as in Section 9.1.
 */
import { coxProcessMetricTarget, constantMetricMass } from "./coxField.js";
import { christensenTarget } from "./christensen.js";
import { coxFieldMode, denseFieldPrecision, type CoxModel } from "./fieldModel.js";
import type { AdaptOptions } from "../../samplers/chain/adaptation.js";
import { hmc } from "../../samplers/kernels/hmc.js";
import { mala } from "../../samplers/kernels/mala.js";
import { smmala } from "../../samplers/kernels/smmala.js";
import { completeSpec, type SamplerEntry } from "../../samplers/samplerEntry.js";
import type { Kernel } from "../../samplers/types.js";
import type { FaultOf } from "../../math/negativeControl.js";

export const COX_PROCESS_SAMPLERS = ["rmhmc", "mmala", "mala-transient", "mala-stationary"] as const;
export type CoxProcessSamplerName = (typeof COX_PROCESS_SAMPLERS)[number];


/** Roberts & Rosenthal's (1998) optimal MALA scale l: h = l^2 N^-1/3 in stationarity. */
export const MALA_SCALE = 1.65;

export interface CoxProcessSamplerOptions extends Partial<Omit<CoxProcessSamplerSpec, "sampler">> {
  adapt?: boolean;
  /** Test-only negative control for rmhmc (samplers/kernels/hmc.ts). @internal */
  broken?: FaultOf<"hmc">;
}

export interface CoxProcessSampler {
  readonly kernel: Kernel;
  readonly adapt: AdaptOptions | undefined;
  /** The chain's starting point in the kernel's coordinates. */
  readonly init: Float64Array;
  /** Maps a draw of the kernel's coordinates to the field x (separable: identity; Euclidean: x = mu + R C^1/2 nu; MALA: from Gamma). */
  toField(draw: Float64Array, out: Float64Array): void;
  /** Seconds spent setting the sampler up (the mode and dense factor of Christensen's transform). */
  readonly setupSeconds: number;
}

/** A sampler of the field as plain data (its entry's `fields` say which it has). */
export interface CoxProcessSamplerSpec {
  sampler: CoxProcessSamplerName;
  /** The initial step; unset for the MALA samplers: h = l^2 N^-1/2 (transient) or N^-1/3 (stationary), step sqrt(h). */
  stepSize?: number;
  /** rmhmc: the count of leapfrog steps is drawn uniformly from 1..leapfrogSteps. */
  leapfrogSteps?: number;
  targetAcceptance?: number;
}

/** A kernel on the field with its own coordinates: where its chain starts and how a draw maps to x. */
export interface CoxFieldKernel extends Kernel {
  /** The chain's starting point in the kernel's coordinates. */
  readonly start: Float64Array;
  /** Maps a draw of the kernel's coordinates to the field x. */
  toField(draw: Float64Array, out: Float64Array): void;
}

/** The negative-control switch building may carry (test only). */
export interface CoxBuildContext {
  broken?: FaultOf<"hmc">;
}

export type CoxProcessSamplerInfo = SamplerEntry<CoxModel, CoxProcessSamplerSpec, CoxBuildContext, CoxFieldKernel>;

export const RMHMC_LEAPFROG_STEPS = 20;

const fieldKernel = (model: CoxModel, kernel: Kernel, name: string): CoxFieldKernel =>
  ({ ...kernel, name, start: Float64Array.from(model.priorMean), toField: (d, out) => model.toField(d, out) });

/** The MALA samplers on Christensen's Gamma, from Gamma = 0 (transient) or the mode (stationary). */
function christensenMala(model: CoxModel, spec: CoxProcessSamplerSpec): CoxFieldKernel {
  const mode = coxFieldMode(model).mode;
  const target = christensenTarget(model, denseFieldPrecision(model), mode);
  const stationary = spec.sampler === "mala-stationary";
  const h = (MALA_SCALE * MALA_SCALE) / Math.pow(model.cells, stationary ? 1 / 3 : 1 / 2);
  const kernel = mala(target, { stepSize: spec.stepSize ?? Math.sqrt(h) });
  const start = stationary ? target.fromField(mode) : new Float64Array(model.cells);
  return { ...kernel, name: spec.sampler, start, toField: (d, out) => target.toField(d, out) };
}

export const coxProcessSamplerInfo: { readonly [N in CoxProcessSamplerName]: CoxProcessSamplerInfo } = {
  "rmhmc": {
    description: "RMHMC with the constant metric G = lambda I + Sigma^-1: the leapfrog with mass G, 1..20 random steps (Section 9)",
    defaults: { sampler: "rmhmc", stepSize: 0.3, leapfrogSteps: RMHMC_LEAPFROG_STEPS, targetAcceptance: 0.8 },
    tunable: "stepSize",
    fields: ["stepSize", "leapfrogSteps", "targetAcceptance"],
    build: (model, s, c) => fieldKernel(model, hmc(model, {
      stepSize: s.stepSize!, leapfrogSteps: s.leapfrogSteps!, randomiseSteps: true, targetAcceptance: s.targetAcceptance, mass: constantMetricMass(model), broken: c.broken,
    }), "rmhmc"),
  },
  "mmala": {
    description: "manifold MALA on the same constant metric (its Christoffel terms vanish), tuned to 70% acceptance",
    defaults: { sampler: "mmala", stepSize: 0.8, targetAcceptance: 0.7 },
    tunable: "stepSize",
    fields: ["stepSize", "targetAcceptance"],
    build: (model, s) => fieldKernel(model, smmala(coxProcessMetricTarget(model), { stepSize: s.stepSize!, targetAcceptance: s.targetAcceptance }), "mmala"),
  },
  "mala-transient": {
    description: "MALA on Christensen et al.'s Gamma with the fixed scaling h = 1.65^2 N^-1/2, from Gamma = 0",
    defaults: { sampler: "mala-transient" },
    tunable: undefined,
    fields: ["stepSize"],
    build: (model, s) => christensenMala(model, s),
  },
  "mala-stationary": {
    description: "MALA on Gamma from the posterior mode, step from h = 1.65^2 N^-1/3 adapted to 57.4% acceptance",
    defaults: { sampler: "mala-stationary" },
    tunable: "stepSize",
    fields: ["stepSize"],
    build: (model, s) => christensenMala(model, s),
  },
};

export function isCoxProcessSamplerName(name: string): name is CoxProcessSamplerName {
  return (COX_PROCESS_SAMPLERS as readonly string[]).includes(name);
}

/** The sampler `name` on `model`, with `options` over its defaults (an option the sampler does not have is ignored). */
export function coxProcessSampler(model: CoxModel, name: CoxProcessSamplerName, options: CoxProcessSamplerOptions = {}): CoxProcessSampler {
  const t0 = performance.now();
  const info = coxProcessSamplerInfo[name];
  // the spec fields the sampler has (another is ignored: callers give one set of options to every sampler)
  const given: { sampler: string } & Record<string, unknown> = { sampler: name };
  for (const field of info.fields) given[field] = (options as Record<string, unknown>)[field];
  const spec = completeSpec<CoxProcessSamplerSpec>(coxProcessSamplerInfo, given);
  const kernel = info.build(model, spec, { broken: options.broken });
  const adapt: AdaptOptions | undefined = options.adapt === false || info.tunable === undefined ? undefined : { method: "dual-averaging" };
  const { start, toField, ...rest } = kernel;
  return { kernel: rest, adapt, init: start, toField, setupSeconds: (performance.now() - t0) / 1000 };
}
