/**
 * The two joint moves of (f, theta) that are not a Gibbs sweep (comparison paper, Section 2):
 *
 * - KHR (Knorr-Held & Rue 2002): theta' = theta + alpha z (the MH proposal of theta), then
 *   f' ~ q(f | y, theta'), Laplace's approximation at theta' (src/approx/laplace.ts), and one
 *   Metropolis-Hastings test of the pair with
 *     log r = log p(y, f', theta') - log p(y, f, theta) + log q(f | theta) - log q(f' | theta').
 * - SURR (Murray & Adams 2010, surrogate data): draw g ~ N(f, S) with S diagonal, write
 *   f = m_theta(g) + L_R(theta) eta with R = (K^-1 + S^-1)^-1 and m = R S^-1 g = K (K + S)^-1 g,
 *   then slice-sample theta on p(theta) N(g; 0, K + S) p(y | m + L_R eta) with eta fixed
 *   (univariate slice sampling along a random direction, Neal 2003, no stepping out).
 *   S_ii = 1 / E[-d^2 log p(y_i | f_i)/df_i^2] at f = 0, the likelihood's curvature there.
 */
import { laplace, laplaceCovariance } from "../approx/laplace.js";
import { cholesky, type Cholesky } from "../linalg/cholesky.js";
import { NotPositiveDefiniteError, NonFiniteError } from "../linalg/errors.js";
import { Matrix } from "../linalg/matrix.js";
import type { Likelihood } from "../likelihoods/types.js";
import type { RandomSource } from "../random/types.js";
import type { CountedStepInfo } from "../samplers/types.js";
import { hyperLogPrior, type HyperSpace, type KernelAt } from "./covariance.js";
import { thetaGivenF } from "./thetaGivenF.js";
import type { FaultOf } from "../math/negativeControl.js";

const LOG_2PI = Math.log(2 * Math.PI);

export interface JointProblem {
  space: HyperSpace;
  likelihood: Likelihood;
  y: Float64Array;
}

/** A move's outcome as a StepInfo (MH-style fields; NaN where a field has no meaning). */
export function moveInfo(accepted: boolean, acceptanceProbability: number, stepSize: number, densityEvaluations = 1): CountedStepInfo {
  return { accepted, acceptanceProbability, divergent: false, energy: NaN, energyError: NaN, stepSize, leapfrogSteps: 0, gradientCalls: 0, metricCalls: 0, fixedPointIterations: 0, densityEvaluations };
}

export function isSingular(e: unknown): boolean {
  return e instanceof NotPositiveDefiniteError || e instanceof NonFiniteError;
}

export interface LaplaceAt {
  mode: Float64Array;
  chol: Cholesky;
}

/** Laplace's approximation at the chain's current theta, kept between KHR moves (it is the same until a move is accepted). */
export interface LaplaceCache {
  t?: Float64Array;
  q?: LaplaceAt;
}

function laplaceAt(problem: JointProblem, at: KernelAt): LaplaceAt {
  const result = laplace(at.K, problem.y, problem.likelihood, { onWarning: () => {} });
  return { mode: result.mode, chol: cholesky(laplaceCovariance(at.K, result)) };
}

function logGaussian(x: Float64Array, mean: Float64Array, chol: Cholesky): number {
  const r = Float64Array.from(x, (v, i) => v - mean[i]!);
  chol.solveLowerInPlace(r);
  let q = 0;
  for (const v of r) q += v * v;
  return -0.5 * q - 0.5 * chol.logDet() - 0.5 * x.length * LOG_2PI;
}

/** log p(y, f, theta) (the joint density the schemes leave invariant). */
export function logJoint(problem: JointProblem, kernel: (t: ArrayLike<number>) => KernelAt, t: Float64Array, f: Float64Array): number {
  return problem.likelihood.logLikelihood(problem.y, f) + thetaGivenF(problem.space, f, kernel).logDensity(t);
}

/**
 * One KHR move from (t, f). `broken: "no-proposal-density"` drops the q terms from the ratio
 * (a negative control: the pair is then not left invariant).
 */
export function khrMove(problem: JointProblem, kernel: (t: ArrayLike<number>) => KernelAt, t: Float64Array, f: Float64Array, scale: number, rng: RandomSource, broken?: FaultOf<"khr">, cache: LaplaceCache = {}): { t: Float64Array; f: Float64Array; info: CountedStepInfo } {
  const reject = (p = 0) => ({ t, f, info: moveInfo(false, p, scale) });
  const z = new Float64Array(t.length);
  rng.fillNormal(z);
  const t2 = Float64Array.from(t, (v, k) => v + scale * z[k]!);
  if (!Number.isFinite(hyperLogPrior(problem.space, t2).value)) return reject();
  let q2: LaplaceAt;
  let q1: LaplaceAt;
  try {
    q1 = cache.t === t && cache.q ? cache.q : laplaceAt(problem, kernel(t));
    cache.t = t;
    cache.q = q1;
    q2 = laplaceAt(problem, kernel(t2));
  } catch (e) {
    if (isSingular(e)) return reject();
    throw e;
  }
  const w = new Float64Array(f.length);
  rng.fillNormal(w);
  const f2 = q2.chol.multiplyLower(w);
  for (let i = 0; i < f2.length; i++) f2[i] += q2.mode[i]!;
  let logR = logJoint(problem, kernel, t2, f2) - logJoint(problem, kernel, t, f);
  if (broken !== "no-proposal-density") logR += logGaussian(f, q1.mode, q1.chol) - logGaussian(f2, q2.mode, q2.chol);
  const p = Number.isNaN(logR) ? 0 : Math.min(1, Math.exp(logR));
  if (Math.log(rng.uniform()) < logR) {
    cache.t = t2;
    cache.q = q2;
    return { t: t2, f: f2, info: moveInfo(true, p, scale) };
  }
  return reject(p);
}

