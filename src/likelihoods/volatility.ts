/**
 * Stochastic volatility with a GP prior (VLT), Appendix B.3 of the comparison paper:
 *
 *   p(y_i | f_i) = N(y_i | 0, exp(f_i)^2),
 *
 * so exp(f) is the standard deviation (not the variance; B.3's R_ii = 2 holds for this choice,
 * whereas sd = exp(f/2) would give 1/2). With q = y^2 exp(-2 f):
 *
 *   log p        = -log sqrt(2 pi) - f - q/2
 *   d log p / df = q - 1             (B.3: (grad L)_j = exp(f_j)^-2 y_j^2 - 1)
 *   d2           = -2 q
 *   d3           = 4 q
 *   R_ii         = 2                 (B.3; E[q] = 1)
 *
 * q is formed as exp(2 (log|y| - f)) so that it neither overflows nor underflows early.
 */
import { pointwiseDerivatives, pointwiseLogLikelihood, type PointwiseLikelihood } from "./pointwise.js";
import { assertLengths } from "./shape.js";
import { LikelihoodDataError } from "./types.js";

const NAME = "volatility";
const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

function scaledSquare(y: number, f: number): number {
  return y === 0 ? 0 : Math.exp(2 * (Math.log(Math.abs(y)) - f));
}

function logPoint(y: number, f: number): number {
  return -LOG_SQRT_2PI - f - 0.5 * scaledSquare(y, f);
}

/** The stochastic-volatility likelihood y ~ N(0, exp(f)^2). */
export function volatilityLikelihood(): PointwiseLikelihood {
  return {
    ...pointwiseLogLikelihood(NAME, logPoint),

    derivatives: pointwiseDerivatives(NAME, (yi, fi, i, d1, d2, d3) => {
      const q = scaledSquare(yi, fi);
      d1[i] = q - 1;
      d2[i] = -2 * q;
      if (d3) d3[i] = 4 * q;
      return -LOG_SQRT_2PI - fi - 0.5 * q;
    }),

    fisherInformation(f, out) {
      assertLengths(NAME, "fisherInformation", { f, out });
      return out.fill(2);
    },

    sample(f, rng, out) {
      assertLengths(NAME, "sample", { f, out });
      for (let i = 0; i < f.length; i++) out[i] = Math.exp(f[i]) * rng.normal();
      return out;
    },

    checkResponses(y) {
      for (let i = 0; i < y.length; i++) {
        if (!Number.isFinite(y[i])) throw new LikelihoodDataError(NAME, i, y[i], "a finite number");
      }
    },
  };
}
