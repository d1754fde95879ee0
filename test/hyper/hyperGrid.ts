/**
 * The exact posterior of theta = (psi, log sigma) for probit with n = 2 and d = 1, on a grid:
 * p(y | theta) = P(z > 0) for z ~ N(0, D (K + I) D), D = diag(y), the orthant probability
 * 1/4 + asin(rho) / (2 pi) with rho the correlation of z (Sheppard's formula).
 */
import { positivePrior } from "../../src/gp/hyperpriors.js";
import { DEFAULT_RELATIVE_JITTER, hyperLogPrior, kernelAt, type HyperSpace } from "../../src/hyper/covariance.js";
import { Matrix } from "../../src/linalg/matrix.js";

export const GRID_X = [0, 0.8];
export const GRID_Y = Float64Array.from([1, 1]);

export function gridSpace(): HyperSpace {
  return {
    x: new Matrix(2, 1, Float64Array.from(GRID_X)),
    lengthscalePriors: [positivePrior({ family: "gamma", shape: 1, rate: 1 })],
    variancePrior: positivePrior({ family: "invgamma", shape: 1, scale: 1 }),
    relativeJitter: DEFAULT_RELATIVE_JITTER,
  };
}

export function logMarginal(space: HyperSpace, y: Float64Array, t: ArrayLike<number>): number {
  const K = kernelAt(space, t).K;
  const rho = (y[0]! * y[1]! * K.get(0, 1)) / Math.sqrt((K.get(0, 0) + 1) * (K.get(1, 1) + 1));
  return Math.log(0.25 + Math.asin(rho) / (2 * Math.PI));
}

/** Posterior means of psi, log sigma and of their squares, by the midpoint rule on [-12, 8]^2. */
export function gridMoments(space: HyperSpace, y: Float64Array, points = 400): { mean: [number, number]; meanSquare: [number, number] } {
  const lo = -12, hi = 8, h = (hi - lo) / points;
  let z = 0;
  const s1 = [0, 0], s2 = [0, 0];
  for (let i = 0; i < points; i++) {
    for (let j = 0; j < points; j++) {
      const t = [lo + (i + 0.5) * h, lo + (j + 0.5) * h];
      const w = Math.exp(logMarginal(space, y, t) + hyperLogPrior(space, t).value);
      z += w;
      for (let k = 0; k < 2; k++) {
        s1[k] += w * t[k]!;
        s2[k] += w * t[k]! * t[k]!;
      }
    }
  }
  return { mean: [s1[0]! / z, s1[1]! / z], meanSquare: [s2[0]! / z, s2[1]! / z] };
}
