/**
 * The scaled HMC variants for latent GP variables (comparison paper, Section 3.6): HMC through a
 * Cholesky factor of M^-1 (Algorithm 4), with the number of leapfrog steps drawn uniformly from
 * 1..lambda_max (Algorithm 4 line 2; the paper uses lambda_max = 10, Section 4.1):
 *
 *   HMC v2:  M^-1 = K. Its factor is L_K, which the target already holds: no O(n^3) work at all.
 *   HMC v1:  M^-1 = (K^-1 + C)^-1 with C = diag of the expected Fisher information at the prior
 *            mean f = 0 (times beta for the annealed target), as Christensen et al. (2005) and
 *            Vanhatalo & Vehtari (2007) do. One O(n^3) factorisation when the kernel is built.
 *
 * The factor of HMC v1's M^-1, without K^-1 and without subtraction. With K = L L' and
 * C = S^2 (S = C^1/2),
 *   K^-1 + C = L^-T (I + L' C L) L^-1 = L^-T P L^-1,   P = I + (S L)'(S L),
 * so M^-1 = L P^-1 L'. P is the whitened twin of the B = I + S K S of the SMMALA and RMHMC
 * geometries (the same eigenvalues, all >= 1), so it is well conditioned whatever K is. Factor P
 * "upside down", P = W W' with W upper triangular (the Cholesky factor of P with its index order
 * reversed: J P J = Lr Lr', W = J Lr J, J the reversal permutation); then
 *   M^-1 = L W^-T W^-1 L' = R R',   R = L W^-T,
 * and R is lower triangular (a product of two lower triangles) with a positive diagonal: it *is*
 * the Cholesky factor of M^-1 that Algorithm 4 asks for. Cost, once: the product (S L)'(S L)
 * (a syrk, n^3 flops), one Cholesky (n^3/3) and one triangular solve with n right-hand sides
 * (n^3). The paper's form C^-1 - C^-1 (K + C^-1)^-1 C^-1 needs C > 0 and subtracts nearly equal
 * matrices when C is large; this form takes C >= 0 and subtracts nothing.
 *
 * Cost per leapfrog step after that one factorisation (Algorithm 4 lines 4-6), all O(n^2):
 *   dW/df = d log p(y | f) - K^-1 f:  the likelihood's derivatives (O(n)) and two triangular
 *                                     solves with L_K (2 n^2 flops);
 *   M^-1 p = R (R' p):                two triangular products (2 n^2 flops);
 * and the kinetic energy |R' p|^2 / 2 at both ends (n^2 flops each). No factorisation, no
 * matrix-matrix product, no solve with several right-hand sides happens inside a transition
 * (the operation-counter test in test/samplers checks this).
 */
import { backendFor, Cholesky, cholesky } from "../../linalg/cholesky.js";
import { opCounts } from "../../linalg/counters.js";
import { Matrix } from "../../linalg/matrix.js";
import { hmc, type HmcKernel } from "./hmc.js";
import type { LatentGpTarget } from "../latentTarget.js";
import { massFromInverseCholesky } from "../integrators/massMatrix.js";

/** Default lambda_max (comparison paper, Section 4.1: "a maximum of 10 leapfrog steps"). */
export const DEFAULT_MAX_LEAPFROG_STEPS = 10;

export interface LatentHmcOptions {
  /** Leapfrog step size epsilon (adapted during burn-in through `tunable`). */
  stepSize: number;
  /** lambda_max: the number of leapfrog steps is drawn uniformly from 1..maxLeapfrogSteps (default 10). */
  maxLeapfrogSteps?: number;
  /** Acceptance rate step-size adaptation aims for (default 0.65, as `hmc`). */
  targetAcceptance?: number;
  /** Energy rise above which a trajectory is rejected as divergent (default 1000). */
  divergenceThreshold?: number;
}

export interface HmcV1Options extends LatentHmcOptions {
  /**
   * The diagonal C of HMC v1's M^-1 = (K^-1 + C)^-1 (entries >= 0). Default: beta times the
   * likelihood's expected Fisher information at f = 0 (the paper's choice).
   */
  diagonal?: ArrayLike<number>;
}

/** HMC v2 (Section 3.6 (ii)): Algorithm 4 with M^-1 = K, through the target's own L_K. */
export function hmcV2(target: LatentGpTarget, options: LatentHmcOptions): HmcKernel {
  const lk = target.kernelCholesky;
  if (lk.n !== target.dim) throw new RangeError(`hmcV2: the Cholesky factor of K has order ${lk.n}, the target dimension is ${target.dim}`);
  return named("hmc-v2", hmc(target, {
    stepSize: options.stepSize,
    leapfrogSteps: options.maxLeapfrogSteps ?? DEFAULT_MAX_LEAPFROG_STEPS,
    randomiseSteps: true,
    mass: massFromInverseCholesky(lk),
    targetAcceptance: options.targetAcceptance,
    divergenceThreshold: options.divergenceThreshold,
  }));
}

