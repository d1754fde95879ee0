/**
 * What the annealed latent GP target shares across inverse temperatures: the data, the kernel
 * matrix K and its Cholesky factor L_K, the Gaussian q = N(mu, Sigma) with
 * Sigma^-1 = K^-1 + Sigma-tilde^-1 (note Section 4.1), the normalising constants of note
 * footnote 1, and the workspaces of the metric computations.
 *
 * K^-1 is never formed: quadratic forms and solves go through L_K (O(n^2) per vector), and
 * Sigma is never formed either: x' Sigma^-1 x = |L_K^-1 x|^2 + sum_n x_n^2 / Sigma-tilde_nn and
 * log|Sigma| = log|K| - log|I + T K T| with T = Sigma-tilde^-1/2 (one Cholesky at set-up).
 */
import { backendFor, cholesky, type Cholesky } from "../linalg/cholesky.js";
import { DimensionError, NotPositiveDefiniteError } from "../linalg/errors.js";
import { assertFinite, assertSquare, Matrix } from "../linalg/matrix.js";
import type { Likelihood } from "../likelihoods/types.js";
import { LOG_SQRT_2PI } from "../math/normal.js";
import { TargetOptionError } from "./errors.js";
import { choleskyIdentityPlusScaled } from "./woodbury.js";

/**
 * An EP-style Gaussian q(x) = N(x; mu, Sigma) with Sigma^-1 = K^-1 + diag(tau) (note Section
 * 4.1, Rasmussen & Williams ch. 3.6): the mean and either the site variances Sigma-tilde_nn
 * (> 0; Infinity for a point without a site) or the site precisions tau_n = 1/Sigma-tilde_nn (>= 0).
 */
export interface GaussianApproximation {
  mean: ArrayLike<number>;
  siteVariances?: ArrayLike<number>;
  sitePrecisions?: ArrayLike<number>;
}

export interface LatentModelOptions {
  likelihood: Likelihood;
  /** Responses, one per latent value (checked by the likelihood). */
  y: ArrayLike<number>;
  /** The prior covariance K (n x n, symmetric; its lower triangle is factorised). Copied. */
  kernelMatrix: Matrix;
  /** q = N(mu, Sigma) of note eq. (4); omitted: q is the prior N(0, K). */
  q?: GaussianApproximation;
  /**
   * Added to the diagonal of K before anything else (the model's prior becomes N(0, K + jitter I)).
   * A number is always applied; "auto" is applied only when K itself fails to factorise, trying
   * 1e-10, 1e-9, ..., 1e-4 times the mean of diag K. Default: none. Whenever jitter is applied
   * it is reported through `onJitter` (default: one line on stderr).
   */
  jitter?: number | "auto";
  onJitter?: (message: string) => void;
  /**
   * The Cholesky factor of kernelMatrix when the caller already has it (a chain that samples
   * theta keeps K's factor at the current theta): no factorisation here. Ignored with a jitter.
   */
  kernelCholesky?: Cholesky;
}

export interface LogDensityParts {
  /** sum_n log p(y_n | x_n). */
  logLikelihood: number;
  /** log N(x; 0, K), normalised. */
  logPrior: number;
  /** log q(x) = log N(x; mu, Sigma), normalised (equals logPrior when q is the prior). */
  logQ: number;
}

/**
 * The arrays of the metric at one position: the n x n factor of B = I + S K S and the n-vectors
 * beside it. They are recycled together, since a fresh typed array costs about a microsecond,
 * which is several per cent of a whole SMMALA transition at n = 100.
 */
export interface MetricWorkspace {
  readonly factor: Float64Array;
  readonly x: Float64Array;
  readonly d1: Float64Array;
  readonly d2: Float64Array;
  readonly d3: Float64Array;
  readonly s: Float64Array;
  readonly gradient: Float64Array;
}

