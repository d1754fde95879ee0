/**
 * Counts on a square grid, the data of the log-Gaussian Cox process (models/coxProcess/): a CSV
 * file with the columns `row`, `column` (1-based cell indices), `y` (the count in that cell) and
 * optionally `field` (the latent field that generated it, as `gpmcmc simulate --model lgcp`
 * writes it; ignored when sampling). Every cell of an n x n grid must appear exactly once; cell
 * (row i, column j) is stored at index (i - 1) + n (j - 1).
 */
import { readDataset } from "./dataset.js";
import { DataError } from "./errors.js";

export interface CountGrid {
  readonly side: number;
  readonly counts: Float64Array;
  /** The `field` column when present. */
  readonly field?: Float64Array;
  readonly path: string;
}

export function readCountGrid(path: string): CountGrid {
  // the columns first: a file of another layout (a GP data set) is refused for them, not for its labels
  const checkColumns = (inputNames: string[], line: number) => {
    if (!inputNames.includes("row") || !inputNames.includes("column")) {
      throw new DataError({ file: path, line }, `a count grid needs the columns row, column and y (found ${["y", ...inputNames].join(", ")})`);
    }
    for (const name of inputNames) {
      if (!["row", "column", "field"].includes(name)) throw new DataError({ file: path, line, columnName: name }, `unknown column ${JSON.stringify(name)} in a count grid (row, column, y, field)`);
    }
  };
  const data = readDataset(path, { labels: "count", checkColumns });
  const col = (name: string) => data.inputNames.indexOf(name);
  const rowCol = col("row");
  const columnCol = col("column");
  const fieldCol = col("field");
  const side = Math.round(Math.sqrt(data.n));
  if (side * side !== data.n) throw new DataError({ file: path }, `${data.n} cells do not make a square grid (n x n cells, each once)`);
  const counts = new Float64Array(data.n);
  const field = fieldCol >= 0 ? new Float64Array(data.n) : undefined;
  const seen = new Uint8Array(data.n);
  const x = data.X;
  for (let r = 0; r < data.n; r++) {
    const line = r + 2;
    const i = x.get(r, rowCol);
    const j = x.get(r, columnCol);
    for (const [v, name] of [[i, "row"], [j, "column"]] as const) {
      if (!Number.isInteger(v) || v < 1 || v > side) throw new DataError({ file: path, line, columnName: name }, `${name} must be a whole number from 1 to ${side} (the grid is ${side} x ${side}), got ${v}`);
    }
    const k = i - 1 + side * (j - 1);
    if (seen[k]) throw new DataError({ file: path, line, columnName: "row" }, `cell (row ${i}, column ${j}) appears twice`);
    seen[k] = 1;
    counts[k] = data.y[r];
    if (field) field[k] = x.get(r, fieldCol);
  }
  return { side, counts, field, path };
}

/** The CSV text of a grid: row, column, y[, field], row by row. Numbers are written so that they read back exactly. */
export function countGridCsv(side: number, counts: ArrayLike<number>, field?: ArrayLike<number>): string {
  const lines = [field ? "row,column,y,field" : "row,column,y"];
  for (let i = 0; i < side; i++) {
    for (let j = 0; j < side; j++) {
      const k = i + side * j;
      lines.push(field ? `${i + 1},${j + 1},${counts[k]},${field[k]}` : `${i + 1},${j + 1},${counts[k]}`);
    }
  }
  return lines.join("\n") + "\n";
}
