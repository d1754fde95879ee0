/**
 * Plain dense linear algebra for the tests, independent of src/linalg: Gaussian elimination
 * with partial pivoting on number[][] for inverses and log-determinants.
 */
export type Dense = number[][];

export function zeros(n: number, m = n): Dense {
  return Array.from({ length: n }, () => new Array<number>(m).fill(0));
}

export function luInverseAndLogDet(a: Dense): { inverse: Dense; logAbsDet: number; sign: number } {
  const n = a.length;
  const m = a.map((r) => r.slice());
  const inv = zeros(n);
  for (let i = 0; i < n; i++) inv[i][i] = 1;
  let logAbsDet = 0;
  let sign = 1;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    if (p !== c) {
      [m[p], m[c]] = [m[c], m[p]];
      [inv[p], inv[c]] = [inv[c], inv[p]];
      sign = -sign;
    }
    const piv = m[c][c];
    logAbsDet += Math.log(Math.abs(piv));
    if (piv < 0) sign = -sign;
    for (let j = 0; j < n; j++) {
      m[c][j] /= piv;
      inv[c][j] /= piv;
    }
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c];
      if (f === 0) continue;
      for (let j = 0; j < n; j++) {
        m[r][j] -= f * m[c][j];
        inv[r][j] -= f * inv[c][j];
      }
    }
  }
  return { inverse: inv, logAbsDet, sign };
}

export function matVec(a: Dense, v: ArrayLike<number>): number[] {
  return a.map((row) => row.reduce((s, x, j) => s + x * v[j], 0));
}

export function add(a: Dense, b: Dense, alpha = 1, beta = 1): Dense {
  return a.map((row, i) => row.map((x, j) => alpha * x + beta * b[i][j]));
}

/** log N(x; mu, C) from a dense covariance. */
export function gaussianLogDensity(x: ArrayLike<number>, mu: ArrayLike<number>, c: Dense): number {
  const n = c.length;
  const { inverse, logAbsDet } = luInverseAndLogDet(c);
  const r = Array.from({ length: n }, (_, i) => x[i] - mu[i]);
  const q = matVec(inverse, r).reduce((s, v, i) => s + v * r[i], 0);
  return -0.5 * n * Math.log(2 * Math.PI) - 0.5 * logAbsDet - 0.5 * q;
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}
