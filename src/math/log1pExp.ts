/** log(1 + exp(x)) without overflow or loss of precision (Maechler's cut-offs). */
export function log1pExp(x: number): number {
  if (x <= -37) return Math.exp(x);
  if (x <= 18) return Math.log1p(Math.exp(x));
  if (x <= 33.3) return x + Math.exp(-x);
  return x;
}

/** The logistic function 1 / (1 + exp(-x)), stable for large |x|. */
export function logistic(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

/** log(sum_i exp(a_i)) without overflow; NaN if any a_i is NaN, -Infinity for no terms. */
export function logSumExp(a: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (Number.isNaN(v)) return NaN; // (NaN > m is false: without this check it was skipped)
    if (v > m) m = v;
  }
  if (!Number.isFinite(m)) return m; // -Infinity: all terms are; Infinity: so is the sum
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.exp(a[i] - m);
  return m + Math.log(s);
}
