/**
 * The annealed latent GP target of the note (Paquet & Fraccaro), eq. (4):
 *   L_beta(x) = beta [sum_n log p(y_n | x_n) + log N(x; 0, K)] + (1 - beta) log N(x; mu, Sigma),
 * normalised as in footnote 1 (beta = 0: log q(x); beta = 1: the log joint log p(y, x)), with
 * q either the prior (mu = 0, Sigma = K) or an EP-style Gaussian Sigma^-1 = K^-1 + Sigma-tilde^-1.
 *
 * Its local geometry uses the note's metric (eq. 16)
 *   G(x) = Lambda(x) + beta K^-1 + (1 - beta) Sigma^-1,   Lambda = -beta diag(d2 log p(y_n | x_n)).
 * Both of Algorithm 3's branches are one case here: with Sigma^-1 = K^-1 + diag(tau),
 *   G = K^-1 + D,   D = Lambda + (1 - beta) diag(tau)   (diagonal, >= 0),
 * so a single Woodbury step with S = D^1/2 and B = I + S K S = L L' (Algorithm 3 lines 14-18)
 * gives everything, for either q:
 *   G^-1 = K - K S B^-1 S K = K - V'V,  V = L^-1 S K,   log|G| = -log|K| + 2 sum log L_nn.
 * (The note's second branch, lines 20-28, nests two Woodbury steps through A; it gives the same
 * G and is kept, as written, in `noteMetric.ts` as the reference.)
 *
 * Costs (flops, leading order; n = number of latent values):
 *   inverseMetricAt(x)             n^3/3 (potrf of B) + n^2 (forming B's lower triangle)
 *     .applyInverse(p)             6 n^2   (two symv with K, two trsv with L)
 *   geometry(x)                    n^3/3 (potrf; skipped when inverseMetricAt(x) was the last
 *                                  call at this x: its factor is reused) + O(n^2)
 *     .logDensity, .gradient       2 n^2   (two trsv with L_K; lazy)
 *     .logDetMetric                O(n)
 *     .hamiltonianGradient(p)      n^3/3 once (the trace term, below; lazy), then 6 n^2 per call
 *                                  (Algorithm 2)
 *     .inverseMetricDiagonal       n^3     (trsm V = L^-1 S K, then column norms; lazy, once;
 *                                  not needed by hamiltonianGradient)
 *     .sampleMomentum              n^2     (one trsv with L_K; no factorisation of G or G^-1)
 *     .applyMetric(v)              2 n^2
 *     .inverseMetricMatrix()       2 n^3   (trsm + syrk, K - V'V; reference use only)
 * So one full geometry costs 2 n^3/3, or n^3/3 after a fixed-point loop that ended at x,
 * against the ~2.33 n^3 (potrf + trsm + V'V) of Algorithm 3 at each fixed-point iteration.
 *
 * The trace term of dH/dx (Algorithm 2), 1/2 tr(G^-1 dG/dx_n) = 1/2 dg_n (G^-1)_nn, needs only
 * the diagonal of G^-1, and with K S = (B - I) S^-1 row by row,
 *   (G^-1)_nn = K_nn - (K S B^-1 S K)_nn = (1 - (B^-1)_nn) / D_nn        (D_nn > 0),
 * where (B^-1)_nn is the squared norm of column n of L^-1 (one triangular inversion, n^3/3,
 * instead of the n^3 trsm for V). The subtraction loses digits when D_nn K_nn is small, but the
 * term is 1/2 (dg_n / D_nn)(1 - (B^-1)_nn), and dg_n / D_nn = d3/d2 stays moderate for the
 * log-concave likelihoods here (about -y f for probit as y f grows), so its absolute error stays
 * at rounding level; where D_nn = 0 the diagonal entry is formed directly from L^-1.
 *
 * Momentum draws: G = K^-1 + D, so p = L_K^-T z1 + D^1/2 o z2 with z1, z2 ~ N(0, I)
 * independent has covariance L_K^-T L_K^-1 + D = K^-1 + D = G (note Algorithm 1 lines 5-7 use
 * chol(G^-1) instead; both are exact draws from N(0, G), from different random numbers).
 */
