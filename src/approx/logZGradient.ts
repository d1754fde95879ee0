/**
 * Gradients of the approximate log marginal likelihood log Z with respect to kernel
 * hyperparameters theta, given dK/dtheta_j, and type-II maximum likelihood: theta maximising
 * log Z by BFGS (src/math/bfgs.ts) over the squared-exponential kernel's log lengthscales and
 * log signal sd.
 *
 * Laplace (Rasmussen & Williams, GPML Algorithm 5.1, eq. 5.21-5.23): with the mode f^, a = K^-1 f^,
 * W = -d^2 log p / df^2, R = W^1/2 B^-1 W^1/2, B = I + W^1/2 K W^1/2, the explicit part
 *   s1_j = 1/2 a' dK_j a - 1/2 tr(R dK_j)
 * plus the implicit part through the mode's dependence on theta,
 *   s2 = 1/2 diag((K^-1 + W)^-1) * d^3 log p / df^3,  s3_j = b - K R b,  b = dK_j d log p / df,
 * so that d log Z / d theta_j = s1_j + s2' s3_j. (s2 is d log Z / d f^ = -1/2 d log|B| / d f^, and
 * dW_ii / df_i = -d^3 log p / df_i^3 gives the plus sign with d^3 of log p, as in GPML's code
 * infLaplace; finite differences of log Z in the tests check it.)
 *
 * EP (GPML eq. 5.27 and Algorithm 3.5's gradient lines): at EP's fixed point, with the sites'
 * S = diag(tau~) and nu~, B = I + S^1/2 K S^1/2 and b = nu~ - S^1/2 B^-1 S^1/2 K nu~,
 *   d log Z_EP / d theta_j = 1/2 tr((b b' - S^1/2 B^-1 S^1/2) dK_j).
 */
import { seKernel } from "../gp/squaredExponential.js";
import type { Likelihood } from "../likelihoods/types.js";
import type { Cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";
import { matmul, matvec } from "../linalg/products.js";
import { minimizeBfgs, type BfgsOptions } from "../math/bfgs.js";
import { expectationPropagation, type EpOptions, type EpResult } from "./ep.js";
import { laplace, type LaplaceOptions, type LaplaceResult } from "./laplace.js";
import type { EpSites } from "../likelihoods/epSites.js";

/** R = S^1/2 B^-1 S^1/2 from the factor of B and s = sqrt of the site precisions (W or tau~). */
function scaledInverseB(chol: Cholesky, s: ArrayLike<number>): Matrix {
  const n = s.length;
  const D = new Matrix(n, n);
  for (let i = 0; i < n; i++) D.data[i + i * n] = s[i]!;
  const R = chol.solveMatrix(D);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) R.data[i + j * n] *= s[i]!;
  return R;
}

/** sum_ij A_ij B_ij = tr(A B) for symmetric A, B. */
function traceProduct(a: Matrix, b: Matrix): number {
  let t = 0;
  for (let i = 0; i < a.data.length; i++) t += a.data[i]! * b.data[i]!;
  return t;
}

/** d log Z_Laplace / d theta_j for each dK_j (module comment); `r` is Laplace at K. */
export function laplaceLogZGradient(k: Matrix, dK: readonly Matrix[], y: Float64Array, likelihood: Likelihood, r: LaplaceResult): Float64Array {
  const n = k.rows;
  const d1 = new Float64Array(n);
  const d2 = new Float64Array(n);
  const d3 = new Float64Array(n);
  likelihood.derivatives(y, r.mode, d1, d2, d3);
  const R = scaledInverseB(r.choleskyB, r.sqrtW);
  // diag((K^-1 + W)^-1) = diag(K - K R K)
  const KR = matmul(k, R);
  const s2 = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let v = k.data[i + i * n]!;
    for (let j = 0; j < n; j++) v -= KR.data[i + j * n]! * k.data[j + i * n]!;
    s2[i] = 0.5 * v * d3[i]!;
  }
  return Float64Array.from(dK, (C) => {
    const Ca = matvec(C, r.alpha);
    let s1 = 0;
    for (let i = 0; i < n; i++) s1 += r.alpha[i]! * Ca[i]!;
    s1 = 0.5 * s1 - 0.5 * traceProduct(R, C);
    const b = matvec(C, d1);
    const KRb = matvec(KR, b);
    let s = 0;
    for (let i = 0; i < n; i++) s += s2[i]! * (b[i]! - KRb[i]!);
    return s1 + s;
  });
}

