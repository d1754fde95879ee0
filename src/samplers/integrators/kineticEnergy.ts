/**
 * The kinetic energy of RMHMC as a function of q = p' G(x)^-1 p (the 1/2 log|G(x)| of the
 * momentum's normalising constant stays in the Hamiltonian, rmhmc.ts):
 *
 * - Gaussian, p ~ N(0, G(x)):                 K(q) = q / 2;
 * - Student-t with nu degrees of freedom, p ~ t_nu(0, G(x)) (Girolami & Calderhead 2011,
 *   Section 7.3): K(q) = (nu + D)/2 log(1 + q / nu), whose dynamics are
 *     dx/dt = (nu + D) G^-1 p / (nu + q),
 *     dp/dt = dL/dx - 1/2 tr(G^-1 dG_i) + (nu + D)/2 p' G^-1 dG_i G^-1 p / (nu + q).
 *
 * Both are written through c(q) = 2 dK/dq (1 for the Gaussian, (nu + D)/(nu + q) for the t): the
 * velocity is c G^-1 p, and the quadratic term of dH/dx is c times the Gaussian's, which is the
 * Gaussian's dH/dx at the momentum sqrt(c) p. So the integrator needs no other geometry.
 */
import type { RandomSource } from "../../random/types.js";
import type { LocalGeometry } from "../../targets/types.js";
import { checkPositive } from "../kernels/metropolis.js";

export interface KineticEnergy {
  readonly name: "gaussian" | "student-t";
  /** K(q). */
  energy(q: number): number;
  /** c(q) = 2 dK/dq. */
  velocityScale(q: number): number;
  /** `out` holds a draw of N(0, G); turns it into a draw of the momentum's distribution. */
  scaleMomentum(rng: RandomSource, out: Float64Array): void;
}

export const gaussianKinetic: KineticEnergy = {
  name: "gaussian",
  energy: (q) => 0.5 * q,
  velocityScale: () => 1,
  scaleMomentum: () => undefined,
};

/** The default degrees of freedom of the Student-t kinetic energy (the paper does not state its own). */
export const DEFAULT_KINETIC_DOF = 5;

/** The Student-t kinetic energy with `nu` degrees of freedom in dimension `dim`. */
export function studentTKinetic(nu: number, dim: number): KineticEnergy {
  checkPositive("degrees of freedom", nu);
  const a = nu + dim;
  return {
    name: "student-t",
    energy: (q) => 0.5 * a * Math.log1p(q / nu),
    velocityScale: (q) => a / (nu + q),
    // t_nu(0, G) = N(0, G) / sqrt(chi2_nu / nu), chi2_nu = 2 Gamma(nu / 2)
    scaleMomentum(rng, out) {
      const f = Math.sqrt(nu / (2 * rng.gamma(nu / 2)));
      for (let i = 0; i < out.length; i++) out[i] *= f;
    },
  };
}

export function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * out <- dH/dx(x, p) at `geo` for the kinetic energy (undefined: Gaussian, the geometry's own):
 * the Gaussian's dH/dx at the momentum sqrt(c(q)) p, written through `scaled` (a work vector).
 */
export function kineticHamiltonianGradient(kinetic: KineticEnergy | undefined, geo: LocalGeometry, p: Float64Array, scaled: Float64Array, out: Float64Array): void {
  if (!kinetic) {
    geo.hamiltonianGradient(p, out);
    return;
  }
  geo.applyInverse(p, scaled);
  const root = Math.sqrt(kinetic.velocityScale(dot(p, scaled)));
  for (let i = 0; i < p.length; i++) scaled[i] = root * p[i];
  geo.hamiltonianGradient(scaled, out);
}
