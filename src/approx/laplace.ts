/**
 * Laplace's approximation for a latent GP with prior N(f; 0, K) and a log-concave likelihood,
 * by Newton's method in the stable form of Rasmussen & Williams, GPML Algorithm 3.1:
 *   W = -grad grad log p(y|f),  B = I + W^1/2 K W^1/2 = L L',
 *   b = W f + grad log p(y|f),  a = b - W^1/2 L' \ (L \ (W^1/2 K b)),  f = K a,
 * with a backtracking line search on Psi(f) = log p(y|f) - 1/2 a'f (GPML eq. 3.12 up to a
 * constant) as the step-size safeguard, and the approximate log marginal likelihood
 *   log q(y|X) = -1/2 a'f^ + log p(y|f^) - sum_i log L_ii   (GPML eq. 3.32, Algorithm 3.1 line 10).
 */
import type { Cholesky } from "../linalg/cholesky.js";
import { assertLength, assertSquare, Matrix } from "../linalg/matrix.js";
import { symmetricMatvecInto } from "../linalg/products.js";
import type { Likelihood } from "../likelihoods/types.js";
import { choleskyIdentityPlusScaled, woodburyInverseMatrix } from "../targets/woodbury.js";

/** The likelihood's second derivative is positive at a point: the B form needs W >= 0. */
export class NotLogConcaveError extends Error {
  readonly index: number;
  constructor(likelihood: string, index: number, value: number) {
    super(`Laplace: the ${likelihood} likelihood is not log-concave at point ${index + 1} (d^2 log p / df^2 = ${value} > 0); the stable Newton iteration of GPML Algorithm 3.1 needs W >= 0`);
    this.name = "NotLogConcaveError";
    this.index = index;
  }
}

export interface LaplaceOptions {
  /** At most this many Newton steps (default 100). */
  maxIterations?: number;
  /**
   * Converged when the gradient of Psi in f, max_i |d log p / df_i - a_i|, is below
   * gradientTolerance (default 1e-9) and the last step changed Psi by less than
   * objectiveTolerance (default 1e-12, relative to max(1, |Psi|)).
   */
  gradientTolerance?: number;
  objectiveTolerance?: number;
  /** At most this many step halvings per Newton step (default 30). */
  maxHalvings?: number;
  /** Start from f = K a with this a (default a = 0, f = 0). */
  initialAlpha?: Float64Array;
  /** Receives the one-line warning when Newton's method stops without converging (default: stderr). */
  onWarning?: (message: string) => void;
}

export interface LaplaceResult {
  /** The mode f^ of log p(y|f) + log N(f; 0, K). */
  mode: Float64Array;
  /** a = K^-1 f^ (at convergence, the likelihood gradient at the mode: GPML eq. 3.17). */
  alpha: Float64Array;
  /** W = -d^2 log p(y|f) / df^2 at the mode (the Gaussian approximation has precision K^-1 + W). */
  w: Float64Array;
  /** W^1/2. */
  sqrtW: Float64Array;
  /** Cholesky factor L of B = I + W^1/2 K W^1/2 at the mode; log|B| = 2 sum log L_ii. */
  choleskyB: Cholesky;
  /** log p(y | f^). */
  logLikelihood: number;
  /** Psi(f^) = log p(y|f^) - 1/2 f^' K^-1 f^. */
  objective: number;
  /** Laplace's log marginal likelihood, GPML eq. 3.32. */
  logZ: number;
  iterations: number;
  /** Step halvings the line search made, over all iterations. */
  halvings: number;
  converged: boolean;
  /** max_i |grad Psi(f^)_i| at the returned mode. */
  gradientNorm: number;
}

interface Evaluation {
  logLik: number;
  d1: Float64Array;
  d2: Float64Array;
}

