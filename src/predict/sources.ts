/**
 * Predictions from what inference leaves behind, with the squared-exponential kernel:
 *
 * - posterior draws of the latent values f (MCMC), at fixed hyperparameters or with one theta per
 *   draw (sampled hyperparameters): for each draw f_* | f, theta is the GP conditional
 *   (./latentConditional.ts), and the predictive distribution is their average (comparison paper,
 *   eq. 2-3; ./predict.ts);
 * - a Gaussian approximation q(f) = N(mu, Sigma) in site form (EP, Laplace), Sigma =
 *   (K^-1 + diag(tau))^-1 = K - K S (I + S K S)^-1 S K with S = diag(sqrt(tau)) (the Woodbury step
 *   of src/targets/woodbury.ts), which is the case of one "draw" with q's marginals.
 *
 * theta is on the log scale: log lengthscales (one shared, or one per input) and the log signal
 * sd, k(a, a) = exp(2 logSignalSd). The jitter is added to K's diagonal as in the model that gave
 * the draws: an absolute amount, or a relative one times the signal variance (so that it moves
 * with theta when theta is sampled).
 */
import { jitterAt, type JitterSpec } from "../gp/jitter.js";
import { seKernel } from "../gp/squaredExponential.js";
import type { Matrix } from "../linalg/matrix.js";
import { woodbury } from "../targets/woodbury.js";
import { conditionalAtTheta, type ConditionalAtTheta, type LatentMarginals } from "./latentConditional.js";
import { predict, type MarginalsByDraw, type Prediction, type PredictiveModel } from "./predict.js";

/** Kernel hyperparameters on the log scale. */
export interface LogTheta {
  logLengthscale: ArrayLike<number>;
  logSignalSd: number;
}

export { jitterAt, type JitterSpec } from "../gp/jitter.js";

/**
 * Draws of f: chain c holds `draws` rows of n values, row-major (row i at [i n, (i + 1) n)).
 * With sampled hyperparameters, `theta[c]` holds one row per draw: the d log lengthscales (or
 * one shared) then the log signal sd; otherwise `fixedTheta` applies to every draw.
 */
export interface LatentDraws {
  draws: number;
  f: Float64Array[];
  theta?: Float64Array[];
  fixedTheta?: LogTheta;
}

/** Site form of a Gaussian approximation: mean and site precisions (>= 0). */
export interface SiteApproximation extends LogTheta {
  mean: ArrayLike<number>;
  sitePrecisions: ArrayLike<number>;
}

/** The conditional at one theta; `sampled`: one of many thetas, whose K and K_* come from distances summed once (shared lengthscale). */
function conditional(theta: LogTheta, x: Matrix, xStar: Matrix, jitter: JitterSpec | undefined, sampled: boolean): ConditionalAtTheta {
  const ls = Array.from(theta.logLengthscale);
  const kernel = seKernel({ logLengthscale: ls.length === 1 ? ls[0]! : ls, logSignalSd: theta.logSignalSd, cachedDistances: sampled });
  return conditionalAtTheta(kernel, x, xStar, jitterAt(jitter, theta.logSignalSd));
}

/**
 * Predictions at test inputs xStar (m x d) from draws of f at training inputs x (n x d); yStar
 * (test responses in the likelihood's coding) adds the scores. Draws that share theta (fixed
 * hyperparameters, or a theta sampler's rejected moves) share one factorisation of K.
 */
export function predictFromDraws(model: PredictiveModel, x: Matrix, source: LatentDraws, xStar: Matrix, options: { jitter?: JitterSpec; yStar?: Float64Array } = {}): Prediction {
  const n = x.rows;
  const chains = source.f.length;
  if (chains === 0 || source.draws < 1) throw new RangeError("predictFromDraws: no draws");
  for (const fc of source.f) if (fc.length !== source.draws * n) throw new RangeError(`predictFromDraws: a chain holds ${fc.length} values, expected ${source.draws} draws x ${n}`);
  if (!source.theta && !source.fixedTheta) throw new RangeError("predictFromDraws: give theta per draw or fixedTheta");
  const width = source.theta ? source.theta[0]!.length / source.draws : 0;
  let cached: { key: string; cond: ConditionalAtTheta } | undefined;
  const at = (c: number, i: number): LatentMarginals => {
    let theta: LogTheta;
    let key: string;
    if (source.theta) {
      const row = source.theta[c]!.subarray(i * width, (i + 1) * width);
      theta = { logLengthscale: row.subarray(0, width - 1), logSignalSd: row[width - 1]! };
      key = row.join(",");
    } else {
      theta = source.fixedTheta!;
      key = "fixed";
    }
    if (cached?.key !== key) cached = { key, cond: conditional(theta, x, xStar, options.jitter, source.theta !== undefined) };
    const mean = cached.cond.mean(source.f[c]!.subarray(i * n, (i + 1) * n));
    return { mean, variance: cached.cond.variance };
  };
  const byDraw: MarginalsByDraw = { chains, draws: source.draws, at };
  return predict(model, byDraw, options.yStar);
}

/** Predictions at xStar from a Gaussian approximation at training inputs x (see the module comment). */
export function predictFromApproximation(model: PredictiveModel, x: Matrix, q: SiteApproximation, xStar: Matrix, options: { jitter?: JitterSpec; yStar?: Float64Array } = {}): Prediction {
  const n = x.rows;
  if (q.mean.length !== n || q.sitePrecisions.length !== n) throw new RangeError(`predictFromApproximation: the approximation has ${q.mean.length} values, the training inputs ${n} rows`);
  const cond = conditional(q, x, xStar, options.jitter, false);
  const ls = Array.from(q.logLengthscale);
  const K = seKernel({ logLengthscale: ls.length === 1 ? ls[0]! : ls, logSignalSd: q.logSignalSd }).matrix(x);
  const jitter = jitterAt(options.jitter, q.logSignalSd);
  for (let i = 0; i < n; i++) K.data[i + i * n] += jitter;
  const sigma = woodbury(K, Array.from(q.sitePrecisions, Math.sqrt), "I + S K S").inverse;
  const marginals = cond.fromGaussian(q.mean, sigma);
  return predict(model, { chains: 1, draws: 1, at: () => marginals }, options.yStar);
}
