/**
 * Counters of the O(n^3) operations the high-level linear-algebra functions perform, so that
 * the operation counts the papers tabulate (Table 1 of the comparison paper) can be checked
 * against what the code really does. Flops follow the usual leading-order counts.
 */
export interface OpCounts {
  cholesky: number;
  triangularSolveMatrix: number;
  symmetricProduct: number;
  matrixProduct: number;
  flops: number;
}

export const opCounts: OpCounts = { cholesky: 0, triangularSolveMatrix: 0, symmetricProduct: 0, matrixProduct: 0, flops: 0 };

export function resetOpCounts(): void {
  opCounts.cholesky = 0;
  opCounts.triangularSolveMatrix = 0;
  opCounts.symmetricProduct = 0;
  opCounts.matrixProduct = 0;
  opCounts.flops = 0;
}

export function snapshotOpCounts(): OpCounts {
  return { ...opCounts };
}

/** The operations between two snapshots: a - b. */
export function opCountsSince(a: OpCounts, b: OpCounts): OpCounts {
  return { cholesky: a.cholesky - b.cholesky, triangularSolveMatrix: a.triangularSolveMatrix - b.triangularSolveMatrix, symmetricProduct: a.symmetricProduct - b.symmetricProduct, matrixProduct: a.matrixProduct - b.matrixProduct, flops: a.flops - b.flops };
}
