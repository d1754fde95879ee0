/**
 * The simulated data sets of the comparison paper (Filippone, Zhong & Girolami, Section 4.1):
 * inputs uniform in the unit hypercube [0, 1]^d, the squared-exponential ARD kernel
 *   k(x_i, x_j) = sigma exp(-1/2 sum_r (x_i - x_j)_r^2 / exp(psi_r)^2)        (paper eq. 1)
 * with marginal variance sigma = exp(2) (so the signal sd is exp(1)) and log-lengthscales
 * psi_r ~ U[-3, -1], latent values f ~ N(0, K), and responses y ~ p(y | f) from one of the
 * likelihoods of Appendix B.
 *
 * "We seeded the generation of the input data matrix X, hyper-parameters, and latent variables so
 * that these were the same across different models": X, psi and f are drawn from stream 0 of the
 * seed, and y from a stream of its own per likelihood (its `simulation.stream` in the likelihood registry), so a
 * seed gives the same X, theta and f whichever likelihood the responses come from.
 *
 * The paper does not give the ordinal model's thresholds; we use r = 4 categories with
 * thresholds (-2, 0, 2) and noise sd 1, close to the quartiles of the marginal
 * N(0, sigma + 1) = N(0, 8.39) of f + delta (+-0.674 sqrt(8.39) = +-1.95), so the four categories
 * are about equally frequent a priori.
 */
import { seKernel } from "../gp/index.js";
import { cholesky } from "../linalg/cholesky.js";
import { Matrix } from "../linalg/matrix.js";
import { likelihoodByName, likelihoodsWith, likelihoodTraits } from "../likelihoods/registry.js";
import type { LikelihoodOptions } from "../likelihoods/options.js";
import { Rng } from "../random/rng.js";

/** The random stream of a likelihood's simulated responses, and the options it is simulated with: its entry in the likelihood registry. */
function simulationOf(likelihood: string): { readonly stream: number; readonly options: LikelihoodOptions } | undefined {
  return likelihoodTraits(likelihood)?.simulation;
}

/** Likelihoods a simulated data set can have: those the likelihood registry gives a simulation, in the order of their streams of y. */
export const SIMULATION_LIKELIHOODS: readonly string[] = likelihoodsWith((t) => t.simulation !== undefined).sort((a, b) => simulationOf(a)!.stream - simulationOf(b)!.stream);
export type SimulationLikelihood = string;

/** log of the signal sd: sigma = exp(2) is the variance, so the sd is exp(1). */
export const SIMULATION_LOG_SIGNAL_SD = 1;
/** psi_r ~ U[-3, -1]. */
export const SIMULATION_LOG_LENGTHSCALE_RANGE: readonly [number, number] = [-3, -1];
/** The ordinal model's settings (our choice, held in the likelihood registry; see the module comment). */
export const SIMULATION_ORDINAL: { thresholds: readonly number[]; noiseSd: number } = {
  thresholds: Array.from(simulationOf("ordinal")!.options.thresholds!),
  noiseSd: simulationOf("ordinal")!.options.noiseSd!,
};
/**
 * Added to the diagonal of K, relative to sigma: K of 400 points in [0, 1]^2 with lengthscales
 * near exp(-1) is numerically singular. The same K + jitter I is the prior of f and of every
 * target built on the data set (simulatedKernelMatrix).
 */
export const SIMULATION_RELATIVE_JITTER = 1e-6;

/** X, theta and f of one simulated data set: what the likelihoods share. */
export interface SimulatedLatentGp {
  seed: number;
  /** Inputs, n x d, column-major. */
  X: Matrix;
  /** psi_r, one per input column. */
  logLengthscale: number[];
  logSignalSd: number;
  /** Added to the diagonal of K. */
  jitter: number;
  /** The latent values, f ~ N(0, K + jitter I). */
  f: Float64Array;
}

/** A simulated data set: the shared part plus responses from one likelihood. */
export interface SimulatedDataSet extends SimulatedLatentGp {
  likelihood: SimulationLikelihood;
  /** The likelihood's options (the ordinal thresholds and noise sd; none for the others). */
  likelihoodOptions: LikelihoodOptions;
  y: Float64Array;
}

/** K + jitter I of the simulated kernel on the simulated inputs. */
export function simulatedKernelMatrix(s: Pick<SimulatedLatentGp, "X" | "logLengthscale" | "logSignalSd" | "jitter">): Matrix {
  const K = seKernel({ logLengthscale: s.logLengthscale, logSignalSd: s.logSignalSd }).matrix(s.X);
  const n = K.rows;
  for (let i = 0; i < n; i++) K.data[i + i * n] += s.jitter;
  return K;
}

/** Draws X, psi and f from stream 0 of `seed` (Section 4.1). */
export function simulateLatentGp(n: number, d: number, seed: number): SimulatedLatentGp {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  if (!Number.isInteger(d) || d < 1) throw new RangeError(`d must be a positive integer, got ${d}`);
  const rng = new Rng(seed, 0);
  const X = new Matrix(n, d);
  for (let i = 0; i < n * d; i++) X.data[i] = rng.uniform();
  const [lo, hi] = SIMULATION_LOG_LENGTHSCALE_RANGE;
  const logLengthscale = Array.from({ length: d }, () => lo + (hi - lo) * rng.uniform());
  const logSignalSd = SIMULATION_LOG_SIGNAL_SD;
  const jitter = SIMULATION_RELATIVE_JITTER * Math.exp(2 * logSignalSd);
  const L = cholesky(simulatedKernelMatrix({ X, logLengthscale, logSignalSd, jitter }), { inPlace: true, what: "simulated kernel matrix" });
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) z[i] = rng.normal();
  return { seed, X, logLengthscale, logSignalSd, jitter, f: L.multiplyLower(z) };
}

/** The options the simulation gives each likelihood. */
export function simulationLikelihoodOptions(likelihood: SimulationLikelihood): LikelihoodOptions {
  const o = simulationOf(likelihood)?.options ?? {};
  return o.thresholds === undefined ? { ...o } : { ...o, thresholds: Array.from(o.thresholds) };
}

/** Draws y ~ p(y | f) of `likelihood` from that likelihood's own stream of the latent part's seed. */
export function simulateResponses(latent: SimulatedLatentGp, likelihood: SimulationLikelihood): SimulatedDataSet {
  const simulation = simulationOf(likelihood);
  if (simulation === undefined) throw new RangeError(`unknown likelihood ${JSON.stringify(likelihood)} (known: ${SIMULATION_LIKELIHOODS.join(", ")})`);
  const likelihoodOptions = simulationLikelihoodOptions(likelihood);
  const lik = likelihoodByName(likelihood, likelihoodOptions);
  const y = lik.sample(latent.f, new Rng(latent.seed, simulation.stream), new Float64Array(latent.f.length));
  // probit's responses are -1/+1; logistic's 0/1 (as the likelihood modules take them).
  return { ...latent, likelihood, likelihoodOptions, y };
}

/** simulateLatentGp then simulateResponses. */
export function simulateDataSet(likelihood: SimulationLikelihood, n: number, d: number, seed: number): SimulatedDataSet {
  return simulateResponses(simulateLatentGp(n, d, seed), likelihood);
}
