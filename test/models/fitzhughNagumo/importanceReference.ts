/**
 * An independent reference for the Fitzhugh-Nagumo posterior: self-normalised importance sampling
 * from a multivariate Student-t (5 degrees of freedom) centred at the posterior mode with scale
 * (1.5^2) G(mode)^-1, which has heavier tails than the posterior. Gives the posterior mean and
 * covariance with delta-method standard errors, and the importance sampling ESS.
 */
import { cholesky } from "../../../src/linalg/cholesky.js";
import { posteriorMode } from "../../../src/models/fitzhughNagumo/mode.js";
import type { FitzhughNagumoModel } from "../../../src/models/fitzhughNagumo/model.js";
import { Rng } from "../../../src/random/rng.js";

export interface ImportanceReference {
  mode: Float64Array;
  mean: number[];
  cov: number[][];
  /** Standard errors of mean[i] and of cov[i][j]. */
  meanSe: number[];
  covSe: number[][];
  /** (sum w)^2 / sum w^2. */
  ess: number;
}

const NU = 5;
const SCALE = 1.5;

export function importanceReference(model: FitzhughNagumoModel, start: ArrayLike<number>, draws: number, seed: number): ImportanceReference {
  const d = model.dim;
  const mode = posteriorMode(model, start).theta;
  const g = model.denseMetric(mode, false).metric;
  // x = mode + SCALE L^-T z / sqrt(chi2/nu) with G = L L': covariance SCALE^2 G^-1 (times nu / (nu - 2))
  const factor = cholesky(g);
  const rng = new Rng(seed);
  const xs: Float64Array[] = [];
  const logw: number[] = [];
  const z = new Float64Array(d);
  for (let s = 0; s < draws; s++) {
    rng.fillNormal(z);
    const u = Math.sqrt((2 * rng.gamma(NU / 2)) / NU);
    const dir = factor.solveUpperInPlace(Float64Array.from(z));
    const x = Float64Array.from(mode, (m, i) => m + (SCALE * dir[i]) / u);
    // log q(x) up to a constant: -(nu + d)/2 log(1 + q / nu), q = |L' (x - mode)|^2 / SCALE^2 = |z|^2 / u^2
    let q = 0;
    for (let i = 0; i < d; i++) q += z[i] * z[i];
    q /= u * u;
    const lq = (-(NU + d) / 2) * Math.log1p(q / NU);
    const lp = model.logDensity(x);
    xs.push(x);
    logw.push(Number.isFinite(lp) ? lp - lq : -Infinity);
  }
  const top = Math.max(...logw);
  const w = logw.map((l) => Math.exp(l - top));
  const sw = w.reduce((a, b) => a + b, 0);
  const sw2 = w.reduce((a, b) => a + b * b, 0);
  const mean = Array.from({ length: d }, (_, i) => xs.reduce((a, x, s) => a + w[s] * x[i], 0) / sw);
  // self-normalised estimate of E[h] has se^2 ~ sum w_s^2 (h_s - E h)^2 / (sum w)^2
  const se = (h: (x: Float64Array) => number, eh: number) => Math.sqrt(xs.reduce((a, x, s) => a + w[s] * w[s] * (h(x) - eh) ** 2, 0)) / sw;
  const meanSe = mean.map((m, i) => se((x) => x[i], m));
  const cov: number[][] = [];
  const covSe: number[][] = [];
  for (let i = 0; i < d; i++) {
    cov.push([]);
    covSe.push([]);
    for (let j = 0; j < d; j++) {
      const h = (x: Float64Array) => (x[i] - mean[i]) * (x[j] - mean[j]);
      const c = xs.reduce((a, x, s) => a + w[s] * h(x), 0) / sw;
      cov[i].push(c);
      covSe[i].push(se(h, c));
    }
  }
  return { mode, mean, cov, meanSe, covSe, ess: (sw * sw) / sw2 };
}
