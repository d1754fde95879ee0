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
 *     .metricQuadraticForm(v)      n^2     (one trsv with L_K)
 *   fisherMetric(x)                n^3/3 (potrf) + O(n^2): the same metric members, with
 *                                  D = beta R(x) (expected Fisher information) and no dH/dx
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
 *
 * Where things live: the Woodbury step in woodbury.ts, the metric at one position (its factor,
 * G^-1 v, G v, momentum draws) in latentMetric.ts, what RMHMC needs beyond it (dH/dx, dense G^-1)
 * in annealedLatentGeometry.ts, the shared data and workspaces in latentModel.ts.
 */
import type { Cholesky } from "../linalg/cholesky.js";
import { DimensionError } from "../linalg/errors.js";
import type { Matrix } from "../linalg/matrix.js";
import type { Likelihood } from "../likelihoods/types.js";
import { AnnealedLatentGeometry } from "./annealedLatentGeometry.js";
import { TargetOptionError } from "./errors.js";
import { LatentInverseMetric, LatentMetric, MetricCore, sameVector } from "./latentMetric.js";
import { LatentModel, type LatentModelOptions, type LogDensityParts, type MetricWorkspace } from "./latentModel.js";
import { NoteGeometry } from "./noteMetric.js";
import type { InverseMetric, Target } from "./types.js";

export type { GaussianApproximation, LogDensityParts } from "./latentModel.js";
export { AnnealedLatentGeometry } from "./annealedLatentGeometry.js";
export { LatentMetric } from "./latentMetric.js";

export interface AnnealedLatentOptions extends LatentModelOptions {
  /** Inverse temperature in [0, 1] (default 1: the posterior p(x | y)). */
  beta?: number;
}

/** The annealed latent GP target L_beta (note eq. 4) with its local geometry (eq. 16, Algorithms 2-4). */
export class AnnealedLatentTarget implements Target {
  readonly dim: number;
  readonly beta: number;
  readonly likelihood: Likelihood;
  readonly y: Float64Array;
  /** K as used (with the jitter, if any, on its diagonal). */
  readonly kernelMatrix: Matrix;
  /** The Cholesky factor L_K of K (K = L_K L_K'), shared with the target: read it, do not write it. */
  readonly kernelCholesky: Cholesky;
  /** Jitter added to the diagonal of K (0: none). */
  readonly jitter: number;
  /** log|K| and log|Sigma| (the normalising constants of footnote 1). */
  readonly logDetK: number;
  readonly logDetSigma: number;
  private scratch: MetricCore | null = null;

  /** @internal use `annealedLatentTarget` or `withBeta`. */
  constructor(private readonly model: LatentModel, beta: number) {
    if (!(beta >= 0 && beta <= 1)) throw new TargetOptionError(`beta must be in [0, 1], got ${beta}`);
    this.dim = model.n;
    this.beta = beta;
    ({ likelihood: this.likelihood, y: this.y, K: this.kernelMatrix, LK: this.kernelCholesky } = model);
    ({ jitter: this.jitter, logDetK: this.logDetK, logDetSigma: this.logDetSigma } = model);
  }

  /** The same model at another inverse temperature (shares K, its factor and q; no refactorisation). */
  withBeta(beta: number): AnnealedLatentTarget {
    return new AnnealedLatentTarget(this.model, beta);
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
   * The metric K^-1 + R(x) with R = beta diag(expected Fisher information) at x (comparison paper
   * Appendix A.1; SMMALA's). Only for q the prior, the setting that paper defines it in.
   */
  fisherMetric(x: Float64Array): LatentMetric {
    this.checkLength(x);
    if (!this.qIsPrior) throw new TargetOptionError("the Fisher metric K^-1 + R(f) is defined for q the prior N(0, K), not an EP-style q");
    return new LatentMetric(this.model, this.beta, new MetricCore(this.model, this.beta, x, this.model.acquire(), "fisher"));
  }

  /**
   * G(x)^-1 only: one factorisation of I + S K S (n^3/3) and 6 n^2 per application. The object
   * lives until the next inverseMetricAt call on this target (its workspace is then reused).
   */
  inverseMetricAt(x: Float64Array): InverseMetric & { readonly position: Float64Array } {
    this.checkLength(x);
    const sc = this.scratch;
    let workspace: MetricWorkspace;
    if (sc && !sc.promoted) {
      sc.alive = false;
      workspace = sc.workspace;
    } else {
      workspace = this.model.acquire();
    }
    // a failure while building must not leave a dead core as the scratch
    this.scratch = null;
    const core = new MetricCore(this.model, this.beta, x, workspace);
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