import { backendFor, type Cholesky } from "../linalg/cholesky.js";
import { opCounts } from "../linalg/counters.js";
import { invertLowerTriangularInPlace } from "../linalg/triangular.js";
import { DimensionError } from "../linalg/errors.js";
import { Matrix } from "../linalg/matrix.js";
import type { Likelihood } from "../likelihoods/types.js";
import type { RandomSource } from "../random/types.js";
import { IndefiniteMetricError, StaleGeometryError, TargetOptionError } from "./errors.js";
import { LatentModel, type LatentModelOptions, type LogDensityParts } from "./latentModel.js";
import { NoteGeometry } from "./noteMetric.js";
import type { InverseMetric, LocalGeometry, Target } from "./types.js";

export type { GaussianApproximation, LogDensityParts } from "./latentModel.js";

export interface AnnealedLatentOptions extends LatentModelOptions {
  /** Inverse temperature in [0, 1] (default 1: the posterior p(x | y)). */
  beta?: number;
}

/**
 * What the metric needs at one position: the likelihood terms, S = D^1/2 and the Cholesky
 * factor of B = I + S K S in an n x n buffer that may be recycled (then `alive` turns false).
 */
class MetricCore {
  alive = true;
  /** Taken over by a geometry (the buffer is then the geometry's to release). */
  promoted = false;
  readonly x: Float64Array;
  readonly logLik: number;
  readonly d1: Float64Array;
  /** dg_n = dG_nn/dx_n = -beta d3 log p(y_n | x_n) (Algorithm 3 lines 9-10). */
  readonly dg: Float64Array;
  /** D = Lambda + (1 - beta) diag(tau). */
  readonly d: Float64Array;
  readonly s: Float64Array;
  readonly factor: Float64Array;
  /** log|B| = 2 sum log L_nn; NaN when x or the likelihood terms are not finite. */
  readonly logDetB: number;
  readonly finite: boolean;

  constructor(model: LatentModel, beta: number, x: Float64Array, buffer: Float64Array) {
    const n = model.n;
    if (x.length !== n) throw new DimensionError(`position has length ${x.length}, expected ${n}`);
    this.x = x.slice();
    this.factor = buffer;
    this.d1 = new Float64Array(n);
    const d2 = new Float64Array(n);
    this.dg = new Float64Array(n);
    this.logLik = model.likelihood.derivatives(model.y, this.x, this.d1, d2, this.dg);
    this.d = d2; // reused in place: d2 -> D
    this.s = new Float64Array(n);
    const tau = model.tau;
    let finite = true;
    for (let i = 0; i < n; i++) {
      // Lambda_nn = -beta d2 (Algorithm 3 lines 7-8), dg = -beta d3 (lines 9-10)
      let di = beta === 0 ? 0 : -beta * d2[i];
      if (tau && beta !== 1) di += (1 - beta) * tau[i];
      this.dg[i] = beta === 0 ? 0 : -beta * this.dg[i];
      if (!Number.isFinite(di) || !Number.isFinite(this.x[i]) || !Number.isFinite(this.dg[i])) finite = false;
      else if (di < 0) throw new IndefiniteMetricError(i, di);
      this.d[i] = di;
      this.s[i] = Math.sqrt(di);
    }
    if (!finite) {
      this.finite = false;
      this.logDetB = NaN;
      return;
    }
    // B = I + S K S = I + K o (s s') (Algorithm 3 line 14), lower triangle only
    const K = model.K.data;
    const b = buffer;
    const s = this.s;
    for (let j = 0; j < n; j++) {
      const sj = s[j];
      const cj = j * n;
      for (let i = j; i < n; i++) b[i + cj] = s[i] * K[i + cj] * sj;
      b[j + cj] += 1;
    }
    opCounts.cholesky++;
    opCounts.flops += (n * n * n) / 3;
    const info = backendFor(n).potrf("L", n, b, n);
    let logDet = 0;
    if (info === 0) for (let i = 0; i < n; i++) logDet += Math.log(b[i + i * n]);
    // B has eigenvalues >= 1: only overflow (huge s) can make potrf fail
    this.finite = info === 0 && Number.isFinite(logDet);
    this.logDetB = this.finite ? 2 * logDet : NaN;
  }

