/**
 * The exact posterior of theta = (psi, log sigma) for probit with n = 2 or 3 and d = 1, on a
 * grid: p(y | theta) = P(z > 0) for z ~ N(0, D (K + I) D), D = diag(y), an orthant probability
 * of the correlations r_ij of z: for n = 2, 1/4 + asin(r_12) / (2 pi) (Sheppard's formula); for
 * n = 3, 1/8 + (asin r_12 + asin r_13 + asin r_23) / (4 pi) (the trivariate orthant
 * probability, e.g. Kendall & Stuart; checked against Monte Carlo in orthant.test.ts).
 */
import { mcseMean } from "../../src/diagnostics/mcse.js";
import { positivePrior } from "../../src/gp/hyperpriors.js";
import { DEFAULT_RELATIVE_JITTER, hyperLogPrior, kernelAt, type HyperSpace } from "../../src/hyper/covariance.js";
import { jointChain, type SchemeName, type SchemeOptions } from "../../src/hyper/schemes.js";
import type { FaultOf } from "../../src/math/negativeControl.js";
import type { ThetaSamplerName } from "../../src/hyper/thetaSamplers.js";
import { probit } from "../../src/likelihoods/probit.js";
import { Matrix } from "../../src/linalg/matrix.js";
import { Rng } from "../../src/random/rng.js";

export const GRID_X = [0, 0.8];
export const GRID_Y = Float64Array.from([1, 1]);
/** The n = 3 problem: two close cases of one label and a farther one of the other. */
export const GRID3_X = [0, 0.5, 1.4];
export const GRID3_Y = Float64Array.from([1, 1, -1]);

export function gridSpace(x: readonly number[] = GRID_X): HyperSpace {
  return {
    x: new Matrix(x.length, 1, Float64Array.from(x)),
    lengthscalePriors: [positivePrior({ family: "gamma", shape: 1, rate: 1 })],
    variancePrior: positivePrior({ family: "invgamma", shape: 1, scale: 1 }),
    relativeJitter: DEFAULT_RELATIVE_JITTER,
  };
}

/** The correlation of z_i and z_j, z ~ N(0, D (K + I) D). */
function correlation(K: Matrix, y: Float64Array, i: number, j: number): number {
  return (y[i]! * y[j]! * K.get(i, j)) / Math.sqrt((K.get(i, i) + 1) * (K.get(j, j) + 1));
}

/** P(z > 0) for a zero-mean normal z with the correlations r (n = 2: [r12]; n = 3: [r12, r13, r23]). */
export function orthantProbability(r: readonly number[]): number {
  if (r.length === 1) return 0.25 + Math.asin(r[0]!) / (2 * Math.PI);
  if (r.length === 3) return 0.125 + (Math.asin(r[0]!) + Math.asin(r[1]!) + Math.asin(r[2]!)) / (4 * Math.PI);
  throw new RangeError(`orthant probability in closed form for n = 2 or 3 only, got ${r.length} correlations`);
}

export function logMarginal(space: HyperSpace, y: Float64Array, t: ArrayLike<number>): number {
  const K = kernelAt(space, t).K;
  const r = y.length === 2 ? [correlation(K, y, 0, 1)] : [correlation(K, y, 0, 1), correlation(K, y, 0, 2), correlation(K, y, 1, 2)];
  return Math.log(orthantProbability(r));
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

/** A grid problem: its space, labels and exact moments. */
export interface GridProblem {
  space: HyperSpace;
  y: Float64Array;
  exact: { mean: [number, number]; meanSquare: [number, number] };
}

export function gridProblem(x: readonly number[], y: Float64Array): GridProblem {
  const space = gridSpace(x);
  return { space, y, exact: gridMoments(space, y) };
}

/**
 * Runs `chains` chains of a scheme on the grid problem (each from theta = 0 on its own stream of
 * `seed`, `burnIn` adapting transitions then `draws` kept) and returns the statistics (mean and
 * mean square of psi and log sigma) whose error exceeds 4 MCSE.
 */
export function invarianceFailures(problem: GridProblem, scheme: SchemeName, thetaSampler: ThetaSamplerName | undefined, seed: number, broken?: FaultOf<"hyper-scheme" | "khr" | "pseudo-marginal">, sizes = { chains: 4, burnIn: 300, draws: 1500 }, options: Partial<SchemeOptions> = {}): string[] {
  const { chains: CHAINS, burnIn, draws } = sizes;
  const series: Float64Array[][] = [[], [], [], []];
  for (let c = 0; c < CHAINS; c++) {
    const rng = new Rng(seed + 1000 * c);
    const chain = jointChain({ space: problem.space, likelihood: probit, y: problem.y }, { ...options, scheme, thetaSampler, broken }, [0, 0]);
    for (let i = 0; i < burnIn; i++) chain.step(rng);
    chain.freeze();
    const s = [new Float64Array(draws), new Float64Array(draws), new Float64Array(draws), new Float64Array(draws)];
    for (let i = 0; i < draws; i++) {
      chain.step(rng);
      for (let k = 0; k < 2; k++) {
        s[k]![i] = chain.t[k]!;
        s[k + 2]![i] = chain.t[k]! ** 2;
      }
    }
    s.forEach((v, k) => series[k]!.push(v));
  }
  const expected = [...problem.exact.mean, ...problem.exact.meanSquare];
  const names = ["E psi", "E log sigma", "E psi^2", "E log sigma^2"];
  const out: string[] = [];
  series.forEach((chainsOfK, k) => {
    const mean = chainsOfK.reduce((a, c) => a + c.reduce((x, y) => x + y, 0), 0) / (CHAINS * draws);
    const mcse = mcseMean(chainsOfK);
    if (Math.abs(mean - expected[k]!) > 4 * mcse) out.push(`${names[k]}: ${mean.toFixed(3)} vs exact ${expected[k]!.toFixed(3)} (MCSE ${mcse.toFixed(3)})`);
  });
  return out;
}
