/**
 * Manifold MALA with the full drift (Girolami & Calderhead 2011, Section 5: the Euler step of the
 * manifold Langevin diffusion, eqs. 12-13; the drift is the unnumbered display after eq. 13):
 *
 *   mu(x)_i = x_i + eps^2/2 (G^-1 dL/dx)_i - eps^2 sum_j (G^-1 dG_j G^-1)_ij + eps^2/2 sum_j (G^-1)_ij tr(G^-1 dG_j),
 *
 * proposal N(mu(x), eps^2 G(x)^-1), Metropolis-Hastings accept with the reverse density at G(x').
 * The simplified variant drops the Christoffel terms (constant curvature over one step, the
 * display that follows in Section 5); both are the kernel of smmala.ts, this one with `christoffel` on, on a target
 * whose geometry gives the metric derivatives (targets/denseMetric.ts).
 */
import type { Target } from "../../targets/types.js";
import { smmala, type SmmalaKernel, type SmmalaOptions } from "./smmala.js";

/** Girolami & Calderhead tuned mMALA to about 70% acceptance (Section 6). */
export const MMALA_TARGET_ACCEPTANCE = 0.7;

export function mmala(target: Target, options: Omit<SmmalaOptions, "christoffel" | "newtonDrift">): SmmalaKernel {
  return smmala(target, { targetAcceptance: MMALA_TARGET_ACCEPTANCE, ...options, christoffel: true });
}
