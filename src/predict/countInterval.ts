/**
 * The central interval of a Poisson count whose log rate is a mixture of normals:
 * y_* ~ Poisson(e_j exp(f_*)), f_* ~ 1/S sum_s N(m_sj, v_sj). Each normal is replaced by its
 * Gauss-Hermite nodes, so the count's pmf is a finite mixture of Poisson pmfs,
 * P(k) = sum_r W_r Pois(k; lambda_r), accumulated upwards in k with Pois(k) = Pois(k - 1) lambda / k.
 */
import { gaussHermite } from "../math/gaussHermite.js";
import type { LatentMarginals } from "./latentConditional.js";

const POINTS = 10;
/** No interval reaches beyond this count; above it the bound is reported as Infinity. */
const MAX_COUNT = 1e6;

export function poissonInterval(draws: readonly LatentMarginals[], exposure: readonly number[], level: number): { lower: Float64Array; upper: Float64Array } {
  const m = exposure.length;
  const lower = new Float64Array(m);
  const upper = new Float64Array(m);
  const { nodes, weights } = gaussHermite(POINTS);
  const R = draws.length * POINTS;
  const lambda = new Float64Array(R);
  const weight = new Float64Array(R);
  const term = new Float64Array(R);
  const lo = (1 - level) / 2;
  const hi = 1 - lo;
  for (let j = 0; j < m; j++) {
    draws.forEach((d, s) => {
      const sd = Math.sqrt(d.variance[j]!);
      for (let q = 0; q < POINTS; q++) {
        lambda[s * POINTS + q] = exposure[j]! * Math.exp(d.mean[j]! + sd * nodes[q]!);
        weight[s * POINTS + q] = weights[q]! / draws.length;
      }
    });
    // log-space start so that large rates do not underflow exp(-lambda): Pois(0) = exp(-lambda).
    for (let r = 0; r < R; r++) term[r] = -lambda[r]!;
    let cdf = 0;
    let foundLower = false;
    let k = 0;
    for (; k <= MAX_COUNT; k++) {
      let pk = 0;
      for (let r = 0; r < R; r++) {
        if (k > 0) term[r] += Math.log(lambda[r]! / k);
        pk += weight[r]! * Math.exp(term[r]!);
      }
      cdf += pk;
      if (!foundLower && cdf >= lo) {
        lower[j] = k;
        foundLower = true;
      }
      if (cdf >= hi) break;
    }
    upper[j] = k > MAX_COUNT ? Infinity : k;
  }
  return { lower, upper };
}
