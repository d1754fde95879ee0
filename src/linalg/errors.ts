/** Raised when a Cholesky factorisation meets a non-positive pivot. */
export class NotPositiveDefiniteError extends Error {
  /** 0-based index of the failing pivot. */
  readonly pivotIndex: number;
  /** The value the pivot had when it failed (<= 0, or NaN or Inf when the input held one). */
  readonly pivotValue: number;
  constructor(pivotIndex: number, pivotValue: number, what = "matrix") {
    super(`${what} is not positive definite: pivot ${pivotIndex} (0-based) is ${pivotValue}`);
    this.name = "NotPositiveDefiniteError";
    this.pivotIndex = pivotIndex;
    this.pivotValue = pivotValue;
  }
}

/** Raised when operand shapes do not fit together. */
export class DimensionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DimensionError";
  }
}

/** Raised when an input holds NaN or an infinite value. */
export class NonFiniteError extends Error {
  /** 0-based (row, column) of the first non-finite entry. */
  readonly row: number;
  readonly col: number;
  constructor(what: string, row: number, col: number, value: number) {
    super(`${what} has a non-finite entry ${value} at row ${row}, column ${col} (0-based)`);
    this.name = "NonFiniteError";
    this.row = row;
    this.col = col;
  }
}

/**
 * Raised when the linear-algebra backend asked for cannot be used: GPMCMC_BACKEND holds
 * something other than "js" or "native", or names native when the addon is not available.
 */
export class BackendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackendError";
  }
}
