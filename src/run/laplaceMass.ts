/**
 * The mass of the `laplace-hmc` sampler (samplers/laplaceHmc.ts): Laplace's W at the mode of
 * f | y, theta (GPML Algorithm 3.1, approx/laplace.ts), so that M^-1 = (K^-1 + W)^-1 is Laplace's
 * covariance. It is filled into the sampler's spec as plain numbers, so that worker threads
 * rebuild the same kernel without refitting; the samplers layer cannot call approx/ itself.
 */
import { laplace, NotLogConcaveError } from "../approx/laplace.js";
import type { LatentSamplerSpec } from "../samplers/registry.js";
import type { AnnealedLatentTarget } from "../targets/annealedLatent.js";

/**
 * `spec` with `massDiagonal` set to beta times Laplace's W at the mode, for a laplace-hmc or laplace-nuts spec
 * that has none and a target whose Gaussian part is the prior; any other spec as it is. A
 * likelihood that is not log-concave keeps the sampler's own default (the Fisher information at
 * f = 0).
 */
export function withLaplaceMass(target: AnnealedLatentTarget, spec: LatentSamplerSpec): LatentSamplerSpec {
  if ((spec.sampler !== "laplace-hmc" && spec.sampler !== "laplace-nuts") || spec.massDiagonal !== undefined || !target.qIsPrior) return spec;
  try {
    const fit = laplace(target.kernelMatrix, target.y, target.likelihood, { onWarning: () => undefined });
    return { ...spec, massDiagonal: Array.from(fit.w, (w) => Math.max(0, w) * target.beta) };
  } catch (e) {
    if (e instanceof NotLogConcaveError) return spec;
    throw e;
  }
}
