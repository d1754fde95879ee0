/**
 * The local geometry of the annealed latent target computed as the note (Paquet & Fraccaro)
 * writes it: Algorithm 3 (riemann-metric) with its two branches, Algorithm 2
 * (hamiltonian-and-gradient) on the dense G^-1, and the momentum draw of Algorithm 1 lines 5-7
 * through chol(G^-1). It is the reference the fast geometry (annealedLatent.ts) is tested and
 * benchmarked against, so it follows the note line by line and allocates freely.
 */
import { cholesky, type Cholesky } from "../linalg/cholesky.js";
import { DimensionError } from "../linalg/errors.js";
import { Matrix } from "../linalg/matrix.js";
import { symmetricMatvecInto } from "../linalg/products.js";
import type { RandomSource } from "../random/types.js";
import { IndefiniteMetricError } from "./errors.js";
import type { LatentModel } from "./latentModel.js";
import type { LocalGeometry } from "./types.js";
import { woodbury } from "./woodbury.js";

export class NoteGeometry implements LocalGeometry {
  readonly position: Float64Array;
  readonly logDensity: number;
  readonly gradient: Float64Array;
  readonly logDetMetric: number;
  /** dg_n = dG_nn/dx_n (Algorithm 3 lines 9-10). */
  readonly metricDerivativeDiagonal: Float64Array;
  /** The dense G^-1. */
  private readonly Ginv: Matrix;
  private LGinv: Cholesky | undefined;

  constructor(private readonly model: LatentModel, readonly beta: number, x: Float64Array) {
    const n = model.n;
    if (x.length !== n) throw new DimensionError(`position has length ${x.length}, expected ${n}`);
    this.position = x.slice();
    // line 3: {L, dL/dx} := derivatives(...) (Algorithm 4)
    const d1 = new Float64Array(n);
    const d2 = new Float64Array(n);
    const d3 = new Float64Array(n);
    const ll = model.likelihood.derivatives(model.y, this.position, d1, d2, d3);
    this.gradient = new Float64Array(n);
    this.logDensity = model.logDensity(beta, this.position, ll, d1, this.gradient);
    // lines 5-10: lambda := beta (-d2), dg := beta (-d3)
    const lambda = new Float64Array(n);
    this.metricDerivativeDiagonal = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      lambda[i] = -beta * d2[i];
      if (lambda[i] < 0) throw new IndefiniteMetricError(i, lambda[i]);
      this.metricDerivativeDiagonal[i] = -beta * d3[i];
    }
    // line 12: s := sqrt(lambda)
    const s = lambda.map(Math.sqrt);
    if (model.tau === null) {
      // lines 13-18: q is the prior, G = Lambda + K^-1 (one Woodbury step, woodbury.ts)
      const g = woodbury(model.K, s);
      this.Ginv = g.inverse;
      this.logDetMetric = -model.logDetK + g.logDetB;
    } else {
      // lines 20-24: t := sqrt(1 - beta) Sigma-tilde^-1/2, A = (K^-1 + T^2)^-1 = K - V'V
      const t = model.tau.map((v) => Math.sqrt((1 - beta) * v));
      const a = woodbury(model.K, t);
      const logDetAinv = -model.logDetK + a.logDetB;
      // lines 25-28: G = Lambda + A^-1, G^-1 = A - V'V
      const g = woodbury(a.inverse, s);
      this.Ginv = g.inverse;
      this.logDetMetric = logDetAinv + g.logDetB;
    }
  }

  inverseMetricMatrix(): Matrix {
    return this.Ginv;
  }

  get inverseMetricDiagonal(): Float64Array {
    const n = this.model.n;
    const d = new Float64Array(n);
    for (let i = 0; i < n; i++) d[i] = this.Ginv.data[i + i * n];
    return d;
  }

  applyInverse(p: Float64Array, out: Float64Array): void {
    const w = symmetricMatvecInto(this.Ginv, p, new Float64Array(this.model.n));
    out.set(w);
  }

  /** out <- G v = (L_Ginv L_Ginv')^-1 v (two triangular solves with chol(G^-1)). */
  applyMetric(v: Float64Array, out: Float64Array): void {
    this.LGinv ??= cholesky(this.Ginv, { what: "G^-1" });
    out.set(v);
    this.LGinv.solveInPlace(out);
  }

  /** v' G v = |L_Ginv^-1 v|^2. */
  metricQuadraticForm(v: Float64Array): number {
    this.LGinv ??= cholesky(this.Ginv, { what: "G^-1" });
    const t = this.LGinv.solveLowerInPlace(v.slice());
    let q = 0;
    for (let i = 0; i < t.length; i++) q += t[i] * t[i];
    return q;
  }

  /**
   * Algorithm 1 lines 5-7: L_Ginv = chol(G^-1), p := L_Ginv' \ z, z ~ N(0, I). The covariance
   * is (L_Ginv L_Ginv')^-1 = G, as eq. (10) needs (the comment on line 7 says G^-1).
   */
  sampleMomentum(rng: RandomSource, out: Float64Array): void {
    this.LGinv ??= cholesky(this.Ginv, { what: "G^-1" });
    rng.fillNormal(out);
    this.LGinv.solveUpperInPlace(out);
  }

  /** Algorithm 2: dH/dx = 1/2 (dg o diag(G^-1)) - 1/2 (w o w o dg) - dL/dx, w = G^-1 p. */
  hamiltonianGradient(p: Float64Array, out: Float64Array): void {
    const n = this.model.n;
    const w = symmetricMatvecInto(this.Ginv, p, new Float64Array(n));
    const dg = this.metricDerivativeDiagonal;
    for (let i = 0; i < n; i++) out[i] = 0.5 * dg[i] * this.Ginv.data[i + i * n] - 0.5 * w[i] * w[i] * dg[i] - this.gradient[i];
  }
}
