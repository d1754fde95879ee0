/**
 * The hyperparameters theta = (sigma, beta) of the Cox process with the paper's Euclidean
 * covariance (Girolami & Calderhead 2011, Section 9, eq. 31), given the latent field on the whole
 * circulant-embedding torus (circulantGrid.ts), as a dense-metric model (targets/denseMetric.ts) in
 * phi = (log sigma, log beta).
 *
 * The augmented latent state. Let w be the field on the M x M torus, w ~ N(mu 1, C_theta), C_theta
 * the block-circulant embedding of Sigma_theta; the grid's field is x = R w (R the restriction to the
 * n x n corner). Since R C_theta R' = Sigma_theta exactly, the marginal law of x is N(mu 1,
 * Sigma_theta) and the posterior of (theta, x) given the counts is the Euclidean model's: a Gibbs
 * sampler of theta | w and w | theta, y (models/coxProcess/hyperGibbs.ts) samples it exactly. Given w,
 * everything is diagonal in the torus's 2-D DFT: with lambda_k = sigma^2 l_k(beta) the eigenvalues
 * of C_theta (l_k those of the unit-variance base exp(-d / (n beta))) and s_k = |(F (w - mu))_k|^2 / M^2
 * the periodogram of w (F the unnormalised DFT, so (w - mu)' C^-1 (w - mu) = sum_k s_k / lambda_k),
 *
 *   L(phi) = log N(w; mu 1, C_theta) + log p(phi)
 *          = -M^2 log sigma - 1/2 sum_k log l_k - sum_k s_k / (2 sigma^2 l_k) + log p(phi) + const,
 *   dL/dlog sigma = -M^2 + sum_k s_k / (sigma^2 l_k),
 *   dL/dlog beta  = sum_k g_k (s_k / (2 sigma^2 l_k) - 1/2),   g_k = beta l'_k / l_k = dlog lambda_k / dlog beta,
 *
 * and the metric D_theta of eq. 39 for the torus field, 1/2 tr(C^-1 dC_i C^-1 dC_j) = 1/2 sum_k
 * (dlog lambda_k / dphi_i)(dlog lambda_k / dphi_j), plus the prior's precision:
 *
 *   D = [[2 M^2, sum_k g_k], [sum_k g_k, 1/2 sum_k g_k^2]] + diag(1/s_1^2, 1/s_2^2),
 *   dD/dlog sigma = 0,   dD/dlog beta = [[0, sum_k h_k], [sum_k h_k, sum_k g_k h_k]],
 *   h_k = dg_k / dlog beta = g_k - g_k^2 + beta^2 l''_k / l_k,
 *
 * with l', l'' the DFTs of the base's derivatives in beta, c u and c (u^2 - 2 u / beta) for
 * c = exp(-d / (n beta)), u = d / (n beta^2). An evaluation costs two real 2-D FFTs of M^2 points for
 * a new beta (a third for the metric's derivatives), kept while beta stays, and O(M^2) sums: no
 * M^2 x M^2 matrix.
 *
 * The support. On a fixed torus, C_theta is a covariance only where every l_k(beta) > 0; for large
 * beta (a length scale comparable to M) the embedding has negative eigenvalues (circulantGrid.ts).
 * Such theta are outside the augmented model's support: L = -Infinity there (with a finite metric,
 * so that the samplers reject a proposal that reaches them as non-finite). The prior on phi is thus
 * truncated to the betas whose embedding on this torus is positive definite, to within
 * SUPPORT_TOLERANCE of the largest eigenvalue; `supportLimit` finds that beta for a torus.
 */
import { fft2d } from "../../math/fft.js";
import { Matrix } from "../../linalg/matrix.js";
import type { DenseMetricParts } from "../../targets/denseMetric.js";
import type { Target } from "../../targets/types.js";
import { CirculantGrid, evenTorusSpectrum, minRatio } from "./circulantGrid.js";
import { checkedCounts, fieldLogLikelihood } from "./coxField.js";
import { PRIOR, type CoxHyperparameterModel } from "./hyperparameters.js";
import type { FaultOf } from "../../math/negativeControl.js";

/** theta is inside the support where every l_k(beta) exceeds this fraction of the largest. */
export const SUPPORT_TOLERANCE = 1e-10;

/** Independent normal priors on phi = (log sigma, log beta). */
export interface PhiPrior {
  readonly mean: readonly number[];
  readonly sd: readonly number[];
}

