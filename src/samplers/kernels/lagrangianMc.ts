/**
 * Riemannian manifold Lagrangian Monte Carlo (lagrangianKernel.ts) on the latent GP target, whose
 * metric is G(x) = K^-1 + diag(D(x)) with D_n a function of x_n alone (note eq. 16: D = beta
 * Lambda(x) (+ (1 - beta) tau), dD_n/dx_n = dg_n). Then dG[a] = diag(dg o a), and the half step
 *
 *   (K^-1 + diag(d + e/4 dg o a)) v' = G a - e/2 grad phi
 *
 * is a solve with a matrix of the metric's own form K^-1 + diag(m), factorised by the Woodbury
 * step of targets/woodbury.ts (with a rank-r correction where m has r negative entries, below),
 * as is its Jacobian's |K^-1 + diag(d - e/4 dg o v')|. G v' follows from the solve without K^-1
 * (G v' = G a - e/2 grad phi - e/4 dg o a o v'), and G(x') v' = G(x) v' + (D(x') - D(x)) o v', so
 * a transition never applies K^-1. Per leapfrog step: four factorisations of I + S K S and the geometry at
 * the new position (another, and the trace term), O(n^3); no fixed points.
 */
import type { AnnealedLatentGeometry, AnnealedLatentTarget } from "../../targets/annealedLatent.js";
import { applyWoodburyInverse, factorIdentityPlusScaled } from "../../targets/woodbury.js";
import { LagrangianFailure, lagrangianKernel, type LagrangianFamily, type LagrangianKernel, type LagrangianOptions } from "./lagrangianKernel.js";

export type { LagrangianKernel, LagrangianOptions, LagrangianState } from "./lagrangianKernel.js";

/** The latent target's metric family: K^-1 + diag(m) factorised and solved in workspaces of its own. */
function latentFamily(target: AnnealedLatentTarget): LagrangianFamily<AnnealedLatentGeometry> {
  const n = target.dim;
  const K = target.kernelMatrix.data;
  const vector = () => new Float64Array(n);
  const factor = new Float64Array(n * n);
  const [s, m, y, w, u, t] = [vector(), vector(), vector(), vector(), vector(), vector()];

  // M = K^-1 + diag(m) = A - U U', A = K^-1 + diag(max(m, 0)) (the Woodbury step), U the columns
  // sqrt(-m_j) e_j of the r indices where m_j < 0: |M| = |A| |C|, C = I_r - U' A^-1 U, and
  // M^-1 = A^-1 + A^-1 U C^-1 U' A^-1 (Woodbury again, rank r). M fails only where C is not
  // positive definite, i.e. where M is not.
  const negative: number[] = [];
  let columns: Float64Array[] = []; // A^-1 U, one column per negative index
  let cFactor = new Float64Array(0);
  let z = new Float64Array(0); // C^-1 U' A^-1 y in solveShifted
  const unit = vector();

  /** Factorises M = K^-1 + diag(m) (see above); returns log|M| + log|K| (the constant of logDetMetricUpToConstant). */
  function factorShifted(): number {
    negative.length = 0;
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(m[i])) throw new LagrangianFailure("non-finite");
      if (m[i] < 0) negative.push(i);
      s[i] = Math.sqrt(Math.max(m[i], 0));
    }
    let logDet = factorIdentityPlusScaled(K, s, n, factor);
    if (Number.isNaN(logDet)) throw new LagrangianFailure("numerical-error");
    const r = negative.length;
    if (r === 0) return logDet;
    if (columns.length < r) columns = Array.from({ length: r }, (_, k) => columns[k] ?? vector());
    if (cFactor.length < r * r) cFactor = new Float64Array(r * r);
    if (z.length < r) z = new Float64Array(r);
    for (let k = 0; k < r; k++) {
      unit.fill(0);
      unit[negative[k]] = Math.sqrt(-m[negative[k]]);
      applyWoodburyInverse(K, s, factor, n, unit, columns[k], u, t);
    }
    // C = I - U' A^-1 U (r x r, row-major), then its Cholesky factor in place
    for (let a = 0; a < r; a++) for (let b = 0; b < r; b++) cFactor[a * r + b] = (a === b ? 1 : 0) - Math.sqrt(-m[negative[a]]) * columns[b][negative[a]];
    for (let j = 0; j < r; j++) {
      let dj = cFactor[j * r + j];
      for (let k = 0; k < j; k++) dj -= cFactor[j * r + k] * cFactor[j * r + k];
      if (!(dj > 0)) throw new LagrangianFailure("numerical-error");
      const ljj = Math.sqrt(dj);
      cFactor[j * r + j] = ljj;
      logDet += 2 * Math.log(ljj);
      for (let i = j + 1; i < r; i++) {
        let v2 = cFactor[i * r + j];
        for (let k = 0; k < j; k++) v2 -= cFactor[i * r + k] * cFactor[j * r + k];
        cFactor[i * r + j] = v2 / ljj;
      }
    }
    return logDet;
  }

  /** out <- M^-1 y with the factorisation of the last factorShifted. */
  function solveShifted(yv: Float64Array, out: Float64Array): void {
    applyWoodburyInverse(K, s, factor, n, yv, out, u, t);
    const r = negative.length;
    if (r === 0) return;
    // z = C^-1 U' A^-1 y, then out += A^-1 U z
    for (let a = 0; a < r; a++) z[a] = Math.sqrt(-m[negative[a]]) * out[negative[a]];
    for (let i = 0; i < r; i++) {
      let v2 = z[i];
      for (let k = 0; k < i; k++) v2 -= cFactor[i * r + k] * z[k];
      z[i] = v2 / cFactor[i * r + i];
    }
    for (let i = r - 1; i >= 0; i--) {
      let v2 = z[i];
      for (let k = i + 1; k < r; k++) v2 -= cFactor[k * r + i] * z[k];
      z[i] = v2 / cFactor[i * r + i];
    }
    for (let k = 0; k < r; k++) {
      const col = columns[k];
      for (let i = 0; i < n; i++) out[i] += col[i] * z[k];
    }
  }

  return {
    dim: n,
    geometry: (x) => target.geometry(x),
    logDet: (geo) => geo.logDetMetricUpToConstant,
    halfStep(geo, eps, v, p, gradPhi) {
      const d = geo.metricDiagonalPart;
      const dg = geo.metricDerivativeDiagonal;
      const q = 0.25 * eps;
      for (let i = 0; i < n; i++) {
        m[i] = d[i] + q * dg[i] * v[i];
        y[i] = p[i] - 0.5 * eps * gradPhi[i];
      }
      const logDetPlus = factorShifted();
      solveShifted(y, w); // w = M^-1 y
      for (let i = 0; i < n; i++) {
        p[i] = y[i] - q * dg[i] * v[i] * w[i];
        v[i] = w[i];
        m[i] = d[i] - q * dg[i] * v[i];
      }
      return factorShifted() - logDetPlus;
    },
    transport(from, to, v, p) {
      const d0 = from.metricDiagonalPart;
      const d1 = to.metricDiagonalPart;
      for (let i = 0; i < n; i++) p[i] += (d1[i] - d0[i]) * v[i];
    },
    metricTimes: (geo, v, out) => geo.applyMetric(v, out),
  };
}

/** Riemannian manifold Lagrangian Monte Carlo on the latent GP target (`rmhmc`'s variant "lagrangian"). */
export function lagrangianMc(target: AnnealedLatentTarget, options: LagrangianOptions): LagrangianKernel<AnnealedLatentGeometry> {
  return lagrangianKernel(latentFamily(target), options);
}
