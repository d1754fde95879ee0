/**
 * Predictions at test inputs, averaged over posterior draws (comparison paper, eq. 2-3):
 *
 *   p(y_* | y) ~= 1/S sum_s  int p(y_* | f_*) N(f_*; m_s, v_s) df_*,
 *
 * where N(m_s, v_s) is f_* | f^(s), theta^(s) (./latentConditional.ts) and the inner integral is
 * ./observation.ts's. A Gaussian approximation q(f) is the case S = 1 with q's marginals.
 *
 * With test responses, the scores are those of the averaged probabilities. Their Monte Carlo
 * standard errors come from the delta method: the mean log predictive density
 * 1/m sum_j log pbar_j, pbar_j = 1/S sum_s p_js, moves with the draws as the mean over s of
 * g_s = 1/m sum_j p_js / pbar_j, and the Brier score as that of g_s = 1/m sum_j 2 (pbar_j - t_j) p_js
 * (p_js = p(y_j = +1 | draw s)); the MCSE of a mean of g_s over the chains (sd / sqrt(ESS)) is
 * the MCSE of the score. The error rate and the AUC, which jump with the draws, get none.
 */
import { mcseMean } from "../diagnostics/mcse.js";
import type { LikelihoodOptions } from "../likelihoods/options.js";
import type { PointwiseLikelihood } from "../likelihoods/pointwise.js";
import type { OrdinalLikelihood } from "../likelihoods/ordinal.js";
import { likelihoodByName, likelihoodTraits } from "../likelihoods/registry.js";
import type { LatentMarginals } from "./latentConditional.js";
import { ordinalClassProbabilities, quadraturePredictive } from "./observation.js";
import { poissonInterval } from "./countInterval.js";
import { areaUnderRoc, binaryErrorRate, brierScore, classErrorRate, meanLogPredictiveDensity } from "./scores.js";

/** The likelihood by its command-line name, with its options for the test points (a Poisson model's test exposures). */
export interface PredictiveModel {
  likelihood: "probit" | "logistic" | "poisson" | "volatility" | "ordinal";
  options?: LikelihoodOptions;
}

/** f_* marginals for each draw: chain c, draw i (0-based). */
export interface MarginalsByDraw {
  chains: number;
  draws: number;
  at(chain: number, draw: number): LatentMarginals;
}

export interface PredictionScores {
  meanLogPredictiveDensity: number;
  meanLogPredictiveDensityMcse: number;
  errorRate?: number;
  brier?: number;
  brierMcse?: number;
  auc?: number;
}

export interface Prediction {
  /** Predictive mean and sd of f_* (the mixture over draws). */
  meanF: Float64Array;
  sdF: Float64Array;
  /** Binary likelihoods: p(y_* = +1) (probit's +1, logistic's 1). */
  pPositive?: Float64Array;
  /** Ordinal: class probabilities, row j at [j r, (j + 1) r). */
  classProbabilities?: Float64Array;
  classes?: number;
  /** Poisson: predictive mean of the count and its central 90% interval. */
  countMean?: Float64Array;
  countLower?: Float64Array;
  countUpper?: Float64Array;
  /** Volatility: predictive sd of y_* (its mean is 0). */
  sdY?: Float64Array;
  /** With test responses. */
  scores?: PredictionScores;
}

/** Poisson intervals use at most this many draws, evenly spaced (the pmf sums over draws x 10 quadrature rates). */
export const COUNT_INTERVAL_DRAWS = 100;