export interface TorusHyperparameterModel extends CoxHyperparameterModel {
  readonly torus: number;
  /** Whether phi is inside the support (every eigenvalue of C_theta positive on this torus). */
  inSupport(phi: Float64Array): boolean;
}

interface BetaParts {
  beta: number;
  inside: boolean;
  /** l_k: the spectrum of the unit-variance base. */
  l: Float64Array;
  /** g_k = beta l'_k / l_k. */
  g: Float64Array;
  /** h_k = dg_k / dlog beta, when asked for. */
  h?: Float64Array;
  sumLogL: number;
}

/** s_k = |(F v)_k|^2 / M^2 for v on the M x M torus: (v' C^-1 v) = sum_k s_k / lambda_k. */
export function torusPeriodogram(m: number, v: ArrayLike<number>, shift = 0): Float64Array {
  const re = Float64Array.from(v, (t) => t - shift);
  const im = new Float64Array(m * m);
  fft2d(re, im, m, m);
  const s = new Float64Array(m * m);
  for (let k = 0; k < s.length; k++) s[k] = (re[k] * re[k] + im[k] * im[k]) / (m * m);
  return s;
}

function baseSpectra(side: number, m: number, beta: number): { l: Float64Array; dl: Float64Array } {
  const scale = side * beta;
  const l = evenTorusSpectrum(m, (d) => Math.exp(-d / scale));
  const dl = evenTorusSpectrum(m, (d) => (Math.exp(-d / scale) * d) / (side * beta * beta));
  return { l, dl };
}

/** Whether the unit base's embedding on the M x M torus is positive definite at beta. */
export function torusSupports(side: number, m: number, beta: number): boolean {
  return minRatio(evenTorusSpectrum(m, (d) => Math.exp(-d / (side * beta)))) > SUPPORT_TOLERANCE;
}

/**
 * The largest beta (to a relative 1e-6, by bisection on log beta between `lo` and `hi`) below which
 * the n x n grid's embedding on the M x M torus is positive definite; Infinity if it is at `hi`.
 * (Found once per torus; the set is an interval in the runs made here, which the bisection assumes.)
 */
export function supportLimit(side: number, m: number, lo = 1e-3, hi = 1e3): number {
  if (torusSupports(side, m, hi)) return Infinity;
  if (!torusSupports(side, m, lo)) throw new RangeError(`the ${m} x ${m} torus does not embed the ${side} x ${side} grid's covariance even at beta = ${lo}`);
  let a = Math.log(lo);
  let b = Math.log(hi);
  while (b - a > 1e-6) {
    const c = 0.5 * (a + b);
    if (torusSupports(side, m, Math.exp(c))) a = c;
    else b = c;
  }
  return Math.exp(a);
}

/**
 * The model of phi given the torus field w (M^2 values, torus point a + M b; the grid is the corner
 * a, b < n) with mean mu, for the n x n grid (the base's length scale is n beta).
 */