function metricWorkspace(n: number): MetricWorkspace {
  const vector = () => new Float64Array(n);
  return { factor: new Float64Array(n * n), x: vector(), d1: vector(), d2: vector(), d3: vector(), s: vector(), gradient: vector() };
}

export class LatentModel {
  readonly n: number;
  readonly y: Float64Array;
  readonly likelihood: Likelihood;
  /** K (plus the jitter, if any). */
  readonly K: Matrix;
  readonly LK: Cholesky;
  readonly logDetK: number;
  /** The jitter added to the diagonal of K (0 if none). */
  readonly jitter: number;
  /** mu of q, or null when q is the prior. */
  readonly mu: Float64Array | null;
  /** Site precisions tau_n = 1/Sigma-tilde_nn of q, or null when q is the prior. */
  readonly tau: Float64Array | null;
  /** L_K^-1 mu. */
  readonly cmu: Float64Array | null;
  /** log|Sigma| (= log|K| when q is the prior). */
  readonly logDetSigma: number;

  // n-vector scratch (the model is used from one thread; no routine here re-enters another)
  readonly scratchA: Float64Array;
  readonly scratchB: Float64Array;
  readonly scratchU: Float64Array;
  readonly scratchT: Float64Array;
  readonly scratchW: Float64Array;
  readonly scratchD1: Float64Array;
  readonly scratchD2: Float64Array;
  private vScratch: Float64Array | null = null;
  private readonly pool: MetricWorkspace[] = [];

  constructor(o: LatentModelOptions) {
    const K0 = o.kernelMatrix;
    assertSquare(K0, "kernel matrix K");
    assertFinite(K0, "kernel matrix K");
    const n = K0.rows;
    if (n === 0) throw new DimensionError("kernel matrix K is empty");
    if (o.y.length !== n) throw new DimensionError(`y has ${o.y.length} entries but K is ${n} x ${n}`);
    this.n = n;
    this.y = Float64Array.from(o.y);
    o.likelihood.checkResponses(this.y);
    this.likelihood = o.likelihood;

    const { K, LK, jitter } = o.kernelCholesky && o.jitter === undefined
      ? { K: K0.clone(), LK: o.kernelCholesky, jitter: 0 }
      : factoriseKernel(K0, o.jitter, o.onJitter);
    this.K = K;
    this.LK = LK;
    this.jitter = jitter;
    this.logDetK = LK.logDet();

    if (o.q) {
      const q = o.q;
      if (q.mean.length !== n) throw new DimensionError(`q.mean has ${q.mean.length} entries, expected ${n}`);
      const mu = Float64Array.from(q.mean);
      mu.forEach((v, i) => {
        if (!Number.isFinite(v)) throw new TargetOptionError(`q.mean[${i + 1}] is ${v}, expected a finite number`);
      });
      this.mu = mu;
      this.tau = sitePrecisions(q, n);
      this.cmu = LK.solveLowerInPlace(mu.slice());
      // log|Sigma| = log|K| - log|I + T K T|, T = diag(sqrt(tau)) (the Woodbury step's determinant)
      const t = this.tau.map(Math.sqrt);
      this.logDetSigma = this.logDetK - choleskyIdentityPlusScaled(K, t, "I + T K T").logDet();
    } else {
      this.mu = null;
      this.tau = null;
      this.cmu = null;
      this.logDetSigma = this.logDetK;
    }
    this.scratchA = new Float64Array(n);
    this.scratchB = new Float64Array(n);
    this.scratchU = new Float64Array(n);
    this.scratchT = new Float64Array(n);
    this.scratchW = new Float64Array(n);
    this.scratchD1 = new Float64Array(n);
    this.scratchD2 = new Float64Array(n);
  }

  /** A metric workspace from the pool (or a new one); its contents are stale. */
  acquire(): MetricWorkspace {
    return this.pool.pop() ?? metricWorkspace(this.n);
  }

  /** Returns a workspace to the pool (a few are kept; the rest are left to the collector). */
  recycle(w: MetricWorkspace): void {
    if (this.pool.length < 6) this.pool.push(w);
  }

