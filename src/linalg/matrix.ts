import { DimensionError, NonFiniteError } from "./errors.js";

/** A dense column-major matrix of float64: entry (i, j) is data[i + j * rows]. */
export class Matrix {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;

  constructor(rows: number, cols: number, data?: Float64Array) {
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
      throw new DimensionError(`matrix shape must be non-negative integers, got ${rows} x ${cols}`);
    }
    if (data && data.length !== rows * cols) {
      throw new DimensionError(`matrix data has ${data.length} entries, expected ${rows} x ${cols} = ${rows * cols}`);
    }
    this.rows = rows;
    this.cols = cols;
    this.data = data ?? new Float64Array(rows * cols);
  }

  get(i: number, j: number): number {
    return this.data[i + j * this.rows];
  }

  set(i: number, j: number, v: number): void {
    this.data[i + j * this.rows] = v;
  }

  clone(): Matrix {
    return new Matrix(this.rows, this.cols, this.data.slice());
  }

  /** Column j as a view (no copy). */
  column(j: number): Float64Array {
    return this.data.subarray(j * this.rows, (j + 1) * this.rows);
  }

  static identity(n: number): Matrix {
    const m = new Matrix(n, n);
    for (let i = 0; i < n; i++) m.data[i + i * n] = 1;
    return m;
  }

  /** Builds a matrix from an array of rows. */
  static fromRows(rows: ArrayLike<number>[]): Matrix {
    const r = rows.length;
    const c = r === 0 ? 0 : rows[0].length;
    const m = new Matrix(r, c);
    for (let i = 0; i < r; i++) {
      if (rows[i].length !== c) throw new DimensionError(`row ${i} has ${rows[i].length} entries, expected ${c}`);
      for (let j = 0; j < c; j++) m.data[i + j * r] = rows[i][j];
    }
    return m;
  }

  static diagonal(d: ArrayLike<number>): Matrix {
    const n = d.length;
    const m = new Matrix(n, n);
    for (let i = 0; i < n; i++) m.data[i + i * n] = d[i];
    return m;
  }

  toRows(): number[][] {
    const out: number[][] = [];
    for (let i = 0; i < this.rows; i++) {
      const row: number[] = [];
      for (let j = 0; j < this.cols; j++) row.push(this.get(i, j));
      out.push(row);
    }
    return out;
  }
}

export function assertSquare(a: Matrix, what: string): void {
  if (a.rows !== a.cols) throw new DimensionError(`${what} must be square, got ${a.rows} x ${a.cols}`);
}

export function assertFinite(a: Matrix, what: string): void {
  const d = a.data;
  for (let k = 0; k < d.length; k++) {
    if (!Number.isFinite(d[k])) throw new NonFiniteError(what, k % a.rows, Math.floor(k / a.rows), d[k]);
  }
}

export function assertLength(v: ArrayLike<number>, n: number, what: string): void {
  if (v.length !== n) throw new DimensionError(`${what} has length ${v.length}, expected ${n}`);
}

/** A Matrix's fields as plain data: what survives structured cloning to a worker thread (a Matrix does not). */
export interface PlainMatrix {
  rows: number;
  cols: number;
  data: Float64Array;
}

/** The plain-data form of `m` (shares its data). */
export function toPlainMatrix(m: Matrix): PlainMatrix {
  return { rows: m.rows, cols: m.cols, data: m.data };
}

/** A Matrix over the data of a plain-data one (no copy). */
export function fromPlainMatrix(p: PlainMatrix): Matrix {
  return new Matrix(p.rows, p.cols, p.data);
}
