/**
 * An unbiased estimate of the marginal likelihood p(y | theta) by importance sampling from a
 * Gaussian approximation of p(f | y, theta) with a diagonal site precision, q(f) = N(f^, (K^-1 + W)^-1):
 * EP's (W = diag tau~, f^ EP's mean) where the likelihood has EP sites, Laplace's (W the negative
 * Hessian at the mode f^) otherwise (Filippone & Girolami 2014, "Pseudo-marginal Bayesian inference
 * for Gaussian processes", Section 3, who find EP's the better proposal for probit):
 *
 *   p^(y | theta) = 1/N sum_j w_j,   w_j = p(y | f_j) N(f_j; 0, K) / q(f_j),   f_j ~ q.
 *
 * In whitened form: with K = L L', A = I + L' W L = M M' and u = L^-1 f^, the covariance is
 * L A^-1 L', so a standard normal z gives f = L (u + M'^-1 z) ~ q, and
 *
 *   log w = log p(y | f) - 1/2 |u + M'^-1 z|^2 + 1/2 |z|^2 - log|M|
 *
 * (the 2 pi terms and log|L| cancel). The factor M costs one n x n product (syrk) and one
 * Cholesky factorisation beyond Laplace's own; each draw then costs two triangular
 * matrix-vector products.
 *
 * The estimate must be a function of theta and the normals z alone, which is what a
 * pseudo-marginal chain (./pseudoMarginal.ts) needs (its state carries z): the approximation at
 * theta is computed from a fixed start (`start`: the one at the chain's mode, found once from the
 * data), never from the chain's previous theta, so that it does not depend on the path.
 */
