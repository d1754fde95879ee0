import type { Likelihood } from "./types.js";

/** A likelihood that also reports log p(y_i | f_i) point by point (for WAIC, LOO, per-point diagnostics). */
export interface PointwiseLikelihood extends Likelihood {
  /** Writes log p(y_i | f_i) into out[i] and returns out. */
  logLikelihoodPoints(y: Float64Array, f: Float64Array, out: Float64Array): Float64Array;
}
