/**
 * The samplers of a parametric model with a dense metric (Girolami & Calderhead 2011, Sections
 * 2-5 and 7.1), as entries of the one registry shape (samplerEntry.ts): defaults that need no
 * tuning as data (the step size starts there and is adapted during burn-in to the paper's
 * acceptance ranges), and per-model presets beside them (PARAMETRIC_PRESETS).
 */
import { Matrix } from "../linalg/matrix.js";
import type { DenseMetricTarget } from "../targets/denseMetric.js";
import type { AdaptOptions } from "./chain/adaptation.js";
import { hmc } from "./kernels/hmc.js";
import { holmesHeld, isBinaryRegression } from "./kernels/holmesHeld.js";
import { iwls } from "./kernels/iwls.js";
import { DEFAULT_KINETIC_DOF, studentTKinetic } from "./integrators/kineticEnergy.js";
import { mala } from "./kernels/mala.js";
import { identityMass, massFromCholesky, type MassMatrix } from "./integrators/massMatrix.js";
import { componentwiseMetropolis } from "./kernels/mhComponentwise.js";
import { MMALA_TARGET_ACCEPTANCE, mmala } from "./kernels/mmala.js";
import { lagrangianDense } from "./kernels/lagrangianDense.js";
import { rmhmc } from "./kernels/rmhmc.js";
import { completeSpec, specFields, type SamplerEntry } from "./samplerEntry.js";
import { MALA_TARGET_ACCEPTANCE, smmala } from "./kernels/smmala.js";
import { HMC_TARGET_ACCEPTANCE } from "./integrators/trajectoryOptions.js";
import type { Kernel } from "./types.js";

/** The names, in the order help texts list them. */
export const PARAMETRIC_SAMPLER_NAMES = ["rmhmc", "mmala", "smmala", "mala", "hmc", "hmc-diagonal", "mh-componentwise", "iwls", "rmhmc-t", "holmes-held"] as const;
export type ParametricSamplerName = (typeof PARAMETRIC_SAMPLER_NAMES)[number];

/** A parametric sampler as plain data; which fields a sampler has is its entry's `fields`. */
export interface ParametricSamplerSpec {
  sampler: ParametricSamplerName;
  /** The leapfrog or Langevin step (the initial value when adapting). */
  stepSize?: number;
  /** Leapfrog steps per transition; with trajectoryLength, the most a transition takes. */
  leapfrogSteps?: number;
  /** Integration time e L kept as e adapts: round(trajectoryLength / e) steps (HMC: drawn from 1..that). */
  trajectoryLength?: number;
  targetAcceptance?: number;
  /** rmhmc: "lagrangian", the explicit integrator (lagrangianDense.ts) instead of the generalised leapfrog. */
  integrator?: "lagrangian";
}

/** What building a parametric kernel needs besides target and spec: the chain's starting point and its burn-in length. */
export interface ParametricContext {
  /** Where the diagonal HMC mass is read. */
  init: Float64Array;
  /** Burn-in transitions (the component-wise scales adapt during those). */
  burnIn: number;
}

export interface ParametricSamplerInfo extends SamplerEntry<DenseMetricTarget, ParametricSamplerSpec, ParametricContext> {
  /** The most leapfrog steps a transition takes when its count follows a trajectory length (undefined: no leapfrog). */
  trajectoryStepCap?: number;
}

/** The most leapfrog steps an RMHMC transition takes when its count follows a trajectory length. */
export const TRAJECTORY_STEP_CAP = 50;
/**
 * The most leapfrog steps an identity- or diagonal-mass HMC transition takes when its count
 * follows a trajectory length: its step is bounded by the smallest posterior sd, so e L = 3 can
 * take thousands of steps (Section 7.1.4).
 */
export const HMC_TRAJECTORY_STEP_CAP = 10000;

const RMHMC_DEFAULTS = { stepSize: 0.5, leapfrogSteps: 6, targetAcceptance: 0.8 };

