import type { Likelihood } from "./types.js";
import { assertLengths } from "./shape.js";

/** A likelihood that also reports log p(y_i | f_i) point by point (for WAIC, LOO, per-point diagnostics). */
export interface PointwiseLikelihood extends Likelihood {
  /** Writes log p(y_i | f_i) into out[i] and returns out. */
  logLikelihoodPoints(y: Float64Array, f: Float64Array, out: Float64Array): Float64Array;
}

/**
 * The name, logLikelihood and logLikelihoodPoints of a likelihood that is a sum of terms
 * logPoint(y_i, f_i): the sum, and the terms one by one; one definition of the terms for both.
 */
export function pointwiseLogLikelihood(
  name: string,
  logPoint: (y: number, f: number) => number,
): Pick<PointwiseLikelihood, "name" | "logLikelihood" | "logLikelihoodPoints"> {
  return {
    name,
    logLikelihood(y, f) {
      assertLengths(name, "logLikelihood", { y, f });
      let sum = 0;
      for (let i = 0; i < f.length; i++) sum += logPoint(y[i], f[i]);
      return sum;
    },
    logLikelihoodPoints(y, f, out) {
      assertLengths(name, "logLikelihoodPoints", { y, f, out });
      for (let i = 0; i < f.length; i++) out[i] = logPoint(y[i], f[i]);
      return out;
    },
  };
}

/**
 * A likelihood's `derivatives` from a rule for one point, which fills entry i of d1, d2 (and d3
 * when given) and returns log p(y_i | f_i).
 */
export function pointwiseDerivatives(
  name: string,
  point: (y: number, f: number, i: number, d1: Float64Array, d2: Float64Array, d3: Float64Array | undefined) => number,
): Likelihood["derivatives"] {
  return (y, f, d1, d2, d3) => {
    assertLengths(name, "derivatives", { y, f, d1, d2, d3 });
    let sum = 0;
    for (let i = 0; i < f.length; i++) sum += point(y[i], f[i], i, d1, d2, d3);
    return sum;
  };
}
