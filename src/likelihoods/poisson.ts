/**
 * Poisson likelihood with log link (the log-Gaussian Cox model LCX), Appendix B.2 of the
 * comparison paper: y_i ~ Poisson(lambda_i) with lambda_i = m_i exp(f_i), where m_i > 0 is an
 * exposure or cell area (m_i = 1 is B.2 itself; the Cox process on a grid of cells of area m
 * has lambda_i = m exp(f_i), as in Girolami & Calderhead's Section 9).
 *
 *   log p        = y log(lambda) - lambda - log y!   (normalised: includes log y!)
 *   d log p / df = y - lambda                         (B.2: (grad L)_j = y_j - exp(f_j))
 *   d2 = d3      = -lambda
 *   R_ii         = lambda                              (B.2: R_ii = exp(f_i))
 *
 * log p is evaluated in Loader's saddle-point form (Loader 2000, "Fast and accurate computation
 * of binomial probabilities", as R's dpois does):
 *   log p(y | lambda) = -log sqrt(2 pi y) - stirlerr(y) - bd0(y, lambda),
 * with bd0(y, lambda) = y log(y / lambda) + lambda - y summed as a series near y = lambda, so
 * that log p keeps full absolute precision even for counts of 1e12 and more, where the naive
 * y log(lambda) - lambda - log y! loses digits to cancellation. The sampler's acceptance test
 * uses the same function.
 */
import { logFactorial } from "../math/index.js";
import type { RandomSource } from "../random/types.js";
import type { PointwiseLikelihood } from "./pointwise.js";
import { assertLengths } from "./shape.js";
import { LikelihoodDataError } from "./types.js";
import { LikelihoodOptionError } from "./options.js";

