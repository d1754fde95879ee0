/** An option of a target that is out of range or inconsistent (beta outside [0, 1], a negative site precision, ...). */
export class TargetOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetOptionError";
  }
}

/**
 * The metric G = Lambda(x) + beta K^-1 + (1 - beta) Sigma^-1 needs -beta d2 log p(y_n | x_n)
 * + (1 - beta) / Sigma-tilde_nn >= 0 for every n (true for log-concave likelihoods such as
 * probit); this is raised, naming n (0-based), when it fails.
 */
export class IndefiniteMetricError extends Error {
  readonly index: number;
  readonly value: number;
  constructor(index: number, value: number) {
    super(`metric diagonal term ${index + 1} is ${value} < 0: the likelihood is not log-concave at this point ` +
      "(the Hessian metric of the note, eq. 16, needs -d2 log p(y|f) >= 0)");
    this.name = "IndefiniteMetricError";
    this.index = index;
    this.value = value;
  }
}

/**
 * A geometry or inverse-metric object used after its workspace was recycled: an object from
 * `inverseMetricAt` lives until the next `inverseMetricAt` call on the same target, a geometry
 * until its `release()`.
 */
export class StaleGeometryError extends Error {
  constructor(what: string) {
    super(`${what} was used after its workspace was recycled (inverseMetricAt objects live until the next ` +
      "inverseMetricAt call on the same target; geometries until release())");
    this.name = "StaleGeometryError";
  }
}
