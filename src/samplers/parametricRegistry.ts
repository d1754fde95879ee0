/**
 * The samplers of a parametric model with a dense metric (Girolami & Calderhead 2011, Sections
 * 2-5 and 7.1), by name, each with defaults that need no tuning: the step size (or scale) starts
 * at a value and is adapted during burn-in to the paper's acceptance ranges.
 */
import { Matrix } from "../linalg/matrix.js";
import type { DenseMetricTarget } from "../targets/denseMetric.js";
import type { AdaptOptions } from "./adaptation.js";
import { hmc } from "./hmc.js";
import { holmesHeld, isBinaryRegression } from "./holmesHeld.js";
import { iwls } from "./iwls.js";
import { DEFAULT_KINETIC_DOF, studentTKinetic } from "./kineticEnergy.js";
import { mala } from "./mala.js";
import { identityMass, massFromCholesky } from "./massMatrix.js";
import { componentwiseMetropolis } from "./mhComponentwise.js";
import { mmala } from "./mmala.js";
import { lagrangianDense } from "./lagrangianDense.js";
import { rmhmc } from "./rmhmc.js";
import { smmala } from "./smmala.js";
import type { Kernel } from "./types.js";

/** The names, in the order help texts list them. */
export const PARAMETRIC_SAMPLER_NAMES = ["rmhmc", "mmala", "simplified-mmala", "mala", "hmc", "hmc-diagonal", "mh-componentwise", "iwls", "rmhmc-t", "holmes-held"] as const;
export type ParametricSamplerName = (typeof PARAMETRIC_SAMPLER_NAMES)[number];

export const PARAMETRIC_SAMPLER_DESCRIPTIONS: { readonly [N in ParametricSamplerName]: string } = {
  "rmhmc": "Riemannian manifold HMC, generalised leapfrog with fixed points to 1e-8, 6 steps (logistic regression: round(2 / eps)) (Section 5)",
  "mmala": "manifold MALA with the full drift, Christoffel terms included (Section 5: the Euler step of eqs. 12-13)",
  "simplified-mmala": "manifold MALA with the constant-curvature drift, step adapted to 70% acceptance (logistic regression: 50%) (Section 5; the 70% is Section 7.2's)",
  "mala": "Metropolis-adjusted Langevin, identity metric (Section 2, eqs. 8-9)",
  "hmc": "HMC with the identity mass, 100 leapfrog steps (logistic regression: uniform on 1..round(6 / eps), at most 10000; mean eps L 3) (Section 7.1.4)",
  "hmc-diagonal": "HMC with the diagonal mass diag(G) at the initial point, 100 leapfrog steps",
  "mh-componentwise": "component-wise random-walk Metropolis, scales adapted per coordinate to 20-40% (Section 7.1.1)",
  "iwls": "iterated weighted least squares proposal, nothing to tune (Gamerman 1997; Section 7.1.5)",
  "rmhmc-t": `RMHMC with a Student-t kinetic energy, ${DEFAULT_KINETIC_DOF} degrees of freedom, 6 steps (logistic regression: round(3 / eps)) (Section 7.3)`,
  "holmes-held": "auxiliary-variable Gibbs sampler, joint update of {z, beta}, logistic regression only (Holmes & Held 2005; Section 7.1.2)",
};

/**
 * Logistic regression's integration times eps L, kept as the step size adapts. RMHMC's 2, not the
 * paper's 3: with a metric that matches these nearly Gaussian posteriors the flow is a rotation by
 * eps L, and 3 is nearly a reflection, under which posterior sds converge slowly. RMHMC-t keeps
 * the paper's 3 (its flow is no rotation). HMC with the identity mass draws its count of steps
 * from 1..round(6 / e) (mean e L 3, Section 7.1.4; drawn, as G&C Appendix D, so that no direction
 * turns by a near multiple of 2 pi). The measurements: EXPERIMENTS.md, "Bayesian logistic
 * regression at the paper's protocol", and BENCHMARKS.md, "HMC with the identity mass".
 */
export const LOGISTIC_TRAJECTORY_LENGTH = { rmhmc: 2, "rmhmc-t": 3, hmc: 6 } as const;
/**
 * Logistic regression's target acceptance for simplified mMALA's step size (the paper names none
 * for it; the registry's default is mMALA's 70%): 0.5 gave more min ESS on all five data sets at
 * the same cost (EXPERIMENTS.md, "Bayesian logistic regression at the paper's protocol").
 */
export const LOGISTIC_SMMALA_TARGET_ACCEPTANCE = 0.5;
/** The most leapfrog steps an RMHMC transition takes when its count follows a trajectory length. */
export const TRAJECTORY_STEP_CAP = 50;
/**
 * The most leapfrog steps an identity- or diagonal-mass HMC transition takes when its count
 * follows a trajectory length: its step is bounded by the smallest posterior sd, so e L = 3 can
 * take thousands of steps (the paper's Heart runs; Section 7.1.4).
 */
export const HMC_TRAJECTORY_STEP_CAP = 10000;

/** The most steps sampler `name` takes when its count follows a trajectory length (undefined: it has no leapfrog). */
export function trajectoryStepCap(name: ParametricSamplerName): number | undefined {
  if (name === "rmhmc" || name === "rmhmc-t") return TRAJECTORY_STEP_CAP;
  if (name === "hmc" || name === "hmc-diagonal") return HMC_TRAJECTORY_STEP_CAP;
  return undefined;
}

