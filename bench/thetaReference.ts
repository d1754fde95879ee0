// A reference for the posterior mean of theta that uses no Markov chain: self-normalised importance
// sampling over theta, with an unbiased importance estimate of p(y | theta) at each draw
// (src/hyper/gaussianImportance.ts, 32 draws from EP's Gaussian, converged from the prior's sites)
// and a proposal g with heavy tails that covers every mode of Laplace's marginal posterior (a t
// with 4 degrees of freedom at each mode, weighted equally, its covariance 4 times the inverse
// negative Hessian there). With weights w_i = p(theta_i) p^(y | theta_i) / g(theta_i), the
// estimate is sum w_i theta_i / sum w_i, and its standard error sqrt(sum w_i^2 (theta_i - mean)^2) / sum w_i.
// Used by bench/stanHyper.ts to tell which of two samplers that disagree has the posterior.
import { readDataset } from "../src/io/dataset.js";
import { cholesky } from "../src/linalg/cholesky.js";
import { likelihoodByName } from "../src/likelihoods/registry.js";
import { Rng } from "../src/random/rng.js";
import { hyperLogPrior, kernelAt } from "../src/hyper/covariance.js";
import { gaussianProposal, importanceEstimate } from "../src/hyper/gaussianImportance.js";
import { DEFAULT_LENGTHSCALE_PRIOR, DEFAULT_VARIANCE_PRIOR, hyperSpace } from "../src/hyper/jointKernel.js";
import { approximationMethod } from "../src/hyper/pseudoMarginal.js";
import { laplaceThetaModes } from "../src/hyper/thetaMode.js";
import { drawMixture, logMixtureDensity } from "../src/hyper/tMixture.js";

export interface ThetaReference {
  /** Means of log_lengthscale.1..d and log_signal_sd (= log sigma / 2). */
  mean: Float64Array;
  se: Float64Array;
  /** The importance sample's effective size, (sum w)^2 / sum w^2. */
  ess: number;
}

/** The reference for the probit GP classifier with the default priors on a data file, from `draws` draws of g. */
export function thetaReference(file: string, draws: number, seed: number): ThetaReference {
  const ds = readDataset(file);
  const y = Float64Array.from(ds.y, (v) => (v > 0 ? 1 : -1));
  const space = hyperSpace(ds.X, { likelihood: "probit", lengthscalePrior: DEFAULT_LENGTHSCALE_PRIOR, variancePrior: DEFAULT_VARIANCE_PRIOR });
  const problem = { space, likelihood: likelihoodByName("probit"), y };
  const m = ds.X.cols + 1;
  const modes = laplaceThetaModes(problem, new Float64Array(m));
  const components = modes.map((md) => {
    const c = md.covariance.clone();
    c.data.forEach((v, i) => (c.data[i] = 4 * v));
    return { weight: 1, centre: md.t, shape: cholesky(c) };
  });
  const how = approximationMethod(problem);
  const rng = new Rng(seed);
  const n = ds.n;
  const logW = new Float64Array(draws);
  const points: Float64Array[] = [];
  for (let i = 0; i < draws; i++) {
    const t = drawMixture(components, 4, rng);
    points.push(t);
    let logEstimate = -Infinity;
    try {
      logEstimate = importanceEstimate(problem, gaussianProposal(problem, kernelAt(space, t), how), rng.fillNormal(new Float64Array(32 * n))).logEstimate;
    } catch { /* K or the approximation fails: weight zero */ }
    logW[i] = hyperLogPrior(space, t).value + logEstimate - logMixtureDensity(components, 4, t);
  }
  let max = -Infinity;
  for (const v of logW) if (Number.isFinite(v) && v > max) max = v;
  const w = Array.from(logW, (v) => (Number.isFinite(v) ? Math.exp(v - max) : 0));
  const total = w.reduce((a, v) => a + v, 0);
  const value = (t: Float64Array, k: number) => (k === m - 1 ? t[k]! / 2 : t[k]!);
  const mean = Float64Array.from({ length: m }, (_, k) => points.reduce((a, t, i) => a + w[i]! * value(t, k), 0) / total);
  const se = Float64Array.from({ length: m }, (_, k) => Math.sqrt(points.reduce((a, t, i) => a + (w[i]! * (value(t, k) - mean[k]!)) ** 2, 0)) / total);
  return { mean, se, ess: total ** 2 / w.reduce((a, v) => a + v * v, 0) };
}