/** HMC v1 (Section 3.6 (i)): Algorithm 4 with M^-1 = (K^-1 + C)^-1, C the Fisher information at f = 0. */
export function hmcV1(target: LatentGpTarget, options: HmcV1Options): HmcKernel {
  const n = target.dim;
  const lk = target.kernelCholesky;
  if (lk.n !== n) throw new RangeError(`hmcV1: the Cholesky factor of K has order ${lk.n}, the target dimension is ${n}`);
  let c: Float64Array;
  if (options.diagonal) {
    if (options.diagonal.length !== n) throw new RangeError(`hmcV1: diagonal has ${options.diagonal.length} entries, the target dimension is ${n}`);
    c = Float64Array.from(options.diagonal);
  } else {
    c = priorFisherDiagonal(target);
  }
  return named("hmc-v1", hmc(target, {
    stepSize: options.stepSize,
    leapfrogSteps: options.maxLeapfrogSteps ?? DEFAULT_MAX_LEAPFROG_STEPS,
    randomiseSteps: true,
    mass: massFromInverseCholesky(priorPlusDiagonalInverseCholesky(lk, c)),
    targetAcceptance: options.targetAcceptance,
    divergenceThreshold: options.divergenceThreshold,
  }));
}

/** beta times the likelihood's expected Fisher information at the prior mean f = 0 (HMC v1's C). */
export function priorFisherDiagonal(target: LatentGpTarget): Float64Array {
  const n = target.dim;
  const c = target.likelihood.fisherInformation(new Float64Array(n), new Float64Array(n));
  for (let i = 0; i < n; i++) c[i] *= target.beta;
  return c;
}

/**
 * The lower Cholesky factor R of (K^-1 + diag(c))^-1 = R R', from L_K and c >= 0, as R = L_K W^-T
 * with P = I + (S L_K)'(S L_K) = W W', W upper triangular (see the module comment). K^-1 is never
 * formed.
 */
export function priorPlusDiagonalInverseCholesky(lk: Cholesky, c: ArrayLike<number>): Cholesky {
  const n = lk.n;
  if (c.length !== n) throw new RangeError(`the diagonal has ${c.length} entries, the factor of K is ${n} x ${n}`);
  for (let i = 0; i < n; i++) {
    if (!(c[i] >= 0) || !Number.isFinite(c[i])) throw new RangeError(`the diagonal's entry ${i} is ${c[i]}; it must be finite and >= 0`);
  }
  const l = lk.factor.data;
  const be = backendFor(n);
  // A = S L with its columns reversed (A J): then (A J)'(A J) = J P J - I, the reversed P.
  const sqrtC = new Float64Array(n);
  for (let i = 0; i < n; i++) sqrtC[i] = Math.sqrt(c[i]);
  const a = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    const src = (n - 1 - j) * n;
    const dst = j * n;
    for (let i = 0; i < n; i++) a[dst + i] = sqrtC[i] * l[src + i];
  }
  const pr = Matrix.identity(n);
  opCounts.symmetricProduct++;
  opCounts.flops += n * n * n;
  be.syrk("L", "T", n, n, 1, a, n, 1, pr.data, n); // J P J = I + (A J)'(A J), lower triangle
  // J P J = Lr Lr' (eigenvalues >= 1: cannot fail short of overflow)
  const lr = cholesky(pr, { inPlace: true, what: "I + (S L_K)'(S L_K) (HMC v1 mass)" });
  // R J = (L J) Lr^-T: solve X Lr' = L J for X, then un-reverse the columns of X.
  const x = new Float64Array(n * n);
  for (let j = 0; j < n; j++) x.set(l.subarray((n - 1 - j) * n, (n - j) * n), j * n);
  opCounts.triangularSolveMatrix++;
  opCounts.flops += n * n * n;
  be.trsm("R", "L", "T", "N", n, n, 1, lr.factor.data, n, x, n);
  const r = new Matrix(n, n);
  for (let j = 0; j < n; j++) {
    const src = (n - 1 - j) * n;
    const dst = j * n;
    // R is lower triangular in exact arithmetic; zero the rounding above the diagonal.
    for (let i = j; i < n; i++) r.data[dst + i] = x[src + i];
  }
  return new Cholesky(r);
}

function named(name: string, kernel: HmcKernel): HmcKernel {
  return { ...kernel, name };
}
