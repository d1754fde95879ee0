/**
 * Squared Euclidean distances between the rows of input matrices, summed once and kept while
 * the matrices live (a WeakMap on the Matrix objects): with one lengthscale shared by every
 * input column, the squared-exponential kernel at any (l, s) is a function of them
 * (./squaredExponential.ts, `cachedDistances`). Summed directly over the columns, not as
 * |a|^2 + |b|^2 - 2 a'b, which would cancel for nearby points.
 */
import { Matrix } from "../linalg/matrix.js";

const within = new WeakMap<Matrix, Float64Array>();
const between = new WeakMap<Matrix, WeakMap<Matrix, Float64Array>>();

/** Rows of x, row-major (row i at [i d, (i + 1) d)). */
function rowMajor(x: Matrix): Float64Array {
  const n = x.rows, d = x.cols;
  const r = new Float64Array(n * d);
  for (let k = 0; k < d; k++) for (let i = 0; i < n; i++) r[i * d + k] = x.data[i + k * n]!;
  return r;
}

function rowDistance(a: Float64Array, i: number, b: Float64Array, j: number, d: number): number {
  let s = 0;
  for (let k = 0; k < d; k++) {
    const t = a[i * d + k]! - b[j * d + k]!;
    s += t * t;
  }
  return s;
}

/** |x_i - x_j|^2, n x n column-major (symmetric, 0 on the diagonal). */
export function squaredDistances(x: Matrix): Float64Array {
  let D = within.get(x);
  if (!D) {
    const n = x.rows, d = x.cols;
    const r = rowMajor(x);
    D = new Float64Array(n * n);
    for (let j = 0; j < n; j++) for (let i = j + 1; i < n; i++) {
      const v = rowDistance(r, i, r, j, d);
      D[i + j * n] = v;
      D[j + i * n] = v;
    }
    within.set(x, D);
  }
  return D;
}

/** |x_i - xStar_j|^2, n x m column-major. */
export function crossSquaredDistances(x: Matrix, xStar: Matrix): Float64Array {
  let byStar = between.get(x);
  if (!byStar) between.set(x, (byStar = new WeakMap()));
  let D = byStar.get(xStar);
  if (!D) {
    const n = x.rows, m = xStar.rows, d = x.cols;
    const a = rowMajor(x), b = rowMajor(xStar);
    D = new Float64Array(n * m);
    for (let j = 0; j < m; j++) for (let i = 0; i < n; i++) D[i + j * n] = rowDistance(a, i, b, j, d);
    byStar.set(xStar, D);
  }
  return D;
}