export const parametricSamplerInfo: { readonly [N in ParametricSamplerName]: ParametricSamplerInfo } = {
  "rmhmc": {
    ...entry({ sampler: "rmhmc", ...RMHMC_DEFAULTS }, "stepSize", "Riemannian manifold HMC, generalised leapfrog with fixed points to 1e-8, 6 steps (logistic regression: round(2 / eps)) (Section 5)",
      (target, s) => s.integrator === "lagrangian" ? lagrangianDense(target, trajectory(s)) : rmhmc(target, trajectory(s)), ["trajectoryLength", "integrator"]),
    trajectoryStepCap: TRAJECTORY_STEP_CAP,
  },
  "mmala": entry({ sampler: "mmala", stepSize: 0.8, targetAcceptance: MMALA_TARGET_ACCEPTANCE }, "stepSize",
    "manifold MALA with the full drift, Christoffel terms included (Section 5: the Euler step of eqs. 12-13)",
    (target, s) => mmala(target, { stepSize: s.stepSize!, targetAcceptance: s.targetAcceptance })),
  "smmala": entry({ sampler: "smmala", stepSize: 0.8, targetAcceptance: 0.7 }, "stepSize",
    "manifold MALA with the constant-curvature drift, step adapted to 70% acceptance (logistic regression: 50%) (Section 5; the 70% is Section 7.2's)",
    (target, s) => smmala(target, { stepSize: s.stepSize!, targetAcceptance: s.targetAcceptance })),
  "mala": entry({ sampler: "mala", stepSize: 0.1, targetAcceptance: MALA_TARGET_ACCEPTANCE }, "stepSize",
    "Metropolis-adjusted Langevin, identity metric (Section 2, eqs. 8-9)",
    (target, s) => mala(target, { stepSize: s.stepSize!, targetAcceptance: s.targetAcceptance })),
  "hmc": {
    ...entry({ sampler: "hmc", stepSize: 0.01, leapfrogSteps: 100, targetAcceptance: HMC_TARGET_ACCEPTANCE }, "stepSize",
      "HMC with the identity mass, 100 leapfrog steps (logistic regression: uniform on 1..round(6 / eps), at most 10000; mean eps L 3) (Section 7.1.4)",
      (target, s) => hmcWith(target, s, identityMass(target.dim)), ["trajectoryLength"]),
    trajectoryStepCap: HMC_TRAJECTORY_STEP_CAP,
  },
  "hmc-diagonal": {
    ...entry({ sampler: "hmc-diagonal", stepSize: 0.05, leapfrogSteps: 100, targetAcceptance: HMC_TARGET_ACCEPTANCE }, "stepSize",
      "HMC with the diagonal mass diag(G) at the initial point, 100 leapfrog steps",
      (target, s, c) => hmcWith(target, s, diagonalMetricMass(target, c.init)), ["trajectoryLength"]),
    trajectoryStepCap: HMC_TRAJECTORY_STEP_CAP,
  },
  "mh-componentwise": entry({ sampler: "mh-componentwise" }, undefined,
    "component-wise random-walk Metropolis, scales adapted per coordinate to 20-40% (Section 7.1.1)",
    (target, _s, c) => componentwiseMetropolis(target, { adapt: c.burnIn > 0 })),
  "iwls": entry({ sampler: "iwls" }, undefined, "iterated weighted least squares proposal, nothing to tune (Gamerman 1997; Section 7.1.5)", (target) => iwls(target)),
  "rmhmc-t": {
    ...entry({ sampler: "rmhmc-t", ...RMHMC_DEFAULTS }, "stepSize",
      `RMHMC with a Student-t kinetic energy, ${DEFAULT_KINETIC_DOF} degrees of freedom, 6 steps (logistic regression: round(3 / eps)) (Section 7.3)`,
      (target, s) => rmhmc(target, { ...trajectory(s), kineticEnergy: studentTKinetic(DEFAULT_KINETIC_DOF, target.dim) }), ["trajectoryLength"]),
    trajectoryStepCap: TRAJECTORY_STEP_CAP,
  },
  "holmes-held": {
    ...entry({ sampler: "holmes-held" }, undefined, "auxiliary-variable Gibbs sampler, joint update of {z, beta}, logistic regression only (Holmes & Held 2005; Section 7.1.2)",
      (target) => {
        if (!isBinaryRegression(target.model)) throw new RangeError("holmes-held applies only to logistic regression (a model with a design and 0/1 labels)");
        return holmesHeld(target, target.model);
      }),
    refuses: (target) => isBinaryRegression(target.model) ? undefined : "holmes-held applies only to logistic regression (a model with a design and 0/1 labels)",
  },
};

export const PARAMETRIC_SAMPLER_DESCRIPTIONS: { readonly [N in ParametricSamplerName]: string } = Object.fromEntries(
  PARAMETRIC_SAMPLER_NAMES.map((n) => [n, parametricSamplerInfo[n].description]),
) as { [N in ParametricSamplerName]: string };