const NAME = "poisson";
const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** stirlerr(n) = log n! - (n + 1/2) log n + n - log sqrt(2 pi), the error of Stirling's formula. */
function stirlerr(n: number): number {
  if (n <= 15) return logFactorial(n) - (n + 0.5) * Math.log(n) + n - LOG_SQRT_2PI;
  const nn = n * n;
  const S0 = 1 / 12, S1 = 1 / 360, S2 = 1 / 1260, S3 = 1 / 1680, S4 = 1 / 1188;
  if (n > 500) return (S0 - S1 / nn) / n;
  if (n > 80) return (S0 - (S1 - S2 / nn) / nn) / n;
  if (n > 35) return (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n;
  return (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n;
}

/** bd0(x, m) = x log(x / m) + m - x, the deviance term, without cancellation for x near m. */
function bd0(x: number, m: number): number {
  if (Math.abs(x - m) < 0.1 * (x + m)) {
    // x log(x/m) + m - x = (x - m) v + 2 x sum_{j>=1} v^(2j+1) / (2j + 1), v = (x - m)/(x + m)
    let v = (x - m) / (x + m);
    let s = (x - m) * v;
    let ej = 2 * x * v;
    v = v * v;
    for (let j = 1; j < 1000; j++) {
      ej *= v;
      const s1 = s + ej / (2 * j + 1);
      if (s1 === s) return s1;
      s = s1;
    }
    return s;
  }
  return x * Math.log(x / m) + m - x;
}

/** log Poisson(k | lambda) for an integer k >= 0 and lambda >= 0. */
export function poissonLogPmf(k: number, lambda: number): number {
  if (lambda === 0) return k === 0 ? 0 : -Infinity;
  if (k === 0) return -lambda;
  if (lambda === Infinity) return -Infinity;
  return -Math.log(k) / 2 - LOG_SQRT_2PI - stirlerr(k) - bd0(k, lambda);
}

/**
 * A Poisson(rate) variate. rate < 10: inversion by sequential search from 0 (exact up to the
 * rounding of the cumulative sum; at most about rate + 10 sqrt(rate) + 30 steps). rate >= 10:
 * PTRS, the transformed rejection method with squeeze of Hörmann (1993), "The transformed
 * rejection method for generating Poisson random variables", Insurance: Mathematics and
 * Economics 12, 39-45 (constants as published; about 1.15 uniforms pairs per variate), with the
 * acceptance test on the log scale through poissonLogPmf so that it stays exact for large rates
 * (tested up to 1e12). Above 2^53 (about 9e15) the draws are rounded to representable doubles.
 */
export function samplePoisson(rate: number, rng: RandomSource): number {
  if (!(rate >= 0) || rate === Infinity) throw new RangeError(`Poisson rate must be finite and non-negative, got ${rate}`);
  if (rate === 0) return 0;
  if (rate < 10) {
    const u = rng.uniform();
    let k = 0;
    let p = Math.exp(-rate);
    let cdf = p;
    while (u > cdf) {
      k++;
      p *= rate / k;
      if (p === 0) break; // u fell in the rounding gap above the computed cdf (probability < 1e-15)
      cdf += p;
    }
    return k;
  }
  const slam = Math.sqrt(rate);
  const b = 0.931 + 2.53 * slam;
  const a = -0.059 + 0.02483 * b;
  const logInvAlpha = Math.log(1.1239 + 1.1328 / (b - 3.4));
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const u = rng.uniform() - 0.5;
    const v = rng.uniform();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + rate + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (Math.log(v) + logInvAlpha - Math.log(a / (us * us) + b) <= poissonLogPmf(k, rate)) return k;
  }
}

export interface PoissonOptions {
  /**
   * Exposure or cell area m_i > 0: one number for all points, or one per point. The rate is
   * m_i exp(f_i). Default 1.
   */
  exposure?: number | ArrayLike<number>;
}

/** The Poisson likelihood with log link and optional exposure. */
export function poissonLikelihood(options: PoissonOptions = {}): PointwiseLikelihood {
  const given = options.exposure ?? 1;
  const perPoint = typeof given !== "number";
  const scalarLogM = typeof given === "number" ? Math.log(given) : 0;
  const logM = perPoint ? new Float64Array(given.length) : new Float64Array(0);
  if (typeof given === "number") {
    if (!(given > 0) || given === Infinity) throw new LikelihoodOptionError("exposure", `must be a positive finite number, got ${given}`);
  } else {
    for (let i = 0; i < given.length; i++) {
      const m = given[i];
      if (!(m > 0) || m === Infinity) throw new LikelihoodOptionError("exposure", `entry ${i + 1} must be a positive finite number, got ${m}`);
      logM[i] = Math.log(m);
    }
  }
  const logExposure = (i: number): number => (perPoint ? logM[i] : scalarLogM);
  const checkExposure = (method: string, n: number): void => {
    if (perPoint && logM.length !== n) {
      throw new LikelihoodOptionError("exposure", `${logM.length} values given for ${n} points (in ${NAME} ${method})`);
    }
  };

  return {
    name: NAME,

    logLikelihood(y, f) {
      assertLengths(NAME, "logLikelihood", { y, f });
      checkExposure("logLikelihood", f.length);
      let sum = 0;
      for (let i = 0; i < f.length; i++) sum += poissonLogPmf(y[i], Math.exp(f[i] + logExposure(i)));
      return sum;
    },

    logLikelihoodPoints(y, f, out) {
      assertLengths(NAME, "logLikelihoodPoints", { y, f, out });
      checkExposure("logLikelihoodPoints", f.length);
      for (let i = 0; i < f.length; i++) out[i] = poissonLogPmf(y[i], Math.exp(f[i] + logExposure(i)));
      return out;
    },

    derivatives(y, f, d1, d2, d3) {
      assertLengths(NAME, "derivatives", { y, f, d1, d2, d3 });
      checkExposure("derivatives", f.length);
      let sum = 0;
      for (let i = 0; i < f.length; i++) {
        const lambda = Math.exp(f[i] + logExposure(i));
        sum += poissonLogPmf(y[i], lambda);
        d1[i] = y[i] - lambda;
        d2[i] = -lambda;
        if (d3) d3[i] = -lambda;
      }
      return sum;
    },

    fisherInformation(f, out) {
      assertLengths(NAME, "fisherInformation", { f, out });
      checkExposure("fisherInformation", f.length);
      for (let i = 0; i < f.length; i++) out[i] = Math.exp(f[i] + logExposure(i));
      return out;
    },

    sample(f, rng, out) {
      assertLengths(NAME, "sample", { f, out });
      checkExposure("sample", f.length);
      for (let i = 0; i < f.length; i++) out[i] = samplePoisson(Math.exp(f[i] + logExposure(i)), rng);
      return out;
    },

    checkResponses(y) {
      for (let i = 0; i < y.length; i++) {
        const v = y[i];
        if (!Number.isSafeInteger(v) || v < 0) throw new LikelihoodDataError(NAME, i, v, "a non-negative integer count");
      }
      checkExposure("checkResponses", y.length);
    },
  };
}