/** Logistic regression's trajectory length for sampler `name` (LOGISTIC_TRAJECTORY_LENGTH), or undefined where it has none. */
export function logisticTrajectoryLength(name: ParametricSamplerName): number | undefined {
  return name in LOGISTIC_TRAJECTORY_LENGTH ? LOGISTIC_TRAJECTORY_LENGTH[name as keyof typeof LOGISTIC_TRAJECTORY_LENGTH] : undefined;
}

/** Whether sampler `name` applies to `target` (holmes-held needs a logistic regression's design and labels). */
export function parametricSamplerApplies(target: DenseMetricTarget, name: ParametricSamplerName): boolean {
  return name !== "holmes-held" || isBinaryRegression(target.model);
}

export function isParametricSamplerName(name: string): name is ParametricSamplerName {
  return (PARAMETRIC_SAMPLER_NAMES as readonly string[]).includes(name);
}

export interface ParametricSampler {
  kernel: Kernel;
  /** The burn-in adaptation the driver runs on kernel.tunable (undefined: none). */
  adapt: AdaptOptions | undefined;
}

/**
 * The kernel `name` on `target` with its defaults; `init` is the chain's starting point (the
 * diagonal HMC mass is read there), `burnIn` the number of burn-in transitions (the component-wise
 * scales adapt during those); `given` overrides the initial step size and the leapfrog steps, or
 * turns adaptation off; its trajectoryLength, where leapfrogSteps is not given, makes RMHMC's
 * count of steps round(trajectoryLength / eps) (at most TRAJECTORY_STEP_CAP), and its
 * smmalaTargetAcceptance replaces simplified mMALA's 0.7, and its integrator "lagrangian" makes
 * RMHMC integrate with the explicit Lagrangian integrator (lagrangianDense.ts; a model with
 * metricAlong, logistic regression) instead of the generalised leapfrog.
 */
export function parametricSampler(
  target: DenseMetricTarget,
  name: ParametricSamplerName,
  init: Float64Array,
  burnIn: number,
  given: { stepSize?: number; leapfrogSteps?: number; adapt?: boolean; trajectoryLength?: number; smmalaTargetAcceptance?: number; integrator?: "lagrangian" } = {},
): ParametricSampler {
  const dualAveraging: AdaptOptions | undefined = given.adapt === false ? undefined : { method: "dual-averaging" };
  const eps = (e: number) => given.stepSize ?? e;
  const steps = (l: number) => given.leapfrogSteps ?? l;
  // RMHMC's count of steps: given, or following the trajectory length, or 6
  const byLength = (cap: number, fallback: number) =>
    given.leapfrogSteps === undefined && given.trajectoryLength !== undefined ? { leapfrogSteps: cap, trajectoryLength: given.trajectoryLength } : { leapfrogSteps: steps(fallback) };
  const rmhmcSteps = byLength(trajectoryStepCap("rmhmc")!, 6);
  // HMC's count, where it follows a trajectory length l, is drawn uniformly from 1..round(l / eps)
  const hmcSteps = { ...byLength(trajectoryStepCap("hmc")!, 100), randomiseSteps: given.leapfrogSteps === undefined && given.trajectoryLength !== undefined };
  if (given.integrator !== undefined && name !== "rmhmc") throw new RangeError(`the lagrangian integrator applies to rmhmc only, not ${name}`);
  switch (name) {
    case "rmhmc":
      if (given.integrator === "lagrangian") return { kernel: lagrangianDense(target, { stepSize: eps(0.5), ...rmhmcSteps, targetAcceptance: 0.8 }), adapt: dualAveraging };
      return { kernel: rmhmc(target, { stepSize: eps(0.5), ...rmhmcSteps, targetAcceptance: 0.8 }), adapt: dualAveraging };
    case "mmala":
      return { kernel: mmala(target, { stepSize: eps(0.8) }), adapt: dualAveraging };
    case "simplified-mmala":
      return { kernel: smmala(target, { stepSize: eps(0.8), targetAcceptance: given.smmalaTargetAcceptance ?? 0.7 }), adapt: dualAveraging };
    case "mala":
      return { kernel: mala(target, { stepSize: eps(0.1) }), adapt: dualAveraging };
    case "hmc":
      return { kernel: hmc(target, { stepSize: eps(0.01), ...hmcSteps, mass: identityMass(target.dim) }), adapt: dualAveraging };
    case "hmc-diagonal": {
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
      const mass = massFromCholesky(Matrix.diagonal(root));
      return { kernel: hmc(target, { stepSize: eps(0.05), ...hmcSteps, mass }), adapt: dualAveraging };
    }
    case "mh-componentwise":
      return { kernel: componentwiseMetropolis(target, { adaptIterations: burnIn }), adapt: undefined };
    case "iwls":
      return { kernel: iwls(target), adapt: undefined };
    case "rmhmc-t": {
      const kineticEnergy = studentTKinetic(DEFAULT_KINETIC_DOF, target.dim);
      return { kernel: rmhmc(target, { stepSize: eps(0.5), ...rmhmcSteps, targetAcceptance: 0.8, kineticEnergy }), adapt: dualAveraging };
    }
    case "holmes-held":
      if (!isBinaryRegression(target.model)) throw new RangeError("holmes-held applies only to logistic regression (a model with a design and 0/1 labels)");
      return { kernel: holmesHeld(target, target.model), adapt: undefined };
  }
}
