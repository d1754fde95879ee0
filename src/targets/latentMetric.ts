/**
 * The metric of the latent GP target at one position: G(x) = K^-1 + D(x), D diagonal and >= 0,
 * held as the Cholesky factor of B = I + S K S, S = D^1/2 (the Woodbury step of woodbury.ts).
 * D is either the note's (eq. 16), from the observed Hessian,
 *   D = Lambda + (1 - beta) diag(tau),   Lambda = -beta diag(d2 log p(y_n | x_n)),
 * or, for samplers that need no metric derivatives, the comparison paper's (Appendix A.1),
 *   D = R = beta diag(E_y[-d2 log p(y_n | x_n)])   (expected Fisher information; q the prior).
 * See annealedLatent.ts for what each member costs.
 */
import { DimensionError } from "../linalg/errors.js";
import type { RandomSource } from "../random/types.js";
import { IndefiniteMetricError, StaleGeometryError } from "./errors.js";
import type { LatentModel, MetricWorkspace } from "./latentModel.js";
import type { InverseMetric, LocalMetric } from "./types.js";
import { applyWoodburyInverse, factorIdentityPlusScaled, woodburyInverseDiagonal } from "./woodbury.js";

const NO_DERIVATIVES = new Float64Array(0);

/** Which diagonal D the metric K^-1 + D uses (see the module comment). */
export type MetricKind = "observed" | "fisher";

/**
 * What the metric needs at one position: the likelihood terms, S = D^1/2 and the Cholesky
 * factor of B = I + S K S, in a workspace that may be recycled (then `alive` turns false).
 */
export class MetricCore {
  alive = true;
  /** Taken over by a geometry (the buffer is then the geometry's to release). */
  promoted = false;
  readonly x: Float64Array;
  readonly logLik: number;
  readonly d1: Float64Array;
  /** dg_n = dG_nn/dx_n = -beta d3 log p(y_n | x_n) (Algorithm 3 lines 9-10); empty for the Fisher metric, whose derivatives are not offered. */
  readonly dg: Float64Array;
  /** D of G = K^-1 + D. */
  readonly d: Float64Array;
  readonly s: Float64Array;
  readonly factor: Float64Array;
  /** Where the arrays above live (recycled with the core). */
  readonly workspace: MetricWorkspace;
  /** log|B| = 2 sum log L_nn; NaN when x or the likelihood terms are not finite. */
  readonly logDetB: number;
  readonly finite: boolean;

  constructor(model: LatentModel, beta: number, x: Float64Array, workspace: MetricWorkspace, kind: MetricKind = "observed") {
    const n = model.n;
    if (x.length !== n) throw new DimensionError(`position has length ${x.length}, expected ${n}`);
    this.workspace = workspace;
    this.x = workspace.x;
    this.x.set(x);
    this.factor = workspace.factor;
    this.d1 = workspace.d1;
    const d2 = workspace.d2;
    this.dg = kind === "observed" ? workspace.d3 : NO_DERIVATIVES;
    this.s = workspace.s;
    let finite = true;
    if (kind === "observed") {
      this.logLik = model.likelihood.derivatives(model.y, this.x, this.d1, d2, this.dg);
      this.d = d2; // reused in place: d2 -> D
      const tau = model.tau;
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
    } else {
      this.logLik = model.likelihood.derivatives(model.y, this.x, this.d1, d2);
      this.d = model.likelihood.fisherInformation(this.x, d2);
      for (let i = 0; i < n; i++) {
        // R_ii = beta E_y[-d2 log p(y_i | f_i)] (comparison paper Appendix A.1); an expected
        // information is >= 0, so anything else marks a point where the likelihood broke down
        const di = beta * this.d[i];
        if (!(di >= 0) || !Number.isFinite(di) || !Number.isFinite(this.x[i])) finite = false;
        this.d[i] = di;
        this.s[i] = Math.sqrt(di);
      }
    }
    // B = I + S K S = L L' (Algorithm 3 lines 14-16); NaN when it cannot be factorised
    const logDetB = finite ? factorIdentityPlusScaled(model.K.data, this.s, n, this.factor) : NaN;
    this.finite = !Number.isNaN(logDetB);
    this.logDetB = logDetB;
  }

  /** out <- G^-1 p = K p - K S B^-1 S K p (6 n^2 flops). `out` may be `p`. */
  applyInverse(model: LatentModel, p: Float64Array, out: Float64Array): void {
    const n = model.n;
    if (p.length !== n || out.length !== n) throw new DimensionError(`vectors must have length ${n}`);
    if (!this.finite) {
      out.fill(NaN);
      return;
    }
    applyWoodburyInverse(model.K.data, this.s, this.factor, n, p, out, model.scratchU, model.scratchT);
  }
}

export function sameVector(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** G(x)^-1 only (the fixed-point loop of the generalised leapfrog); lives until the next inverseMetricAt. */
export class LatentInverseMetric implements InverseMetric {
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

/** The metric K^-1 + D of L_beta at x, with what SMMALA needs (LocalMetric). */
export class LatentMetric implements LocalMetric {
  private released = false;
  private cachedLogDensity: number | undefined;
  private cachedGradient: Float64Array | undefined;
  protected cachedDiagInv: Float64Array | undefined;

  constructor(protected readonly model: LatentModel, readonly beta: number, protected readonly core: MetricCore) {}

  protected check(): MetricCore {
    if (!this.core.alive) throw new StaleGeometryError("a geometry");
    return this.core;
  }

  get position(): Float64Array {
    return this.check().x;
  }

  private evaluate(): void {
    const c = this.check();
    const g = c.workspace.gradient;
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

  /** log|G(x)| + log|K| = log|I + S K S|. */
  get logDetMetricUpToConstant(): number {
    return this.check().logDetB;
  }

  /** The diagonal D of G - K^-1. */
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
    if (!c.finite) diag.fill(NaN);
    else woodburyInverseDiagonal(this.model.K.data, c.s, c.factor, n, this.model.transientSquare(), diag);
    this.cachedDiagInv = diag;
    return diag;
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

  /** v' G v = |L_K^-1 v|^2 + sum_n D_nn v_n^2 (one trsv, n^2 flops). */
  metricQuadraticForm(v: Float64Array): number {
    const c = this.check();
    const n = this.model.n;
    if (v.length !== n) throw new DimensionError(`vector must have length ${n}`);
    const t = this.model.scratchT;
    t.set(v);
    this.model.LK.solveLowerInPlace(t);
    let q = 0;
    for (let i = 0; i < n; i++) q += t[i] * t[i] + c.d[i] * v[i] * v[i];
    return q;
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

  /** This metric will not be used again: its n x n workspace goes back to the target. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.core.alive = false;
    this.model.recycle(this.core.workspace);
  }
}