export function predict(model: PredictiveModel, source: MarginalsByDraw, yStar?: Float64Array): Prediction {
  const { chains, draws } = source;
  const S = chains * draws;
  if (S < 1) throw new RangeError("predict: no draws");
  const first = source.at(0, 0);
  const m = first.mean.length;
  if (yStar && yStar.length !== m) throw new RangeError(`predict: ${yStar.length} test responses for ${m} test inputs`);
  const lik = likelihoodByName(model.likelihood, model.options ?? {});
  if (yStar) lik.checkResponses(yStar);
  const traits = likelihoodTraits(model.likelihood)!;
  const binary = traits.predictive === "class-probability";
  const ordinal = traits.predictive === "categories" ? (lik as OrdinalLikelihood) : undefined;
  const r = ordinal?.categories ?? 0;

  const sumF = new Float64Array(m);
  const sumF2 = new Float64Array(m);
  const pPositive = binary ? new Float64Array(m) : undefined;
  const classProbabilities = ordinal ? new Float64Array(m * r) : undefined;
  const countMean = traits.predictive === "count" ? new Float64Array(m) : undefined;
  const sdY = traits.predictive === "sd" ? new Float64Array(m) : undefined;
  // p(y_j | draw s), row s, and p(y_j = +1 | draw s) for the Brier score's MCSE.
  const pObserved = yStar ? new Float64Array(S * m) : undefined;
  const pPositiveByDraw = yStar && binary ? new Float64Array(S * m) : undefined;
  const exposure = (j: number) => {
    const e = model.options?.exposure;
    return e === undefined ? 1 : typeof e === "number" ? e : e[j]!;
  };
  // The label +1 at every test point, for p(y = +1) by quadrature (logistic).
  const positiveOnes = new Float64Array(m).fill(1);
  const buffer = new Float64Array(m);
  const classBuffer = ordinal ? new Float64Array(m * r) : undefined;
  const intervalDraws: LatentMarginals[] = [];
  const intervalStride = Math.max(1, Math.ceil(S / COUNT_INTERVAL_DRAWS));

  for (let c = 0; c < chains; c++) {
    for (let i = 0; i < draws; i++) {
      const s = c * draws + i;
      const mg = s === 0 ? first : source.at(c, i);
      for (let j = 0; j < m; j++) {
        sumF[j] += mg.mean[j]!;
        sumF2[j] += mg.variance[j]! + mg.mean[j]! ** 2;
      }
      if (binary) {
        const p = traits.classProbability !== undefined
          ? closedFormClassProbabilities(traits.classProbability, mg, buffer)
          : quadraturePredictive(lik as PointwiseLikelihood, positiveOnes, mg, buffer);
        for (let j = 0; j < m; j++) pPositive![j] += p[j]!;
        if (yStar) {
          for (let j = 0; j < m; j++) {
            pPositiveByDraw![s * m + j] = p[j]!;
            pObserved![s * m + j] = yStar[j] === 1 ? p[j]! : 1 - p[j]!;
          }
        }
      } else if (ordinal) {
        const cp = ordinalClassProbabilities(ordinal.thresholds, ordinal.noiseSd, mg, classBuffer);
        for (let k = 0; k < m * r; k++) classProbabilities![k] += cp[k]!;
        if (yStar) for (let j = 0; j < m; j++) pObserved![s * m + j] = cp[j * r + yStar[j]! - 1]!;
      } else {
        if (countMean) for (let j = 0; j < m; j++) countMean[j] += exposure(j) * Math.exp(mg.mean[j]! + mg.variance[j]! / 2);
        if (sdY) for (let j = 0; j < m; j++) sdY[j] += Math.exp(2 * mg.mean[j]! + 2 * mg.variance[j]!);
        if (yStar) pObserved!.set(quadraturePredictive(lik as PointwiseLikelihood, yStar, mg, buffer), s * m);
        if (countMean && s % intervalStride === 0) intervalDraws.push({ mean: Float64Array.from(mg.mean), variance: Float64Array.from(mg.variance) });
      }
    }
  }

  const meanF = sumF.map((v) => v / S);
  const sdF = sumF2.map((v, j) => Math.sqrt(Math.max(v / S - meanF[j]! ** 2, 0)));
  const out: Prediction = { meanF, sdF };
  if (pPositive) out.pPositive = pPositive.map((v) => v / S);
  if (classProbabilities) {
    out.classProbabilities = classProbabilities.map((v) => v / S);
    out.classes = r;
  }
  if (countMean) {
    out.countMean = countMean.map((v) => v / S);
    const interval = poissonInterval(intervalDraws, Array.from({ length: m }, (_, j) => exposure(j)), 0.9);
    out.countLower = interval.lower;
    out.countUpper = interval.upper;
  }
  if (sdY) out.sdY = sdY.map((v) => Math.sqrt(v / S));
  if (yStar && pObserved) out.scores = scoresOf(out, yStar, pObserved, pPositiveByDraw, chains, draws, m);
  return out;
}

/** p(y_j = +1) at each test point from a closed form (out: m values). */
function closedFormClassProbabilities(closedForm: (mean: number, variance: number) => number, mg: LatentMarginals, out: Float64Array): Float64Array {
  for (let j = 0; j < out.length; j++) out[j] = closedForm(mg.mean[j]!, mg.variance[j]!);
  return out;
}

function scoresOf(pred: Prediction, yStar: Float64Array, pObserved: Float64Array, pPositiveByDraw: Float64Array | undefined, chains: number, draws: number, m: number): PredictionScores {
  const S = chains * draws;
  const pbar = new Float64Array(m);
  for (let s = 0; s < S; s++) for (let j = 0; j < m; j++) pbar[j] += pObserved[s * m + j]! / S;
  const lpdLinear = perDraw(chains, draws, (s) => {
    let g = 0;
    for (let j = 0; j < m; j++) g += pObserved[s * m + j]! / pbar[j]!;
    return g / m;
  });
  const scores: PredictionScores = {
    meanLogPredictiveDensity: meanLogPredictiveDensity(pbar),
    meanLogPredictiveDensityMcse: safeMcse(lpdLinear),
  };
  if (pred.pPositive && pPositiveByDraw) {
    const positive = Array.from(yStar, (v) => v === 1);
    const p = pred.pPositive;
    scores.errorRate = binaryErrorRate(p, positive);
    scores.brier = brierScore(p, positive);
    scores.brierMcse = safeMcse(perDraw(chains, draws, (s) => {
      let g = 0;
      for (let j = 0; j < m; j++) g += 2 * (p[j]! - (positive[j] ? 1 : 0)) * pPositiveByDraw[s * m + j]!;
      return g / m;
    }));
    scores.auc = areaUnderRoc(p, positive);
  } else if (pred.classProbabilities && pred.classes) {
    scores.errorRate = classErrorRate(pred.classProbabilities, pred.classes, yStar);
  }
  return scores;
}

function perDraw(chains: number, draws: number, g: (s: number) => number): Float64Array[] {
  return Array.from({ length: chains }, (_, c) => Float64Array.from({ length: draws }, (_, i) => g(c * draws + i)));
}

/** The MCSE of the mean of the chains, or NaN where there are too few draws for one (a single Gaussian "draw"). */
function safeMcse(chains: Float64Array[]): number {
  try {
    return mcseMean(chains);
  } catch {
    return NaN;
  }
}
