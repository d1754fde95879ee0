/**
 * A mixture of multivariate t distributions with common degrees of freedom, as an independence
 * proposal of theta (./pseudoMarginal.ts): one component per local mode of Laplace's marginal
 * posterior, so that a chain proposes every mode it knows of, not only the one it is in.
 *
 *   g(x) = sum_c w_c t_nu(x; mu_c, Sigma_c),
 *   log t_nu(x; mu, Sigma) = -1/2 log|Sigma| - (nu + m)/2 log(1 + (x - mu)' Sigma^-1 (x - mu) / nu) + const.
 */
import type { Cholesky } from "../linalg/cholesky.js";
import type { RandomSource } from "../random/types.js";
import { logMeanExp } from "./gaussianImportance.js";

export interface TComponent {
  weight: number;
  centre: Float64Array;
  /** The factor of Sigma. */
  shape: Cholesky;
}

/** log t_nu(x; centre, Sigma) up to the constant common to all components. */
export function logTDensity(c: Pick<TComponent, "centre" | "shape">, nu: number, x: ArrayLike<number>): number {
  const m = c.centre.length;
  const r = Float64Array.from(c.centre, (v, i) => x[i]! - v);
  c.shape.solveLowerInPlace(r);
  let q = 0;
  for (const v of r) q += v * v;
  return -0.5 * c.shape.logDet() - 0.5 * (nu + m) * Math.log1p(q / nu);
}

/** log g(x) up to a constant (the weights need not sum to one). */
export function logMixtureDensity(components: readonly TComponent[], nu: number, x: ArrayLike<number>): number {
  let total = 0;
  for (const c of components) total += c.weight;
  const terms = Float64Array.from(components, (c) => Math.log(c.weight / total) + logTDensity(c, nu, x));
  return logMeanExp(terms) + Math.log(terms.length);
}

/** A draw of g: a component by its weight, then mu + Sigma^1/2 xi sqrt(nu / chi^2_nu). */
export function drawMixture(components: readonly TComponent[], nu: number, rng: RandomSource): Float64Array {
  let total = 0;
  for (const c of components) total += c.weight;
  let u = rng.uniform() * total;
  let c = components[components.length - 1]!;
  for (const k of components) {
    u -= k.weight;
    if (u <= 0) { c = k; break; }
  }
  const m = c.centre.length;
  const xi = rng.fillNormal(new Float64Array(m));
  const chi2 = 2 * rng.gamma(nu / 2);
  const step = c.shape.multiplyLower(xi);
  const w = Math.sqrt(nu / chi2);
  return Float64Array.from(step, (v, i) => c.centre[i]! + w * v);
}