/** d log Z_EP / d theta_j for each dK_j (module comment); `ep` is EP at K, converged. */
export function epLogZGradient(k: Matrix, dK: readonly Matrix[], ep: EpResult): Float64Array {
  const n = k.rows;
  const R = scaledInverseB(ep.choleskyB, ep.sqrtSiteTau);
  const RKnu = matvec(R, matvec(k, ep.siteNu));
  const b = ep.siteNu.map((v, i) => v - RKnu[i]!);
  return Float64Array.from(dK, (C) => {
    const Cb = matvec(C, b);
    let bCb = 0;
    for (let i = 0; i < n; i++) bCb += b[i]! * Cb[i]!;
    return 0.5 * (bCb - traceProduct(R, C));
  });
}

/** theta on the log scale: one shared log lengthscale or one per input, then the log signal sd. */
export interface SeTheta {
  logLengthscale: number[];
  logSignalSd: number;
}

/** What the optimiser computes at one theta. */
export type LogZMethod =
  | { method: "laplace"; y: Float64Array; likelihood: Likelihood; options?: LaplaceOptions }
  | { method: "ep"; sites: EpSites; options?: EpOptions };

export interface TypeIIResult {
  theta: SeTheta;
  logZ: number;
  /** d log Z / d theta at the optimum (log lengthscales, then log signal sd). */
  gradient: Float64Array;
  iterations: number;
  /** log Z evaluations (each a full Laplace or EP run). */
  evaluations: number;
  converged: boolean;
  reason: string;
}

function kernelOf(theta: ArrayLike<number>) {
  const m = theta.length - 1;
  const ls = Array.from(theta).slice(0, m);
  return seKernel({ logLengthscale: m === 1 ? ls[0]! : ls, logSignalSd: theta[m]! });
}

/** log Z and its gradient at theta (vector: log lengthscales, log signal sd) for inputs x. */
export function logZAndGradient(x: Matrix, theta: ArrayLike<number>, how: LogZMethod): { logZ: number; gradient: Float64Array } {
  const kernel = kernelOf(theta);
  const K = kernel.matrix(x);
  const dK = Array.from({ length: theta.length }, (_, j) => kernel.derivative(x, j, undefined, K));
  if (how.method === "laplace") {
    const r = laplace(K, how.y, how.likelihood, { onWarning: () => {}, ...how.options });
    return { logZ: r.logZ, gradient: laplaceLogZGradient(K, dK, how.y, how.likelihood, r) };
  }
  const ep = expectationPropagation(K, how.sites, { onWarning: () => {}, ...how.options });
  return { logZ: ep.logZ, gradient: epLogZGradient(K, dK, ep) };
}

/**
 * Type-II maximum likelihood: theta maximising log Z (Laplace or EP) from theta0, by BFGS on
 * -log Z. A theta where K or B cannot be factorised counts as log Z = -Infinity (the line
 * search steps back).
 */
export function maximiseLogZ(x: Matrix, theta0: SeTheta, how: LogZMethod, options: BfgsOptions = {}): TypeIIResult {
  const start = [...theta0.logLengthscale, theta0.logSignalSd];
  const r = minimizeBfgs((t) => {
    try {
      const v = logZAndGradient(x, t, how);
      return { value: -v.logZ, gradient: v.gradient.map((g) => -g) };
    } catch {
      return { value: Infinity, gradient: new Float64Array(t.length).fill(NaN) };
    }
  }, start, { gradientTolerance: 1e-4, maxIterations: 100, initialStep: 0.5, ...options });
  const m = start.length - 1;
  return {
    theta: { logLengthscale: Array.from(r.x.subarray(0, m)), logSignalSd: r.x[m]! },
    logZ: -r.value,
    gradient: r.gradient.map((g) => -g),
    iterations: r.iterations,
    evaluations: r.evaluations,
    converged: r.converged,
    reason: r.reason,
  };
}
