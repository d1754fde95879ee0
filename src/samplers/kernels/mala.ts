/**
 * The Metropolis-adjusted Langevin algorithm (Girolami & Calderhead 2011, Section 2, eqs. 8-9;
 * Roberts & Stramer 2002): proposal N(x + eps^2/2 dL/dx, eps^2 I), accepted with the usual
 * Metropolis-Hastings ratio. It is the manifold MALA of smmala.ts with the Euclidean metric
 * G = I, and runs as exactly that: the target's metric is replaced by the identity.
 */
import type { RandomSource } from "../../random/types.js";
import type { LocalMetric, Target } from "../../targets/types.js";
import { smmala, type SmmalaKernel, type SmmalaOptions } from "./smmala.js";

export type MalaOptions = Omit<SmmalaOptions, "christoffel" | "newtonDrift">;

/** The identity metric at x: G = I, log|G| = 0, draws N(0, I). */
function identityMetric(target: Target, x: Float64Array): LocalMetric {
  const gradient = new Float64Array(target.dim);
  const logDensity = target.logDensityAndGradient!(x, gradient);
  return {
    position: Float64Array.from(x),
    logDensity,
    gradient,
    logDetMetric: 0,
    applyInverse: (p, out) => out.set(p),
    applyMetric: (v, out) => out.set(v),
    sampleMomentum: (rng: RandomSource, out) => rng.fillNormal(out),
  };
}

export function mala(target: Target, options: MalaOptions): SmmalaKernel {
  if (!target.logDensityAndGradient) throw new Error("mala: the target has no gradient (Target.logDensityAndGradient)");
  const euclidean: Target = {
    dim: target.dim,
    logDensity: (x) => target.logDensity(x),
    fisherMetric: (x) => identityMetric(target, x),
  };
  return { ...smmala(euclidean, options), name: "mala" };
}
