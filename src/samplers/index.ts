export type { DivergenceReason, Kernel, SamplerState, StepInfo, Tunable } from "./types.js";
export { identityMass, massFromCholesky, massFromInverseCholesky } from "./massMatrix.js";
export type { MassMatrix } from "./massMatrix.js";
export { DEFAULT_DIVERGENCE_THRESHOLD, metropolisDecision, isNumericalFailure } from "./metropolis.js";
export type { MetropolisOutcome } from "./metropolis.js";
export { hmc } from "./hmc.js";
export type { HmcKernel, HmcOptions, HmcState, HmcTrajectory } from "./hmc.js";
export { rmhmc } from "./rmhmc.js";
export type { RmhmcKernel, RmhmcOptions, RmhmcState, RmhmcVariant, Trajectory } from "./rmhmc.js";
export { lagrangianMc } from "./lagrangianMc.js";
export type { LagrangianKernel, LagrangianOptions, LagrangianState } from "./lagrangianMc.js";
export { AcceptanceWindow, DualAveraging, makeAdapter } from "./adaptation.js";
export type { AcceptanceWindowOptions, AdaptOptions, Adapter, DualAveragingOptions } from "./adaptation.js";
export { chainTrace, runChain, sample } from "./driver.js";
export type { ChainOptions, ChainResult, ChainStorage, ChainSummary, DrawStatColumns, Progress, SampleOptions, SampleResult } from "./driver.js";
export { metropolisHastingsDecision } from "./metropolis.js";
export type { LatentGpTarget } from "./latentTarget.js";
export { randomWalkMetropolis, MH_TARGET_ACCEPTANCE } from "./metropolisRw.js";
export type { RandomWalkKernel, RandomWalkOptions } from "./metropolisRw.js";
export { mhV1, mhV2 } from "./mhNeal.js";
export type { NealMhKernel, NealMhOptions, NealMhState } from "./mhNeal.js";
export { ellipticalSlice } from "./ellipticalSlice.js";
export type { EllipticalSliceOptions, EllipticalSliceState } from "./ellipticalSlice.js";
export { exactHmc } from "./exactHmc.js";
export type { ExactHmcOptions } from "./exactHmc.js";
export { mgrad, MGRAD_TARGET_ACCEPTANCE } from "./mgrad.js";
export type { MgradKernel, MgradOptions, MgradState } from "./mgrad.js";
export { hmcV1, hmcV2, priorFisherDiagonal, priorPlusDiagonalInverseCholesky, DEFAULT_MAX_LEAPFROG_STEPS } from "./hmcGp.js";
export type { HmcV1Options, LatentHmcOptions } from "./hmcGp.js";
export { laplaceHmc } from "./laplaceHmc.js";
export type { LaplaceHmcKernel, LaplaceHmcOptions, LaplaceHmcState } from "./laplaceHmc.js";
export { laplaceNuts } from "./laplaceNuts.js";
export type { LaplaceNutsKernel, LaplaceNutsOptions, LaplaceNutsState } from "./laplaceNuts.js";
export { nuts } from "./nuts.js";
export type { NutsKernel, NutsOptions, NutsState } from "./nuts.js";
export { smmala, MALA_TARGET_ACCEPTANCE } from "./smmala.js";
export type { SmmalaKernel, SmmalaOptions, SmmalaState } from "./smmala.js";
export {
  DEFAULT_LATENT_SAMPLER, defaultTargetAcceptance, describeLeapfrogSolve, HMC_MASSES, isLatentSamplerName, LATENT_SAMPLER_NAMES, latentSampler, latentSamplerInfo, latentSamplerSpec, leapfrogSteps, priorMass, tunableValue,
} from "./registry.js";
export type {
  EssSpec, FixedPointSpec, HmcGpSpec, HmcMassName, HmcSpec, LatentSamplerInfo, LatentSamplerName, LatentSamplerSpec, LatentSamplerSpecInput, LatentSamplerSpecOf,
  LaplaceHmcSpec, MhNealSpec, MhSpec, RmhmcSpec, SmmalaSpec,
} from "./registry.js";
export { mala } from "./mala.js";
export type { MalaOptions } from "./mala.js";
export { mmala, MMALA_TARGET_ACCEPTANCE } from "./mmala.js";
export { iwls } from "./iwls.js";
export { componentwiseMetropolis } from "./mhComponentwise.js";
export type { ComponentwiseMhKernel, ComponentwiseMhOptions } from "./mhComponentwise.js";
export { isParametricSamplerName, PARAMETRIC_SAMPLER_DESCRIPTIONS, PARAMETRIC_SAMPLER_NAMES, parametricSampler, parametricSamplerApplies } from "./parametricRegistry.js";
export { holmesHeld, isBinaryRegression } from "./holmesHeld.js";
export type { BinaryRegressionData, HolmesHeldOptions, HolmesHeldState } from "./holmesHeld.js";
export { logisticMixingVariance, truncatedNormalByInversion } from "./holmesHeldDraws.js";
export { DEFAULT_KINETIC_DOF, gaussianKinetic, studentTKinetic } from "./kineticEnergy.js";
export type { KineticEnergy } from "./kineticEnergy.js";
export type { ParametricSampler, ParametricSamplerName } from "./parametricRegistry.js";