/** What surrogate-data slice sampling needs at one theta. */
interface SurrogateAt {
  /** log N(g; 0, K + S) + log p(theta). */
  logBase: number;
  mean: Float64Array;
  cholR: Cholesky;
}

function surrogateAt(problem: JointProblem, at: KernelAt, s: Float64Array, g: Float64Array): SurrogateAt {
  const n = g.length;
  const A = at.K.clone();
  for (let i = 0; i < n; i++) A.data[i + i * n] += s[i]!;
  const cholA = cholesky(A);
  const Ainvg = cholA.solve(g);
  // With S diagonal, Woodbury gives R = (K^-1 + S^-1)^-1 = S - S (K + S)^-1 S and
  // m = K (K + S)^-1 g = g - S (K + S)^-1 g: one inversion and two Cholesky factorisations per
  // theta (the paper's Table 5 count for SURR), with no n x n product.
  const Ainv = cholA.solveMatrix(Matrix.identity(n));
  const R = new Matrix(n, n);
  const mean = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const sj = s[j]!;
    for (let i = 0; i < n; i++) R.data[i + j * n] = -s[i]! * Ainv.data[i + j * n]! * sj;
    R.data[j + j * n] += sj;
    mean[j] = g[j]! - sj * Ainvg[j]!;
  }
  let q = 0;
  for (let i = 0; i < n; i++) q += g[i]! * Ainvg[i]!;
  const logG = -0.5 * q - 0.5 * cholA.logDet() - 0.5 * n * LOG_2PI;
  return { logBase: logG + hyperLogPrior(problem.space, at.t).value, mean, cholR: cholesky(R) };
}

/** S of the surrogate data: the inverse curvature of the likelihood at f = 0. */
export function surrogateNoise(likelihood: Likelihood, n: number): Float64Array {
  const r = likelihood.fisherInformation(new Float64Array(n), new Float64Array(n));
  return r.map((v) => (v > 0 && Number.isFinite(v) ? 1 / v : 1));
}

/** One surrogate-data slice-sampling move of theta (and f with it) from (t, f). */
export function surrogateMove(problem: JointProblem, kernel: (t: ArrayLike<number>) => KernelAt, t: Float64Array, f: Float64Array, s: Float64Array, width: number, rng: RandomSource): { t: Float64Array; f: Float64Array; info: CountedStepInfo } {
  const n = f.length;
  const g = Float64Array.from(f, (v, i) => v + Math.sqrt(s[i]!) * rng.normal());
  const here = surrogateAt(problem, kernel(t), s, g);
  const eta = Float64Array.from(f, (v, i) => v - here.mean[i]!);
  here.cholR.solveLowerInPlace(eta);
  const density = (tt: Float64Array): { value: number; f?: Float64Array } => {
    if (!Number.isFinite(hyperLogPrior(problem.space, tt).value)) return { value: -Infinity };
    try {
      const at = surrogateAt(problem, kernel(tt), s, g);
      const ff = at.cholR.multiplyLower(eta);
      for (let i = 0; i < n; i++) ff[i] += at.mean[i]!;
      const v = at.logBase + problem.likelihood.logLikelihood(problem.y, ff);
      return { value: Number.isNaN(v) ? -Infinity : v, f: ff };
    } catch (e) {
      if (isSingular(e)) return { value: -Infinity };
      throw e;
    }
  };
  const logSlice = here.logBase + problem.likelihood.logLikelihood(problem.y, f) + Math.log(rng.uniform());
  const dir = new Float64Array(t.length);
  rng.fillNormal(dir);
  const norm = Math.hypot(...dir);
  for (let k = 0; k < dir.length; k++) dir[k] /= norm;
  let lo = -width * rng.uniform();
  let hi = lo + width;
  for (let evals = 1; evals <= 200; evals++) {
    const a = lo + (hi - lo) * rng.uniform();
    const t2 = Float64Array.from(t, (v, k) => v + a * dir[k]!);
    const r = density(t2);
    if (r.value > logSlice) return { t: t2, f: r.f!, info: moveInfo(true, 1, width, evals) };
    if (a < 0) lo = a;
    else hi = a;
  }
  return { t, f, info: moveInfo(false, 0, width, 200) };
}
