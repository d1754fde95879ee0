/**
 * The pm scheme's independence proposals of theta (./pseudoMarginal.ts): the t's at the local
 * modes of Laplace's marginal posterior (`modeMixture`), so that every mode the search found is
 * proposed, and after burn-in Gaussian mixtures fitted to the burn-in draws (./mixtureFit.ts),
 * widened into t's, beside the modes' t's (`fittedProposal`).
 *
 * One t at the draws' mean, the proposal of burn-in, proposes a skewed posterior poorly: with
 * d = 5 ARD lengthscales the log-lengthscales have long left tails (skewness about -0.9), and a
 * chain sticks where the proposal is thin (BENCHMARKS.md, "pm: proposals tried on the n = 100 cases").
 */
import { cholesky, Cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";
import { fitGaussianMixture } from "./mixtureFit.js";
import type { TComponent } from "./tMixture.js";

/** The most components the fit may have (BIC chooses among 1..3). */
const MAX_COMPONENTS = 3;
/** The first part of burn-in that the fit leaves out (the chain leaving its start at the mode). */
const DISCARD = 0.2;
/** Chain draws counted as this fraction of independent points in BIC (autocorrelation). */
const EFFECTIVE_FRACTION = 0.1;
/** Each fitted component's t has the Gaussian's covariance times this squared (a little wider than the draws). */
const WIDEN = 1.3;
/** The weight of the modes' t's in the proposal. */
const MODES_WEIGHT = 0.1;
/** The least number of kept draws per coordinate for a fit; with fewer, burn-in's proposal stays. */
const MIN_DRAWS_PER_COORDINATE = 20;

/**
 * The mixture of t's (degrees of freedom `nu` > 2, shape Sigma (nu - 2) / nu so that a t's
 * covariance is the Gaussian's, times WIDEN^2) from the draws, the modes' components
 * reweighted to MODES_WEIGHT; undefined where there are too few draws to fit.
 */
export function fittedProposal(draws: readonly Float64Array[], modes: readonly TComponent[], nu: number): TComponent[] | undefined {
  const m = draws[0]?.length ?? 0;
  const kept = draws.slice(Math.floor(draws.length * DISCARD));
  if (m === 0 || kept.length < MIN_DRAWS_PER_COORDINATE * m) return undefined;
  // a ridge of 1e-4 of each coordinate's variance keeps every component's covariance positive definite
  const mean = new Float64Array(m);
  for (const x of kept) for (let i = 0; i < m; i++) mean[i] += x[i]! / kept.length;
  const ridge = new Float64Array(m);
  for (const x of kept) for (let i = 0; i < m; i++) ridge[i] += (1e-4 * (x[i]! - mean[i]!) ** 2) / (kept.length - 1);
  for (let i = 0; i < m; i++) if (!(ridge[i]! > 0)) ridge[i] = 1e-12;
  const fit = fitGaussianMixture(kept, MAX_COMPONENTS, kept.length * EFFECTIVE_FRACTION, ridge);
  const widen = WIDEN * Math.sqrt((nu - 2) / nu);
  const modesTotal = modes.reduce((a, c) => a + c.weight, 0);
  return [
    ...fit.components.map((c) => ({ weight: (1 - MODES_WEIGHT) * c.weight, centre: c.centre, shape: new Cholesky(new Matrix(m, m, c.shape.factor.data.map((v) => v * widen))) })),
    ...modes.map((c) => ({ ...c, weight: (MODES_WEIGHT * c.weight) / modesTotal })),
  ];
}

/**
 * The modes' half of the independence proposal: a t per mode, weighted by Laplace's mass there,
 * exp(log p~) |Sigma|^1/2, each at least a tenth of the half so that a minor mode is proposed.
 */
export function modeMixture(modes: readonly { t: Float64Array; logDensity: number; covariance: Matrix }[]): TComponent[] {
  const parts = modes.map((md) => {
    const shape = cholesky(md.covariance, { what: "the proposal covariance" });
    return { centre: md.t.slice(), shape, logMass: md.logDensity + 0.5 * shape.logDet() };
  });
  const top = Math.max(...parts.map((p) => p.logMass));
  const raw = parts.map((p) => Math.exp(p.logMass - top));
  const sum = raw.reduce((a, v) => a + v, 0);
  const floored = raw.map((v) => Math.max(0.1, v / sum));
  const total = floored.reduce((a, v) => a + v, 0);
  return parts.map((p, i) => ({ weight: (0.5 * floored[i]!) / total, centre: p.centre, shape: p.shape }));
}
