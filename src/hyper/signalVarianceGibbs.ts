/**
 * The exact Gibbs step of the signal variance sigma in the SA scheme (Filippone, Zhong &
 * Girolami, Appendix A). With K = sigma (C + j I) (./covariance.ts) and sigma ~ inverse-Gamma
 * (shape a, scale b),
 *
 *   sigma | f, psi ~ inverse-Gamma(a + n/2, b + f' (C + j I)^-1 f / 2),
 *
 * since p(f | sigma) is proportional to sigma^(-n/2) exp(-f' (C + j I)^-1 f / (2 sigma)).
 */
import type { RandomSource } from "../random/types.js";
import { kernelAt, lengthscaleCount, type HyperSpace, type KernelAt } from "./covariance.js";

/** A prior for which the step does not exist. */
export class NotConjugateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotConjugateError";
  }
}

/**
 * Returns t with its last entry (log sigma) replaced by the log of a draw of sigma | f, psi.
 * `kernel` computes K(t) and its factor (default kernelAt; a caller may pass a cache).
 */
export function gibbsSignalVariance(space: HyperSpace, t: ArrayLike<number>, f: Float64Array, rng: RandomSource, kernel: (t: ArrayLike<number>) => KernelAt = (tt) => kernelAt(space, tt)): Float64Array {
  const spec = space.variancePrior.spec;
  if (spec.family !== "invgamma" || spec.on !== undefined) {
    throw new NotConjugateError(`the exact Gibbs step of the signal variance needs an inverse-Gamma prior, not ${space.variancePrior}`);
  }
  const d = lengthscaleCount(space);
  const out = Float64Array.from(t);
  // f' (C + j I)^-1 f = sigma f' K^-1 f at any sigma: evaluated at the current one (K's factor is at hand).
  const at = kernel(t);
  const a = at.chol.solve(f);
  let q = 0;
  for (let i = 0; i < f.length; i++) q += f[i]! * a[i]!;
  q *= Math.exp(t[d]!);
  const shape = spec.shape + f.length / 2;
  const scale = spec.scale + q / 2;
  out[d] = Math.log(scale / rng.gamma(shape));
  return out;
}
