export type { CountedStepInfo, DelayedRejectionStepInfo, DivergenceReason, Kernel, KernelAdaptation, NutsStepInfo, SamplerState, SecondStageOutcome, StepInfo, Tunable } from "./types.js";
export { identityMass, massFromCholesky, massFromInverseCholesky } from "./integrators/massMatrix.js";
export type { MassMatrix } from "./integrators/massMatrix.js";
export { DEFAULT_DIVERGENCE_THRESHOLD, metropolisDecision, isNumericalFailure } from "./kernels/metropolis.js";
export type { MetropolisOutcome } from "./kernels/metropolis.js";
export { hmc } from "./kernels/hmc.js";
export type { HmcKernel, HmcOptions, HmcState, HmcTrajectory } from "./kernels/hmc.js";
export { rmhmc } from "./kernels/rmhmc.js";
export type { RmhmcKernel, RmhmcOptions, RmhmcState, RmhmcVariant, Trajectory } from "./kernels/rmhmc.js";
export { lagrangianMc } from "./kernels/lagrangianMc.js";
export type { LagrangianKernel, LagrangianOptions, LagrangianState } from "./kernels/lagrangianMc.js";
export { AcceptanceWindow, DualAveraging, makeAdapter } from "./chain/adaptation.js";
export type { AcceptanceWindowOptions, AdaptOptions, Adapter, DualAveragingOptions } from "./chain/adaptation.js";
export { chainTrace, runChain, sample } from "./chain/driver.js";
export type { ChainOptions, ChainResult, ChainStorage, ChainSummary, DrawStatColumns, Progress, SampleOptions, SampleResult } from "./chain/driver.js";
export { metropolisHastingsDecision } from "./kernels/metropolis.js";
export type { LatentGpTarget } from "./latentTarget.js";
export { randomWalkMetropolis, MH_TARGET_ACCEPTANCE } from "./kernels/metropolisRw.js";
export type { RandomWalkKernel, RandomWalkOptions } from "./kernels/metropolisRw.js";
export { mhV1, mhV2 } from "./kernels/mhNeal.js";
export type { NealMhKernel, NealMhOptions, NealMhState } from "./kernels/mhNeal.js";
export { ellipticalSlice } from "./kernels/ellipticalSlice.js";
export type { EllipticalSliceOptions, EllipticalSliceState } from "./kernels/ellipticalSlice.js";
export { exactHmc } from "./kernels/exactHmc.js";
export type { ExactHmcOptions } from "./kernels/exactHmc.js";
export { mgrad, MGRAD_TARGET_ACCEPTANCE } from "./kernels/mgrad.js";
export type { MgradKernel, MgradOptions, MgradState } from "./kernels/mgrad.js";
export { hmcV1, hmcV2, priorFisherDiagonal, priorPlusDiagonalInverseCholesky, DEFAULT_MAX_LEAPFROG_STEPS } from "./kernels/hmcGp.js";
export type { HmcV1Options, LatentHmcOptions } from "./kernels/hmcGp.js";
export { laplaceHmc } from "./kernels/laplaceHmc.js";
export type { LaplaceHmcKernel, LaplaceHmcOptions, LaplaceHmcState } from "./kernels/laplaceHmc.js";
export { laplaceNuts } from "./kernels/laplaceNuts.js";
export type { LaplaceNutsKernel, LaplaceNutsOptions, LaplaceNutsState } from "./kernels/laplaceNuts.js";
export { nuts } from "./kernels/nuts.js";
export type { NutsKernel, NutsOptions, NutsState } from "./kernels/nuts.js";
export { smmala, MALA_TARGET_ACCEPTANCE } from "./kernels/smmala.js";
export type { SmmalaKernel, SmmalaOptions, SmmalaState } from "./kernels/smmala.js";
export {
  DEFAULT_LATENT_SAMPLER, defaultTargetAcceptance, describeLeapfrogSolve, HMC_MASSES, isLatentSamplerName, LATENT_SAMPLER_NAMES, latentSampler, latentSamplerInfo, latentSamplerSpec, leapfrogSteps, priorMass, tunableValue,
} from "./registry.js";
export type {
  EssSpec, FixedPointSpec, HmcGpSpec, HmcMassName, HmcSpec, LatentSamplerInfo, LatentSamplerName, LatentSamplerSpec, LatentSamplerSpecInput, LatentSamplerSpecOf,
  LaplaceHmcSpec, MhNealSpec, MhSpec, RmhmcSpec, SmmalaSpec,
} from "./registry.js";
export { mala } from "./kernels/mala.js";
export type { MalaOptions } from "./kernels/mala.js";
export { mmala, MMALA_TARGET_ACCEPTANCE } from "./kernels/mmala.js";
export { iwls } from "./kernels/iwls.js";
export { componentwiseMetropolis } from "./kernels/mhComponentwise.js";
export type { ComponentwiseMhKernel, ComponentwiseMhOptions, ComponentwiseStepInfo } from "./kernels/mhComponentwise.js";
export { isParametricSamplerName, PARAMETRIC_SAMPLER_DESCRIPTIONS, PARAMETRIC_SAMPLER_NAMES, parametricSampler, parametricSamplerApplies } from "./parametricRegistry.js";
export { holmesHeld, isBinaryRegression } from "./kernels/holmesHeld.js";
export type { BinaryRegressionData, HolmesHeldOptions, HolmesHeldState } from "./kernels/holmesHeld.js";
export { logisticMixingVariance, truncatedNormalByInversion } from "./kernels/holmesHeldDraws.js";
export { DEFAULT_KINETIC_DOF, gaussianKinetic, studentTKinetic } from "./integrators/kineticEnergy.js";
export type { KineticEnergy } from "./integrators/kineticEnergy.js";
export type { ParametricSampler, ParametricSamplerName } from "./parametricRegistry.js";