  /** A transient n x n workspace (valid until the next call). */
  transientSquare(): Float64Array {
    return (this.vScratch ??= new Float64Array(this.n * this.n));
  }

  /**
   * The three terms of L_beta (note eq. 4 with the constants of footnote 1) at x, given
   * sum_n log p(y_n | x_n) already computed.
   */
  parts(x: Float64Array, logLik: number): LogDensityParts {
    const n = this.n;
    const a = this.scratchA;
    a.set(x);
    this.LK.solveLowerInPlace(a); // a = L_K^-1 x (n^2 flops)
    let aa = 0;
    for (let i = 0; i < n; i++) aa += a[i] * a[i];
    const logPrior = -n * LOG_SQRT_2PI - 0.5 * this.logDetK - 0.5 * aa;
    let logQ = logPrior;
    if (this.mu && this.tau && this.cmu) {
      // (x - mu)' Sigma^-1 (x - mu) = |L_K^-1 x - L_K^-1 mu|^2 + sum_n tau_n (x_n - mu_n)^2
      let qq = 0;
      for (let i = 0; i < n; i++) {
        const e = a[i] - this.cmu[i];
        const r = x[i] - this.mu[i];
        qq += e * e + this.tau[i] * r * r;
      }
      logQ = -n * LOG_SQRT_2PI - 0.5 * this.logDetSigma - 0.5 * qq;
    }
    return { logLikelihood: logLik, logPrior, logQ };
  }

  /**
   * L_beta(x) = beta [sum_n log p(y_n|x_n) + log N(x; 0, K)] + (1 - beta) log N(x; mu, Sigma)
   * (note eq. 4, Algorithm 4 lines 13 and 17, normalised as in footnote 1), and, when `grad` is
   * given, its gradient (Algorithm 4 lines 14 and 18, with the sign of line 18 corrected):
   *   dL/dx = beta d1 - beta K^-1 x - (1 - beta) [K^-1 (x - mu) + tau o (x - mu)]
   *         = beta d1 - K^-1 (x - (1 - beta) mu) - (1 - beta) tau o (x - mu),
   * with d1 the first derivatives of the log likelihood. For the prior q this is
   * beta d1 - K^-1 x. Cost: one triangular solve (n^2 flops), two with the gradient.
   */
  logDensity(beta: number, x: Float64Array, logLik: number, d1: Float64Array | null, grad: Float64Array | null): number {
    const p = this.parts(x, logLik);
    // beta = 0 or 1 exactly drop a term, so that an infinite term times 0 gives no NaN
    let value: number;
    if (!this.mu) value = beta === 0 ? p.logPrior : beta * p.logLikelihood + p.logPrior;
    else if (beta === 1) value = p.logLikelihood + p.logPrior;
    else if (beta === 0) value = p.logQ;
    else value = beta * (p.logLikelihood + p.logPrior) + (1 - beta) * p.logQ;
    if (grad && d1) {
      const n = this.n;
      const a = this.scratchA; // L_K^-1 x, left there by parts()
      const b = this.scratchB;
      if (this.cmu) for (let i = 0; i < n; i++) b[i] = a[i] - (1 - beta) * this.cmu[i];
      else b.set(a);
      this.LK.solveUpperInPlace(b); // K^-1 (x - (1 - beta) mu)
      for (let i = 0; i < n; i++) grad[i] = beta * d1[i] - b[i];
      if (this.mu && this.tau && beta !== 1) {
        for (let i = 0; i < n; i++) grad[i] -= (1 - beta) * this.tau[i] * (x[i] - this.mu[i]);
      }
    }
    return value;
  }

  /** out <- K v (symmetric product, 2 n^2 flops). */
  multiplyK(v: Float64Array, out: Float64Array): void {
    backendFor(this.n).symv("L", this.n, 1, this.K.data, this.n, v, 0, out);
  }
}

