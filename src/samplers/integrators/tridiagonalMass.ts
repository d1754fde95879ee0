/**
 * A constant tridiagonal mass matrix M = L L' for Euclidean HMC (massMatrix.ts's interface), held
 * as its bidiagonal Cholesky factor (linalg/tridiagonal.ts): draws p = L z, M^-1 p and the kinetic
 * energy 1/2 |L^-1 p|^2 are O(n). RMHMC with a metric that does not depend on the position (the
 * stochastic volatility model's latent block, G = I/2 + C^-1; Girolami & Calderhead 2011,
 * Section 8.2) is exactly HMC with this mass: the generalised leapfrog's implicit equations
 * become explicit and 1/2 log|G| is a constant.
 */
import type { TridiagonalCholesky } from "../../linalg/tridiagonal.js";
import type { MassMatrix } from "./massMatrix.js";

export function tridiagonalMass(factor: TridiagonalCholesky): MassMatrix {
  const n = factor.size;
  const scratch = new Float64Array(n);
  return {
    dim: n,
    kind: "tridiagonal-cholesky",
    sampleMomentum(rng, out) {
      rng.fillNormal(out);
      factor.multiplyLowerInto(out, out);
    },
    applyInverse(p, out) {
      out.set(p);
      factor.solveInPlace(out);
    },
    kineticEnergy(p) {
      scratch.set(p);
      factor.solveLowerInPlace(scratch);
      let s = 0;
      for (let i = 0; i < n; i++) s += scratch[i] * scratch[i];
      return 0.5 * s;
    },
  };
}
