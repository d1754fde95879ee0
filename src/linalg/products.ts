import { backendFor } from "./cholesky.js";
import { opCounts } from "./counters.js";
import { DimensionError } from "./errors.js";
import { assertLength, assertSquare, Matrix } from "./matrix.js";

/** op(A) op(B) as a new matrix. */
export function matmul(a: Matrix, b: Matrix, transA = false, transB = false): Matrix {
  const m = transA ? a.cols : a.rows;
  const k = transA ? a.rows : a.cols;
  const kb = transB ? b.cols : b.rows;
  const n = transB ? b.rows : b.cols;
  if (k !== kb) throw new DimensionError(`matmul: inner dimensions differ (${k} vs ${kb})`);
  const c = new Matrix(m, n);
  opCounts.matrixProduct++;
  opCounts.flops += 2 * m * n * k;
  backendFor(Math.max(m, n, k)).gemm(transA ? "T" : "N", transB ? "T" : "N", m, n, k, 1, a.data, a.rows, b.data, b.rows, 0, c.data, m);
  return c;
}

/** op(A) x as a new vector. */
export function matvec(a: Matrix, x: ArrayLike<number>, transA = false): Float64Array {
  const m = transA ? a.cols : a.rows;
  const n = transA ? a.rows : a.cols;
  assertLength(x, n, "matvec: vector");
  const y = new Float64Array(m);
  const xv = x instanceof Float64Array ? x : Float64Array.from(x);
  backendFor(Math.max(m, n)).gemv(transA ? "T" : "N", a.rows, a.cols, 1, a.data, a.rows, xv, 0, y);
  return y;
}

/** y <- A x for symmetric A (lower triangle read) into a caller's buffer. */
export function symmetricMatvecInto(a: Matrix, x: Float64Array, y: Float64Array): Float64Array {
  assertSquare(a, "symmetric matrix");
  assertLength(x, a.rows, "symmetricMatvecInto: x");
  assertLength(y, a.rows, "symmetricMatvecInto: y");
  backendFor(a.rows).symv("L", a.rows, 1, a.data, a.rows, x, 0, y);
  return y;
}

function assertShape(m: Matrix, rows: number, cols: number, what: string): void {
  if (m.rows !== rows || m.cols !== cols) throw new DimensionError(`${what} is ${m.rows} x ${m.cols}, expected ${rows} x ${cols}`);
}

function symmetrise(c: Matrix): Matrix {
  const n = c.rows;
  const d = c.data;
  for (let j = 0; j < n; j++) for (let i = j + 1; i < n; i++) d[j + i * n] = d[i + j * n];
  return c;
}

/** A'A (both triangles filled). */
export function crossprod(a: Matrix): Matrix {
  return symmetricProduct(a, "T");
}

/** A A' (both triangles filled). */
export function tcrossprod(a: Matrix): Matrix {
  return symmetricProduct(a, "N");
}

/** op(A) op(A)' with op(A) = A' (trans T) or A (trans N), by syrk on the lower triangle, then mirrored. */
function symmetricProduct(a: Matrix, trans: "N" | "T"): Matrix {
  const n = trans === "T" ? a.cols : a.rows;
  const k = trans === "T" ? a.rows : a.cols;
  const c = new Matrix(n, n);
  opCounts.symmetricProduct++;
  opCounts.flops += n * n * k;
  backendFor(Math.max(n, k)).syrk("L", trans, n, k, 1, a.data, a.rows, 0, c.data, n);
  return symmetrise(c);
}

/** The Hadamard form K o (s s'): entry (i, j) is K_ij s_i s_j. Writes into `out` (may be K). */
export function hadamardOuter(k: Matrix, s: ArrayLike<number>, out: Matrix = new Matrix(k.rows, k.cols)): Matrix {
  assertSquare(k, "K");
  assertLength(s, k.rows, "s");
  assertShape(out, k.rows, k.cols, "hadamardOuter: out");
  const n = k.rows;
  const a = k.data;
  const o = out.data;
  for (let j = 0; j < n; j++) {
    const sj = s[j];
    const cj = j * n;
    for (let i = 0; i < n; i++) o[i + cj] = a[i + cj] * s[i] * sj;
  }
  return out;
}

/** The row scaling written K * s in the note (Algorithm 3): row i of K times s_i, i.e. diag(s) K. */
export function scaleRows(k: Matrix, s: ArrayLike<number>, out: Matrix = new Matrix(k.rows, k.cols)): Matrix {
  assertLength(s, k.rows, "s");
  assertShape(out, k.rows, k.cols, "scaleRows: out");
  const m = k.rows;
  const a = k.data;
  const o = out.data;
  for (let j = 0; j < k.cols; j++) {
    const cj = j * m;
    for (let i = 0; i < m; i++) o[i + cj] = a[i + cj] * s[i];
  }
  return out;
}
