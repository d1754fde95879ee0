/**
 * The design matrix of a regression: an intercept column, the input columns in file order, then
 * (for a polynomial degree p > 1) the powers x_j^2, ..., x_j^p of each input, power by power
 * (Girolami & Calderhead 2011, Section 7.1: the cubic model of Ripley's data has the 7
 * coefficients 1, x1, x2, x1^2, x2^2, x1^3, x2^3). Also finds the columns that make the
 * coefficients unidentified by the likelihood alone: constant columns beside the intercept and
 * exact duplicates of an earlier column (the prior keeps the posterior proper; the caller warns).
 */
import { Matrix } from "../linalg/matrix.js";

/** The largest polynomial degree accepted (powers above it overflow or swamp the others). */
export const MAX_POLYNOMIAL_DEGREE = 10;

export interface RegressionDesign {
  /** N x D: intercept, inputs, powers. */
  readonly matrix: Matrix;
  /** What each column is: "(intercept)", an input's name, or "name^p". */
  readonly terms: string[];
  /** One line for each column that is constant or duplicates an earlier one (1-based column numbers of the design). */
  readonly warnings: string[];
}

export function regressionDesign(inputs: Matrix, names: readonly string[], polynomialDegree = 1): RegressionDesign {
  if (!Number.isInteger(polynomialDegree) || polynomialDegree < 1 || polynomialDegree > MAX_POLYNOMIAL_DEGREE) {
    throw new RangeError(`polynomial degree must be a whole number from 1 to ${MAX_POLYNOMIAL_DEGREE}, got ${polynomialDegree}`);
  }
  const n = inputs.rows;
  const d = inputs.cols;
  const cols = 1 + d * polynomialDegree;
  const matrix = new Matrix(n, cols);
  const terms = ["(intercept)"];
  matrix.column(0).fill(1);
  let c = 1;
  for (let p = 1; p <= polynomialDegree; p++) {
    for (let j = 0; j < d; j++, c++) {
      const src = inputs.column(j);
      const dst = matrix.column(c);
      for (let i = 0; i < n; i++) dst[i] = src[i] ** p;
      terms.push(p === 1 ? names[j] : `${names[j]}^${p}`);
    }
  }
  const warnings: string[] = [];
  for (let k = 1; k < cols; k++) {
    const col = matrix.column(k);
    if (col.every((v) => v === col[0])) {
      warnings.push(`column ${k + 1} of the design (${terms[k]}) is constant: its coefficient is confounded with the intercept`);
      continue;
    }
    for (let e = 1; e < k; e++) {
      const other = matrix.column(e);
      if (col.every((v, i) => v === other[i])) {
        warnings.push(`column ${k + 1} of the design (${terms[k]}) duplicates column ${e + 1} (${terms[e]}): only their sum is identified`);
        break;
      }
    }
  }
  return { matrix, terms, warnings };
}
