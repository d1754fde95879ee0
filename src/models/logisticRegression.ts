/**
 * Bayesian logistic regression (Girolami & Calderhead 2011, Section 7.1, eqs. 27-28): labels
 * y_i in {0, 1}, design X (N x D, column 1 the intercept), prior beta ~ N(0, alpha I),
 *
 *   L(beta)  = y'X beta - sum_i log(1 + exp(x_i' beta)) - beta'beta / (2 alpha)
 *   dL/dbeta = X'(y - s) - beta / alpha,                 s_i = 1 / (1 + exp(-x_i' beta))
 *   G(beta)  = X' Lambda X + I / alpha,                  Lambda = diag(s_i (1 - s_i))   (eq. 28)
 *   dG/dbeta_k = X' Lambda V_k X,                        V_k = diag((1 - 2 s_i) x_ik)
 *
 * (the expected Fisher information plus the prior's; for the canonical link it is also minus the
 * Hessian of L). G is one syrk of Lambda^1/2 X, and each dG_k one gemm X' (c_k o X) with c_k the
 * row weights lambda_i (1 - 2 s_i) x_ik: BLAS level 3, no loop over D x D x N entries.
 *
 * The samplers need dG_k only contracted (targets/denseMetric.ts), and with omega_i =
 * lambda_i (1 - 2 s_i), (dG_k)_ab = sum_i omega_i x_ia x_ib x_ik, so without forming any dG_k:
 *
 *   v' dG_k v       = [X' (omega o (X v)^2)]_k                          two gemv, O(N D)
 *   tr(G^-1 dG_k)   = [X' (omega o h)]_k,  h_i = x_i' G^-1 x_i = |L^-1 x_i|^2   one trsm, O(N D^2)
 *   sum_j dG_j (G^-1)_{:,j} = the same vector t (dG_k is symmetric in all three indices)
 *
 * which is what the geometry uses: O(N D^2) per position instead of the D gemms' O(N D^3). The
 * matrices themselves are formed only when read (the finite-difference checker reads them).
 */