/** Logistic regression's integration times e L (in its preset below). */
export const LOGISTIC_TRAJECTORY_LENGTH = { rmhmc: 2, "rmhmc-t": 3, hmc: 6 } as const satisfies { [N in ParametricSamplerName]?: number };
/** Logistic regression's target acceptance for simplified mMALA's step size (in its preset below; the paper names none). */
export const LOGISTIC_SMMALA_TARGET_ACCEPTANCE = 0.5;

/**
 * Per-model settings that replace the defaults (data beside the registry). Logistic regression:
 * integration times e L kept as the step adapts (RMHMC 2, RMHMC-t 3, HMC's count drawn from
 * 1..round(6 / e)), and simplified mMALA adapted to 50% acceptance; EXPERIMENTS.md, "Bayesian
 * logistic regression at the paper's protocol", and BENCHMARKS.md, "HMC with the identity mass",
 * give the measurements behind them.
 */
export const PARAMETRIC_PRESETS: { readonly [model: string]: { readonly [N in ParametricSamplerName]?: Partial<Omit<ParametricSamplerSpec, "sampler">> } } = {
  "logistic-regression": {
    rmhmc: { trajectoryLength: LOGISTIC_TRAJECTORY_LENGTH.rmhmc },
    "rmhmc-t": { trajectoryLength: LOGISTIC_TRAJECTORY_LENGTH["rmhmc-t"] },
    hmc: { trajectoryLength: LOGISTIC_TRAJECTORY_LENGTH.hmc },
    smmala: { targetAcceptance: LOGISTIC_SMMALA_TARGET_ACCEPTANCE },
  },
  // The stochastic volatility model's parameter block (beta, sigma, phi): the paper's RMHMC 0.3 and 10 steps, HMC 0.015 and 200 (Section 8.3).
  "volatility-parameters": { rmhmc: { stepSize: 0.3, leapfrogSteps: 10 }, mmala: { stepSize: 0.5 }, mala: { stepSize: 0.002 }, hmc: { stepSize: 0.015, leapfrogSteps: 200 } },
};

/** The most steps sampler `name` takes when its count follows a trajectory length (undefined: it has no leapfrog). */
export function trajectoryStepCap(name: ParametricSamplerName): number | undefined {
  return parametricSamplerInfo[name].trajectoryStepCap;
}


/** Whether sampler `name` applies to `target` (holmes-held needs a logistic regression's design and labels). */
export function parametricSamplerApplies(target: DenseMetricTarget, name: ParametricSamplerName): boolean {
  return parametricSamplerInfo[name].refuses?.(target) === undefined;
}

export function isParametricSamplerName(name: string): name is ParametricSamplerName {
  return (PARAMETRIC_SAMPLER_NAMES as readonly string[]).includes(name);
}

/**
 * The complete spec of sampler `name`: `given` over the model's preset (PARAMETRIC_PRESETS) over
 * the defaults. A leapfrog count given explicitly drops the preset's trajectory length; a
 * trajectory length without a given count makes the count follow it, up to the entry's cap.
 */
export function parametricSamplerSpec(name: ParametricSamplerName, given: Partial<Omit<ParametricSamplerSpec, "sampler">> = {}, model?: string): ParametricSamplerSpec {
  const preset = model === undefined ? {} : PARAMETRIC_PRESETS[model]?.[name] ?? {};
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<ParametricSamplerSpec>;
  const stepsGiven = defined.leapfrogSteps !== undefined;
  const trajectoryLength = defined.trajectoryLength ?? (stepsGiven ? undefined : preset.trajectoryLength);
  const leapfrogSteps = defined.leapfrogSteps ?? (trajectoryLength !== undefined ? parametricSamplerInfo[name].trajectoryStepCap : preset.leapfrogSteps);
  return completeSpec<ParametricSamplerSpec>(parametricSamplerInfo, { ...preset, ...defined, sampler: name, trajectoryLength, leapfrogSteps });
}

export interface ParametricSampler {
  kernel: Kernel;
  /** The burn-in adaptation the driver runs on kernel.tunable (undefined: none). */
  adapt: AdaptOptions | undefined;
}