import { expectationPropagation } from "../approx/ep.js";
import { laplace } from "../approx/laplace.js";
import type { EpSites } from "../likelihoods/epSites.js";
import { backendFor, cholesky, type Cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";
import { crossprod, scaleRows } from "../linalg/products.js";
import type { KernelAt } from "./covariance.js";
import { isSingular, type JointProblem } from "./jointMoves.js";

/** A Gaussian approximation at one theta in the whitened form above. */
export interface GaussianProposal {
  readonly at: KernelAt;
  /** Where another theta's approximation may start from: Laplace's a = K^-1 f^, or EP's (tau~, nu~) end to end. */
  readonly start: Float64Array;
  /** u = L^-1 f^. */
  readonly u: Float64Array;
  /** The factor M of A = I + L' W L. */
  readonly M: Cholesky;
  /** log|M| = 1/2 log|A|. */
  readonly logDetM: number;
}

/** The importance weights of N draws, and the draws. */
export interface ImportanceEstimate {
  /** log w_j, j = 1..N. */
  readonly logWeights: Float64Array;
  /** The draws f_j, N x n row after row. */
  readonly f: Float64Array;
  /** log p^(y | theta) = log(1/N sum_j w_j); -Infinity or NaN when no weight is usable. */
  readonly logEstimate: number;
}

/**
 * EP's sweeps from another theta's sites: the proposal need not be EP's fixed point, only close to
 * p(f | theta, y) (the weights correct the rest), and two sweeps from the mode's sites give
 * the acceptance rates of converged EP at 0.6 of its time per iteration (n = 400: `npm run bench -- pmCost`).
 */
export const SWEEPS_FROM_START = 2;

/** How the approximation is made: Laplace's, or EP's on the likelihood's sites. */
export type ApproximationMethod = { method: "laplace" } | { method: "ep"; sites: EpSites; /** default SWEEPS_FROM_START */ sweepsFromStart?: number };

/**
 * The approximation at `at` (from `start` when given: another theta's `GaussianProposal.start`)
 * and the factor M of its whitened covariance. EP runs the parallel schedule with Anderson mixing,
 * SWEEPS_FROM_START sweeps from `start`, to convergence without it; where it fails from `start` (a non-finite site update far from the theta `start` came from) it
 * runs again from the prior's sites, and where that fails too Laplace's approximation is used.
 * Any Gaussian keeps the estimate unbiased; what matters is that the choice is a function of theta.
 */
export function gaussianProposal(problem: JointProblem, at: KernelAt, how: ApproximationMethod, start?: Float64Array): GaussianProposal {
  const n = at.K.rows;
  if (how.method === "ep") {
    for (const from of start ? [start, undefined] : [undefined]) {
      try {
        const ep = expectationPropagation(at.K, how.sites, { schedule: "parallel", onWarning: () => {}, ...(from ? { initialSiteTau: from.subarray(0, n), initialSiteNu: from.subarray(n), maxSweeps: how.sweepsFromStart ?? SWEEPS_FROM_START } : {}) });
        const sites = new Float64Array(2 * n);
        sites.set(ep.siteTau);
        sites.set(ep.siteNu, n);
        return whitenedProposal(at, ep.mean, sites, ep.sqrtSiteTau);
      } catch (e) {
        if (!(e instanceof Error && e.message.startsWith("EP: ")) && !isSingular(e)) throw e;
      }
    }
  }
  const r = laplace(at.K, problem.y, problem.likelihood, { onWarning: () => {}, ...(start && how.method === "laplace" ? { initialAlpha: start } : {}) });
  return whitenedProposal(at, r.mode, how.method === "laplace" ? r.alpha : new Float64Array(2 * n), r.sqrtW);
}

/** The whitened form of the Gaussian N(mean, (K^-1 + S^2)^-1) with S = diag(sqrtW). */
export function whitenedProposal(at: KernelAt, mean: Float64Array, start: Float64Array, sqrtW: Float64Array): GaussianProposal {
  const n = mean.length;
  const u = at.chol.solveLowerInPlace(mean.slice());
  // A = I + (S L)'(S L)
  const A = crossprod(scaleRows(lowerOnly(at.chol.factor), sqrtW));
  for (let i = 0; i < n; i++) A.data[i + i * n] += 1;
  const M = cholesky(A, { what: "I + L'WL", skipFiniteCheck: true });
  return { at, start, u, M, logDetM: 0.5 * M.logDet() };
}

/** The factor with its upper triangle zero (a Cholesky factor's upper triangle is not read, and need not be zero). */
function lowerOnly(L: Matrix): Matrix {
  const n = L.rows;
  const out = L.clone();
  for (let j = 1; j < n; j++) out.data.fill(0, j * n, j * n + j);
  return out;
}

/** log(1/N sum exp(v_j)), stable; -Infinity when every v_j is -Infinity. */
export function logMeanExp(v: Float64Array): number {
  let max = -Infinity;
  for (const x of v) if (x > max) max = x;
  if (!Number.isFinite(max)) return Number.isNaN(max) ? NaN : max;
  let s = 0;
  for (const x of v) s += Math.exp(x - max);
  return max + Math.log(s / v.length);
}

/**
 * The importance estimate from the normals z (N x n, row after row, i.e. the n x N matrix of the
 * z_j as columns). A draw whose log weight is NaN makes the estimate NaN (the chain counts it as a
 * rejection). The N draws go through the backend at once: V = M'^-1 Z (trsm), F = L (V + u 1')
 * (gemm with L's lower triangle), n^2 N flops each.
 */
export function importanceEstimate(problem: JointProblem, q: GaussianProposal, z: Float64Array): ImportanceEstimate {
  const n = q.u.length;
  const N = z.length / n;
  const be = backendFor(n);
  const v = z.slice();
  be.trsm("L", "L", "T", "N", n, N, 1, q.M.factor.data, n, v, n);
  const logWeights = new Float64Array(N);
  for (let j = 0; j < N; j++) {
    let zz = 0, vv = 0;
    for (let i = 0; i < n; i++) {
      const zi = z[j * n + i]!;
      const vi = v[j * n + i]! + q.u[i]!;
      v[j * n + i] = vi;
      zz += zi * zi;
      vv += vi * vi;
    }
    logWeights[j] = 0.5 * zz - 0.5 * vv - q.logDetM;
  }
  const f = new Float64Array(N * n);
  be.gemm("N", "N", n, N, n, 1, lowerFactor(q), n, v, n, 0, f, n);
  let nan = false;
  for (let j = 0; j < N; j++) {
    logWeights[j] += problem.likelihood.logLikelihood(problem.y, f.subarray(j * n, (j + 1) * n));
    if (Number.isNaN(logWeights[j])) nan = true;
  }
  return { logWeights, f, logEstimate: nan ? NaN : logMeanExp(logWeights) };
}

const lowerFactors = new WeakMap<GaussianProposal, Float64Array>();

/** L with its upper triangle zero, made once per proposal. */
function lowerFactor(q: GaussianProposal): Float64Array {
  let l = lowerFactors.get(q);
  if (!l) {
    l = lowerOnly(q.at.chol.factor).data;
    lowerFactors.set(q, l);
  }
  return l;
}
