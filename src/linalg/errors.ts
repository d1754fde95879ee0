/** An error whose `name` is its class's name, so that messages and logs say which kind it is. */
class LinalgError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Raised when a Cholesky factorisation meets a non-positive pivot. */
export class NotPositiveDefiniteError extends LinalgError {
  constructor(
    /** 0-based index of the failing pivot. */
    readonly pivotIndex: number,
    /** The value the pivot had when it failed (<= 0, or NaN or Inf when the input held one). */
    readonly pivotValue: number,
    what = "matrix",
  ) {
    super(`${what} is not positive definite: pivot ${pivotIndex} (0-based) is ${pivotValue}`);
  }
}

/** Raised when operand shapes do not fit together. */
export class DimensionError extends LinalgError {}

/** Raised when an input holds NaN or an infinite value; row and col are 0-based, of the first such entry. */
export class NonFiniteError extends LinalgError {
  constructor(what: string, readonly row: number, readonly col: number, value: number) {
    super(`${what} has a non-finite entry ${value} at row ${row}, column ${col} (0-based)`);
  }
}

/**
 * Raised when the linear-algebra backend asked for cannot be used: GPMCMC_BACKEND holds
 * something other than "js" or "native", or names native when the addon is not available.
 */
export class BackendError extends LinalgError {}
