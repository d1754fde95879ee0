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
 * Hessian of L). G is one gemm (syrk from SYRK_FROM coefficients) of Lambda^1/2 X, and each dG_k
 * one gemm X' (c_k o X) with c_k the row weights lambda_i (1 - 2 s_i) x_ik: BLAS level 3, no loop
 * over D x D x N entries.
 *
 * The samplers need dG_k only contracted (targets/denseMetric.ts), and with omega_i =
 * lambda_i (1 - 2 s_i), (dG_k)_ab = sum_i omega_i x_ia x_ib x_ik, so without forming any dG_k:
 *
 *   v' dG_k v       = [X' (omega o (X v)^2)]_k                          two gemv, O(N D)
 *   tr(G^-1 dG_k)   = [X' (omega o h)]_k,  h_i = x_i' G^-1 x_i = |L^-1 x_i|^2   one gemm or trsm, O(N D^2)
 *   sum_j dG_j (G^-1)_{:,j} = the same vector t (dG_k is symmetric in all three indices)
 *
 * which is what the geometry uses: O(N D^2) per position instead of the D gemms' O(N D^3). The
 * matrices themselves are formed only when read (the finite-difference checker reads them).
 */
import { backendFor, type Cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";
import { scaleRows } from "../linalg/products.js";
import type { DenseMetricModel, DenseMetricParts, MetricDerivativeProducts } from "../targets/denseMetric.js";
import type { CoordinateDensity } from "../targets/types.js";
import { coordinateWorkspace, LOG_BLOCK, logisticCoordinateDensity, startingPoint, type CoordinateWorkspace } from "./logisticCoordinate.js";

/**
 * From this many coefficients on, G is one syrk and the traces one trsm; below, gemm: twice the
 * flops, but OpenBLAS's gemm kernels are the faster at the smaller shapes (BENCHMARKS.md,
 * "Bayesian logistic regression at the paper's protocol").
 */
const SYRK_FROM = 48;

/**
 * The Bernoulli-logit log-likelihood sum_i [y_i e_i - log(1 + exp(e_i))] at linear predictor e,
 * one exp per case: with z = exp(-|e_i|), log(1 + exp(e_i)) = max(e_i, 0) + log(1 + z). The logs
 * of 1 + z (each in [1, 2]) are taken of products of LOG_BLOCK of them, one log per block instead
 * of one per case (absolute error about LOG_BLOCK ulp per block). In the same pass `r` (optional)
 * receives r_i = y_i - s_i with s_i = 1/(1 + z) (e_i >= 0) or z/(1 + z) (e_i < 0), stable for any
 * e_i, `lambda` (optional) s (1 - s) = z / (1 + z)^2 and `omega` (optional) lambda (1 - 2 s).
 */
function bernoulliLogLikelihood(y: Float64Array, e: Float64Array, n: number, r?: Float64Array, lambda?: Float64Array, omega?: Float64Array): number {
  let l = 0;
  for (let from = 0; from < n; from += LOG_BLOCK) {
    const to = Math.min(n, from + LOG_BLOCK);
    let product = 1;
    for (let i = from; i < to; i++) {
      const ei = e[i];
      const z = Math.exp(-Math.abs(ei));
      product *= 1 + z;
      l += y[i] * ei - (ei > 0 ? ei : 0);
      if (!r) continue;
      const w = 1 / (1 + z);
      const s = ei >= 0 ? w : z * w;
      r[i] = y[i] - s;
      if (lambda) lambda[i] = z * w * w;
      if (omega) omega[i] = z * w * w * (1 - 2 * s);
    }
    l -= Math.log(product);
  }
  return l;
}

/** r_i = y_i - s_i alone (the gradient without the density). */
function residuals(y: Float64Array, e: Float64Array, n: number, r: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const ei = e[i];
    const z = Math.exp(-Math.abs(ei));
    r[i] = y[i] - (ei >= 0 ? 1 / (1 + z) : z / (1 + z));
  }
}

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
  gradient(beta: Float64Array, grad: Float64Array): void;
  metricAt(beta: Float64Array): Matrix;
  coordinateDensity(beta: Float64Array): CoordinateDensity;
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
  // Every evaluation runs over the N cases once (eta, s, the log density, y - s, lambda) and hands
  // the products with X to BLAS in as few calls as possible; the N-length and N x D buffers below
  // are consumed within a call and reused, so a position allocates only what it returns.
  const blas = backendFor(Math.max(n, d));
  const eta = new Float64Array(n);
  const resid = new Float64Array(n);
  const u = new Float64Array(n);
  const omega = new Float64Array(n); // metricAlong's omega_i and row weights
  const along = new Float64Array(n);
  const scaled = new Float64Array(n * d); // Lambda^1/2 X, whose cross-product is G
  const solved = new Float64Array(n * d); // X L'^-1 for the traces
  const linvMatrix = new Matrix(d, d); // L^-1
  const linv = linvMatrix.data;
  const xty = new Float64Array(d);
  blas.gemv("T", n, d, 1, x, n, y, 0, xty);
  const coordinateData = { x, n, d, xty, alpha };
  let moves: CoordinateWorkspace | undefined; // made at the first coordinateDensity
  const directLikelihood = (e: Float64Array) => logLikelihood(e); // the moves' fallback

  /** eta <- X beta. */
  function linearPredictor(beta: Float64Array): Float64Array {
    if (beta.length !== d) throw new RangeError(`logistic regression: beta has length ${beta.length}, expected ${d}`);
    blas.gemv("N", n, d, 1, x, n, beta, 0, eta);
    return eta;
  }

  function logPrior(beta: Float64Array): number {
    let q = 0;
    for (let k = 0; k < d; k++) q += beta[k] * beta[k];
    return -q / (2 * alpha);
  }

  /** The log-likelihood at linear predictor `e` (see bernoulliLogLikelihood for the outputs). */
  function logLikelihood(e: Float64Array, r?: Float64Array, lambda?: Float64Array, omega?: Float64Array): number {
    return bernoulliLogLikelihood(y, e, n, r, lambda, omega);
  }

  /** L(beta) from eta = X beta (see logLikelihood for the optional outputs). */
  function pass(beta: Float64Array, r?: Float64Array, lambda?: Float64Array, omega?: Float64Array): number {
    return logPrior(beta) + logLikelihood(eta, r, lambda, omega);
  }

  function gradientFrom(beta: Float64Array, r: Float64Array, grad: Float64Array): void {
    blas.gemv("T", n, d, 1, x, n, r, 0, grad);
    for (let k = 0; k < d; k++) grad[k] -= beta[k] / alpha;
  }

  /** eq. 28: G = X' Lambda X + I / alpha, one gemm or syrk of Lambda^1/2 X, from the roots lambda_i^1/2. */
  function metricFrom(roots: Float64Array): Matrix {
    blas.scaleRows(n, d, roots, x, n, scaled, n);
    const g = new Matrix(d, d);
    // gemm beats syrk at these shapes, which is more than its doubled flops (BENCHMARKS.md);
    // only the lower triangle is kept and mirrored, so G is exactly symmetric either way
    if (d < SYRK_FROM) blas.gemm("T", "N", d, d, n, 1, scaled, n, scaled, n, 0, g.data, d);
    else blas.syrk("L", "T", d, n, 1, scaled, n, 0, g.data, d);
    for (let k = 0; k < d; k++) {
      g.data[k + k * d] += 1 / alpha;
      for (let j = k + 1; j < d; j++) g.data[k + j * d] = g.data[j + k * d];
    }
    return g;
  }

  /** dG_k = X' (c_k o X), c_ik = omega_i x_ik: one gemm per coefficient. */
  function metricDerivativeMatrices(rowWeight: Float64Array): Matrix[] {
    const weighted = new Matrix(n, d);
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

  /** The three contractions of dG_k at a position with row weights omega (module comment). */
  function derivativeProducts(rowWeight: Float64Array): MetricDerivativeProducts {
    return {
      quadraticForms(v, out) {
        blas.crossWeightedSquares(n, d, x, n, v, rowWeight, u, out);
      },
      traces(factor: Cholesky) {
        // h_i = |L^-1 x_i|^2, the squared norm of row i of X L^-T: below SYRK_FROM columns as one
        // gemm with the explicit L^-1 (D^3/3 to form), faster than the trsm on X at these shapes
        if (d < SYRK_FROM) {
          linv.fill(0);
          for (let k = 0; k < d; k++) linv[k + k * d] = 1;
          factor.solveLowerMatrixInPlace(linvMatrix);
          blas.gemm("N", "T", n, d, d, 1, x, n, linv, d, 0, solved, n);
        } else {
          solved.set(x);
          blas.trsm("R", "L", "T", "N", n, d, 1, factor.factor.data, d, solved, n);
        }
        blas.rowSumsOfSquares(n, d, solved, n, u);
        for (let i = 0; i < n; i++) u[i] *= rowWeight[i];
        const t = new Float64Array(d);
        blas.gemv("T", n, d, 1, x, n, u, 0, t);
        return t;
      },
      christoffelSum: (_factor, traces) => traces,
    };
  }

  return {
    dim: d,
    design,
    labels: y,
    priorVariance: alpha,

    probabilities(beta) {
      const p = Float64Array.from(linearPredictor(beta));
      for (let i = 0; i < n; i++) p[i] = 1 / (1 + Math.exp(-p[i]));
      return p;
    },

    logDensity(beta) {
      linearPredictor(beta);
      return pass(beta);
    },

    logDensityAndGradient(beta, grad) {
      linearPredictor(beta);
      const l = pass(beta, resid);
      gradientFrom(beta, resid, grad);
      return l;
    },

    gradient(beta, grad) {
      linearPredictor(beta);
      residuals(y, eta, n, resid);
      gradientFrom(beta, resid, grad);
    },

    coordinateDensity(beta) {
      if (beta.length !== d) throw new RangeError(`logistic regression: beta has length ${beta.length}, expected ${d}`);
      const work = (moves ??= coordinateWorkspace(n, d));
      blas.gemv("N", n, d, 1, x, n, beta, 0, work.e);
      const l = startingPoint(y, work.e, n, work.s, work.q);
      return logisticCoordinateDensity(coordinateData, work, beta, l, directLikelihood);
    },

    // G alone (no log density): the weights' roots straight from eta in one pass
    metricAt(beta) {
      linearPredictor(beta);
      blas.logisticWeightRoots(n, eta, u);
      return metricFrom(u);
    },

    // G + c dG[a] = X' diag(lambda + c omega o (X a)) X + I / alpha, dG[a] = sum_k a_k dG_k: one
    // gemm with row weights of either sign (what the Lagrangian integrator's half step solves with)
    metricAlong(beta, a, c) {
      linearPredictor(beta);
      logLikelihood(eta, resid, u, omega);
      blas.gemv("N", n, d, 1, x, n, a, 0, along);
      for (let i = 0; i < n; i++) along[i] = u[i] + c * omega[i] * along[i];
      blas.scaleRows(n, d, along, x, n, scaled, n);
      const g = new Matrix(d, d);
      blas.gemm("T", "N", d, d, n, 1, x, n, scaled, n, 0, g.data, d);
      for (let k = 0; k < d; k++) {
        g.data[k + k * d] += 1 / alpha;
        for (let j = k + 1; j < d; j++) g.data[k + j * d] = g.data[j + k * d];
      }
      return g;
    },

    denseMetric(beta, derivatives): DenseMetricParts {
      linearPredictor(beta);
      const rowWeight = derivatives ? new Float64Array(n) : undefined; // omega_i = lambda_i (1 - 2 s_i)
      const logDensity = pass(beta, resid, u, rowWeight);
      const gradient = new Float64Array(d);
      gradientFrom(beta, resid, gradient);
      for (let i = 0; i < n; i++) u[i] = Math.sqrt(u[i]);
      const metric = metricFrom(u);
      if (!rowWeight) return { logDensity, gradient, metric };
      let matrices: Matrix[] | undefined;
      return {
        logDensity, gradient, metric, metricDerivativeProducts: derivativeProducts(rowWeight),
        get metricDerivatives() {
          return (matrices ??= metricDerivativeMatrices(rowWeight));
        },
      };
    },
  };
}
