/**
 * The modes of Laplace's approximate marginal posterior of theta,
 *
 *   log p~(theta | y) = log Z_Laplace(theta) + log p(theta)   (Jacobians of the log scale included),
 *
 * by BFGS with the gradient of src/approx/logZGradient.ts, and the curvature there by central
 * differences of that gradient. A pseudo-marginal chain (./pseudoMarginal.ts) starts at the mode
 * and takes the inverse curvature as the first shape of its proposals, so that a short burn-in
 * starts in the bulk of the posterior. Neither enters the chain's invariant density: they only
 * shape where it starts and how it proposes.
 */
import { laplace } from "../approx/laplace.js";
import { laplaceLogZGradient } from "../approx/logZGradient.js";
import { cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";
import { minimizeBfgs } from "../math/bfgs.js";
import { hyperDimension, hyperLogPrior, kernelAt } from "./covariance.js";
import { isSingular, type JointProblem } from "./jointMoves.js";

/** No starting point of the mode search has a finite density: the model or its data, not a bug. */
export class ThetaModeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ThetaModeError";
  }
}

export interface ThetaMode {
  /** The mode (or where BFGS stopped). */
  t: Float64Array;
  /** log p~(theta | y) there, up to a constant. */
  logDensity: number;
  /** A covariance for proposals: the inverse negative Hessian, or a diagonal fallback where that is not positive definite. */
  covariance: Matrix;
  converged: boolean;
}

/** log p~(theta | y) and its gradient; -Infinity where K or Laplace's B does not factorise. */
export function laplaceLogPosterior(problem: JointProblem, t: ArrayLike<number>): { value: number; gradient: Float64Array } {
  const m = hyperDimension(problem.space);
  try {
    const at = kernelAt(problem.space, t);
    const r = laplace(at.K, problem.y, problem.likelihood, { onWarning: () => {} });
    const prior = hyperLogPrior(problem.space, t);
    const g = laplaceLogZGradient(at.K, Array.from({ length: m }, (_, k) => at.derivative(k)), problem.y, problem.likelihood, r);
    for (let k = 0; k < m; k++) g[k] += prior.gradient[k]!;
    return { value: r.logZ + prior.value, gradient: g };
  } catch (e) {
    if (isSingular(e)) return { value: -Infinity, gradient: new Float64Array(m).fill(NaN) };
    throw e;
  }
}

/** Central differences of the gradient with step h: the negative Hessian, symmetrised. */
function negativeHessian(problem: JointProblem, t: Float64Array, h = 1e-4): Matrix {
  const m = t.length;
  const H = new Matrix(m, m);
  for (let k = 0; k < m; k++) {
    const up = t.slice(), down = t.slice();
    up[k] += h;
    down[k] -= h;
    const gu = laplaceLogPosterior(problem, up).gradient, gd = laplaceLogPosterior(problem, down).gradient;
    for (let i = 0; i < m; i++) H.data[i + k * m] = -(gu[i]! - gd[i]!) / (2 * h);
  }
  for (let j = 0; j < m; j++) for (let i = 0; i < j; i++) {
    const v = 0.5 * (H.data[i + j * m]! + H.data[j + i * m]!);
    H.data[i + j * m] = v;
    H.data[j + i * m] = v;
  }
  return H;
}

/** The median distance between the inputs (at most 200 of them, evenly spaced in the file). */
function medianDistance(x: Matrix): number {
  const n = x.rows, d = x.cols;
  const rows = Array.from({ length: Math.min(n, 200) }, (_, i) => Math.floor((i * n) / Math.min(n, 200)));
  const dist: number[] = [];
  for (let a = 0; a < rows.length; a++) for (let b = 0; b < a; b++) {
    let s = 0;
    for (let k = 0; k < d; k++) s += (x.data[rows[a]! + k * n]! - x.data[rows[b]! + k * n]!) ** 2;
    dist.push(Math.sqrt(s));
  }
  dist.sort((u, v) => u - v);
  return dist.length > 0 && dist[dist.length >> 1]! > 0 ? dist[dist.length >> 1]! : 1;
}

/**
 * The starting points of the mode search: t0, and every lengthscale at 0.1, 0.3, 1 and 3 times the
 * median distance between inputs with the signal variance at 1. Laplace's marginal posterior can
 * have a local mode at long lengthscales and small signal (the data explained as noise), which a
 * search from t0 alone may find instead of the posterior's bulk.
 */
function startingPoints(problem: JointProblem, t0: ArrayLike<number>): Float64Array[] {
  const m = t0.length;
  const scale = medianDistance(problem.space.x);
  return [Float64Array.from(t0), ...[0.1, 0.3, 1, 3].map((c) => Float64Array.from({ length: m }, (_, k) => (k < m - 1 ? Math.log(c * scale) : 0)))];
}

/** Two searches that stopped closer than this in every coordinate found the same mode. */
const SAME_MODE = 0.05;

/**
 * The local modes the searches from startingPoints find, best first (the first is the mode), each
 * with a proposal covariance there: the inverse negative Hessian, or unit variances where that is
 * not positive definite (a flat or non-finite curvature).
 */
export function laplaceThetaModes(problem: JointProblem, t0: ArrayLike<number>): ThetaMode[] {
  const m = t0.length;
  const objective = (t: Float64Array) => {
    const v = laplaceLogPosterior(problem, t);
    return Number.isFinite(v.value) ? { value: -v.value, gradient: v.gradient.map((g) => -g) } : { value: Infinity, gradient: v.gradient };
  };
  const found: ReturnType<typeof minimizeBfgs>[] = [];
  for (const start of startingPoints(problem, t0)) {
    if (!Number.isFinite(objective(start).value)) continue;
    const r = minimizeBfgs(objective, start, { gradientTolerance: 1e-3, maxIterations: 200, initialStep: 0.5 });
    if (Number.isFinite(r.value) && !found.some((f) => f.x.every((v, k) => Math.abs(v - r.x[k]!) < SAME_MODE))) found.push(r);
  }
  if (found.length === 0) throw new ThetaModeError("Laplace's approximate marginal posterior of theta is not finite at any starting point of the mode search (every lengthscale at 0.1, 0.3, 1 and 3 times the median distance between inputs): check the data and the priors");
  found.sort((a, b) => a.value - b.value);
  return found.map((r) => {
    const t = Float64Array.from(r.x);
    let covariance: Matrix;
    try {
      covariance = cholesky(negativeHessian(problem, t), { what: "the negative Hessian at the mode" }).solveMatrix(Matrix.identity(m));
    } catch {
      covariance = Matrix.identity(m);
    }
    return { t, logDensity: -r.value, covariance, converged: r.converged };
  });
}