/** The kernel a complete spec describes, and its burn-in adaptation (dual averaging of the tunable unless `adapt` is false). */
export function buildParametricSampler(target: DenseMetricTarget, spec: ParametricSamplerSpec, context: ParametricContext, adapt = true): ParametricSampler {
  const info = parametricSamplerInfo[spec.sampler];
  const refusal = info.refuses?.(target);
  if (refusal !== undefined) throw new RangeError(refusal);
  return { kernel: info.build(target, spec, context), adapt: adapt && info.tunable !== undefined ? { method: "dual-averaging" } : undefined };
}

/**
 * The kernel `name` on `target` with its defaults; `init` is the chain's starting point (the
 * diagonal HMC mass is read there), `burnIn` the number of burn-in transitions (the component-wise
 * scales adapt during those); `given` overrides the initial step size and the leapfrog steps, or
 * turns adaptation off; its trajectoryLength, where leapfrogSteps is not given, makes the count of
 * steps follow it (parametricSamplerSpec), its smmalaTargetAcceptance replaces simplified mMALA's
 * 0.7, and its integrator "lagrangian" makes RMHMC integrate with the explicit Lagrangian
 * integrator (lagrangianDense.ts; a model with metricAlong, logistic regression).
 */
export function parametricSampler(
  target: DenseMetricTarget,
  name: ParametricSamplerName,
  init: Float64Array,
  burnIn: number,
  given: { stepSize?: number; leapfrogSteps?: number; adapt?: boolean; trajectoryLength?: number; smmalaTargetAcceptance?: number; integrator?: "lagrangian" } = {},
): ParametricSampler {
  if (given.integrator !== undefined && name !== "rmhmc") throw new RangeError(`the lagrangian integrator applies to rmhmc only, not ${name}`);
  const info = parametricSamplerInfo[name];
  // an unknown name is refused as every registry refuses it (completeSpec: a former name is told the present one)
  if (!isParametricSamplerName(name)) completeSpec<ParametricSamplerSpec>(parametricSamplerInfo, { sampler: name });
  const spec = parametricSamplerSpec(name, {
    stepSize: info.tunable === undefined ? undefined : given.stepSize,
    leapfrogSteps: info.fields.includes("leapfrogSteps") ? given.leapfrogSteps : undefined,
    // a given count wins over a given trajectory length
    trajectoryLength: info.fields.includes("trajectoryLength") && given.leapfrogSteps === undefined ? given.trajectoryLength : undefined,
    targetAcceptance: name === "smmala" ? given.smmalaTargetAcceptance : undefined,
    integrator: given.integrator,
  });
  return buildParametricSampler(target, spec, { init, burnIn }, given.adapt !== false);
}

/** The leapfrog options of an RMHMC spec: a fixed count, or one following the trajectory length. */
function trajectory(s: ParametricSamplerSpec): { stepSize: number; leapfrogSteps: number; trajectoryLength?: number; targetAcceptance?: number } {
  return { stepSize: s.stepSize!, leapfrogSteps: s.leapfrogSteps!, ...(s.trajectoryLength !== undefined ? { trajectoryLength: s.trajectoryLength } : {}), targetAcceptance: s.targetAcceptance };
}

/** HMC with a constant mass; a count following a trajectory length is drawn uniformly from 1..round(length / e). */
function hmcWith(target: DenseMetricTarget, s: ParametricSamplerSpec, mass: MassMatrix): Kernel {
  return hmc(target, { ...trajectory(s), randomiseSteps: s.trajectoryLength !== undefined, mass });
}

/** The mass diag(G(init))^(1/2) squared: M = diag(G) at the chain's starting point. */
function diagonalMetricMass(target: DenseMetricTarget, init: Float64Array): MassMatrix {
  const g = target.fisherMetric(init);
  const e = new Float64Array(target.dim);
  const out = new Float64Array(target.dim);
  const root = new Float64Array(target.dim);
  for (let k = 0; k < target.dim; k++) {
    e.fill(0);
    e[k] = 1;
    g.applyMetric!(e, out);
    root[k] = Math.sqrt(out[k]);
  }
  return massFromCholesky(Matrix.diagonal(root));
}

function entry(
  defaults: ParametricSamplerSpec,
  tunable: ParametricSamplerInfo["tunable"],
  description: string,
  build: ParametricSamplerInfo["build"],
  optional: readonly string[] = [],
): ParametricSamplerInfo {
  return { defaults, tunable, fields: specFields(defaults, optional), description, build };
}
