/**
 * The local geometry of the annealed latent target L_beta at one position (note eq. 16 and
 * Algorithms 2-3): the metric of latentMetric.ts with the observed-Hessian diagonal, plus what
 * RMHMC needs beyond it, dH/dx (Algorithm 2) and the dense G^-1. Costs: see annealedLatent.ts.
 */
import { Matrix } from "../linalg/matrix.js";
import { invertLowerTriangularInPlace } from "../linalg/triangular.js";
import { LatentMetric } from "./latentMetric.js";
import type { LocalGeometry } from "./types.js";
import { woodburyInverseMatrix } from "./woodbury.js";

/** The local geometry of L_beta at x (see annealedLatent.ts for what each member costs). */
export class AnnealedLatentGeometry extends LatentMetric implements LocalGeometry {
  private cachedTrace: Float64Array | undefined;
  private cachedDense: Matrix | undefined;

  /** dg: the non-zero entries dG_nn/dx_n of dG/dx_n (note eq. 17; Algorithm 3 lines 9-10). */
  get metricDerivativeDiagonal(): Float64Array {
    return this.check().dg;
  }

  /**
   * t_n = 1/2 dg_n (G^-1)_nn = 1/2 tr(G^-1 dG/dx_n), by the triangular inverse of L (see the
   * module comment of annealedLatent.ts; n^3/3 flops, once per geometry; from the diagonal when
   * that is known).
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
    let out: Matrix;
    if (!c.finite) {
      out = new Matrix(n, n);
      out.data.fill(NaN);
    } else {
      out = woodburyInverseMatrix(this.model.K, c.s, c.factor);
    }
    this.cachedDense = out;
    return out;
  }
}