export function euclideanHyperparameterModel(side: number, torus: number, w: ArrayLike<number>, mu: number, prior: PhiPrior = PRIOR): TorusHyperparameterModel {
  const m = torus;
  const size = m * m;
  if (!Number.isInteger(side) || side < 1) throw new RangeError(`grid side must be a positive integer, got ${side}`);
  if (!Number.isInteger(m) || m < side) throw new RangeError(`the torus side ${m} must be a whole number >= the grid side ${side}`);
  if (w.length !== size) throw new RangeError(`the torus field has ${w.length} points, the ${m} x ${m} torus ${size}`);
  const s = torusPeriodogram(m, w, mu);
  let cache: BetaParts | undefined;

  function betaParts(beta: number, derivatives: boolean): BetaParts {
    if (!cache || cache.beta !== beta) {
      const { l, dl } = baseSpectra(side, m, beta);
      const inside = minRatio(l) > SUPPORT_TOLERANCE;
      const g = new Float64Array(size);
      let sumLogL = 0;
      if (inside) for (let k = 0; k < size; k++) {
        g[k] = (beta * dl[k]) / l[k];
        sumLogL += Math.log(l[k]);
      }
      cache = { beta, inside, l, g, sumLogL };
    }
    if (derivatives && !cache.h && cache.inside) {
      const u = (d: number) => d / (side * beta * beta);
      const d2l = evenTorusSpectrum(m, (d) => Math.exp(-d / (side * beta)) * (u(d) * u(d) - (2 * u(d)) / beta));
      const { g, l } = cache;
      cache.h = g.map((gk, k) => gk - gk * gk + (beta * beta * d2l[k]) / l[k]);
    }
    return cache;
  }

  function evaluate(phi: Float64Array, grad: Float64Array | undefined, derivatives = false): { lp: number; p: BetaParts } {
    const p = betaParts(Math.exp(phi[1]), derivatives);
    let lp = 0;
    for (let i = 0; i < 2; i++) lp -= (phi[i] - prior.mean[i]) ** 2 / (2 * prior.sd[i] ** 2);
    if (!p.inside) {
      if (grad) grad.fill(0);
      return { lp: -Infinity, p };
    }
    const inv2 = Math.exp(-2 * phi[0]);
    let q = 0;
    let qg = 0;
    let sumG = 0;
    for (let k = 0; k < size; k++) {
      const r = s[k] / p.l[k];
      q += r;
      qg += p.g[k] * r;
      sumG += p.g[k];
    }
    lp += -size * phi[0] - 0.5 * p.sumLogL - 0.5 * inv2 * q;
    if (grad) {
      grad[0] = -size + inv2 * q - (phi[0] - prior.mean[0]) / prior.sd[0] ** 2;
      grad[1] = 0.5 * inv2 * qg - 0.5 * sumG - (phi[1] - prior.mean[1]) / prior.sd[1] ** 2;
    }
    return { lp, p };
  }

  return {
    dim: 2,
    torus: m,
    toTheta: (phi) => ({ sigma: Math.exp(phi[0]), beta: Math.exp(phi[1]) }),
    inSupport: (phi) => betaParts(Math.exp(phi[1]), false).inside,
    logDensity: (phi) => evaluate(phi, undefined).lp,
    logDensityAndGradient: (phi, grad) => evaluate(phi, grad).lp,
    denseMetric(phi, derivatives): DenseMetricParts {
      const gradient = new Float64Array(2);
      const { lp, p } = evaluate(phi, gradient, derivatives);
      let sumG = 0;
      let sumGG = 0;
      if (p.inside) for (let k = 0; k < size; k++) {
        sumG += p.g[k];
        sumGG += p.g[k] * p.g[k];
      }
      const metric = Matrix.fromRows([
        [2 * size + 1 / prior.sd[0] ** 2, sumG],
        [sumG, 0.5 * sumGG + 1 / prior.sd[1] ** 2],
      ]);
      if (!derivatives) return { logDensity: lp, gradient, metric };
      let sumH = 0;
      let sumGH = 0;
      if (p.h) for (let k = 0; k < size; k++) {
        sumH += p.h[k];
        sumGH += p.g[k] * p.h[k];
      }
      return { logDensity: lp, gradient, metric, metricDerivatives: [new Matrix(2, 2), Matrix.fromRows([[0, sumH], [sumH, sumGH]])] };
    },
  };
}

/**
 * The non-centred counterpart (the whitened nu on the torus fixed, theta moving the field with it):
 * phi | nu, y has the density p(phi) p(y | x), x = mu + R C_theta^1/2 nu, since nu ~ N(0, I) does not
 * depend on theta. Each evaluation costs the embedding's eigenvalues and one filter (three real
 * 2-D FFTs of M^2 points). Outside the support, -Infinity. `broken: "non-centred-without-prior"` drops p(phi): a
 * test's negative control.
 */
export function euclideanNonCentredTarget(side: number, torus: number, counts: ArrayLike<number>, cellArea: number, mu: number, nu: Float64Array, prior: PhiPrior = PRIOR, broken?: FaultOf<"cox-non-centred">): Target {
  const withoutPrior = broken === "non-centred-without-prior";
  const y = checkedCounts(side, counts, cellArea, mu);
  const x = new Float64Array(side * side);
  if (nu.length !== torus * torus) throw new RangeError(`nu has ${nu.length} values, the ${torus} x ${torus} torus ${torus * torus}`);
  return {
    dim: 2,
    logDensity(phi) {
      let lp = 0;
      if (!withoutPrior) for (let i = 0; i < 2; i++) lp -= (phi[i] - prior.mean[i]) ** 2 / (2 * prior.sd[i] ** 2);
      const grid = new CirculantGrid(side, Math.exp(2 * phi[0]), Math.exp(phi[1]), { torus });
      if (!(minRatio(grid.eigenvalues) > SUPPORT_TOLERANCE)) return -Infinity;
      grid.rootToGrid(nu, x);
      for (let k = 0; k < x.length; k++) x[k] += mu;
      return lp + fieldLogLikelihood(y, cellArea, x);
    },
  };
}