function evaluate(lik: Likelihood, y: Float64Array, f: Float64Array): Evaluation {
  const n = f.length;
  const d1 = new Float64Array(n);
  const d2 = new Float64Array(n);
  const logLik = lik.derivatives(y, f, d1, d2);
  return { logLik, d1, d2 };
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function factorB(k: Matrix, sqrtW: Float64Array): Cholesky {
  return choleskyIdentityPlusScaled(k, sqrtW, "B = I + W^1/2 K W^1/2", { skipFiniteCheck: true });
}

/** Laplace's approximation (GPML Algorithm 3.1 with a line search); any log-concave Likelihood. */
export function laplace(k: Matrix, y: Float64Array, likelihood: Likelihood, options: LaplaceOptions = {}): LaplaceResult {
  assertSquare(k, "K");
  const n = k.rows;
  assertLength(y, n, "y");
  likelihood.checkResponses(y);
  const maxIterations = options.maxIterations ?? 100;
  const gradTol = options.gradientTolerance ?? 1e-9;
  const objTol = options.objectiveTolerance ?? 1e-12;
  const maxHalvings = options.maxHalvings ?? 30;
  const warn = options.onWarning ?? ((s: string) => process.stderr.write(s + "\n"));

  let a = new Float64Array(n);
  let f = new Float64Array(n);
  if (options.initialAlpha) {
    assertLength(options.initialAlpha, n, "initialAlpha");
    a = Float64Array.from(options.initialAlpha);
    symmetricMatvecInto(k, a, f);
  }
  let ev = evaluate(likelihood, y, f);
  let psi = ev.logLik - 0.5 * dot(a, f);
  if (!Number.isFinite(psi)) throw new Error(`Laplace: the objective is not finite at the starting point (${psi})`);
  let lastChange = Infinity;
  let iterations = 0;
  let halvings = 0;
  let converged = false;
  const sqrtW = new Float64Array(n);
  const w = new Float64Array(n);
  let chol: Cholesky;
  let gradNorm = Infinity;
  const kb = new Float64Array(n);
  const fNew = new Float64Array(n);
  const df = new Float64Array(n);
  const aTrial = new Float64Array(n);
  const fTrial = new Float64Array(n);

  for (;;) {
    // W, B and the gradient at the current f.
    for (let i = 0; i < n; i++) {
      if (ev.d2[i] > 0) throw new NotLogConcaveError(likelihood.name, i, ev.d2[i]);
      w[i] = -ev.d2[i];
      sqrtW[i] = Math.sqrt(w[i]);
    }
    chol = factorB(k, sqrtW);
    gradNorm = 0;
    for (let i = 0; i < n; i++) gradNorm = Math.max(gradNorm, Math.abs(ev.d1[i] - a[i]));
    if (gradNorm < gradTol && lastChange < objTol * Math.max(1, Math.abs(psi))) {
      converged = true;
      break;
    }
    if (iterations >= maxIterations) break;
    iterations++;
    // Newton step (GPML Algorithm 3.1 lines 4-8): b = W f + grad; a_new = b - W^1/2 L'\(L\(W^1/2 K b)).
    const b = new Float64Array(n);
    for (let i = 0; i < n; i++) b[i] = w[i] * f[i] + ev.d1[i];
    symmetricMatvecInto(k, b, kb);
    for (let i = 0; i < n; i++) kb[i] *= sqrtW[i];
    chol.solveInPlace(kb);
    const aNew = new Float64Array(n);
    for (let i = 0; i < n; i++) aNew[i] = b[i] - sqrtW[i] * kb[i];
    symmetricMatvecInto(k, aNew, fNew);
    for (let i = 0; i < n; i++) df[i] = fNew[i] - f[i];
    // Backtracking: halve the step in a (and so in f = K a) until Psi does not decrease.
    let t = 1;
    let accepted = false;
    let evTrial: Evaluation | undefined;
    let psiTrial = -Infinity;
    for (let h = 0; h <= maxHalvings; h++) {
      for (let i = 0; i < n; i++) {
        aTrial[i] = a[i] + t * (aNew[i] - a[i]);
        fTrial[i] = f[i] + t * df[i];
      }
      evTrial = evaluate(likelihood, y, fTrial);
      psiTrial = evTrial.logLik - 0.5 * dot(aTrial, fTrial);
      // Accept ascent, or a change at round-off level (near the mode Psi is flat to
      // working precision and a strict test would halve to no purpose).
      if (Number.isFinite(psiTrial) && psiTrial >= psi - 4 * Number.EPSILON * Math.max(1, Math.abs(psi))) {
        accepted = true;
        break;
      }
      t *= 0.5;
      halvings++;
    }
    if (!accepted || !evTrial) {
      // No step increases Psi: at the mode to working precision (then the test at the top of
      // the loop accepts it), or stuck (reported as not converged).
      lastChange = 0;
      if (gradNorm < gradTol) continue;
      break;
    }
    lastChange = Math.abs(psiTrial - psi);
    a = Float64Array.from(aTrial);
    f = Float64Array.from(fTrial);
    ev = evTrial;
    psi = psiTrial;
  }
  if (!converged) {
    warn(`gpmcmc: Laplace's Newton iteration did not converge in ${iterations} steps: gradient ${gradNorm.toExponential(2)} (tolerance ${gradTol}), last objective change ${lastChange.toExponential(2)}`);
  }
  let logDetHalf = 0;
  const ld = chol!.factor.data;
  for (let i = 0; i < n; i++) logDetHalf += Math.log(ld[i + i * n]);
  const logZ = -0.5 * dot(a, f) + ev.logLik - logDetHalf;
  return {
    mode: f, alpha: a, w: Float64Array.from(w), sqrtW: Float64Array.from(sqrtW), choleskyB: chol!,
    logLikelihood: ev.logLik, objective: psi, logZ, iterations, halvings, converged, gradientNorm: gradNorm,
  };
}

/**
 * The covariance of Laplace's Gaussian approximation, (K^-1 + W)^-1 = K - V'V with
 * V = L \ (W^1/2 K) (GPML eq. 3.27 and Algorithm 3.2 lines 5-6), dense.
 */
export function laplaceCovariance(k: Matrix, result: LaplaceResult): Matrix {
  return woodburyInverseMatrix(k, result.sqrtW, result.choleskyB.factor.data);
}