  /** out <- G^-1 p = K p - K S B^-1 S K p (6 n^2 flops). `out` may be `p`. */
  applyInverse(model: LatentModel, p: Float64Array, out: Float64Array): void {
    const n = model.n;
    if (p.length !== n || out.length !== n) throw new DimensionError(`vectors must have length ${n}`);
    if (!this.finite) {
      out.fill(NaN);
      return;
    }
    const be = backendFor(n);
    const u = model.scratchU;
    const t = model.scratchT;
    const s = this.s;
    model.multiplyK(p, u); // u = K p
    for (let i = 0; i < n; i++) t[i] = s[i] * u[i];
    be.trsv("L", "N", "N", n, this.factor, n, t);
    be.trsv("L", "T", "N", n, this.factor, n, t); // t = B^-1 S K p
    for (let i = 0; i < n; i++) t[i] *= s[i];
    be.symv("L", n, -1, model.K.data, n, t, 1, u); // u = K p - K S B^-1 S K p
    out.set(u);
  }
}

function sameVector(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** G(x)^-1 only (the fixed-point loop of the generalised leapfrog); lives until the next inverseMetricAt. */
class LatentInverseMetric implements InverseMetric {
  constructor(private readonly model: LatentModel, private readonly core: MetricCore) {}

  get position(): Float64Array {
    if (!this.core.alive) throw new StaleGeometryError("an inverse metric");
    return this.core.x;
  }

  applyInverse(p: Float64Array, out: Float64Array): void {
    if (!this.core.alive) throw new StaleGeometryError("an inverse metric");
    this.core.applyInverse(this.model, p, out);
  }
}

/** The local geometry of L_beta at x (see the module comment for what each member costs). */
export class AnnealedLatentGeometry implements LocalGeometry {
  private released = false;
  private cachedLogDensity: number | undefined;
  private cachedGradient: Float64Array | undefined;
  private cachedDiagInv: Float64Array | undefined;
  private cachedTrace: Float64Array | undefined;
  private cachedDense: Matrix | undefined;

  constructor(private readonly model: LatentModel, readonly beta: number, private readonly core: MetricCore) {}

  private check(): MetricCore {
    if (!this.core.alive) throw new StaleGeometryError("a geometry");
    return this.core;
  }

  get position(): Float64Array {
    return this.check().x;
  }

  private evaluate(): void {
    const c = this.check();
    const g = new Float64Array(this.model.n);
    this.cachedLogDensity = this.model.logDensity(this.beta, c.x, c.logLik, c.d1, g);
    this.cachedGradient = g;
  }

  /** L_beta(x) (note eq. 4, normalised). */
  get logDensity(): number {
    if (this.cachedLogDensity === undefined) this.evaluate();
    return this.cachedLogDensity!;
  }

  /** dL_beta/dx (Algorithm 4). */
  get gradient(): Float64Array {
    if (this.cachedGradient === undefined) this.evaluate();
    return this.cachedGradient!;
  }

  /** sum_n log p(y_n | x_n). */
  get logLikelihood(): number {
    return this.check().logLik;
  }

  /** log|G(x)| = -log|K| + log|I + S K S| (Algorithm 3 line 18). */
  get logDetMetric(): number {
    return -this.model.logDetK + this.check().logDetB;
  }

  /** dg: the non-zero entries dG_nn/dx_n of dG/dx_n (note eq. 17; Algorithm 3 lines 9-10). */
  get metricDerivativeDiagonal(): Float64Array {
    return this.check().dg;
  }

  /** The diagonal D of G - K^-1 = Lambda(x) + (1 - beta) Sigma-tilde^-1. */
  get metricDiagonalPart(): Float64Array {
    return this.check().d;
  }

  /**
   * diag(G^-1)_n = K_nn - |V e_n|^2 with V = L^-1 S K (one trsm with n right-hand sides,
   * n^3 flops, into a workspace shared by the target; computed once per geometry).
   */
  get inverseMetricDiagonal(): Float64Array {
    if (this.cachedDiagInv) return this.cachedDiagInv;
    const c = this.check();
    const n = this.model.n;
    const diag = new Float64Array(n);
    if (!c.finite) {
      diag.fill(NaN);
    } else {
      const V = this.model.transientSquare();
      this.solveV(c, V);
      const K = this.model.K.data;
      for (let j = 0; j < n; j++) {
        const cj = j * n;
        let ss = 0;
        for (let i = 0; i < n; i++) ss += V[i + cj] * V[i + cj];
        diag[j] = K[j + cj] - ss;
      }
    }
    this.cachedDiagInv = diag;
    return diag;
  }

  /** V <- L^-1 (K * s), the note's "K ? s" row scaling then a triangular solve (Algorithm 3 line 15). */
  private solveV(c: MetricCore, V: Float64Array): void {
    const n = this.model.n;
    const K = this.model.K.data;
    const s = c.s;
    for (let j = 0; j < n; j++) {
      const cj = j * n;
      for (let i = 0; i < n; i++) V[i + cj] = s[i] * K[i + cj];
    }
    opCounts.triangularSolveMatrix++;
    opCounts.flops += n * n * n;
    backendFor(n).trsm("L", "L", "N", "N", n, n, 1, c.factor, n, V, n);
  }

  applyInverse(p: Float64Array, out: Float64Array): void {
    this.check().applyInverse(this.model, p, out);
  }

  /** out <- G v = K^-1 v + D v (two trsv with L_K). `out` may be `v`. */
  applyMetric(v: Float64Array, out: Float64Array): void {
    const c = this.check();
    const n = this.model.n;
    if (v.length !== n || out.length !== n) throw new DimensionError(`vectors must have length ${n}`);
    const t = this.model.scratchT;
    t.set(v);
    this.model.LK.solveInPlace(t);
    for (let i = 0; i < n; i++) out[i] = t[i] + c.d[i] * v[i];
  }

  /** out <- p ~ N(0, G): p = L_K^-T z1 + D^1/2 o z2 (n^2 flops; draws z1 then z2, 2n normals). */
  sampleMomentum(rng: RandomSource, out: Float64Array): void {
    const c = this.check();
    const n = this.model.n;
    if (out.length !== n) throw new DimensionError(`momentum must have length ${n}`);
    rng.fillNormal(out);
    this.model.LK.solveUpperInPlace(out);
    for (let i = 0; i < n; i++) out[i] += c.s[i] * rng.normal();
  }

  /**
   * t_n = 1/2 dg_n (G^-1)_nn = 1/2 tr(G^-1 dG/dx_n), by the triangular inverse of L (see the
   * module comment; n^3/3 flops, once per geometry; from the diagonal when that is known).
   */
  private get traceTerm(): Float64Array {
    if (this.cachedTrace) return this.cachedTrace;
    const c = this.check();
    const n = this.model.n;
    const t = new Float64Array(n);
    const dg = c.dg;
    if (this.cachedDiagInv) {
      for (let i = 0; i < n; i++) t[i] = 0.5 * dg[i] * this.cachedDiagInv[i];
    } else if (!c.finite) {
      t.fill(NaN);
    } else {
      // Linv <- L^-1 in the transient workspace (lower triangle)
      const Linv = this.model.transientSquare();
      const L = c.factor;
      for (let j = 0; j < n; j++) Linv.set(L.subarray(j * n + j, (j + 1) * n), j * n + j);
      invertLowerTriangularInPlace(n, Linv, n);
      const d = c.d;
      const K = this.model.K.data;
      for (let i = 0; i < n; i++) {
        if (dg[i] === 0) continue;
        const ci = i * n;
        if (d[i] > 0) {
          let binv = 0; // (B^-1)_ii = |L^-1 e_i|^2: column i of L^-1, rows i..n-1
          for (let k = i; k < n; k++) binv += Linv[k + ci] * Linv[k + ci];
          t[i] = 0.5 * (dg[i] / d[i]) * (1 - binv);
        } else {
          // (G^-1)_ii = K_ii - |L^-1 S K e_i|^2 directly (s_i = 0: rare, O(n^2))
          const s = c.s;
          let ss = 0;
          for (let k = 0; k < n; k++) {
            let v = 0;
            for (let m = 0; m <= k; m++) v += Linv[k + m * n] * s[m] * K[m + ci];
            ss += v * v;
          }
          t[i] = 0.5 * dg[i] * (K[i + ci] - ss);
        }
      }
    }
    this.cachedTrace = t;
    return t;
  }

  /**
   * out <- dH/dx = 1/2 dg o diag(G^-1) - 1/2 w o w o dg - dL/dx, w = G^-1 p (Algorithm 2;
   * 6 n^2 flops once the trace term is known). `out` may be `p`.
   */
  hamiltonianGradient(p: Float64Array, out: Float64Array): void {
    const c = this.check();
    const n = this.model.n;
    const trace = this.traceTerm;
    const grad = this.gradient;
    const w = this.model.scratchW;
    c.applyInverse(this.model, p, w);
    const dg = c.dg;
    for (let i = 0; i < n; i++) out[i] = trace[i] - 0.5 * dg[i] * w[i] * w[i] - grad[i];
  }

  /** Dense G^-1 = K - V'V (Algorithm 3 line 17; 2 n^3 flops, a new matrix; for reference use). */
  inverseMetricMatrix(): Matrix {
    if (this.cachedDense) return this.cachedDense;
    const c = this.check();
    const n = this.model.n;
    const out = this.model.K.clone();
    if (!c.finite) {
      out.data.fill(NaN);
    } else {
      const V = new Float64Array(n * n);
      this.solveV(c, V);
      opCounts.symmetricProduct++;
      opCounts.flops += n * n * n;
      backendFor(n).syrk("L", "T", n, n, -1, V, n, 1, out.data, n);
      const o = out.data;
      for (let j = 0; j < n; j++) for (let i = j + 1; i < n; i++) o[j + i * n] = o[i + j * n];
    }
    this.cachedDense = out;
    return out;
  }

  /** This geometry will not be used again: its n x n workspace goes back to the target. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.core.alive = false;
    this.model.recycle(this.core.factor);
  }
}

/** The annealed latent GP target L_beta (note eq. 4) with its local geometry (eq. 16, Algorithms 2-4). */
export class AnnealedLatentTarget implements Target {
  readonly dim: number;
  readonly beta: number;
  private scratch: MetricCore | null = null;

  /** @internal use `annealedLatentTarget` or `withBeta`. */
  constructor(private readonly model: LatentModel, beta: number) {
    if (!(beta >= 0 && beta <= 1)) throw new TargetOptionError(`beta must be in [0, 1], got ${beta}`);
    this.dim = model.n;
    this.beta = beta;
  }

  /** The same model at another inverse temperature (shares K, its factor and q; no refactorisation). */
  withBeta(beta: number): AnnealedLatentTarget {
    return new AnnealedLatentTarget(this.model, beta);
  }

  get likelihood(): Likelihood {
    return this.model.likelihood;
  }

  get y(): Float64Array {
    return this.model.y;
  }

  /** K as used (with the jitter, if any, on its diagonal). */
  get kernelMatrix(): Matrix {
    return this.model.K;
  }

  /** The Cholesky factor L_K of K (K = L_K L_K'), shared with the target: read it, do not write it. */
  get kernelCholesky(): Cholesky {
    return this.model.LK;
  }

  /** Jitter added to the diagonal of K (0: none). */
  get jitter(): number {
    return this.model.jitter;
  }

  /** log|K| and log|Sigma| (the normalising constants of footnote 1). */
  get logDetK(): number {
    return this.model.logDetK;
  }

  get logDetSigma(): number {
    return this.model.logDetSigma;
  }

  /** The mean mu of q (a copy), or null when q is the prior (mean 0). */
  get qMean(): Float64Array | null {
    return this.model.mu === null ? null : this.model.mu.slice();
  }

  /** Whether q is the prior (Algorithm 3's first branch) rather than an EP-style Gaussian. */
  get qIsPrior(): boolean {
    return this.model.mu === null;
  }

  private checkLength(x: Float64Array): void {
    if (x.length !== this.dim) throw new DimensionError(`position has length ${x.length}, expected ${this.dim}`);
  }

  logDensity(x: Float64Array): number {
    this.checkLength(x);
    return this.model.logDensity(this.beta, x, this.model.likelihood.logLikelihood(this.model.y, x), null, null);
  }

  logDensityAndGradient(x: Float64Array, grad: Float64Array): number {
    this.checkLength(x);
    const d1 = this.model.scratchD1;
    const ll = this.model.likelihood.derivatives(this.model.y, x, d1, this.model.scratchD2);
    return this.model.logDensity(this.beta, x, ll, d1, grad);
  }

  /**
   * sum log p(y|x), log N(x; 0, K) and log q(x), each normalised: L_beta = beta (first + second)
   * + (1 - beta) third. AIS weights use these (log w += (beta' - beta)(first + second - third)).
   */
  logDensityParts(x: Float64Array): LogDensityParts {
    this.checkLength(x);
    return this.model.parts(x, this.model.likelihood.logLikelihood(this.model.y, x));
  }

  /**
   * The geometry at x. If the last `inverseMetricAt` call on this target was at exactly this x
   * (as at the end of the position fixed-point loop), its factorisation is taken over.
   */
  geometry(x: Float64Array): AnnealedLatentGeometry {
    this.checkLength(x);
    const sc = this.scratch;
    let core: MetricCore;
    if (sc && sc.alive && !sc.promoted && sameVector(sc.x, x)) {
      sc.promoted = true;
      core = sc;
    } else {
      core = new MetricCore(this.model, this.beta, x, this.model.acquire());
    }
    return new AnnealedLatentGeometry(this.model, this.beta, core);
  }

  /**
   * G(x)^-1 only: one factorisation of I + S K S (n^3/3) and 6 n^2 per application. The object
   * lives until the next inverseMetricAt call on this target (its workspace is then reused).
   */
  inverseMetricAt(x: Float64Array): InverseMetric & { readonly position: Float64Array } {
    this.checkLength(x);
    const sc = this.scratch;
    let buffer: Float64Array;
    if (sc && !sc.promoted) {
      sc.alive = false;
      buffer = sc.factor;
    } else {
      buffer = this.model.acquire();
    }
    // a failure while building must not leave a dead core as the scratch
    this.scratch = null;
    const core = new MetricCore(this.model, this.beta, x, buffer);
    this.scratch = core;
    return new LatentInverseMetric(this.model, core);
  }

  /**
   * The geometry computed as Algorithm 3 is written (dense G^-1 = K - V'V, the nested Woodbury
   * of its second branch, momentum through chol(G^-1) as in Algorithm 1 lines 5-7): the
   * reference the fast geometry is checked against. About 2.33 n^3 flops (4.67 n^3 for an
   * EP-style q), allocating freely.
   */
  referenceGeometry(x: Float64Array): NoteGeometry {
    this.checkLength(x);
    return new NoteGeometry(this.model, this.beta, x);
  }

  /** This target with `geometry` = the reference geometry and no `inverseMetricAt`. */
  referenceTarget(): Target {
    return {
      dim: this.dim,
      logDensity: (x) => this.logDensity(x),
      logDensityAndGradient: (x, g) => this.logDensityAndGradient(x, g),
      geometry: (x) => this.referenceGeometry(x),
    };
  }
}

/** The annealed latent GP target L_beta of note eq. (4); see `AnnealedLatentOptions`. */
export function annealedLatentTarget(options: AnnealedLatentOptions): AnnealedLatentTarget {
  const beta = options.beta ?? 1;
  if (!(beta >= 0 && beta <= 1)) throw new TargetOptionError(`beta must be in [0, 1], got ${beta}`);
  return new AnnealedLatentTarget(new LatentModel(options), beta);
}