function sitePrecisions(q: GaussianApproximation, n: number): Float64Array {
  if ((q.siteVariances === undefined) === (q.sitePrecisions === undefined)) {
    throw new TargetOptionError("q needs exactly one of siteVariances and sitePrecisions");
  }
  const tau = new Float64Array(n);
  if (q.siteVariances !== undefined) {
    const v = q.siteVariances;
    if (v.length !== n) throw new DimensionError(`q.siteVariances has ${v.length} entries, expected ${n}`);
    for (let i = 0; i < n; i++) {
      if (!(v[i] > 0)) throw new TargetOptionError(`q.siteVariances[${i + 1}] is ${v[i]}, expected a positive number (Infinity for no site)`);
      tau[i] = 1 / v[i];
    }
  } else {
    const t = q.sitePrecisions!;
    if (t.length !== n) throw new DimensionError(`q.sitePrecisions has ${t.length} entries, expected ${n}`);
    for (let i = 0; i < n; i++) {
      if (!(t[i] >= 0) || !Number.isFinite(t[i])) throw new TargetOptionError(`q.sitePrecisions[${i + 1}] is ${t[i]}, expected a finite number >= 0`);
      tau[i] = t[i];
    }
  }
  return tau;
}

/**
 * Copies K, adds the jitter asked for, and factorises it. Without jitter a K that is not
 * numerically positive definite is an error that says how to add jitter; "auto" tries
 * increasing multiples of mean(diag K) and reports the one that worked.
 */
function factoriseKernel(K0: Matrix, jitter: number | "auto" | undefined, onJitter?: (m: string) => void): { K: Matrix; LK: Cholesky; jitter: number } {
  const n = K0.rows;
  const say = onJitter ?? ((m: string) => process.stderr.write(m + "\n"));
  const attempt = (j: number): { K: Matrix; LK: Cholesky } => {
    const K = K0.clone();
    for (let i = 0; i < n; i++) K.data[i + i * n] += j;
    return { K, LK: cholesky(K, { what: "kernel matrix K", skipFiniteCheck: true }) };
  };
  if (jitter === undefined || jitter === 0) {
    try {
      return { ...attempt(0), jitter: 0 };
    } catch (e) {
      if (e instanceof NotPositiveDefiniteError) {
        throw new NotPositiveDefiniteError(e.pivotIndex, e.pivotValue,
          `kernel matrix K (n = ${n}; pass jitter: <number> or "auto" to add to its diagonal)`);
      }
      throw e;
    }
  }
  if (jitter === "auto") {
    try {
      return { ...attempt(0), jitter: 0 };
    } catch (e) {
      if (!(e instanceof NotPositiveDefiniteError)) throw e;
    }
    let meanDiag = 0;
    for (let i = 0; i < n; i++) meanDiag += K0.data[i + i * n] / n;
    let last: unknown;
    for (let k = -10; k <= -4; k++) {
      const j = meanDiag * 10 ** k;
      try {
        const r = attempt(j);
        say(`gpmcmc: kernel matrix K (n = ${n}) is not numerically positive definite; added jitter ${j.toPrecision(3)} (1e${k} x mean diagonal) to its diagonal`);
        return { ...r, jitter: j };
      } catch (e) {
        if (!(e instanceof NotPositiveDefiniteError)) throw e;
        last = e;
      }
    }
    const e = last as NotPositiveDefiniteError;
    throw new NotPositiveDefiniteError(e.pivotIndex, e.pivotValue, `kernel matrix K (n = ${n}) even with jitter 1e-4 x mean diagonal`);
  }
  if (!(jitter > 0) || !Number.isFinite(jitter)) throw new TargetOptionError(`jitter must be a positive finite number or "auto", got ${jitter}`);
  const r = attempt(jitter);
  say(`gpmcmc: added jitter ${jitter} to the diagonal of the kernel matrix K (n = ${n})`);
  return { ...r, jitter };
}