import { backendFor, type Cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";
import { crossprod, scaleRows } from "../linalg/products.js";
import { log1pExp } from "../math/log1pExp.js";
import type { DenseMetricModel, DenseMetricParts, MetricDerivativeProducts } from "../targets/denseMetric.js";

/** Default prior variance alpha (the paper's N(0, 100)). */
export const DEFAULT_PRIOR_VARIANCE = 100;

export interface LogisticRegressionOptions {
  /** alpha of the prior N(0, alpha I) (default 100). */
  priorVariance?: number;
}

export interface LogisticRegressionModel extends DenseMetricModel {
  /** N x D design, intercept first. */
  readonly design: Matrix;
  /** Labels in {0, 1}. */
  readonly labels: Float64Array;
  readonly priorVariance: number;
  /** s_i = P(y_i = 1 | beta) for each case. */
  probabilities(beta: Float64Array): Float64Array;
}

/** The model for a design that already holds its intercept column. */
export function logisticRegression(design: Matrix, labels: ArrayLike<number>, options: LogisticRegressionOptions = {}): LogisticRegressionModel {
  const alpha = options.priorVariance ?? DEFAULT_PRIOR_VARIANCE;
  if (!(alpha > 0) || !Number.isFinite(alpha)) throw new RangeError(`prior variance must be a positive number, got ${alpha}`);
  const n = design.rows;
  const d = design.cols;
  if (labels.length !== n) throw new RangeError(`logistic regression: ${labels.length} labels for ${n} rows of the design`);
  const y = Float64Array.from(labels);
  for (let i = 0; i < n; i++) if (y[i] !== 0 && y[i] !== 1) throw new RangeError(`logistic regression: label ${i + 1} is ${y[i]}, expected 0 or 1`);
  const x = design.data;
  // X' (D x N), the right-hand side of the trsm in the traces
  const xt = new Matrix(d, n);
  for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) xt.data[k + i * d] = x[i + k * n];

  /** eta = X beta. */
  function linearPredictor(beta: Float64Array): Float64Array {
    if (beta.length !== d) throw new RangeError(`logistic regression: beta has length ${beta.length}, expected ${d}`);
    const eta = new Float64Array(n);
    backendFor(Math.max(n, d)).gemv("N", n, d, 1, x, n, beta, 0, eta);
    return eta;
  }

  function logPrior(beta: Float64Array): number {
    let q = 0;
    for (let k = 0; k < d; k++) q += beta[k] * beta[k];
    return -q / (2 * alpha);
  }

  /** L from eta; `resid` (optional) receives y - s. */
  function logDensityFrom(beta: Float64Array, eta: Float64Array, resid?: Float64Array, s?: Float64Array): number {
    let l = logPrior(beta);
    for (let i = 0; i < n; i++) {
      const e = eta[i];
      // y e - log(1 + e^e), written to keep precision for large |e|
      l += y[i] === 1 ? -log1pExp(-e) : -log1pExp(e);
      if (resid || s) {
        const si = 1 / (1 + Math.exp(-e));
        if (s) s[i] = si;
        if (resid) resid[i] = y[i] - si;
      }
    }
    return l;
  }

  function gradientFrom(beta: Float64Array, resid: Float64Array, grad: Float64Array): void {
    backendFor(Math.max(n, d)).gemv("T", n, d, 1, x, n, resid, 0, grad);
    for (let k = 0; k < d; k++) grad[k] -= beta[k] / alpha;
  }

  /** dG_k = X' (c_k o X), c_ik = omega_i x_ik: one gemm per coefficient. */
  function metricDerivativeMatrices(rowWeight: Float64Array): Matrix[] {
    const weighted = new Matrix(n, d);
    const blas = backendFor(Math.max(n, d));
    const out: Matrix[] = [];
    const c = new Float64Array(n);
    for (let k = 0; k < d; k++) {
      const col = design.column(k);
      for (let i = 0; i < n; i++) c[i] = rowWeight[i] * col[i];
      scaleRows(design, c, weighted);
      const dg = new Matrix(d, d);
      blas.gemm("T", "N", d, d, n, 1, x, n, weighted.data, n, 0, dg.data, d);
      out.push(dg);
    }
    return out;
  }

  return {
    dim: d,
    design,
    labels: y,
    priorVariance: alpha,

    probabilities(beta) {
      const eta = linearPredictor(beta);
      for (let i = 0; i < n; i++) eta[i] = 1 / (1 + Math.exp(-eta[i]));
      return eta;
    },

    logDensity(beta) {
      return logDensityFrom(beta, linearPredictor(beta));
    },

    logDensityAndGradient(beta, grad) {
      const resid = new Float64Array(n);
      const l = logDensityFrom(beta, linearPredictor(beta), resid);
      gradientFrom(beta, resid, grad);
      return l;
    },

    denseMetric(beta, derivatives): DenseMetricParts {
      const resid = new Float64Array(n);
      const s = new Float64Array(n);
      const logDensity = logDensityFrom(beta, linearPredictor(beta), resid, s);
      const gradient = new Float64Array(d);
      gradientFrom(beta, resid, gradient);
      const lambda = new Float64Array(n);
      const root = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        lambda[i] = s[i] * (1 - s[i]);
        root[i] = Math.sqrt(lambda[i]);
      }
      // eq. 28: G = X' Lambda X + I / alpha (one syrk)
      const metric = crossprod(scaleRows(design, root));
      for (let k = 0; k < d; k++) metric.data[k + k * d] += 1 / alpha;
      if (!derivatives) return { logDensity, gradient, metric };
      const rowWeight = new Float64Array(n); // omega_i = lambda_i (1 - 2 s_i)
      for (let i = 0; i < n; i++) rowWeight[i] = lambda[i] * (1 - 2 * s[i]);
      const blas = backendFor(Math.max(n, d));
      const u = new Float64Array(n);
      const metricDerivativeProducts: MetricDerivativeProducts = {
        quadraticForms(v, out) {
          blas.gemv("N", n, d, 1, x, n, v, 0, u);
          for (let i = 0; i < n; i++) u[i] = rowWeight[i] * u[i] * u[i];
          blas.gemv("T", n, d, 1, x, n, u, 0, out);
        },
        traces(factor: Cholesky) {
          const a = factor.solveLowerMatrixInPlace(xt.clone()); // L^-1 X', D x N
          for (let i = 0; i < n; i++) {
            let h = 0;
            for (let k = 0; k < d; k++) h += a.data[k + i * d] ** 2;
            u[i] = rowWeight[i] * h;
          }
          const t = new Float64Array(d);
          blas.gemv("T", n, d, 1, x, n, u, 0, t);
          return t;
        },
        christoffelSum: (_factor, traces) => traces,
      };
      let matrices: Matrix[] | undefined;
      return {
        logDensity, gradient, metric, metricDerivativeProducts,
        get metricDerivatives() {
          return (matrices ??= metricDerivativeMatrices(rowWeight));
        },
      };
    },
  };
}
