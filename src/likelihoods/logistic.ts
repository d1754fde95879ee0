/**
 * Logistic regression with a GP prior (LRG), Appendix B.1 of the comparison paper
 * (Filippone, Zhong & Girolami):
 *
 *   p(y_i | f_i) = l+(f_i)^y_i l-(f_i)^(1 - y_i),  l+(f) = 1 / (1 + exp(-f)),  l-(f) = l+(-f),
 *
 * with y_i in {0, 1}. Writing s = l+(f) and t = l-(f) (each computed directly, never as 1 - the
 * other, so that both keep full relative precision for |f| up to about 745):
 *
 *   log p        = -log(1 + exp(-f)) if y = 1,  -log(1 + exp(f)) if y = 0
 *   d log p / df = y - s   (B.1: (grad L)_j = y_j - l+(f_j)), evaluated as t if y = 1, -s if y = 0
 *   d2           = -s t
 *   d3           = -s t (t - s)       (d/df [s t] = s t (t - s))
 *   R_ii         = s t                 (B.1: E[y^2] = E[y] = s, so R_ii = l+ l-)
 */
import { log1pExp, logistic } from "../math/index.js";
import type { RandomSource } from "../random/types.js";
import { pointwiseDerivatives, pointwiseLogLikelihood, type PointwiseLikelihood } from "./pointwise.js";
import { assertLengths } from "./shape.js";
import { LikelihoodDataError } from "./types.js";

const NAME = "logistic";

function logPoint(y: number, f: number): number {
  return y === 1 ? -log1pExp(-f) : -log1pExp(f);
}

/** The logistic likelihood for labels y in {0, 1}. */
export function logisticLikelihood(): PointwiseLikelihood {
  return {
    ...pointwiseLogLikelihood(NAME, logPoint),

    derivatives: pointwiseDerivatives(NAME, (yi, fi, i, d1, d2, d3) => {
      const s = logistic(fi);
      const t = logistic(-fi);
      const st = s * t;
      const pos = yi === 1;
      d1[i] = pos ? t : -s;
      d2[i] = -st;
      if (d3) d3[i] = -st * (t - s);
      return pos ? -log1pExp(-fi) : -log1pExp(fi);
    }),

    fisherInformation(f, out) {
      assertLengths(NAME, "fisherInformation", { f, out });
      for (let i = 0; i < f.length; i++) out[i] = logistic(f[i]) * logistic(-f[i]);
      return out;
    },

    sample(f, rng: RandomSource, out) {
      assertLengths(NAME, "sample", { f, out });
      for (let i = 0; i < f.length; i++) out[i] = rng.uniform() < logistic(f[i]) ? 1 : 0;
      return out;
    },

    checkResponses(y) {
      for (let i = 0; i < y.length; i++) {
        if (y[i] !== 0 && y[i] !== 1) throw new LikelihoodDataError(NAME, i, y[i], "0 or 1 (labels given as -1/+1 must be mapped to 0/1)");
      }
    },
  };
}
