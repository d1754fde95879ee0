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
/** `gradient` takes one logarithm per LOG_MASK + 1 points (a power of two). */
const LOG_MASK = 15;

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

    // d1 and sum_i log p from one exp per point: with e = exp(-|f|), l+(f) = 1 / (1 + e) and
    // l-(f) = e / (1 + e) for f >= 0 (swapped below 0), and log p = -log(1 + e) - max(-f, 0) if
    // y = 1, -log(1 + e) - max(f, 0) if y = 0. The logarithms of 1 + e (in (1, 2]) are taken of
    // products of LOG_MASK + 1 factors, one per block, as the probit likelihood does: the sum is off
    // by a few units of 1e-16 absolute, as a sum of the points' terms is anyway.
    gradient(y, f, d1) {
      if (y.length !== f.length || d1.length !== f.length) assertLengths(NAME, "gradient", { y, f, d1 });
      let s = 0;
      let product = 1;
      for (let i = 0; i < f.length; i++) {
        const fi = f[i];
        const e = Math.exp(-Math.abs(fi));
        const onePlus = 1 + e;
        const pos = y[i] === 1;
        // y = 1: d1 = l-(f); y = 0: d1 = -l+(f)
        d1[i] = fi >= 0 ? (pos ? e : -1) / onePlus : (pos ? 1 : -e) / onePlus;
        s -= pos ? (fi < 0 ? -fi : 0) : fi > 0 ? fi : 0;
        product *= onePlus;
        if ((i & LOG_MASK) === LOG_MASK) {
          s -= Math.log(product);
          product = 1;
        }
      }
      return s - Math.log(product);
    },

    score(y, f, d1) {
      if (y.length !== f.length || d1.length !== f.length) assertLengths(NAME, "score", { y, f, d1 });
      for (let i = 0; i < f.length; i++) {
        const fi = f[i];
        const e = Math.exp(-Math.abs(fi));
        const pos = y[i] === 1;
        d1[i] = fi >= 0 ? (pos ? e : -1) / (1 + e) : (pos ? 1 : -e) / (1 + e);
      }
    },

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
