/**
 * Latent GP problems with known posteriors, built through the real latent target
 * (annealedLatentTarget), for the tests of the samplers of f | y, theta:
 * - GP regression: prior N(0, K) and a Gaussian likelihood y_i ~ N(f_i, sd_i^2), whose posterior is
 *   N(K (K + D)^-1 y, K - K (K + D)^-1 K), D = diag(sd^2), in closed form;
 * - GP probit classification with n = 2, whose moments come from 2-D quadrature;
 * - a Poisson (log-Gaussian Cox) model with n = 2, also by quadrature.
 */
import { Matrix } from "../../src/linalg/matrix.js";
import { poissonLikelihood } from "../../src/likelihoods/poisson.js";
import { probit } from "../../src/likelihoods/probit.js";
import { LikelihoodDataError, type Likelihood } from "../../src/likelihoods/types.js";
import { logPhi } from "../../src/math/normal.js";
import type { RandomSource } from "../../src/random/types.js";
import { annealedLatentTarget, type AnnealedLatentTarget } from "../../src/targets/annealedLatent.js";
import { cholDense, cholInverse, quadratureMoments2d, toColumnMajor } from "./fixtures.js";

const LOG_2PI = Math.log(2 * Math.PI);

/** y_i ~ N(f_i, sd_i^2): derivatives (y - f)/sd^2, -1/sd^2, 0; Fisher information 1/sd^2. */
export function gaussianLikelihood(sd: ArrayLike<number>): Likelihood {
  const v = Float64Array.from(sd, (s) => s * s);
  return {
    name: "gaussian",
    logLikelihood(y, f) {
      let s = 0;
      for (let i = 0; i < f.length; i++) {
        const e = y[i] - f[i];
        s += -0.5 * (LOG_2PI + Math.log(v[i])) - (0.5 * e * e) / v[i];
      }
      return s;
    },
    derivatives(y, f, d1, d2, d3) {
      for (let i = 0; i < f.length; i++) {
        d1[i] = (y[i] - f[i]) / v[i];
        d2[i] = -1 / v[i];
        if (d3) d3[i] = 0;
      }
      return this.logLikelihood(y, f);
    },
    fisherInformation(f, out) {
      for (let i = 0; i < f.length; i++) out[i] = 1 / v[i];
      return out;
    },
    sample(f, rng: RandomSource, out) {
      for (let i = 0; i < f.length; i++) out[i] = f[i] + Math.sqrt(v[i]) * rng.normal();
      return out;
    },
    checkResponses(y) {
      for (let i = 0; i < y.length; i++) if (!Number.isFinite(y[i])) throw new LikelihoodDataError("gaussian", i, y[i], "a finite number");
    },
  };
}

export interface KnownPosterior {
  target: AnnealedLatentTarget;
  mean: number[];
  cov: (i: number, j: number) => number;
  /** The prior covariance K (row-major). */
  K: number[][];
}

export const REG_K = [[1, 0.6, 0.3], [0.6, 2, -0.5], [0.3, -0.5, 1.5]];
export const REG_Y = [0.8, -1.5, 2.0];
export const REG_SD = [0.7, 1.2, 0.5];

/** GP regression with n = 3: correlated prior, heteroscedastic Gaussian noise, closed-form posterior. */
export function regressionProblem(): KnownPosterior {
  const n = REG_Y.length;
  const k = toColumnMajor(REG_K);
  // posterior precision K^-1 + D^-1, covariance its inverse, mean cov D^-1 y
  const kInv = cholInverse(cholDense(k, n), n);
  const prec = kInv.slice();
  for (let i = 0; i < n; i++) prec[i + i * n] += 1 / (REG_SD[i] * REG_SD[i]);
  const cov = cholInverse(cholDense(prec, n), n);
  const mean: number[] = [];
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += (cov[i + j * n] * REG_Y[j]) / (REG_SD[j] * REG_SD[j]);
    mean.push(s);
  }
  const target = annealedLatentTarget({ likelihood: gaussianLikelihood(REG_SD), y: REG_Y, kernelMatrix: new Matrix(n, n, k) });
  return { target, mean, cov: (i, j) => cov[i + j * n], K: REG_K };
}

export const CLS_K = [[9, 7], [7, 9]];
export const CLS_Y = [1, -1];

/** GP probit classification with n = 2 and a strongly correlated prior; moments by quadrature. */
export function probitProblem(): KnownPosterior {
  const k = toColumnMajor(CLS_K);
  const kInv = cholInverse(cholDense(k, 2), 2);
  const logPost = (x: Float64Array) =>
    logPhi(CLS_Y[0] * x[0]) + logPhi(CLS_Y[1] * x[1])
    - 0.5 * (kInv[0] * x[0] * x[0] + 2 * kInv[2] * x[0] * x[1] + kInv[3] * x[1] * x[1]);
  const q = quadratureMoments2d(logPost, -25, 25, 800);
  const target = annealedLatentTarget({ likelihood: probit, y: CLS_Y, kernelMatrix: new Matrix(2, 2, k) });
  return { target, mean: q.mean, cov: (i, j) => q.cov[i][j], K: CLS_K };
}

export const LCX_K = [[1, 0.8], [0.8, 1]];
export const LCX_Y = [4, 0];

/**
 * A log-Gaussian Cox (Poisson) posterior with n = 2, whose Fisher information R = exp(f) varies
 * by orders of magnitude over the posterior; moments by 2-D quadrature.
 */
export function poissonProblem(): KnownPosterior {
  const k = toColumnMajor(LCX_K);
  const lik = poissonLikelihood();
  const target = annealedLatentTarget({ likelihood: lik, y: LCX_Y, kernelMatrix: new Matrix(2, 2, k) });
  const q = quadratureMoments2d((x) => target.logDensity(x), -12, 8, 800);
  return { target, mean: q.mean, cov: (i, j) => q.cov[i][j], K: LCX_K };
}
