/**
 * The checks every sampler's `init` makes on its starting point, worded alike: x0 must have the
 * target's dimension, and the log density there must be finite (a chain cannot start where the
 * target has no mass, or where its density broke down numerically).
 */

/** A copy of x0; a RangeError naming the sampler unless it has the target's dimension. */
export function initialPosition(sampler: string, x0: Float64Array, dim: number): Float64Array {
  if (x0.length !== dim) throw new RangeError(`${sampler}: initial point has length ${x0.length}, the target dimension is ${dim}`);
  return Float64Array.from(x0);
}

/** The log density at the initial point, passed through; a RangeError naming the sampler unless it is finite. */
export function finiteInitialLogDensity(sampler: string, logDensity: number): number {
  if (!Number.isFinite(logDensity)) throw new RangeError(`${sampler}: the log density at the initial point is ${logDensity}`);
  return logDensity;
}
